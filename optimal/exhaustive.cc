#include "optimal/exhaustive.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <queue>
#include <stdexcept>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace dtrcheck {

std::optional<Int> ExhaustiveOptimum(const RematProblem& p, Int budget,
                                     bool log_order_within_stage) {
  const int n = static_cast<int>(p.nodes.size());
  const int units = static_cast<int>(p.units.size());
  if (n > 20 || units > 64)
    throw std::invalid_argument("exhaustive search: more than 20 nodes or 64 units");
  // State: stage t (nodes < t have run for the first time), the next node a
  // recomputation may be (log order), and the resident units.
  using State = std::tuple<int, int, uint64_t>;
  std::vector<uint64_t> deps(n, 0), creates(n, 0), views_of(units, 0);
  for (int k = 0; k < n; ++k) {
    for (int d : p.nodes[k].deps) deps[k] |= uint64_t{1} << d;
    for (int u : p.nodes[k].units) creates[k] |= uint64_t{1} << u;
  }
  for (int u = 0; u < units; ++u)
    for (int b : p.units[u].bases) views_of[b] |= uint64_t{1} << u;
  uint64_t outputs = 0;
  for (int o : p.outputs) outputs |= uint64_t{1} << o;
  auto memory = [&](uint64_t resident) {
    Int m = 0;
    for (int u = 0; u < units; ++u)
      if (resident >> u & 1) m += p.units[u].size;
    return m;
  };
  using Entry = std::pair<Int, State>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> queue;
  struct Hash {
    size_t operator()(const State& s) const {
      auto [t, next, resident] = s;
      return std::hash<uint64_t>()(resident * 1000003u + static_cast<uint64_t>(t * 64 + next));
    }
  };
  std::unordered_map<State, Int, Hash> best;
  auto push = [&](const State& s, Int cost) {
    auto it = best.find(s);
    if (it != best.end() && it->second <= cost) return;
    best[s] = cost;
    queue.push({cost, s});
  };
  push({0, 0, 0}, 0);
  while (!queue.empty()) {
    auto [cost, s] = queue.top();
    queue.pop();
    if (best[s] < cost) continue;
    const auto [t, next, resident] = s;
    if (t == n && (resident & outputs) == outputs && p.fixed_at_end + memory(outputs) <= budget)
      return cost;
    // Free a resident unit (and the views of its storage with it).
    for (int u = 0; u < units; ++u)
      if (resident >> u & 1) push({t, next, resident & ~(uint64_t{1} << u) & ~views_of[u]}, cost);
    // Compute node j: a recomputation (j < t) or the stage's own node (j == t),
    // with its arguments resident and none of its storages. After the last
    // node (t == n) only recomputations, for the outputs.
    const Int fixed = t < n ? p.nodes[t].resident_before : p.fixed_at_end;
    for (int j = log_order_within_stage ? next : 0; j <= std::min(t, n - 1); ++j) {
      if ((resident & creates[j]) != 0 || (resident & deps[j]) != deps[j]) continue;
      uint64_t after = resident | creates[j];
      if (fixed + memory(after) > budget) continue;
      if (j == t)
        push({t + 1, 0, after}, cost + p.nodes[j].cost);
      else
        push({t, j + 1, after}, cost + p.nodes[j].cost);
    }
  }
  return std::nullopt;
}

}  // namespace dtrcheck
