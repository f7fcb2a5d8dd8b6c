// Results as an ordered list of dotted keys ("latency_cycles.mean") and values. Models fill it;
// the program turns it into JSON. Keeps the models free of any file format.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <type_traits>
#include <variant>
#include <vector>

namespace collnoc {

class Report {
 public:
  using Value = std::variant<bool, std::int64_t, std::uint64_t, double, std::string,
                             std::vector<std::uint64_t>, std::vector<double>>;

  template <typename T>
  void set(const std::string& key, T value) {
    Value v = normalise(std::move(value));
    for (auto& kv : entries_)
      if (kv.first == key) {
        kv.second = std::move(v);
        return;
      }
    entries_.emplace_back(key, std::move(v));
  }
  // Appends an element to a list of reports under `key` (per-link tables and the like).
  void append(const std::string& key, Report row) { lists_[index_of(key)].second.push_back(std::move(row)); }

  const std::vector<std::pair<std::string, Value>>& entries() const { return entries_; }
  const std::vector<std::pair<std::string, std::vector<Report>>>& lists() const { return lists_; }
  // The rows under `key` (to add a column to them), or null.
  std::vector<Report>* list(const std::string& key) {
    for (auto& kv : lists_)
      if (kv.first == key) return &kv.second;
    return nullptr;
  }
  const Value* find(const std::string& key) const {
    for (const auto& kv : entries_)
      if (kv.first == key) return &kv.second;
    return nullptr;
  }
  // Puts the entries in the order of `layout` (stable): a key's place is that of its own name
  // in the list, else of its group's (the part before the first dot), else after the list.
  void arrange(const std::vector<std::string>& layout) {
    auto place = [&](const std::string& key) {
      const std::string group = key.substr(0, key.find('.'));
      std::size_t best = layout.size();
      for (std::size_t i = 0; i < layout.size(); ++i) {
        if (layout[i] == key) return i;
        if (layout[i] == group) best = std::min(best, i);
      }
      return best;
    };
    std::stable_sort(entries_.begin(), entries_.end(),
                     [&](const auto& a, const auto& b) { return place(a.first) < place(b.first); });
  }

 private:
  template <typename T>
  static Value normalise(T v) {
    if constexpr (std::is_same_v<T, bool>) return Value(v);
    else if constexpr (std::is_floating_point_v<T>) return Value(static_cast<double>(v));
    else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) return Value(static_cast<std::int64_t>(v));
    else if constexpr (std::is_integral_v<T>) return Value(static_cast<std::uint64_t>(v));
    else if constexpr (std::is_same_v<T, const char*>) return Value(std::string(v));
    else return Value(std::move(v));
  }
  std::size_t index_of(const std::string& key) {
    for (std::size_t i = 0; i < lists_.size(); ++i)
      if (lists_[i].first == key) return i;
    lists_.emplace_back(key, std::vector<Report>{});
    return lists_.size() - 1;
  }
  std::vector<std::pair<std::string, Value>> entries_;
  std::vector<std::pair<std::string, std::vector<Report>>> lists_;
};

// Integer samples (latencies in cycles) kept as a count per value: the mean, nearest-rank
// percentiles and histogram come out exactly as from the samples themselves, in memory that
// grows with the range of the values instead of their number (a 10 M-message replay needs no
// more than a short one). Values below kDense are counted in an array; larger ones are pushed
// as they come and counted in a sorted list of (value, count) a batch at a time, so that a
// sample costs a push either way.
class SampleCounts {
 public:
  void add(std::uint32_t v) {
    ++size_;
    if (v < kDense) {
      if (v >= dense_.size()) dense_.resize(std::min<std::size_t>(kDense, std::max<std::size_t>(64, 2 * (v + 1))));
      ++dense_[v];
    } else {
      pending_.push_back(v);
      if (pending_.size() >= kBatch) settle();
    }
  }
  void add(const SampleCounts& other) {
    other.settle();
    settle();
    if (other.dense_.size() > dense_.size()) dense_.resize(other.dense_.size());
    for (std::size_t v = 0; v < other.dense_.size(); ++v) dense_[v] += other.dense_[v];
    sparse_ = merged(sparse_, other.sparse_);
    size_ += other.size_;
  }
  std::uint64_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  // f(value, count) for each value sampled, in ascending order.
  template <class F>
  void for_each(F f) const {
    settle();
    for (std::size_t v = 0; v < dense_.size(); ++v)
      if (dense_[v]) f(static_cast<std::uint32_t>(v), dense_[v]);
    for (const auto& [v, n] : sparse_) f(v, n);
  }
  // The samples in ascending order (for tests and small runs: this is what is not stored).
  std::vector<std::uint32_t> sorted() const {
    std::vector<std::uint32_t> out;
    out.reserve(size_);
    for_each([&](std::uint32_t v, std::uint64_t n) { out.insert(out.end(), n, v); });
    return out;
  }
  bool operator==(const SampleCounts& o) const { return sorted() == o.sorted(); }

