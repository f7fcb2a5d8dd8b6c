// The SCC's libraries as collective algorithms (workload.algorithm = rcce, rckmpi) as a user
// runs them: every collective with checked data on scc's 48 cores and on small grids, each
// library's costs under core.software_model = auto, the message counts of their structures
// worked out by hand, and RCKMPI's choice between MPICH2's algorithms by size and rank count
// (collective.variant). Bad input: bad_input.table.
#include <catch2/catch.hpp>

#include <string>

#include <nlohmann/json.hpp>

#include "cli_support.hpp"

using collnoc::test::run_json;

namespace {

// `collective` `algorithm` on scc over msg.protocol = mpb at nominal costs; `more`: other --set.
nlohmann::json run_library(const std::string& collective, const std::string& algorithm,
                           const std::string& more, const std::string& name) {
  const auto j = run_json("--set platform=scc --set workload.kind=collective --set msg.protocol=mpb "
                          "--set core.software.jitter_percent=0 --set workload.collective=" +
                              collective + " --set workload.algorithm=" + algorithm + " " + more,
                          name);
  INFO(collective << " " << algorithm << " " << more);
  CHECK(j["collective"]["data_verified"] == true);
  CHECK(j["collective"]["messages_checked"].get<int>() > 0);
  CHECK(j["msg"]["protocol"] == "mpb");
  return j;
}

}  // namespace

TEST_CASE("cli: rcce and rckmpi run every collective with checked data on 48 cores and 3x2",
          "[cli][scc_libraries]") {
  for (const std::string library : {"rcce", "rckmpi"})
    for (const std::string collective :
         {"alltoall", "alltoallv", "barrier", "broadcast", "reduce", "allreduce"})
      for (const std::string grid : {"", "3x2"}) {
        const unsigned ranks = grid.empty() ? 48 : 12;
        const auto j = run_library(collective, library,
                                   "--set workload.root=" + std::to_string(ranks - 3) +
                                       (grid.empty() ? "" : " --set workload.grid=" + grid),
                                   "lib");
        INFO(library << " " << collective << " " << grid);
        CHECK(j["collective"]["algorithm"] == library);
        CHECK(j["collective"]["per_core_cycles"].size() == ranks);
        // auto charges each library its own preset
        CHECK(j["software"]["model"] == library);
        CHECK(j["collective"].contains("variant") == (library == "rckmpi"));
      }
}

// Every message of 128 bytes is one chunk put (msg.data_chunks): the structures by hand.
TEST_CASE("cli: the libraries' message counts on 48 cores are their structures'",
          "[cli][scc_libraries]") {
  const auto chunks = [](const std::string& collective, const std::string& algorithm,
                         const std::string& more = "") {
    return run_library(collective, algorithm, more, "count")["msg"]["data_chunks"].get<int>();
  };
  // RCCE: linear through one rank; the alltoall every ordered pair once.
  CHECK(chunks("broadcast", "rcce", "--set workload.root=5") == 47);
  CHECK(chunks("reduce", "rcce") == 47);
  CHECK(chunks("allreduce", "rcce") == 2 * 47);
  CHECK(chunks("barrier", "rcce") == 2 * 47);
  CHECK(chunks("alltoall", "rcce") == 48 * 47);
  CHECK(chunks("alltoallv", "rcce") == 48 * 47);  // (1 .. 256 bytes a pair)
  // RCKMPI: dissemination and Bruck take ceil(log2 48) = 6 steps of one message per rank.
  CHECK(chunks("barrier", "rckmpi") == 48 * 6);
  CHECK(chunks("alltoall", "rckmpi") == 48 * 6);
  // Rabenseifner, p' = 32, rem = 16: 16 hand-overs, 32 x 5 halvings, 32 x 5 doublings, 16 back.
  CHECK(chunks("allreduce", "rckmpi", "--set workload.message_bytes=4096") == 16 + 2 * 32 * 5 + 16);
  // Reduce to root 12, which leaves (even, below 2 x rem): the gather's 31 messages to its
  // partner 13, which hands the result over.
  CHECK(chunks("reduce", "rckmpi", "--set workload.message_bytes=4096 --set workload.root=12") ==
        16 + 32 * 5 + 31 + 1);
  // Scatter (47 non-empty pieces of 86 words, the last 54) and ring allgather (48 x 47).
  CHECK(chunks("broadcast", "rckmpi", "--set workload.message_bytes=16384 --set workload.root=7") ==
        47 + 48 * 47);
}

TEST_CASE("cli: rckmpi picks MPICH2's algorithm by message size and rank count",
          "[cli][scc_libraries]") {
  struct Pick {
    const char* collective;
    const char* more;
    const char* variant;
  };
  // 48 ranks (not a power of two), 8 (2x2), 12 (3x2), 4 (2x1)
  const Pick picks[] = {
      {"barrier", "", "dissemination"},
      {"broadcast", "--set workload.message_bytes=12284", "binomial"},
      {"broadcast", "--set workload.message_bytes=12288", "scatter_ring_allgather"},
      {"broadcast", "--set workload.message_bytes=12288 --set workload.grid=2x2",
       "scatter_doubling_allgather"},
      {"broadcast", "--set workload.message_bytes=16384 --set workload.grid=3x2",
       "scatter_ring_allgather"},
      {"broadcast", "--set workload.message_bytes=16384 --set workload.grid=2x1", "binomial"},
      {"reduce", "--set workload.message_bytes=2048", "binomial"},
      {"reduce", "--set workload.message_bytes=2052 --set workload.root=13", "rabenseifner"},
      {"reduce", "--set workload.message_bytes=4096 --set workload.grid=2x2 --set workload.root=3",
       "rabenseifner"},
      {"allreduce", "--set workload.message_bytes=2048", "recursive_doubling"},
      {"allreduce", "--set workload.message_bytes=2056", "rabenseifner"},
      {"allreduce",
       "--set workload.message_bytes=4096 --set workload.grid=3x2 --set workload.element_type=double",
       "rabenseifner"},
      {"allreduce",
       "--set workload.message_bytes=4096 --set workload.grid=2x2 --set workload.reduce_op=max",
       "rabenseifner"},
      {"alltoall", "--set workload.message_bytes=256", "bruck"},
      {"alltoall", "--set workload.message_bytes=260", "burst"},
      {"alltoall", "--set workload.message_bytes=256 --set workload.grid=2x1", "burst"},
      {"alltoall", "--set workload.message_bytes=32772 --set workload.grid=2x2", "pairwise"},
      {"alltoallv", "--set workload.message_bytes=128", "burst"},
      {"alltoall", "--set workload.message_bytes=32772 --set workload.grid=3x2 --set sim.max_cycles=10000000",
       "pairwise"},
  };
  for (const Pick& p : picks) {
    const auto j = run_library(p.collective, "rckmpi", p.more, "pick");
    INFO(p.collective << " " << p.more);
    CHECK(j["collective"]["variant"] == p.variant);
  }
}
