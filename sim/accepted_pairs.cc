#include "sim/accepted_pairs.h"

#include "sim/heuristic.h"
#include "sim/runtime.h"

namespace dtrcheck {

namespace {

bool Accepted(const std::string& runtime, const std::string& heuristic) {
  auto kind = RuntimeKindFromName(runtime);
  auto h = MakeHeuristic(heuristic);
  return kind && h && !PairRefusal(*kind, *h);
}

}  // namespace

std::optional<std::string> PairRefusal(RuntimeKind runtime, const Heuristic& heuristic) {
  const Features have = RuntimeFeatures(runtime);
  const Features need = heuristic.RequiredFeatures();
  if ((need & ~have) == 0) return std::nullopt;
  return "Heuristic " + heuristic.Label() + " requires " + FeaturesToString(need) +
         " but this runtime only supports " + FeaturesToString(have);
}

const std::vector<RuntimeHeuristic>& AcceptedPairs() {
  static const std::vector<RuntimeHeuristic> pairs = [] {
    const RuntimeHeuristic paper{"RuntimeV2EagerOptimized", "DTR"};
    std::vector<RuntimeHeuristic> out = {paper};
    for (const auto& r : RuntimeNames())
      for (const auto& h : HeuristicNames()) {
        if (h == "Heuristic" || (r == paper.runtime && h == paper.heuristic)) continue;
        if (Accepted(r, h)) out.push_back({r, h});
      }
    return out;
  }();
  return pairs;
}

const std::vector<RuntimeHeuristic>& FuzzedPairs() {
  static const std::vector<RuntimeHeuristic> pairs = [] {
    std::vector<RuntimeHeuristic> out;
    for (const auto& p : AcceptedPairs())
      if (!IsRandomHeuristic(p.heuristic)) out.push_back(p);
    return out;
  }();
  return pairs;
}

std::vector<RuntimeHeuristic> PluginPairs() {
  std::vector<RuntimeHeuristic> out;
  for (const auto& h : PluginHeuristicNames())
    for (const auto& r : RuntimeNames())
      if (Accepted(r, h)) out.push_back({r, h});
  return out;
}

}  // namespace dtrcheck
