// Telemetry (simrd/telemetry.py): summary counters, per-storage statistics,
// and the stream of evictions, offered to observers as hooks.
#ifndef DTRCHECK_SIM_TELEMETRY_H_
#define DTRCHECK_SIM_TELEMETRY_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/sha256.h"
#include "sim/python/py_arith.h"
#include "sim/tensor.h"

namespace dtrcheck {

// Telemetry.SUMMARY_STATS.
struct Summary {
  Int model_compute = 0;
  Int remat_compute = 0;
  Int max_memory = 0;
  Int model_const_memory = 0;
  Int bottleneck_memory = 0;
  Int heuristic_access_count = 0;
  Int heuristic_eval_count = 0;
};

class Runtime;

// Receives runtime events. The default implementations do nothing; the
// diagnostics (diagnose, compare) and tests subclass it.
class RuntimeObserver {
 public:
  virtual ~RuntimeObserver() = default;
  virtual void OnEvict(Int /*clock*/, TensorId /*root_id*/) {}
  // Heuristic::Choose evaluated the storage with this root id (eviction
  // number `eviction` is being chosen): the cost as a double, and whether
  // simrd's value was an int.
  virtual void OnEvaluate(int64_t /*eviction*/, TensorId /*root_id*/, double /*cost*/) {}
  // A Get/Pin/Compute command of the schedule is about to run.
  virtual void OnCommand(size_t /*index*/) {}
  // Just before the runtime raises out-of-memory while making room for
  // `request` bytes to compute `tensor`; rt.PendingChain() is the chain of
  // tensors being materialized, outermost first.
  virtual void OnOom(const Runtime& /*rt*/, TensorId /*tensor*/, Int /*request*/) {}
  // A tensor starts materializing (simrd's _T_pending); depth is the
  // rematerialization recursion depth (0 for a model compute).
  virtual void OnPending(TensorId /*tensor*/, size_t /*depth*/) {}
  // The operator of `tensor` has just computed (the first time, or again
  // to rematerialize it), after the evictions that made room for it: with
  // OnEvict, the run as a schedule of computes and frees (optimal/run_schedule.h).
  virtual void OnCompute(TensorId /*tensor*/) {}
  // The run is about to start; `rt` stays valid until OnFinish, so an
  // observer may keep it to inspect the state at later events (the property
  // tests check budgets, locks and pins at each eviction). Called by Simulate.
  virtual void OnStart(const Runtime& /*rt*/) {}
  // The run has ended (ok, oom, thrashed or a simrd assertion); `rt` holds
  // the final state, e.g. rt.max_locked_bytes(). Called by Simulate.
  virtual void OnFinish(const Runtime& /*rt*/) {}
};

// The eviction stream's digest: SHA-256 over "<clock> <root_id>\n" lines.
class EvictionDigest {
 public:
  EvictionDigest();
  ~EvictionDigest();
  // A copy digests on from where `other` is (a forked run's digest).
  EvictionDigest(const EvictionDigest& other);
  EvictionDigest& operator=(const EvictionDigest& other);  // the same, in this one's memory
  void Add(Int clock, TensorId root_id);
  std::string HexDigest();  // finishes the digest
  int64_t count() const { return count_; }

 private:
  void Flush();
  Sha256 sha256_;
  // Lines not hashed yet: SHA-256 of the concatenation does not depend on
  // how it is cut, and one update per few kilobytes costs far less than
  // one per line (runs evict hundreds of thousands of times).
  std::string pending_;
  int64_t count_ = 0;
};

}  // namespace dtrcheck

#endif  // DTRCHECK_SIM_TELEMETRY_H_
