#include "optimal/exhaustive.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <queue>
#include <stdexcept>
#include <unordered_map>
#include <vector>

namespace dtrcheck {

std::optional<Int> ExhaustiveOptimum(const RematProblem& p, Int budget,
                                     bool log_order_within_stage) {
  const int n = static_cast<int>(p.nodes.size());
  const int units = static_cast<int>(p.units.size());
  if (n > 24 || units > 24)
    throw std::invalid_argument("exhaustive search: more than 24 operators or units");
  // State: stage t (nodes < t have run for the first time), the next node a
  // recomputation may be (log order), and the resident units.
  struct State {
    int t, next;
    uint32_t resident;
  };
  auto key = [](const State& s) {
    return (static_cast<uint64_t>(s.t) << 40) | (static_cast<uint64_t>(s.next) << 32) | s.resident;
  };
  std::vector<uint32_t> deps(n, 0), made(n, 0), with_views(units, 0);
  for (int k = 0; k < n; ++k) {
    for (int u : p.nodes[k].deps) deps[k] |= 1u << u;
    for (int u : p.nodes[k].units) made[k] |= 1u << u;
  }
  for (int u = 0; u < units; ++u) {
    with_views[u] |= 1u << u;
    if (p.units[u].base >= 0) with_views[p.units[u].base] |= 1u << u;
  }
  uint32_t outputs = 0;
  for (int o : p.outputs) outputs |= 1u << o;
  auto memory = [&](uint32_t resident) {
    Int m = 0;
    for (int u = 0; u < units; ++u)
      if (resident >> u & 1) m += p.units[u].size;
    return m;
  };
  using Entry = std::pair<Int, uint64_t>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> queue;
  std::unordered_map<uint64_t, Int> best;
  std::unordered_map<uint64_t, State> states;
  auto push = [&](const State& s, Int cost) {
    uint64_t k = key(s);
    auto it = best.find(k);
    if (it != best.end() && it->second <= cost) return;
    best[k] = cost;
    states[k] = s;
    queue.push({cost, k});
  };
  push({0, 0, 0}, 0);
  while (!queue.empty()) {
    auto [cost, k] = queue.top();
    queue.pop();
    if (best[k] < cost) continue;
    const State s = states[k];
    if (s.t == n && (s.resident & outputs) == outputs && p.fixed_at_end + memory(outputs) <= budget)
      return cost;
    // Free a resident unit (a storage takes the views of it along).
    for (int u = 0; u < units; ++u)
      if (s.resident >> u & 1) push({s.t, s.next, s.resident & ~with_views[u]}, cost);
    // Compute node j: a recomputation (j < t) or the stage's own node (j ==
    // t); after the last node (t == n), recomputations for the outputs.
    const Int constants = s.t < n ? p.nodes[s.t].resident_before : p.fixed_at_end;
    for (int j = log_order_within_stage ? s.next : 0; j <= std::min(s.t, n - 1); ++j) {
      if ((s.resident & deps[j]) != deps[j]) continue;
      if (j < s.t && (s.resident & made[j]) == made[j]) continue;  // nothing to remake
      uint32_t after = s.resident | made[j];
      if (constants + memory(after) > budget) continue;
      if (j == s.t)
        push({s.t + 1, 0, after}, cost + p.nodes[j].cost);
      else
        push({s.t, j + 1, after}, cost + p.nodes[j].cost);
    }
  }
  return std::nullopt;
}

}  // namespace dtrcheck
