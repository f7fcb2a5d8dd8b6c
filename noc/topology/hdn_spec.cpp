#include "noc/topology/hdn_spec.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "noc/types.hpp"

namespace collnoc {

namespace {

const char* const kBaseAllowed =
    "give torus:AxBx... (a product of rings, every size in 2..65536) or hypercube:N (N in 1..32)";

bool all_digits(const std::string& s) {
  return !s.empty() && s.size() <= 9 &&
         std::all_of(s.begin(), s.end(), [](char ch) { return ch >= '0' && ch <= '9'; });
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (;;) {
    const std::size_t at = s.find(sep, start);
    parts.push_back(s.substr(start, at == std::string::npos ? std::string::npos : at - start));
    if (at == std::string::npos) return parts;
    start = at + 1;
  }
}

std::string strip_spaces(std::string s) {
  s.erase(std::remove_if(s.begin(), s.end(), [](char ch) { return ch == ' ' || ch == '\t'; }),
          s.end());
  return s;
}

std::string join_factors(const HdnBase& b, const std::vector<unsigned>& fs) {
  std::string s;
  for (unsigned f : fs) s += (s.empty() ? "" : "x") + b.factor_name(f);
  return s.empty() ? "1" : s;
}

}  // namespace

// ------------------------------------------------------------------------------ base

HdnBase HdnBase::parse(const std::string& raw) {
  const std::string text = strip_spaces(raw);
  const auto fail = [&](const std::string& why) {
    return ParamError("hdn.base", text, why + "; " + kBaseAllowed);
  };
  if (text.empty()) throw fail("no base network");
  const std::size_t colon = text.find(':');
  if (colon == std::string::npos) throw fail("no kind: expected torus:... or hypercube:...");
  const std::string kind = text.substr(0, colon), rest = text.substr(colon + 1);
  HdnBase b;
  b.text = text;
  if (kind == "torus") {
    if (rest.empty()) throw fail("no ring sizes (not a product of rings)");
    for (const std::string& part : split(rest, 'x')) {
      if (!all_digits(part))
        throw fail("'" + part + "' is not a ring size (sizes are joined by x)");
      const unsigned long size = std::stoul(part);
      if (size < 2 || size > 65536)
        throw fail("ring size " + part + " is outside 2..65536 (a ring has at least 2 nodes)");
      b.factors.push_back({static_cast<unsigned>(size), true});
      if (b.factors.size() > kMaxFactors)
        throw fail("more than " + std::to_string(kMaxFactors) + " factors");
    }
  } else if (kind == "hypercube") {
    if (!all_digits(rest)) throw fail("'" + rest + "' is not a dimension");
    const unsigned long dim = std::stoul(rest);
    if (dim < 1 || dim > kMaxFactors) throw fail("dimension " + rest + " is outside 1..32");
    b.factors.assign(dim, HdnFactor{2, false});
  } else {
    throw fail("unknown kind '" + kind + "'");
  }
  std::uint64_t n = 1;
  for (const HdnFactor& f : b.factors) {
    n *= f.size;
    if (n > kMaxNodes) throw fail("more than 2^32 base nodes");
  }
  return b;
}

std::uint64_t HdnBase::nodes() const {
  std::uint64_t n = 1;
  for (const HdnFactor& f : factors) n *= f.size;
  return n;
}

unsigned HdnBase::degree() const {
  unsigned d = 0;
  for (const HdnFactor& f : factors) d += f.ports();
  return d;
}

unsigned HdnBase::diameter() const {
  unsigned d = 0;
  for (const HdnFactor& f : factors) d += f.diameter();
  return d;
}

std::string HdnBase::factor_name(unsigned f) const {
  const std::string name = factors[f].name();
  unsigned same = 0, rank = 0;
  for (unsigned g = 0; g < factors.size(); ++g)
    if (factors[g].name() == name) {
      ++same;
      if (g <= f) ++rank;
    }
  return same > 1 ? name + "#" + std::to_string(rank) : name;
}

// ------------------------------------------------------------------------------ super-nodes

std::uint64_t HdnSuperNode::size(const HdnBase& b) const {
  std::uint64_t s = 1;
  for (unsigned f : factors) s *= b.factors[f].size;
  return s;
}

unsigned HdnSuperNode::diameter(const HdnBase& b) const {
  unsigned d = 0;
  for (unsigned f : factors) d += b.factors[f].diameter();
  return d;
}

bool HdnSuperNode::contains(unsigned f) const {
  return std::find(factors.begin(), factors.end(), f) != factors.end();
}

std::string HdnSuperNode::describe(const HdnBase& b) const { return join_factors(b, factors); }

namespace {

// Factors grouped by name (C3, K2, ...), in order of first appearance.
struct FactorGroup {
  std::string name;
  unsigned size;
  std::vector<unsigned> members;  // factor indices, base order
};

std::vector<FactorGroup> factor_groups(const HdnBase& b) {
  std::vector<FactorGroup> groups;
  for (unsigned f = 0; f < b.size(); ++f) {
    const std::string name = b.factors[f].name();
    auto it = std::find_if(groups.begin(), groups.end(),
                           [&](const FactorGroup& g) { return g.name == name; });
    if (it == groups.end()) groups.push_back({name, b.factors[f].size, {f}});
    else it->members.push_back(f);
  }
  return groups;
}

// Every choice of how many factors to take from each group whose product is `target`.
void count_choices(const std::vector<FactorGroup>& groups, std::size_t g, std::uint64_t left,
                   std::vector<unsigned>& take, std::vector<std::vector<unsigned>>& found) {
  if (found.size() > 8) return;  // enough to show that it is ambiguous
  if (g == groups.size()) {
    if (left == 1) found.push_back(take);
    return;
  }
  std::uint64_t rem = left;
  for (unsigned m = 0; m <= groups[g].members.size(); ++m) {
    take[g] = m;
    count_choices(groups, g + 1, rem, take, found);
    if (rem % groups[g].size != 0) break;
    rem /= groups[g].size;
  }
  take[g] = 0;
}

std::vector<unsigned> factors_of_choice(const std::vector<FactorGroup>& groups,
                                        const std::vector<unsigned>& take) {
  std::vector<unsigned> fs;
  for (std::size_t g = 0; g < groups.size(); ++g)
    fs.insert(fs.end(), groups[g].members.begin(), groups[g].members.begin() + take[g]);
  std::sort(fs.begin(), fs.end());
  return fs;
}

std::string choice_name(const std::vector<FactorGroup>& groups, const std::vector<unsigned>& take) {
  std::string s;
  for (std::size_t g = 0; g < groups.size(); ++g)
    for (unsigned m = 0; m < take[g]; ++m) s += (s.empty() ? "" : "x") + groups[g].name;
  return s.empty() ? "1" : s;
}

// The sizes a super-node can have, smallest first (at most `limit` shown).
std::string possible_sizes(const HdnBase& b, std::size_t limit) {
  std::vector<std::uint64_t> sizes{1};
  for (const HdnFactor& f : b.factors) {
    const std::size_t n = sizes.size();
    for (std::size_t i = 0; i < n; ++i) sizes.push_back(sizes[i] * f.size);
    std::sort(sizes.begin(), sizes.end());
    sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
    if (sizes.size() > 4096) break;  // enough for a message
  }
  std::string s;
  for (std::size_t i = 0; i < sizes.size() && i < limit; ++i)
    s += (i ? " " : "") + std::to_string(sizes[i]);
  if (sizes.size() > limit) s += " ...";
  return s;
}

}  // namespace

HdnSuperNode parse_hdn_supernode(const HdnBase& b, const std::string& raw) {
  const std::string text = strip_spaces(raw);
  std::string factor_list;
  for (unsigned f = 0; f < b.size(); ++f) factor_list += (f ? " " : "") + b.factor_name(f);
  const auto fail = [&](const std::string& why) {
    return ParamError("hdn.supernodes", text,
                      why + " (base " + b.text + " has factors " + factor_list + ")");
  };
  if (text.empty()) throw fail("an empty super-node set: give 1, a size or factors like C2xC3");
  const std::vector<FactorGroup> groups = factor_groups(b);
  if (all_digits(text)) {
    const std::uint64_t target = std::stoull(text);
    if (target == 0) throw fail("size 0: a super-node has at least 1 node");
    std::vector<unsigned> take(groups.size(), 0);
    std::vector<std::vector<unsigned>> found;
    count_choices(groups, 0, target, take, found);
    if (found.empty())
      throw fail("size " + text + " is not a product of factor sizes; possible sizes: " +
                 possible_sizes(b, 24));
    if (found.size() > 1) {
      std::string names;
      for (std::size_t i = 0; i < found.size() && i < 8; ++i)
        names += (i ? " or " : "") + choice_name(groups, found[i]);
      throw fail("size " + text + " is ambiguous: " + names + "; name the factors instead");
    }
    return HdnSuperNode{factors_of_choice(groups, found[0])};
  }
  HdnSuperNode sn;
  for (const std::string& token : split(text, 'x')) {
    const std::size_t hash = token.find('#');
    const std::string name = token.substr(0, hash);
    auto g = std::find_if(groups.begin(), groups.end(),
                          [&](const FactorGroup& fg) { return fg.name == name; });
    if (g == groups.end())
      throw fail("'" + token +
                 "' names no factor (factors are named by kind and size, joined by x)");
    unsigned pick = ~0u;
    if (hash != std::string::npos) {
      const std::string index = token.substr(hash + 1);
      if (!all_digits(index) || std::stoul(index) < 1 || std::stoul(index) > g->members.size())
        throw fail("'" + token + "': the base has " + std::to_string(g->members.size()) + " " +
                   name + " (index from 1)");
      pick = g->members[std::stoul(index) - 1];
      if (sn.contains(pick)) throw fail("'" + token + "' is named twice");
    } else {
      for (unsigned f : g->members)
        if (!sn.contains(f)) {
          pick = f;
          break;
        }
      if (pick == ~0u)
        throw fail("more " + name + " than the base has (" + std::to_string(g->members.size()) +
                   ")");
    }
    sn.factors.push_back(pick);
  }
  std::sort(sn.factors.begin(), sn.factors.end());
  return sn;
}

// ------------------------------------------------------------------------------ spec

HdnSpec HdnSpec::parse(const std::string& base, long long levels, const std::string& supernodes) {
  if (levels < 0 || levels > kMaxLevels)
    throw ParamError("hdn.levels", std::to_string(levels),
                     "must be in 0.." + std::to_string(kMaxLevels) + " (k, the number of levels)");
  HdnSpec spec;
  spec.base = HdnBase::parse(base);
  spec.levels = static_cast<unsigned>(levels);
  const std::string text = strip_spaces(supernodes);
  if (text.empty()) {
    spec.supernodes.assign(spec.levels, HdnSuperNode{});
    return spec;
  }
  const std::vector<std::string> parts = split(text, ',');
  if (parts.size() != spec.levels)
    throw ParamError("hdn.supernodes", text,
                     std::to_string(parts.size()) + " super-node set" +
                         (parts.size() == 1 ? "" : "s") + " for " + std::to_string(levels) +
                         " level" + (levels == 1 ? "" : "s") +
                         ": give one per level, level 1 first (e.g. 1,C2xC3), or none for "
                         "trivial super-nodes everywhere");
  for (const std::string& p : parts) spec.supernodes.push_back(parse_hdn_supernode(spec.base, p));
  return spec;
}

std::string HdnSpec::describe() const {
  std::string s = "HDN(" + base.text + ", " + std::to_string(levels) + ", {";
  for (unsigned i = 0; i < levels; ++i) s += (i ? ", " : "") + supernodes[i].describe(base);
  return s + "})";
}

// ------------------------------------------------------------------------------ formulas

HdnProperties hdn_properties(const HdnSpec& spec, double w1, double w2) {
  HdnProperties p;
  const std::uint64_t n0 = spec.base.nodes();
  // N_i = 2 N_{i-1}^2 / s_i, exact while it fits (s_i divides N_{i-1}: it divides n_0).
  std::optional<std::uint64_t> nodes = n0;
  long double log2n = std::log2(static_cast<long double>(n0));
  for (unsigned i = 1; i <= spec.levels; ++i) {
    const std::uint64_t s = spec.supernodes[i - 1].size(spec.base);
    log2n = 1 + 2 * log2n - std::log2(static_cast<long double>(s));
    if (nodes) {
      const unsigned __int128 next = static_cast<unsigned __int128>(*nodes / s) * *nodes;
      if (next >> 63) nodes.reset();
      else nodes = static_cast<std::uint64_t>(2 * next);
    }
  }
  p.nodes = nodes;
  p.log2_nodes = nodes ? std::log2(static_cast<long double>(*nodes)) : log2n;
  p.degree = spec.base.degree() + spec.levels;
  // D_k = 2^k D(B) - sum_{j=0..k-1} 2^j D(SN_{k-j}) + 2^(k+1) - 2
  const unsigned k = spec.levels;
  std::int64_t d = (std::int64_t{1} << k) * spec.base.diameter() + (std::int64_t{2} << k) - 2;
  for (unsigned j = 0; j < k; ++j)
    d -= (std::int64_t{1} << j) * spec.supernodes[k - j - 1].diameter(spec.base);
  p.diameter_spec = static_cast<std::uint64_t>(d);
  p.level1_whole_base = k >= 1 && spec.supernodes[0].factors.size() == spec.base.size();
  p.diameter = p.diameter_spec - (p.level1_whole_base ? std::uint64_t{1} << (k - 1) : 0);
  p.cost_ratio = (w1 * p.degree + w2 * static_cast<double>(p.diameter)) /
                 static_cast<double>(p.log2_nodes);
  return p;
}

NetworkFigures similar_hypercube(long double log2_nodes, double w1, double w2) {
  const unsigned dim = static_cast<unsigned>(std::max(1.0L, std::round(log2_nodes)));
  NetworkFigures f;
  f.name = "hypercube Q_" + std::to_string(dim);
  f.size = dim;
  f.nodes = std::ldexp(1.0L, static_cast<int>(dim));
  f.degree = dim;
  f.diameter = dim;
  f.cost_ratio = (w1 * dim + w2 * dim) / dim;
  return f;
}

std::optional<NetworkFigures> similar_torus3d(long double log2_nodes, double w1, double w2) {
  if (log2_nodes / 3 > 62) return std::nullopt;
  const std::uint64_t k =
      std::max<std::uint64_t>(2, static_cast<std::uint64_t>(std::llround(
                                     std::exp2(log2_nodes / 3))));
  NetworkFigures f;
  f.name = "3D torus " + std::to_string(k) + "^3";
  f.size = k;
  f.nodes = static_cast<long double>(k) * k * k;
  f.degree = 6;
  f.diameter = 3 * (k / 2);
  f.cost_ratio = (w1 * 6 + w2 * static_cast<double>(f.diameter)) /
                 (3 * std::log2(static_cast<double>(k)));
  return f;
}

}  // namespace collnoc
