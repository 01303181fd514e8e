#include "optimal/live_memory_bound.h"

#include <algorithm>
#include <numeric>
#include <vector>

namespace dtrcheck {

LiveMemoryBound LiveMemoryLowerBound(const RematProblem& p, Int budget) {
  LiveMemoryBound out;
  out.compute = p.model_compute;
  const int n = static_cast<int>(p.nodes.size());
  const int units = static_cast<int>(p.units.size());
  const Int limit = Int(1) << 62;
  // Each unit's last need: the last node that uses it, or n for an output.
  std::vector<int> last(units, -1);
  for (int k = 0; k < n; ++k)
    for (int u : p.nodes[k].deps) last[u] = std::max(last[u], k);
  for (int o : p.outputs) last[o] = n;
  // The bytes of each producer's units, and the units by cost per byte
  // (cost(k) / bytes(k), compared as cross products), the cheapest first.
  std::vector<Int> made(n, 0);
  bool small = true;
  for (int u = 0; u < units; ++u) {
    made[p.units[u].node] += p.units[u].size;
    small = small && p.units[u].size < limit;
  }
  for (int k = 0; k < n; ++k) small = small && p.nodes[k].cost < limit && made[k] < limit;
  std::vector<int> order;
  for (int u = 0; u < units; ++u)
    if (p.units[u].size > 0) order.push_back(u);
  auto cost = [&](int u) { return p.nodes[p.units[u].node].cost; };
  auto bytes = [&](int u) { return made[p.units[u].node]; };
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return cost(a) * bytes(b) < cost(b) * bytes(a);  // < 2^124 when small
  });
  std::vector<bool> excluded(units, false);  // node t's own arguments and results
  for (int t = 0; t < n; ++t) {
    const RematNode& node = p.nodes[t];
    Int held = node.resident_before, droppable = 0;
    for (int u : node.deps) excluded[u] = true;
    for (int u : node.units) excluded[u] = true;
    for (int u : node.deps) held += p.units[u].size;
    for (int u : node.units) held += p.units[u].size;
    for (int u = 0; u < units && p.units[u].node < t; ++u)
      if (!excluded[u] && last[u] > t) droppable += p.units[u].size;
    if (held > budget) {
      out.infeasible = true;
      out.stage = t;
      out.proof = "the first run of " + node.name + " needs " + IntToString(held) +
                  " bytes (constants, arguments and results) over the budget";
      out.compute = 0;
      return out;
    }
    Int excess = held + droppable - budget;
    if (excess > 0 && small) {
      // The fractional knapsack: whole shares, each rounded down, then the
      // last one's part rounded up (adding whole numbers commutes with the
      // ceiling of the exact sum).
      Int share = 0;
      for (int u : order) {
        if (p.units[u].node >= t || excluded[u] || last[u] <= t) continue;
        const Int size = p.units[u].size;
        if (size < excess) {
          share += cost(u) * size / bytes(u);
          excess -= size;
          continue;
        }
        share += (cost(u) * excess + bytes(u) - 1) / bytes(u);
        excess = 0;
        break;
      }
      if (p.model_compute + share > out.compute) {
        out.compute = p.model_compute + share;
        out.stage = t;
      }
    }
    for (int u : node.deps) excluded[u] = false;
    for (int u : node.units) excluded[u] = false;
  }
  Int end = p.fixed_at_end;
  for (int o : p.outputs) end += p.units[o].size;
  if (end > budget) {
    out.infeasible = true;
    out.stage = n;
    out.proof = "the outputs with the constants need " + IntToString(end) +
                " bytes at the end, over the budget";
    out.compute = 0;
  }
  return out;
}

}  // namespace dtrcheck
