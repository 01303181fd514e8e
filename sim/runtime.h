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
// SimrdAssertion (sim/simrd_errors.h). The concerns simrd keeps apart are
// apart here too: region upkeep is RegionUpkeep (sim/region_upkeep.h,
// simrd/optimization/region.py), and RuntimeV1's banishing is in
// runtime_v1.cc (simrd/runtime/v1.py).
#ifndef DTRCHECK_SIM_RUNTIME_H_
#define DTRCHECK_SIM_RUNTIME_H_

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "base/epoch_marks.h"
#include "sim/eqclass.h"
#include "sim/features.h"
#include "sim/graph.h"
#include "sim/heuristic.h"
#include "sim/placed_memory.h"
#include "sim/region_upkeep.h"
#include "sim/simrd_errors.h"
#include "sim/storage_adjacency.h"
#include "sim/storage_regions.h"
#include "sim/telemetry.h"
#include "sim/tensor.h"

namespace dtrcheck {

enum class RuntimeKind { kV1, kV2, kV2Eager, kV2Optimized, kV2EagerOptimized };

const std::vector<std::string>& RuntimeNames();
std::optional<RuntimeKind> RuntimeKindFromName(const std::string& name);
Features RuntimeFeatures(RuntimeKind kind);

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
  // Where allocations are placed (sim/placed_memory.h); bytes: nowhere, as simrd.
  MemoryOptions memory;
};

class Runtime {
 public:
  // Throws std::invalid_argument with simrd's RuntimeError message when the
  // heuristic needs a feature this runtime lacks (PairRefusal).
  Runtime(const Graph& graph, const RuntimeOptions& options, Heuristic& heuristic,
          RuntimeObserver* observer = nullptr);

  // A copy of `other`, which stands between two commands, that runs on under
  // `budget` and evicts with `heuristic`: the run `other` would have been
  // had it had this budget from the start, provided no budget check of
  // `other` so far has differed under the two budgets, and `heuristic` is a
  // new heuristic of the same name and seed as other's, which no run has
  // consulted yet (Free, the only caller of Heuristic::Choose, has not
  // run). This is how a sweep shares the prefix its runs have in common
  // (SimulateBudgets, sim/simulate.h).
  Runtime(const Runtime& other, Heuristic& heuristic, std::optional<Int> budget);
  // The same fork made in this runtime, whose memory it reuses: a sweep
  // forks once per budget, and copying into arrays that already have the
  // room allocates nothing (where a new copy allocates every per-storage
  // array, twice: its exact size, then the room for the run).
  void ForkFrom(const Runtime& other, Heuristic& heuristic, std::optional<Int> budget);

  // Replays the whole schedule (simrd's Graph.get_closure()(rt)), from the
  // next command not run yet (see RunScheduleUntil) to the end.
  // OutOfMemory, RematExceeded and SimrdAssertion propagate; an assertion's
  // message names the log line of the command that tripped it.
  void RunSchedule() { RunScheduleUntil(graph_->schedule.size()); }
  // The same, stopping before command `end`.
  void RunScheduleUntil(size_t end);
  // The index of the next command to run (the failing one after a throw).
  size_t next_command() const { return next_command_; }

  // State the heuristics read.
  Int clock() const { return clock_; }
  const std::vector<Storage>& storages() const { return storages_; }
  const std::vector<Tensor>& tensors() const { return tensors_; }
  const std::vector<Operator>& operators() const { return operators_; }
  // s.region and s.region_rev; empty regions when this run keeps none.
  const Region& RegionOf(StorageId s) const {
    return regions_ ? storage_regions_.Get(s).region : NoRegion();
  }
  const Region& RegionRevOf(StorageId s) const {
    return regions_ ? storage_regions_.Get(s).region_rev : NoRegion();
  }
  // Per storage, its statistics when options.stats (RuntimeOptions), else empty.
  const std::vector<StorageStats>& storage_stats() const { return storage_stats_; }
  // Every byte the regions take (StorageRegions::Bytes): dtrcheck's own
  // measure, which grows with the material storages, not the trace.
  size_t RegionBytes() const { return storage_regions_.Bytes(); }
  // simrd's t.parents, t.children (in the order they gained entries) and
  // s.tensors (the root first); valid until the run goes on.
  std::span<const TensorId> Parents(TensorId t) const { return tensor_parents_.Items(t); }
  std::span<const TensorId> Children(TensorId t) const { return tensor_children_.Items(t); }
  std::span<const TensorId> TensorsOf(StorageId s) const { return storage_tensors_.Items(s); }
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
  // The largest memory_usage + request that a budget check has compared
  // with the budget so far (every check, passed or not): a run under budget
  // B has made the same choices as an unbounded one as long as this is <= B.
  // Under an allocator model, also the smallest device capacity under which
  // the allocator has decided the same (memory::Allocator::CapacityDemand).
  Int max_demand() const;
  Int max_locked_bytes() const { return max_locked_bytes_; }
  Int max_locked_clock() const { return max_locked_clock_; }
  // Region rebuilds that updated the last walk instead of walking
  // (RegionUpkeep::Update; dtrcheck's own statistic, not simrd's).
  int64_t region_updates() const { return region_upkeep_.updates(); }
  // The allocator model's placements; null under --memory bytes.
  const PlacedMemory* placed_memory() const { return placed_.get(); }
  // How many times s was rematerialized (MegEngine's recompute_times).
  int64_t recompute_count(StorageId s) const { return recompute_count_[s]; }
  // While the runtime evicts: the bytes the pending allocation asks for (the
  // request the allocator refused, or the bytes over the budget); else 0.
  Int request_bytes() const { return request_bytes_; }
  // Whether that request is the allocator's (else the bytes over the budget).
  bool request_is_placement() const { return request_is_placement_; }
  // The tensors being materialized, outermost first (simrd's recursion).
  std::vector<TensorId> PendingChain() const;