 private:
  using Count = std::pair<std::uint32_t, std::uint64_t>;  // (value, samples of it)
  static constexpr std::uint32_t kDense = 1024;  // 8 KB at most per distribution
  static constexpr std::size_t kBatch = 4096;     // values at or above kDense, before counting
  // Counts the pushed values into sparse_ (logically const: what the counts say is unchanged).
  void settle() const {
    if (pending_.empty()) return;
    std::sort(pending_.begin(), pending_.end());
    std::vector<Count> batch;
    for (std::uint32_t v : pending_) {
      if (!batch.empty() && batch.back().first == v) ++batch.back().second;
      else batch.emplace_back(v, 1);
    }
    pending_.clear();
    sparse_ = merged(sparse_, batch);
  }
  static std::vector<Count> merged(const std::vector<Count>& a, const std::vector<Count>& b) {
    std::vector<Count> out;
    out.reserve(a.size() + b.size());
    std::size_t i = 0, j = 0;
    while (i < a.size() || j < b.size()) {
      if (j == b.size() || (i < a.size() && a[i].first < b[j].first)) out.push_back(a[i++]);
      else if (i == a.size() || b[j].first < a[i].first) out.push_back(b[j++]);
      else {
        out.emplace_back(a[i].first, a[i].second + b[j].second);
        ++i, ++j;
      }
    }
    return out;
  }
  std::vector<std::uint64_t> dense_;
  mutable std::vector<std::uint32_t> pending_;
  mutable std::vector<Count> sparse_;
  std::uint64_t size_ = 0;
};

// The counters of many blocks, summed into results: each block adds its own under the result
// keys they feed (Router::report, NetworkInterface::report, ...), saying how they combine
// (a count sums, a maximum takes the largest, ...); write() turns the totals into a Report, in
// the order the keys first came. Keeps the run's gathering free of any block's counters.
class Tally {
 public:
  void count(std::string_view key, std::uint64_t n) { at(key, Kind::count).whole += n; }
  void maximum(std::string_view key, std::uint64_t v) {
    Entry& e = at(key, Kind::maximum);
    e.whole = std::max(e.whole, v);
  }
  void maximum(std::string_view key, double v) {
    Entry& e = at(key, Kind::maximum_real);
    e.real = std::max(e.real, v);
  }
  // The mean over the blocks that add one.
  void average(std::string_view key, double v) {
    Entry& e = at(key, Kind::average);
    e.real += v;
    ++e.whole;
  }
  // Summed numerators over summed denominators; `if_none` when the denominator is 0.
  void ratio(std::string_view key, std::uint64_t numerator, std::uint64_t denominator,
             double if_none) {
    Entry& e = at(key, Kind::ratio);
    e.whole += numerator;
    e.denominator += denominator;
    e.real = if_none;
  }
  // Flits (or any count) over node-cycles of the measurement window (write()'s `node_cycles`).
  void per_node_cycle(std::string_view key, std::uint64_t n) { at(key, Kind::per_node_cycle).whole += n; }
  // Samples, written as key.mean, .p50, .p90, .p99, .p99_9 (nearest rank), .max and a
  // histogram (.histogram_edges: each bucket's lower edge, .histogram_counts; histogram_bucket).
  void distribution(std::string_view key, const SampleCounts& samples) {
    at(key, Kind::distribution).samples.add(samples);
  }
  // A setting all the blocks share (the first one's).
  void label(std::string_view key, const std::string& text) {
    Entry& e = at(key, Kind::label);
    if (e.text.empty()) e.text = text;
  }
  // One row of a table (Report::append).
  void row(const std::string& list, Report r) { rows_.emplace_back(list, std::move(r)); }

  // A count's total so far (0 if no block added one): for the run's own keys that derive from it.
  std::uint64_t total(std::string_view key) const {
    const auto it = index_.find(key);
    return it == index_.end() ? 0 : entries_[it->second].whole;
  }

