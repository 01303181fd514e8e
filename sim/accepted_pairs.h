// The runtime/heuristic pairs simrd accepts: the heuristic's required
// FEATURES are a subset of the runtime's (QUIRKS.md, Q-FEATURES). The one
// test is PairRefusal, used by the Runtime's constructor, by `sweep` before
// it writes anything, and for the lists below. Fuzzers choose among these
// pairs only, so that no input is spent on a refusal.
#ifndef DTRCHECK_SIM_ACCEPTED_PAIRS_H_
#define DTRCHECK_SIM_ACCEPTED_PAIRS_H_

#include <optional>
#include <string>
#include <vector>

namespace dtrcheck {

enum class RuntimeKind;  // sim/runtime.h
class Heuristic;         // sim/heuristic.h

// simrd's check in Runtime.__init__ (simrd/runtime/runtime.py): nullopt if
// the runtime accepts the heuristic, else the message of the RuntimeError
// simrd raises, "Heuristic <str(heuristic)> requires <its FEATURES> but this
// runtime only supports <the runtime's FEATURES>". The sets are written
// sorted; Python prints them in its string-hash order, which varies from
// process to process.
std::optional<std::string> PairRefusal(RuntimeKind runtime, const Heuristic& heuristic);

// dtrcheck's own check, in the same form: nullopt unless the heuristic reads
// addresses (feature::kAddresses) and the memory model is bytes, which has
// none (the Runtime's constructor throws it as std::invalid_argument).
std::optional<std::string> AddressRefusal(bool memory_is_bytes, const Heuristic& heuristic);

// Whether the registered heuristic of that name reads addresses: it has no
// run under --memory bytes, so nothing compares an allocator's run of it
// with one in bytes (scan's allocator-only findings, the fuzzers' check).
bool ReadsAddresses(const std::string& heuristic);

struct RuntimeHeuristic {
  std::string runtime, heuristic;
};

// The paper's configuration (RuntimeV2EagerOptimized, DTR) first, then every
// other accepted pair in simrd's runtime and heuristic registration order.
// The order is part of the fuzz input format: appending is fine, reordering
// changes what old artifacts decode to.
const std::vector<RuntimeHeuristic>& AcceptedPairs();

// The pairs the pathology fuzzer searches: AcceptedPairs() without the
// random heuristics (RandomStorage, AbRandom). Their overhead at a budget is
// a draw of Python's random generator, and a budget one byte larger is
// another draw: cliffs and inversions between neighbouring budgets are what
// they do by construction, not pathologies of a policy. Same order caveat.
const std::vector<RuntimeHeuristic>& FuzzedPairs();

// The pairs of the plugins' heuristics (plugins/plugin_heuristic.h) loaded so
// far: each heuristic in registration order with every runtime that accepts
// it, in simrd's runtime order.
std::vector<RuntimeHeuristic> PluginPairs();
// The same for dtrcheck's own heuristics (sim/heuristic.h, OwnHeuristicNames).
std::vector<RuntimeHeuristic> OwnPairs();

}  // namespace dtrcheck

#endif  // DTRCHECK_SIM_ACCEPTED_PAIRS_H_
