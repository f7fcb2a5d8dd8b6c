#include "noc/routing/table.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "noc/input_file.hpp"

namespace collnoc {

namespace {

// A cycle of a directed graph over 0..n-1 (`next(c, visit)` calls visit(n) for each successor),
// as the nodes along it with the first repeated at the end; empty if acyclic. Iterative DFS.
template <typename Next>
std::vector<std::uint32_t> find_cycle(std::size_t n, const Next& next) {
  std::vector<char> state(n, 0);  // 0 new, 1 on the path, 2 done
  std::vector<std::pair<std::uint32_t, std::vector<std::uint32_t>>> stack;  // node, successors left
  const auto push = [&](std::uint32_t c) {
    state[c] = 1;
    std::vector<std::uint32_t> succ;
    next(c, [&](std::uint32_t s) { succ.push_back(s); });
    std::reverse(succ.begin(), succ.end());
    stack.push_back({c, std::move(succ)});
  };
  for (std::uint32_t start = 0; start < n; ++start) {
    if (state[start]) continue;
    push(start);
    while (!stack.empty()) {
      auto& [c, succ] = stack.back();
      if (succ.empty()) {
        state[c] = 2;
        stack.pop_back();
        continue;
      }
      const std::uint32_t s = succ.back();
      succ.pop_back();
      if (state[s] == 1) {
        std::vector<std::uint32_t> cycle;
        std::size_t from = 0;
        while (stack[from].first != s) ++from;
        for (std::size_t i = from; i < stack.size(); ++i) cycle.push_back(stack[i].first);
        cycle.push_back(s);
        return cycle;
      }
      if (state[s] == 0) push(s);
    }
  }
  return {};
}

// A set of channels (or routers) as bits.
class BitSet {
 public:
  explicit BitSet(std::size_t n = 0) : w_((n + 63) / 64, 0) {}
  void set(std::size_t i) { w_[i / 64] |= std::uint64_t{1} << (i % 64); }
  BitSet& operator|=(const BitSet& o) {
    for (std::size_t i = 0; i < w_.size(); ++i) w_[i] |= o.w_[i];
    return *this;
  }
  template <typename Visit>
  void for_each(const Visit& visit) const {
    for (std::size_t i = 0; i < w_.size(); ++i)
      for (std::uint64_t b = w_[i]; b; b &= b - 1)
        visit(static_cast<std::uint32_t>(i * 64 + static_cast<unsigned>(__builtin_ctzll(b))));
  }

