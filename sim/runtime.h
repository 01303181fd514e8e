// The simrd runtimes (simrd/runtime/v1.py, v2.py).
//
// One class covers the five registered runtimes; a RuntimeKind selects the
// behaviour each adds:
//   RuntimeV1                banishing (permanent eviction of dead storages)
//   RuntimeV2                the DTR runtime with a storage pool
//   RuntimeV2Eager           + eager eviction of released storages
//   RuntimeV2Optimized       + regions and equivalence classes
//   RuntimeV2EagerOptimized  + both (the paper's and dtrcheck's default)
// Methods carry simrd's names; simrd's assertions are kept and raise
// SimrdAssertion, so that an input on which simrd would crash is reported
// instead of silently diverging.
#ifndef DTRCHECK_SIM_RUNTIME_H_
#define DTRCHECK_SIM_RUNTIME_H_

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/eqclass.h"
#include "sim/features.h"
#include "sim/graph.h"
#include "sim/heuristic.h"
#include "sim/storage_adjacency.h"
#include "sim/telemetry.h"
#include "sim/tensor.h"

namespace dtrcheck {

enum class RuntimeKind { kV1, kV2, kV2Eager, kV2Optimized, kV2EagerOptimized };

const std::vector<std::string>& RuntimeNames();
std::optional<RuntimeKind> RuntimeKindFromName(const std::string& name);
std::string RuntimeName(RuntimeKind kind);
Features RuntimeFeatures(RuntimeKind kind);

// simrd raises MemoryError: nothing left to evict.
struct OutOfMemory {};
// simrd raises RematExceededError: remat_compute > remat_limit.
struct RematExceeded {};
// An assertion inside simrd failed (simrd would crash with AssertionError).
struct SimrdAssertion : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Ordered like simrd's storage_pool list: append, remove anywhere, scan in
// order. Removal leaves a hole that a later compaction closes.
class StoragePool {
 public:
  bool Append(StorageId s, std::vector<Storage>& storages);
  bool Remove(StorageId s, std::vector<Storage>& storages);
  size_t size() const { return live_; }
  // The i-th evictable storage in list order (storage_pool[i]).
  StorageId Nth(size_t i, std::vector<Storage>& storages);
  // Slots in list order; holes are -1.
  const std::vector<StorageId>& slots() const { return slots_; }

 private:
  void Compact(std::vector<Storage>& storages);
  std::vector<StorageId> slots_;
  size_t live_ = 0;
};

struct RuntimeOptions {
  RuntimeKind kind = RuntimeKind::kV2EagerOptimized;
  std::optional<Int> budget;           // nullopt: math.inf
  std::optional<Int> remat_limit_int;  // --remat-limit N
  std::optional<double> remat_limit;   // --overhead-limit: a Python float
  bool stats = true;                   // per-storage statistics
  // Testing aid for `dtrcheck diff`: at this eviction number, evict another
  // pool storage than the heuristic's choice (a deliberate divergence).
  int64_t perturb_eviction = -1;
  RegionRebuilds region_rebuilds = RegionRebuilds::kUpdate;
};

class Runtime {
 public:
  // Throws std::invalid_argument (simrd's RuntimeError) when the heuristic
  // needs a feature this runtime lacks.
  Runtime(const Graph& graph, const RuntimeOptions& options, Heuristic& heuristic,
          RuntimeObserver* observer = nullptr);

  // Replays the whole schedule (simrd's Graph.get_closure()(rt)).
  // OutOfMemory, RematExceeded and SimrdAssertion propagate.
  void RunSchedule();

  // State the heuristics read.
  Int clock() const { return clock_; }
  const std::vector<Storage>& storages() const { return storages_; }
  const std::vector<Tensor>& tensors() const { return tensors_; }
  const std::vector<Operator>& operators() const { return operators_; }
  const StoragePool& pool() const { return pool_; }
  RuntimeObserver* observer() const { return observer_; }
  // storage_pool[i], for RandomStorage.
  StorageId PoolNth(size_t i) { return pool_.Nth(i, storages_); }
  Summary& summary() { return summary_; }
  const Summary& summary() const { return summary_; }
  EqClassForest& eq_forest() { return eq_forest_; }
  Int memory_usage() const { return memory_usage_; }
  RuntimeKind kind() const { return options_.kind; }
  const std::optional<Int>& budget() const { return options_.budget; }
  EvictionDigest& digest() { return digest_; }
  int64_t distinct_evicted() const { return distinct_evicted_; }
  // Bytes of material storages holding a lock (ref_int > 0; pins included),
  // and the largest such total seen, with the clock when it was first seen.
  Int locked_bytes() const { return locked_bytes_; }
  Int max_locked_bytes() const { return max_locked_bytes_; }
  Int max_locked_clock() const { return max_locked_clock_; }
  // Region rebuilds that updated the last walk instead of walking
  // (RegionUpdate; dtrcheck's own statistic, not simrd's).
  int64_t region_updates() const { return region_updates_; }
  // The tensors being materialized, outermost first (simrd's recursion).
  std::vector<TensorId> PendingChain() const;