  // Storage.evicted_neighbors: counts one access per edge; result in
  // discovery order (parents then children, tensor by tensor).
  void EvictedNeighbors(StorageId s, StorageList* out);
  // Heuristic.evicted_neighborhood (DTRUnopt): both regions rebuilt afresh.
  void EvictedNeighborhood(StorageId s, StorageList* out);

 private:
  // The schedule from next_command_ up to `end`; next_command_ is the
  // command being run.
  void RunCommands(size_t end);
  // Member-wise; the forks then rebind what points into *this (AdoptFork).
  Runtime(const Runtime&) = default;
  Runtime& operator=(const Runtime&) = default;
  void AdoptFork(Heuristic& heuristic, std::optional<Int> budget);
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
  // The heuristic's victims for one decision (OutOfMemory if none).
  StorageList& ChooseVictims();
  // Under an allocator model: places the storages computing `id` makes
  // material, evicting with the heuristic while the allocator refuses.
  void PlaceOutputs(TensorId id);
  void Evict(StorageId s);
  void Lock(StorageId s);
  void Unlock(StorageId s);
  void MakeEvictable(StorageId s);
  bool OverBudget(Int extra) const;
  // The allocator's device capacity under these options: the budget.
  static uint64_t Capacity(const RuntimeOptions& options);
  void AssignStorages();
  void ReservePerStorage();
  void AddStorage(Int size);
  // Storage::material and region upkeep's copy of it, written together.
  void SetMaterial(StorageId s, bool material) {
    storages_[s].material = material;
    region_upkeep_.SetMaterial(s, material);
  }

  // RuntimeV1's banishing (runtime_v1.cc, simrd/runtime/v1.py).
  void NewTensorV1(TensorId t);  // compute: the V1 metadata of a new tensor
  void EvictV1(StorageId s);     // _evict: s's tensors become evicted dependents
  void ComputedDependentsV1(TensorId t, const std::vector<TensorId>& remat_siblings,
                            StorageId parent);  // _materialize, after unlocking a parent
  void TryBanishV1(StorageId s);

  // Telemetry hooks.
  void TCompute(TensorId t, bool rematerialize, bool direct);
  void TBottleneck(TensorId t);
  void TEvict(StorageId s);

  static const Region& NoRegion();
  void Check(bool ok, const char* what) {
    if (!ok) throw SimrdAssertion(what);
  }

  const Graph* graph_;
  RuntimeOptions options_;
  Heuristic* heuristic_;
  RuntimeObserver* observer_;
  bool banishing_, eager_, optimized_, regions_, eq_class_;

  size_t next_command_ = 0;
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
  std::vector<int32_t> recompute_count_;  // per storage
  Int request_bytes_ = 0;
  bool request_is_placement_ = false;
  StorageList victims_;  // ChooseVictims's
  int64_t distinct_evicted_ = 0;
  Int locked_bytes_ = 0, max_locked_bytes_ = 0, max_locked_clock_ = 0;
  Int max_demand_ = 0;
  // Shared only until AdoptFork, which gives a fork its own copy.
  std::shared_ptr<PlacedMemory> placed_;

  std::vector<Frame> frames_;
  std::vector<TensorId> undefined_parents_;
  std::vector<StorageId> tensor_storage_;    // Tensor::storage, compact, for every graph tensor
  size_t storage_count_ = 0;                 // the storages the graph will create
  StorageRegions storage_regions_;           // when regions_
  std::vector<StorageStats> storage_stats_;  // per storage, when options_.stats
  // RuntimeV1's s.meta['evicted_dependents'], per storage (when banishing_):
  // a set, kept sorted.
  std::vector<std::vector<TensorId>> evicted_dependents_;
  // Tensor.parents, Tensor.children and Storage.tensors, rows sized for the
  // whole graph (AssignStorages).
  StorageAdjacency tensor_parents_, tensor_children_, storage_tensors_;
  // Visit marks over storage ids for set operations, two so that two sets
  // can be built at once; region upkeep uses them too.
  EpochMarks marks_, marks2_;
  RegionUpkeep region_upkeep_;
  // Evict's list: a copy of each frontier it absorbs into, then the evicted neighbours.
  StorageList evict_scratch_;
  struct ComputeScratch {
    std::vector<TensorId> remat_siblings;  // FinishMaterialize's, which does not nest either
    std::vector<TensorId> dup_siblings;
    StorageList remat_storages;
    StorageList affected, affected_rev;
  } compute_scratch_;
};

}  // namespace dtrcheck

#endif  // DTRCHECK_SIM_RUNTIME_H_