  // `node_cycles`: nodes x cycles of the measurement window, 0 if the window is empty.
  void write(Report& r, double node_cycles) const {
    for (const Entry& e : entries_) {
      switch (e.kind) {
        case Kind::count:
        case Kind::maximum: r.set(e.key, e.whole); break;
        case Kind::maximum_real: r.set(e.key, e.real); break;
        case Kind::average: r.set(e.key, e.whole ? e.real / static_cast<double>(e.whole) : 0.0); break;
        case Kind::ratio:
          r.set(e.key, e.denominator ? static_cast<double>(e.whole) / static_cast<double>(e.denominator)
                                     : e.real);
          break;
        case Kind::per_node_cycle: r.set(e.key, node_cycles > 0 ? e.whole / node_cycles : 0.0); break;
        case Kind::distribution: summarise(r, e.key, e.samples); break;
        case Kind::label: r.set(e.key, e.text); break;
      }
    }
    for (const auto& [list, row] : rows_) r.append(list, row);
  }

 private:
  enum class Kind : std::uint8_t {
    count, maximum, maximum_real, average, ratio, per_node_cycle, distribution, label
  };
  struct Entry {
    std::string key;
    Kind kind = Kind::count;
    std::uint64_t whole = 0, denominator = 0;
    double real = 0;
    SampleCounts samples;
    std::string text;
  };
  Entry& at(std::string_view key, Kind kind) {
    const auto it = index_.find(key);
    if (it != index_.end()) return entries_[it->second];
    index_.emplace(std::string(key), entries_.size());
    Entry& e = entries_.emplace_back();
    e.key = std::string(key);
    e.kind = kind;
    return e;
  }
  static void summarise(Report& r, const std::string& key, const SampleCounts& v) {
    double mean = 0;
    std::uint32_t p50 = 0, p90 = 0, p99 = 0, p99_9 = 0, max = 0;
    std::vector<std::uint64_t> counts;
    if (!v.empty()) {
      // Sums of whole numbers below 2^53: exact, so the same in any order.
      double sum = 0;
      v.for_each([&](std::uint32_t x, std::uint64_t n) { sum += static_cast<double>(x) * static_cast<double>(n); });
      mean = sum / static_cast<double>(v.size());
      auto rank = [&](double q) {  // nearest rank: the sample at 1-based rank ceil(q n)
        const auto i = static_cast<std::uint64_t>(std::ceil(q * static_cast<double>(v.size())));
        const std::uint64_t want = std::min(v.size() - 1, i > 0 ? i - 1 : 0);
        std::uint64_t below = 0;
        std::uint32_t found = 0;
        bool done = false;
        v.for_each([&](std::uint32_t x, std::uint64_t n) {
          if (done) return;
          if (want < below + n) found = x, done = true;
          below += n;
        });
        return found;
      };
      p50 = rank(0.50), p90 = rank(0.90), p99 = rank(0.99), p99_9 = rank(0.999);
      v.for_each([&](std::uint32_t x, std::uint64_t n) {
        max = x;
        const unsigned b = histogram_bucket(x);
        if (b >= counts.size()) counts.resize(b + 1, 0);
        counts[b] += n;
      });
    }
    r.set(key + ".mean", mean);
    r.set(key + ".p50", static_cast<double>(p50));
    r.set(key + ".p90", static_cast<double>(p90));
    r.set(key + ".p99", static_cast<double>(p99));
    r.set(key + ".p99_9", static_cast<double>(p99_9));
    r.set(key + ".max", static_cast<double>(max));
    std::vector<std::uint64_t> edges(counts.size());
    for (std::size_t i = 0; i < edges.size(); ++i) edges[i] = histogram_edge(static_cast<unsigned>(i));
    r.set(key + ".histogram_edges", std::move(edges));
    r.set(key + ".histogram_counts", std::move(counts));
  }

 public:
  // The latency histogram's fixed buckets: one per value below 8, then four per power of two
  // (bucket i >= 8 starts at 2^k + s 2^(k-2), k = 3 + (i - 8) / 4, s = (i - 8) % 4), so a
  // bucket is at most a quarter of its lower edge wide.
  static unsigned histogram_bucket(std::uint64_t v) {
    if (v < 8) return static_cast<unsigned>(v);
    const unsigned k = 63u - static_cast<unsigned>(__builtin_clzll(v));
    return 8 + (k - 3) * 4 + static_cast<unsigned>((v - (std::uint64_t{1} << k)) >> (k - 2));
  }
  static std::uint64_t histogram_edge(unsigned i) {
    if (i < 8) return i;
    const unsigned k = 3 + (i - 8) / 4, s = (i - 8) % 4;
    return (std::uint64_t{1} << k) + (std::uint64_t{s} << (k - 2));
  }

 private:
  std::vector<Entry> entries_;
  std::map<std::string, std::size_t, std::less<>> index_;
  std::vector<std::pair<std::string, Report>> rows_;
};

}  // namespace collnoc