  // Storage.evicted_neighbors: counts one access per edge; result in
  // discovery order (parents then children, tensor by tensor).
  void EvictedNeighbors(StorageId s, std::vector<StorageId>* out);
  // Heuristic.evicted_neighborhood (DTRUnopt): both regions rebuilt afresh.
  void EvictedNeighborhood(StorageId s, std::vector<StorageId>* out);

 private:
  struct Frame {
    TensorId t;
    bool rematerialize;
    size_t undefined_begin, undefined_end, next;
    bool child_pending;
  };

  // simrd's runtime API.
  void Compute(OpId op);
  void Rematerialize(TensorId t) { Materialize(t, true); }
  void Get(TensorId t);
  void Release(TensorId t);
  void Pin(TensorId t);

  // simrd's internals.
  void Materialize(TensorId t, bool rematerialize);
  void BeginMaterialize(TensorId t, bool rematerialize);
  void FinishMaterialize(const Frame& f);
  void ComputeTensor(TensorId t, bool rematerialize, std::vector<TensorId>* remat_siblings);
  void Free(Int size);
  void Evict(StorageId s);
  void Lock(StorageId s);
  void Unlock(StorageId s);
  void MakeEvictable(StorageId s);
  void TryBanishV1(StorageId s);
  bool OverBudget(Int extra) const;

  // Regions (simrd/optimization/region.py).
  void RegionAbsorb(Region& region, bool reverse, StorageId frontier_s);
  void RegionRebuild(Region& region, StorageId base, bool reverse);
  uint64_t RegionWalk(Region& region, StorageId base, bool reverse);  // returns the accesses
  bool RegionUpdate(Region& region, StorageId base, bool reverse);
  void CheckRegionUpdate(const Region& region, StorageId base, bool reverse);
  void LogChange(StorageId s) {
    if (incremental_regions_) change_log_.push_back(s);
  }
  void LogShapeChange(StorageId s);
  void AssignStorages();

  // Telemetry hooks.
  void TCompute(TensorId t, bool rematerialize, bool direct);
  void TBottleneck(TensorId t);
  void TEvict(StorageId s);

  void Check(bool ok, const char* what) {
    if (!ok) throw SimrdAssertion(what);
  }

  const Graph& graph_;
  RuntimeOptions options_;
  Heuristic& heuristic_;
  RuntimeObserver* observer_;
  bool banishing_, eager_, optimized_, regions_, eq_class_;

  Int clock_ = 1;
  Int memory_usage_ = 0;
  std::vector<Operator> operators_;
  std::vector<Tensor> tensors_;
  std::vector<Storage> storages_;
  StoragePool pool_;
  Summary summary_;
  EqClassForest eq_forest_;
  EvictionDigest digest_;
  std::vector<uint8_t> ever_evicted_;
  int64_t distinct_evicted_ = 0;
  Int locked_bytes_ = 0, max_locked_bytes_ = 0, max_locked_clock_ = 0;

  std::vector<Frame> frames_;
  std::vector<TensorId> undefined_parents_;
  // Per-storage visit marks for set operations; an epoch number marks a
  // storage as "in the set being built" without clearing the array.
  std::vector<uint32_t> mark_, mark2_;
  uint32_t epoch_ = 0, epoch2_ = 0;
  uint32_t NextEpoch();
  // Storage::material and its compact mirror material_, written together.
  void SetMaterial(StorageId s, bool material);
  std::vector<StorageId> tensor_storage_;  // Tensor::storage, compact, for every graph tensor
  std::vector<uint8_t> material_;
  std::vector<Int> storage_compute_;  // Storage::compute, compact
  // Per storage, the storages of its tensors' children (parents), one entry
  // per tensor edge: Region::rebuild's walk without the tensor indirection.
  StorageAdjacency child_storages_, parent_storages_;
  uint32_t NextEpoch2();
  std::vector<StorageId> scratch2_;
  // Evict's list: a copy of each frontier it absorbs into, then the evicted neighbours.
  StorageSet evict_scratch_;
  struct ComputeScratch {
    std::vector<TensorId> dup_siblings;
    std::vector<StorageId> remat_storages;
    StorageSet affected, affected_rev;
  } compute_scratch_;
  // RegionRebuild's buffers, one slot per storage.
  std::vector<StorageId> walk_stack_, walk_interior_, walk_frontier_;
  // RegionUpdate's record of what changed: when the storage graph is
  // acyclic, each storage whose material state, adjacency rows or compute
  // changes is appended to change_log_; shape_changed_at_[s] is the log's
  // length just after the last change of s's rows or compute.
  bool incremental_regions_ = false;
  int64_t region_updates_ = 0;
  std::vector<StorageId> change_log_;
  std::vector<size_t> shape_changed_at_;
  std::vector<StorageId> update_material_, update_candidates_;
};

}  // namespace dtrcheck

#endif  // DTRCHECK_SIM_RUNTIME_H_
