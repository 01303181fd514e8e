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
  // `budget`: nullopt for an unbounded run.
  explicit InvariantObserver(std::optional<Int> budget) : budget_(budget) {}

  void OnStart(const Runtime& rt) override { rt_ = &rt; }
  void OnCommand(size_t index) override;
  void OnPending(TensorId tensor, size_t depth) override;
  void OnEvict(Int clock, TensorId root_id) override;
  void OnOom(const Runtime& rt, TensorId tensor, Int request) override;
  void OnFinish(const Runtime& rt) override;

  // Empty when every invariant held; otherwise the first few violations.
  const std::vector<std::string>& violations() const { return violations_; }
  int64_t evictions() const { return evictions_; }

 private:
  void CheckMemory(const char* where);
  void Violation(std::string what);

  std::optional<Int> budget_;
  const Runtime* rt_ = nullptr;
  std::vector<std::string> violations_;
  int64_t evictions_ = 0;
};

}  // namespace dtrcheck

#endif  // DTRCHECK_PROPERTIES_INVARIANT_OBSERVER_H_
