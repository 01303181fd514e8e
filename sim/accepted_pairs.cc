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
  // Addresses come from the memory model, not the runtime kind: the Runtime
  // checks them (AddressRefusal).
  const Features need = heuristic.RequiredFeatures() & ~feature::kAddresses;
  if ((need & ~have) == 0) return std::nullopt;
  return "Heuristic " + heuristic.Label() + " requires " + FeaturesToString(need) +
         " but this runtime only supports " + FeaturesToString(have);
}

std::optional<std::string> AddressRefusal(bool memory_is_bytes, const Heuristic& heuristic) {
  if (!memory_is_bytes || !(heuristic.RequiredFeatures() & feature::kAddresses))
    return std::nullopt;
  return "Heuristic " + heuristic.Label() +
         " requires {'addresses'} but --memory bytes has no addresses; run it with "
         "--memory cuda-caching or --memory arena";
}

bool ReadsAddresses(const std::string& heuristic) {
  auto h = MakeHeuristic(heuristic);
  return h && (h->RequiredFeatures() & feature::kAddresses);
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

namespace {

std::vector<RuntimeHeuristic> PairsOf(const std::vector<std::string>& heuristics) {
  std::vector<RuntimeHeuristic> out;
  for (const auto& h : heuristics)
    for (const auto& r : RuntimeNames())
      if (Accepted(r, h)) out.push_back({r, h});
  return out;
}

}  // namespace

std::vector<RuntimeHeuristic> PluginPairs() { return PairsOf(PluginHeuristicNames()); }
std::vector<RuntimeHeuristic> OwnPairs() { return PairsOf(OwnHeuristicNames()); }

}  // namespace dtrcheck
