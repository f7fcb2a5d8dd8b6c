#include "noc/routing/table.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "noc/input_file.hpp"

namespace collnoc {

namespace {

// A channel of the dependency graph: a router's network output port.
struct TableChannel {
  RouterId router;
  unsigned port;
};

}  // namespace

TableRouting::TableRouting(const Topology& topo, unsigned vcs_per_class, const std::string& path)
    : topo_(topo), vcs_(vcs_per_class) {
  const auto fail = [&](const std::string& why) { throw ParamError("routing.table", path, why); };
  if (path.empty()) fail("routing.algorithm = table needs routing.table = PATH, the table's file");
  if (const auto problem = input_file_problem(path)) fail(*problem);
  std::ifstream in(path);
  if (!in) fail("cannot read it");
  const RouterId routers = topo.num_routers();
  const NodeId nodes = topo.num_endpoints();
  const unsigned net_ports = topo.network_ports();
  std::vector<std::vector<std::uint8_t>> entry(static_cast<std::size_t>(routers) * nodes);
  std::vector<char> given(entry.size(), 0);
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
    if (topo.router_of(static_cast<NodeId>(d)) == static_cast<RouterId>(r))
      fail(where + "node " + std::to_string(d) + " is attached to router " + std::to_string(r) +
           ": it leaves by its local port, no line needed");
    const std::size_t at = static_cast<std::size_t>(r) * nodes + static_cast<std::size_t>(d);
    if (given[at]) fail(where + "a second line for router " + std::to_string(r) + ", destination " +
                        std::to_string(d));
    given[at] = 1;
    while (words >> word) {
      const unsigned p = port_of(word, line);
      if (!topo.peer(static_cast<RouterId>(r), p).connected())
        fail(where + "port " + topo.port_name(p) + " of router " + std::to_string(r) +
             " is not connected");
      entry[at].push_back(static_cast<std::uint8_t>(p));
    }
    if (entry[at].empty()) fail(where + "no port given");
    if (entry[at].size() > RouteResult::kMax)
      fail(where + "more than " + std::to_string(RouteResult::kMax) + " ports");
  }
  for (RouterId r = 0; r < routers; ++r)
    for (NodeId d = 0; d < nodes; ++d)
      if (topo.router_of(d) != r && !given[static_cast<std::size_t>(r) * nodes + d])
        fail("no line for router " + std::to_string(r) + ", destination " + std::to_string(d) +
             " (every router needs one for every destination not attached to it)");

  // The channel dependency graph, over all destinations: (r, p) -> (q, p') when a packet for d
  // leaving r by p reaches q and may leave it by p'. Acyclic, or the table can deadlock (and a
  // packet could loop).
  const auto index = [&](RouterId r, unsigned p) { return static_cast<std::size_t>(r) * net_ports + p; };
  std::vector<std::vector<std::uint32_t>> next(static_cast<std::size_t>(routers) * net_ports);
  for (NodeId d = 0; d < nodes; ++d)
    for (RouterId r = 0; r < routers; ++r) {
      if (topo.router_of(d) == r) continue;
      for (std::uint8_t p : entry[static_cast<std::size_t>(r) * nodes + d]) {
        const RouterId q = topo.peer(r, p).router;
        if (q == topo.router_of(d)) continue;
        for (std::uint8_t p2 : entry[static_cast<std::size_t>(q) * nodes + d])
          next[index(r, p)].push_back(static_cast<std::uint32_t>(index(q, p2)));
      }
    }
  for (auto& n : next) {
    std::sort(n.begin(), n.end());
    n.erase(std::unique(n.begin(), n.end()), n.end());
  }
  std::vector<char> state(next.size(), 0);  // 0 new, 1 on the path, 2 done
  std::vector<std::pair<std::uint32_t, std::size_t>> stack;  // channel, next edge to follow
  const auto name = [&](std::uint32_t c) {
    return "router " + std::to_string(c / net_ports) + " port " + topo.port_name(c % net_ports);
  };
  for (std::uint32_t start = 0; start < next.size(); ++start) {
    if (state[start]) continue;
    stack.push_back({start, 0});
    state[start] = 1;
    while (!stack.empty()) {
      auto& [c, e] = stack.back();
      if (e == next[c].size()) {
        state[c] = 2;
        stack.pop_back();
        continue;
      }
      const std::uint32_t n = next[c][e++];
      if (state[n] == 1) {
        std::string cycle;
        std::size_t from = 0;
        while (stack[from].first != n) ++from;
        for (std::size_t i = from; i < stack.size(); ++i) cycle += name(stack[i].first) + " -> ";
        fail("its channel dependency graph has a cycle, so it can deadlock: " + cycle + name(n));
      }
      if (state[n] == 0) {
        state[n] = 1;
        stack.push_back({n, 0});
      }
    }
  }
  begin_.reserve(entry.size() + 1);
  for (const auto& e : entry) {
    begin_.push_back(static_cast<std::uint32_t>(ports_.size()));
    ports_.insert(ports_.end(), e.begin(), e.end());
  }
  begin_.push_back(static_cast<std::uint32_t>(ports_.size()));
}

void TableRouting::route(const RouteRequest& req, RouteResult& out) const {
  if (topo_.router_of(req.dst) == req.router) {
    out.add(topo_.local_port_of(req.dst), 0, vcs_);
    return;
  }
  const std::size_t at = static_cast<std::size_t>(req.router) * topo_.num_endpoints() + req.dst;
  for (std::uint32_t i = begin_[at]; i < begin_[at + 1]; ++i) out.add(ports_[i], 0, vcs_);
  if (selection()) out.set_alternatives(begin_[at + 1] - begin_[at]);
}

}  // namespace collnoc
