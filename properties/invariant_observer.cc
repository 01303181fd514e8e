#include "properties/invariant_observer.h"

namespace dtrcheck {

void InvariantObserver::Violation(std::string what) {
  if (violations_.size() < 5) violations_.push_back(std::move(what));
}

void InvariantObserver::CheckMemory(const char* where) {
  if (!rt_ || !budget_) return;
  if (rt_->memory_usage() > *budget_)
    Violation(std::string("resident ") + IntToString(rt_->memory_usage()) + " > budget " +
              IntToString(*budget_) + " at " + where + " (clock " + IntToString(rt_->clock()) +
              ")");
}

void InvariantObserver::OnCommand(size_t) { CheckMemory("a schedule command"); }

void InvariantObserver::OnPending(TensorId, size_t) { CheckMemory("a materialization"); }

void InvariantObserver::OnEvict(Int clock, TensorId root_id) {
  ++evictions_;
  if (!rt_) return;
  const Storage& s = rt_->storages()[rt_->tensors()[root_id].storage];
  if (s.ref_int != 0)
    Violation("evicted storage " + std::to_string(root_id) + " holds " + std::to_string(s.ref_int) +
              " locks (clock " + IntToString(clock) + ")");
  // RuntimeV1 banishes a dead storage (no external references) even if it is
  // pinned: simrd's _try_banish_V1 resets its locks first. That is by design,
  // not a policy eviction.
  const bool banished = rt_->kind() == RuntimeKind::kV1 && s.ref_ext == 0;
  if (s.pinned && !banished)
    Violation("evicted pinned storage " + std::to_string(root_id) + " (clock " +
              IntToString(clock) + ")");
  CheckMemory("an eviction");
}

void InvariantObserver::OnOom(const Runtime& rt, TensorId tensor, Int request) {
  if (rt.pool().size() != 0 && may_decline_)
    ++declined_;
  else if (rt.pool().size() != 0)
    Violation("out of memory computing tensor " + std::to_string(tensor) + " with " +
              std::to_string(rt.pool().size()) + " evictable storages");
  // Under an allocator model an out-of-memory where the bytes fit is the
  // allocator refusing (a fragmentation OOM, analysis/allocator_pathology.h),
  // not a broken invariant; the evictable pool must still be empty (above).
  const bool placed = rt.placed_memory() != nullptr;
  if (!placed && (!budget_ || rt.memory_usage() + request <= *budget_))
    Violation("out of memory computing tensor " + std::to_string(tensor) + " although " +
              IntToString(request) + " bytes fit");
}

void InvariantObserver::OnFinish(const Runtime&) { CheckMemory("the end"); }

}  // namespace dtrcheck