 private:
  std::vector<std::uint64_t> w_;
};

constexpr std::uint8_t kNoEscape = 0xff;

}  // namespace

TableRouting::TableRouting(const Topology& topo, unsigned vcs_per_class, const std::string& path)
    : topo_(topo), vcs_(vcs_per_class) {
  const auto fail = [&](const std::string& why) { throw ParamError("routing.table", path, why); };
  if (path.empty()) fail("routing.algorithm = table needs routing.table = PATH, the table's file");
  if (const auto problem = input_file_problem(path)) fail(*problem);
  std::ifstream in(path);
  if (!in) fail("cannot read it");
  load(in, path);
}

TableRouting::TableRouting(const Topology& topo, unsigned vcs_per_class, std::istream& in,
                           const std::string& path)
    : topo_(topo), vcs_(vcs_per_class) {
  load(in, path);
}

void TableRouting::load(std::istream& in, const std::string& path) {
  const auto fail = [&](const std::string& why) { throw ParamError("routing.table", path, why); };
  const Topology& topo = topo_;
  const unsigned vcs_per_class = vcs_;
  const RouterId routers = topo.num_routers();
  const NodeId nodes = topo.num_endpoints();
  const unsigned net_ports = topo.network_ports();
  const auto at = [&](RouterId r, NodeId d) { return static_cast<std::size_t>(r) * nodes + d; };
  std::vector<std::vector<std::uint8_t>> entry(static_cast<std::size_t>(routers) * nodes);
  std::vector<std::uint8_t> escape(entry.size(), kNoEscape);
  std::vector<unsigned> line_of(entry.size(), 0);  // 0: no line
  unsigned escape_line = 0, plain_line = 0;        // the first line with and without `escape`
  const auto port_of = [&](const std::string& word, unsigned line) -> unsigned {
    for (unsigned p = 0; p < net_ports; ++p)
      if (word == topo.port_name(p) || word == std::to_string(p)) return p;
    fail("line " + std::to_string(line) + ": no network port '" + word + "' (0.." +
         std::to_string(net_ports - 1) + " or its name)");
    return 0;
  };
  std::string text;
  for (unsigned line = 1; std::getline(in, text); ++line) {
    const std::string where = "line " + std::to_string(line) + ": ";
    std::istringstream words(text.substr(0, text.find('#')));
    long long r = -1, d = -1;
    std::string word;
    if (!(words >> word)) continue;  // blank or comment
    try {
      std::size_t used = 0;
      r = std::stoll(word, &used);
      if (used != word.size()) r = -1;
      if (!(words >> word)) fail(where + "ROUTER DESTINATION PORT [PORT ...] expected");
      d = std::stoll(word, &used);
      if (used != word.size()) d = -1;
    } catch (const std::logic_error&) {
      fail(where + "ROUTER and DESTINATION are numbers");
    }
    if (r < 0 || r >= routers)
      fail(where + "router " + std::to_string(r) + " is not in 0.." + std::to_string(routers - 1));
    if (d < 0 || d >= nodes)
      fail(where + "destination " + std::to_string(d) + " is not in 0.." + std::to_string(nodes - 1));
    const auto router = static_cast<RouterId>(r);
    const auto dst = static_cast<NodeId>(d);
    if (topo.router_of(dst) == router)
      fail(where + "node " + std::to_string(d) + " is attached to router " + std::to_string(r) +
           ": it leaves by its local port, no line needed");
    const std::size_t i = at(router, dst);
    if (line_of[i]) fail(where + "a second line for router " + std::to_string(r) + ", destination " +
                         std::to_string(d));
    line_of[i] = line;
    const auto connected_port = [&](const std::string& w) {
      const unsigned p = port_of(w, line);
      if (!topo.peer(router, p).connected())
        fail(where + "port " + topo.port_name(p) + " of router " + std::to_string(r) +
             " is not connected");
      return static_cast<std::uint8_t>(p);
    };
    while (words >> word) {
      if (word == "escape") {
        if (!(words >> word)) fail(where + "escape PORT: the port is missing");
        escape[i] = connected_port(word);
        if (words >> word) fail(where + "escape PORT ends the line ('" + word + "' follows)");
        break;
      }
      entry[i].push_back(connected_port(word));
    }
    if (entry[i].empty() && escape[i] == kNoEscape) fail(where + "no port given");
    if (entry[i].size() + (escape[i] != kNoEscape) > RouteResult::kMax)
      fail(where + "more than " + std::to_string(RouteResult::kMax) + " ports");
    unsigned& first = escape[i] != kNoEscape ? escape_line : plain_line;
    if (!first) first = line;
    if (escape_line && plain_line)
      fail(where + "line " + std::to_string(escape_line) + " names an escape port and line " +
           std::to_string(plain_line) + " does not: with an escape sub-network every line needs "
           "one (escape PORT)");
  }
  for (RouterId r = 0; r < routers; ++r)
    for (NodeId d = 0; d < nodes; ++d)
      if (topo.router_of(d) != r && !line_of[at(r, d)])
        fail("no line for router " + std::to_string(r) + ", destination " + std::to_string(d) +
             " (every router needs one for every destination not attached to it)");
  const bool with_escape = escape_line != 0;
  if (with_escape && vcs_per_class < 2)
    fail("names an escape sub-network (line " + std::to_string(escape_line) +
         "): needs >= 2 VCs per class (VC 0 escape, the others adaptive); have " +
         std::to_string(vcs_per_class));

  // The ports a packet for d may take at r, escape included.
  const auto for_each_port = [&](RouterId r, NodeId d, const auto& visit) {
    for (std::uint8_t p : entry[at(r, d)]) visit(p);
    if (escape[at(r, d)] != kNoEscape) visit(escape[at(r, d)]);
  };
  // Loop-free: per destination, the routers a packet may go to next form an acyclic graph.
  for (NodeId d = 0; d < nodes; ++d) {
    const RouterId target = topo.router_of(d);
    const auto loop = find_cycle(routers, [&](std::uint32_t r, const auto& visit) {
      if (r == target) return;
      for_each_port(r, d, [&](unsigned p) { visit(topo.peer(r, p).router); });
    });
    if (loop.empty()) continue;
    std::string path;
    for (std::uint32_t r : loop) path += (path.empty() ? "" : " -> ") + std::to_string(r);
    fail("packets for destination " + std::to_string(d) + " can go round in a loop: router " +
         path + " (see line " + std::to_string(line_of[at(loop[0], d)]) + ")");
  }

  // Channel dependency graphs over the network output ports (r, p): (r, p) -> (q, p') when a
  // packet for some destination leaving r by p reaches q and may wait there for p'.
  const std::size_t channels = static_cast<std::size_t>(routers) * net_ports;
  const auto channel = [&](RouterId r, unsigned p) {
    return static_cast<std::uint32_t>(static_cast<std::size_t>(r) * net_ports + p);
  };
  const auto name = [&](std::uint32_t c) {
    return "router " + std::to_string(c / net_ports) + " port " + topo.port_name(c % net_ports);
  };
  const auto refuse_cycle = [&](const std::vector<std::uint32_t>& cycle, const std::string& what) {
    std::string names;
    for (std::uint32_t c : cycle) names += (names.empty() ? "" : " -> ") + name(c);
    fail(what + ", so it can deadlock: " + names);
  };
  std::vector<BitSet> depends(channels, BitSet(channels));
  if (!with_escape) {
    // Every port on every VC: the graph of all ports must be acyclic.
    for (NodeId d = 0; d < nodes; ++d)
      for (RouterId r = 0; r < routers; ++r) {
        if (topo.router_of(d) == r) continue;
        for (std::uint8_t p : entry[at(r, d)]) {
          const RouterId q = topo.peer(r, p).router;
          if (q == topo.router_of(d)) continue;
          for (std::uint8_t p2 : entry[at(q, d)]) depends[channel(r, p)].set(channel(q, p2));
        }
      }
    const auto cycle = find_cycle(channels, [&](std::uint32_t c, const auto& visit) {
      depends[c].for_each(visit);
    });
    if (!cycle.empty()) refuse_cycle(cycle, "its channel dependency graph has a cycle");
  } else {
    // Duato: the escape channels' direct dependencies first (the sub-network alone) ...
    for (NodeId d = 0; d < nodes; ++d)
      for (RouterId r = 0; r < routers; ++r) {
        if (topo.router_of(d) == r) continue;
        const RouterId q = topo.peer(r, escape[at(r, d)]).router;
        if (q != topo.router_of(d))
          depends[channel(r, escape[at(r, d)])].set(channel(q, escape[at(q, d)]));
      }
    const auto direct = find_cycle(channels, [&](std::uint32_t c, const auto& visit) {
      depends[c].for_each(visit);
    });
    if (!direct.empty())
      refuse_cycle(direct, "its escape sub-network's channel dependency graph has a cycle");
    // ... then the indirect ones: from an escape channel into q, through adaptive channels, to
    // the escape channel of any router reachable so. Per destination, reach[q] (the escape
    // channels of the routers reachable from q by adaptive hops, q's own included) follows the
    // routes' order, which is acyclic (checked above).
    for (NodeId d = 0; d < nodes; ++d) {
      const RouterId target = topo.router_of(d);
      std::vector<BitSet> reach(routers);
      std::vector<char> done(routers, 0);
      std::vector<std::pair<RouterId, bool>> todo;  // (router, successors pushed)
      for (RouterId start = 0; start < routers; ++start) {
        if (start == target || done[start]) continue;
        todo.push_back({start, false});
        while (!todo.empty()) {
          auto [r, expanded] = todo.back();
          if (done[r]) {
            todo.pop_back();
            continue;
          }
          if (!expanded) {
            todo.back().second = true;
            for (std::uint8_t p : entry[at(r, d)]) {
              const RouterId q = topo.peer(r, p).router;
              if (q != target && !done[q]) todo.push_back({q, false});
            }
            continue;
          }
          todo.pop_back();
          reach[r] = BitSet(channels);
          reach[r].set(channel(r, escape[at(r, d)]));
          for (std::uint8_t p : entry[at(r, d)]) {
            const RouterId q = topo.peer(r, p).router;
            if (q != target) reach[r] |= reach[q];
          }
          done[r] = 1;
        }
      }
      for (RouterId r = 0; r < routers; ++r) {
        if (r == target) continue;
        const RouterId q = topo.peer(r, escape[at(r, d)]).router;
        if (q != target) depends[channel(r, escape[at(r, d)])] |= reach[q];
      }
    }
    const auto extended = find_cycle(channels, [&](std::uint32_t c, const auto& visit) {
      depends[c].for_each(visit);
    });
    if (!extended.empty())
      refuse_cycle(extended, "its escape sub-network's extended channel dependency graph (Duato: "
                             "direct dependencies and indirect ones through adaptive channels) "
                             "has a cycle");
    escape_ = std::move(escape);
  }
  begin_.reserve(entry.size() + 1);
  for (const auto& e : entry) {
    begin_.push_back(static_cast<std::uint32_t>(ports_.size()));
    ports_.insert(ports_.end(), e.begin(), e.end());
  }
  begin_.push_back(static_cast<std::uint32_t>(ports_.size()));
}

std::uint32_t TableRouting::adaptive_vcs() const {
  if (!has_escape()) return 0;
  // [1, vcs_): vcs_ <= 32 (router.vcs)
  const std::uint32_t all = vcs_ >= 32 ? ~std::uint32_t{0} : (std::uint32_t{1} << vcs_) - 1;
  return all & ~std::uint32_t{1};
}

void TableRouting::route(const RouteRequest& req, RouteResult& out) const {
  if (topo_.router_of(req.dst) == req.router) {
    out.add(topo_.local_port_of(req.dst), 0, vcs_);
    return;
  }
  const std::size_t at = static_cast<std::size_t>(req.router) * topo_.num_endpoints() + req.dst;
  const unsigned adaptive_vc = has_escape() ? 1 : 0;
  for (std::uint32_t i = begin_[at]; i < begin_[at + 1]; ++i) out.add(ports_[i], adaptive_vc, vcs_);
  if (selection()) out.set_alternatives(begin_[at + 1] - begin_[at]);
  if (has_escape()) out.add(escape_[at], 0, 1);  // last: the way out of any adaptive wait
}

}  // namespace collnoc
