// Checks runtime invariants while a simulation runs (a RuntimeObserver):
//   - resident memory never exceeds the budget once an allocation is
//     satisfied (checked at every command, materialization, eviction, end);
//   - an evicted storage holds no lock and no pin (except RuntimeV1's
//     banishing of dead storages, which simrd does on purpose);
//   - out-of-memory is raised only with an empty evictable pool and a request
//     that does not fit.
// These restate what simrd asserts or does, checked from outside the runtime,
// so that a port or optimisation that breaks them is caught on any trace.
#ifndef DTRCHECK_PROPERTIES_INVARIANT_OBSERVER_H_
#define DTRCHECK_PROPERTIES_INVARIANT_OBSERVER_H_

#include <optional>
#include <string>
#include <vector>

#include "sim/runtime.h"
#include "sim/telemetry.h"

namespace dtrcheck {

class InvariantObserver : public RuntimeObserver {
 public:
  // `budget`: nullopt for an unbounded run. `may_decline`: the heuristic is
  // not simrd's and may choose no victim (Runtime::ChooseVictims: MegEngine's
  // find_best_tensor returning null, Coop finding no window, DTE no piece),
  // which fails the allocation with storages still evictable.
  explicit InvariantObserver(std::optional<Int> budget, bool may_decline = false)
      : budget_(budget), may_decline_(may_decline) {}

  void OnStart(const Runtime& rt) override { rt_ = &rt; }
  void OnCommand(size_t index) override;
  void OnPending(TensorId tensor, size_t depth) override;
  void OnEvict(Int clock, TensorId root_id) override;
  void OnOom(const Runtime& rt, TensorId tensor, Int request) override;
  void OnFinish(const Runtime& rt) override;

  // Empty when every invariant held; otherwise the first few violations.
  const std::vector<std::string>& violations() const { return violations_; }
  int64_t evictions() const { return evictions_; }
  // Out-of-memory with storages evictable, the heuristic having declined
  // (only counted when it may).
  int64_t declined() const { return declined_; }

 private:
  void CheckMemory(const char* where);
  void Violation(std::string what);

  std::optional<Int> budget_;
  bool may_decline_ = false;
  const Runtime* rt_ = nullptr;
  std::vector<std::string> violations_;
  int64_t evictions_ = 0, declined_ = 0;
};

}  // namespace dtrcheck

#endif  // DTRCHECK_PROPERTIES_INVARIANT_OBSERVER_H_
