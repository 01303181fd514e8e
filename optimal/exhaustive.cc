#include "optimal/exhaustive.h"

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
  if (n > 20) throw std::invalid_argument("exhaustive search: more than 20 nodes");
  // State: stage t (nodes < t have run for the first time), the next node a
  // recomputation may be (log order), and the resident set.
  struct State {
    int t, next;
    uint32_t resident;
  };
  auto key = [&](const State& s) {
    return (static_cast<uint64_t>(s.t) << 40) | (static_cast<uint64_t>(s.next) << 32) | s.resident;
  };
  std::vector<uint32_t> deps(n, 0), bases(n, 0), dependents_of_base(n, 0);
  for (int k = 0; k < n; ++k) {
    for (int d : p.nodes[k].deps) deps[k] |= 1u << d;
    for (int b : p.nodes[k].view_bases) dependents_of_base[b] |= 1u << k;
  }
  uint32_t outputs = 0;
  for (int o : p.outputs) outputs |= 1u << o;
  auto memory = [&](uint32_t resident) {
    Int m = 0;
    for (int i = 0; i < n; ++i)
      if (resident >> i & 1) m += p.nodes[i].size;
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
    // Free a resident node (and the views of its storage with it).
    for (int i = 0; i < n; ++i)
      if (s.resident >> i & 1)
        push({s.t, s.next, s.resident & ~(1u << i) & ~dependents_of_base[i]}, cost);
    if (s.t == n) continue;
    // Compute node j: a recomputation (j < t) or the stage's own node (j == t).
    for (int j = log_order_within_stage ? s.next : 0; j <= s.t; ++j) {
      if (s.resident >> j & 1 || (s.resident & deps[j]) != deps[j]) continue;
      uint32_t after = s.resident | 1u << j;
      if (p.nodes[s.t].resident_before + memory(after) > budget) continue;
      if (j == s.t)
        push({s.t + 1, 0, after}, cost + p.nodes[j].cost);
      else
        push({s.t, j + 1, after}, cost + p.nodes[j].cost);
    }
  }
  return std::nullopt;
}

}  // namespace dtrcheck
