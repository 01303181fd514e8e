#include "sim/runtime.h"

#include <algorithm>

namespace dtrcheck {

namespace {

struct RuntimeInfo {
  const char* name;
  RuntimeKind kind;
  Features features;
};

using namespace feature;
constexpr Features kV2Features = kTelemetry | kLastEvict | kLastAccess | kLastAccessInt;
const RuntimeInfo kRuntimes[] = {
    {"RuntimeV1", RuntimeKind::kV1, kTelemetry | kBanishing | kLastAccess | kLastAccessInt},
    {"RuntimeV2", RuntimeKind::kV2, kV2Features},
    {"RuntimeV2Eager", RuntimeKind::kV2Eager, kV2Features | kEagerEvict},
    {"RuntimeV2Optimized", RuntimeKind::kV2Optimized, kV2Features | kRegions | kEqClass},
    {"RuntimeV2EagerOptimized", RuntimeKind::kV2EagerOptimized,
     kV2Features | kRegions | kEqClass | kEagerEvict},
};

}  // namespace

const std::vector<std::string>& RuntimeNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (const auto& r : kRuntimes) v.push_back(r.name);
    return v;
  }();
  return names;
}

std::optional<RuntimeKind> RuntimeKindFromName(const std::string& name) {
  for (const auto& r : kRuntimes)
    if (name == r.name) return r.kind;
  return std::nullopt;
}

std::string RuntimeName(RuntimeKind kind) {
  for (const auto& r : kRuntimes)
    if (kind == r.kind) return r.name;
  return "?";
}

Features RuntimeFeatures(RuntimeKind kind) {
  for (const auto& r : kRuntimes)
    if (kind == r.kind) return r.features;
  return 0;
}

// ---------------------------------------------------------------- StoragePool

bool StoragePool::Append(StorageId s, std::vector<Storage>& storages) {
  if (storages[s].pool_slot >= 0) return false;
  if (slots_.size() > 64 && slots_.size() >= 2 * live_) Compact(storages);
  storages[s].pool_slot = static_cast<int32_t>(slots_.size());
  slots_.push_back(s);
  ++live_;
  return true;
}

bool StoragePool::Remove(StorageId s, std::vector<Storage>& storages) {
  int32_t slot = storages[s].pool_slot;
  if (slot < 0) return false;
  slots_[slot] = -1;
  storages[s].pool_slot = -1;
  --live_;
  while (!slots_.empty() && slots_.back() < 0) slots_.pop_back();
  return true;
}

StorageId StoragePool::Nth(size_t i, std::vector<Storage>& storages) {
  if (slots_.size() != live_) Compact(storages);
  return slots_[i];
}

void StoragePool::Compact(std::vector<Storage>& storages) {
  size_t out = 0;
  for (StorageId s : slots_) {
    if (s < 0) continue;
    storages[s].pool_slot = static_cast<int32_t>(out);
    slots_[out++] = s;
  }
  slots_.resize(out);
}

// -------------------------------------------------------------------- Runtime

Runtime::Runtime(const Graph& graph, const RuntimeOptions& options, Heuristic& heuristic,
                 RuntimeObserver* observer)
    : graph_(graph),
      options_(options),
      heuristic_(heuristic),
      observer_(observer),
      eq_forest_(&summary_.heuristic_access_count) {
  Features have = RuntimeFeatures(options.kind);
  Features need = heuristic.RequiredFeatures();
  if ((need & ~have) != 0) {
    throw std::invalid_argument("Heuristic " + heuristic.Name() + " requires " +
                                FeaturesToString(need) + " but this runtime only supports " +
                                FeaturesToString(have));
  }
  banishing_ = options.kind == RuntimeKind::kV1;
  eager_ = options.kind == RuntimeKind::kV2Eager || options.kind == RuntimeKind::kV2EagerOptimized;
  optimized_ =
      options.kind == RuntimeKind::kV2Optimized || options.kind == RuntimeKind::kV2EagerOptimized;
  regions_ = optimized_ && (need & feature::kRegions);
  eq_class_ = optimized_ && (need & feature::kEqClass);

  operators_.reserve(graph.ops.size());
  for (const GOp& g : graph.ops) {
    Operator op;
    op.compute = g.cost;
    op.sizes = &g.size;
    op.aliases = &g.alias;
    op.name = &g.name;
    for (Int s : g.size) op.total_size += s;
    op.is_constant = g.name.compare(0, g.name.find('/'), "constant") == 0;
    op.outputs = static_cast<int32_t>(g.size.size());
    operators_.push_back(op);
  }
  tensors_.reserve(graph.tensors.size());
  storages_.reserve(graph.tensors.size());
  AssignStorages();
}

// Which storage each tensor of the graph will have, and the storage
// adjacency rows sized for every edge: Compute runs the ops in graph order
// (the graph's tensor ids are the runtime's), creating a storage for each
// output that is not an alias, in this order, so both are known before the run.
// Also whether regions may be rebuilt incrementally (RegionUpdate): only
// when the storage graph has no cycle, which holds when every edge but a
// storage's edge to itself goes from an older storage to a newer one.
void Runtime::AssignStorages() {
  tensor_storage_.assign(graph_.tensors.size(), -1);
  std::vector<uint32_t> children, parents;
  bool acyclic = true;
  TensorId next = 0;
  for (const GOp& g : graph_.ops) {
    const TensorId first = next;
    for (size_t i = 0; i < g.size.size(); ++i, ++next) {
      int32_t a = g.alias[i];
      if (a != -1) {
        tensor_storage_[next] = tensor_storage_[g.args[a]];
      } else {
        tensor_storage_[next] = static_cast<StorageId>(children.size());
        children.push_back(0);
        parents.push_back(0);
      }
    }
    for (TensorId t = first; t < next; ++t)
      for (TensorId p : g.args) {
        children[tensor_storage_[p]] += 1;
        parents[tensor_storage_[t]] += 1;
        acyclic = acyclic && tensor_storage_[p] <= tensor_storage_[t];
      }
  }
  child_storages_.Reserve(children);
  parent_storages_.Reserve(parents);
  incremental_regions_ = regions_ && acyclic && options_.region_rebuilds != RegionRebuilds::kWalk;
}

std::vector<TensorId> Runtime::PendingChain() const {
  std::vector<TensorId> chain;
  for (const Frame& f : frames_) chain.push_back(f.t);
  return chain;
}

bool Runtime::OverBudget(Int extra) const {
  return options_.budget && memory_usage_ + extra > *options_.budget;
}

void Runtime::RunSchedule() {
  for (size_t i = 0; i < graph_.schedule.size(); ++i) {
    const Command& cmd = graph_.schedule[i];
    if (observer_) observer_->OnCommand(i);
    switch (cmd.kind) {
      case CommandKind::kCompute:
        Compute(cmd.target);
        break;
      case CommandKind::kGet:
        Get(cmd.target);
        break;
      case CommandKind::kPin:
        if (!tensors_[cmd.target].defined) Rematerialize(cmd.target);
        Check(tensors_[cmd.target].defined, "assert t.defined (closure Pin)");
        Pin(cmd.target);
        break;
      case CommandKind::kRelease:
        Release(cmd.target);
        break;
    }
  }
}

// RuntimeV*.compute with Tensor.from_op.
void Runtime::Compute(OpId op_id) {
  const GOp& g = graph_.ops[op_id];
  const Operator& op = operators_[op_id];
  TensorId first = static_cast<TensorId>(tensors_.size());
  for (int32_t i = 0; i < op.outputs; ++i) {
    TensorId id = first + i;
    Tensor t;
    t.parents = g.args;
    t.index = i;
    t.op = op_id;
    t.ref_ext = 1;
    const StorageId sid = tensor_storage_[id];              // AssignStorages
    if (sid == static_cast<StorageId>(storages_.size())) {  // not an alias: a new storage
      Storage s;
      s.size = g.size[i];
      storages_.push_back(std::move(s));
      material_.push_back(0);
      storage_compute_.push_back(0);
      mark_.push_back(0);
      mark2_.push_back(0);
      walk_stack_.push_back(0);
      walk_interior_.push_back(0);
      walk_frontier_.push_back(0);
      shape_changed_at_.push_back(0);
      ever_evicted_.push_back(0);
    }
    Storage& s = storages_[sid];
    t.storage = sid;
    if (s.tensors.empty()) s.root_id = id;
    // Storage.get_compute: the compute of the distinct ops of its tensors.
    // Tensors of one op are appended together, so only the last can repeat it.
    if (s.tensors.empty() || tensors_[s.tensors.back()].op != op_id) {
      s.compute += op.compute;
      storage_compute_[sid] = s.compute;
      LogShapeChange(sid);
    }
    s.tensors.push_back(id);
    s.ref_ext += 1;
    t.is_alias = id != s.root_id;
    tensors_.push_back(std::move(t));
  }
  for (int32_t i = 0; i < op.outputs; ++i) {
    Tensor& t = tensors_[first + i];
    for (int32_t j = 0; j < op.outputs; ++j)
      if (j != i) t.siblings.push_back(first + j);
  }
  for (TensorId p : g.args)
    for (int32_t i = 0; i < op.outputs; ++i) tensors_[p].children.push_back(first + i);
  // The same edges at storage level, for region rebuilds.
  for (int32_t i = 0; i < op.outputs; ++i) {
    StorageId si = tensor_storage_[first + i];
    for (TensorId p : g.args) {
      StorageId sp = tensor_storage_[p];
      child_storages_.Append(sp, si);
      parent_storages_.Append(si, sp);
      LogShapeChange(sp);
      LogShapeChange(si);
    }
  }

  for (int32_t i = 0; i < op.outputs; ++i) {
    TensorId id = first + i;
    Storage& s = storages_[tensors_[id].storage];
    if (banishing_) {
      // V1 metadata: banished flag, and dependents not yet computed.
      if (s.banished) Check(false, "assert not t.storage.meta['banished']");
      for (TensorId p : g.args) {
        Storage& ps = storages_[tensors_[p].storage];
        if (s.root_id != ps.root_id) SortedInsert(ps.evicted_dependents, id);
      }
    }
    if (eq_class_ && s.ecn_state == EcnState::kAbsent) {
      s.ecn = eq_forest_.NewNode(0);
      s.ecn_state = EcnState::kNode;
    }
    // _T_new_tensor
    if (op.is_constant) summary_.model_const_memory += (*op.sizes)[i];
  }

  Materialize(first, /*rematerialize=*/false);

  for (int32_t i = 0; i < op.outputs; ++i) {
    Storage& s = storages_[tensors_[first + i].storage];
    s.last_access = Stamp::At(clock_);
    s.last_access_int = Stamp::At(clock_);
  }
}

void Runtime::Get(TensorId id) {
  Tensor& t = tensors_[id];
  Storage& s = storages_[t.storage];
  Check(s.ref_ext > 0, "cannot get a Tensor whose Storage has no external refs");
  s.ref_ext += 1;
  t.ref_ext += 1;
}

void Runtime::Release(TensorId id) {
  Tensor& t = tensors_[id];
  StorageId sid = t.storage;
  Storage& s = storages_[sid];
  Check(s.ref_ext > 0, "cannot release a Tensor whose Storage has no external refs");
  s.ref_ext -= 1;
  t.ref_ext -= 1;
  if (banishing_) {
    if (s.ref_ext == 0) TryBanishV1(sid);
  } else if (eager_) {
    if (s.ref_ext == 0 && s.material && !s.pinned) {
      Check(s.ref_int == 0, "assert s.ref_int == 0 (eager eviction)");
      Evict(sid);
    }
  }
}

void Runtime::Pin(TensorId id) {
  StorageId sid = tensors_[id].storage;
  Storage& s = storages_[sid];
  Check(s.material, "cannot pin Tensor with immaterial Storage");
  if (s.pinned) return;
  Lock(sid);
  storages_[sid].pinned = true;
}

void Runtime::MakeEvictable(StorageId s) {
  Check(storages_[s].ref_int == 0, "tried to make locked Storage evictable");
  pool_.Append(s, storages_);
}

void Runtime::Lock(StorageId sid) {
  Storage& s = storages_[sid];
  Check(s.material, "cannot lock evicted Storage");
  if (banishing_) Check(!s.banished, "cannot lock banished Storage");
  if (s.ref_int == 0) {
    Check(pool_.Remove(sid, storages_), "unevictable Storage that is not locked");
    locked_bytes_ += s.size;
    if (locked_bytes_ > max_locked_bytes_) {
      max_locked_bytes_ = locked_bytes_;
      max_locked_clock_ = clock_;
    }
  }
  s.ref_int += 1;
}

void Runtime::Unlock(StorageId sid) {
  Storage& s = storages_[sid];
  Check(s.material, "cannot unlock evicted Storage");
  Check(s.ref_int > 0, "cannot unlock Storage with no locks");
  s.ref_int -= 1;
  if (s.ref_int == 0) {
    Check(pool_.Append(sid, storages_), "Storage was evictable while locked");
    locked_bytes_ -= s.size;
  }
}

void Runtime::Free(Int size) {
  while (OverBudget(size)) {
    if (pool_.size() == 0) throw OutOfMemory{};
    StorageId s = heuristic_.Choose(*this);
    if (digest_.count() == options_.perturb_eviction) {
      for (StorageId other : pool_.slots())
        if (other >= 0 && other != s) {
          s = other;
          break;
        }
    }
    Evict(s);
  }
}

void Runtime::TEvict(StorageId sid) {
  Storage& s = storages_[sid];
  s.stats.evict_count += 1;
  digest_.Add(clock_, s.root_id);
  if (!ever_evicted_[sid]) {
    ever_evicted_[sid] = 1;
    ++distinct_evicted_;
  }
  if (observer_) observer_->OnEvict(clock_, s.root_id);
}

void Runtime::Evict(StorageId sid) {
  {
    Storage& s = storages_[sid];
    Check(s.ref_int == 0, "tried to evict locked Storage");
    if (!banishing_) Check(!s.pinned, "assert not s.pinned");
    SetMaterial(sid, false);
    if (!banishing_) s.last_evict = Stamp::At(clock_);
    memory_usage_ -= s.size;
    pool_.Remove(sid, storages_);
    for (TensorId t : s.tensors) tensors_[t].defined = false;
    if (banishing_) {
      for (TensorId t : s.tensors)
        for (TensorId p : tensors_[t].parents) {
          Storage& ps = storages_[tensors_[p].storage];
          if (s.root_id != ps.root_id) SortedInsert(ps.evicted_dependents, t);
        }
    }
  }
  TEvict(sid);

  if (regions_) {
    // Copies: absorbing may touch s's own regions when the storage graph has
    // a cycle through s (aliases), and simrd iterates the sets as they are.
    StorageSet& frontier = evict_scratch_;
    frontier = storages_[sid].region_rev.frontier.items();
    for (StorageId ps : frontier) RegionAbsorb(storages_[ps].region, false, sid);
    frontier = storages_[sid].region.frontier.items();
    for (StorageId cs : frontier) RegionAbsorb(storages_[cs].region_rev, true, sid);
    storages_[sid].region.Clear();
    storages_[sid].region_rev.Clear();
  }
  if (eq_class_) {
    Storage& s = storages_[sid];
    Check(s.ecn_state != EcnState::kNode, "assert s.meta.get('ecn', None) is None");
    s.ecn = eq_forest_.NewNode(s.compute);
    s.ecn_state = EcnState::kNode;
    std::vector<StorageId>& neighbors = evict_scratch_;  // the absorbs above are done with it
    EvictedNeighbors(sid, &neighbors);
    for (StorageId n : neighbors) {
      Check(storages_[n].ecn_state == EcnState::kNode,
            "assert n.meta.get('ecn', None) is not None");
      eq_forest_.Merge(storages_[n].ecn, storages_[sid].ecn);
    }
  }
}

void Runtime::EvictedNeighbors(StorageId sid, std::vector<StorageId>* out) {
  out->clear();
  const uint32_t seen = NextEpoch();
  const Storage& s = storages_[sid];
  auto visit = [&](TensorId u) {
    summary_.heuristic_access_count += 1;
    StorageId us = tensors_[u].storage;
    const Storage& o = storages_[us];
    if (!o.material && o.root_id != s.root_id && mark_[us] != seen) {
      mark_[us] = seen;
      out->push_back(us);
    }
  };
  for (TensorId t : s.tensors) {
    for (TensorId p : tensors_[t].parents) visit(p);
    for (TensorId c : tensors_[t].children) visit(c);
  }
}

void Runtime::EvictedNeighborhood(StorageId sid, std::vector<StorageId>* out) {
  Region region, region_rev;
  RegionRebuild(region, sid, false);
  RegionRebuild(region_rev, sid, true);
  out->clear();
  uint32_t seen = NextEpoch();
  for (const IdSet* set : {&region.interior, &region_rev.interior})
    for (StorageId x : set->items())
      if (mark_[x] != seen) {
        mark_[x] = seen;
        out->push_back(x);
      }
}

// Region.absorb: called on the regions whose frontier holds the storage
// frontier_s that was just evicted. Costs O(|frontier_s's region|), as in
// Python, not O(|region|).
void Runtime::RegionAbsorb(Region& region, bool reverse, StorageId frontier_s) {
  const Storage& fs = storages_[frontier_s];
  Check(!fs.material, "assert not frontier_s.material");
  Check(region.frontier.Erase(frontier_s), "assert frontier_s.root_id in self.frontier");
  region.walked = false;
  const Region& reg = reverse ? fs.region_rev : fs.region;
  if (&reg == &region) {
    // The region absorbs itself (a cycle through aliases): the frontier
    // update and the interior difference are empty; frontier_s is added.
    summary_.heuristic_access_count += 1;
    region.compute += fs.compute;
    region.interior.Insert(frontier_s);
    return;
  }
  for (StorageId x : reg.frontier.items()) region.frontier.Insert(x);
  // interior_diff = reg.interior - self.interior; interior_diff.add(frontier_s)
  StorageSet& diff = scratch2_;
  diff.clear();
  for (StorageId x : reg.interior.items())
    if (!region.interior.Contains(x)) diff.push_back(x);
  bool fs_in_diff = false;
  for (StorageId x : diff) fs_in_diff = fs_in_diff || x == frontier_s;
  if (!fs_in_diff) diff.push_back(frontier_s);
  for (StorageId x : diff) {
    summary_.heuristic_access_count += 1;
    region.compute += storage_compute_[x];
  }
  // Only frontier_s can already be in the interior: the rest is a difference.
  for (StorageId x : diff) {
    if (x == frontier_s)
      region.interior.Insert(x);
    else
      region.interior.AppendNew(x);
  }
}

// Region.rebuild: the evicted storages reachable from base, and the material
// ones at their edge. simrd walks every time; dtrcheck updates the last walk
// when it can (RegionUpdate), which gives the same sets and the same count
// of accesses, the count the walk would have made.
void Runtime::RegionRebuild(Region& region, StorageId base, bool reverse) {
  Check(storages_[base].material, "assert self.base.material");
  if (region.walked && RegionUpdate(region, base, reverse)) {
    ++region_updates_;
    if (options_.region_rebuilds == RegionRebuilds::kUpdateChecked)
      CheckRegionUpdate(region, base, reverse);
  } else {
    region.walk_accesses = RegionWalk(region, base, reverse);
    region.walked = incremental_regions_;
    region.walked_at = change_log_.size();
  }
  summary_.heuristic_access_count += region.walk_accesses;
}

// The walk of Region.rebuild, without counting its accesses (returned).
uint64_t Runtime::RegionWalk(Region& region, StorageId base, bool reverse) {
  // The hot loop of the simulation: it reads the compact per-tensor storage
  // and per-storage material arrays rather than the large structs. Distinct
  // storages have distinct root ids, so "root_id != base.root_id" is "!= base".
  // A row of the storage adjacency holds one entry per tensor edge, so its
  // length is the number of accesses simrd counts for the storage. One mark
  // serves both sets: during the walk a storage is either evicted (interior)
  // or material (frontier), and base, marked first, is in neither. Each
  // storage enters the stack and one of the sets at most once, so the
  // walk's buffers, sized for every storage, never grow; local pointers let
  // the compiler keep them in registers.
  const StorageAdjacency& adjacency = reverse ? parent_storages_ : child_storages_;
  const uint8_t* material = material_.data();
  const Int* compute = storage_compute_.data();
  uint32_t* mark = mark_.data();
  StorageId* stack = walk_stack_.data();
  StorageId* interior = walk_interior_.data();
  StorageId* frontier = walk_frontier_.data();
  size_t top = 0, interior_size = 0, frontier_size = 0;
  const uint32_t seen = NextEpoch();
  mark[base] = seen;
  stack[top++] = base;
  uint64_t accesses = 0;
  Int interior_compute = 0;
  while (top > 0) {
    StorageId s = stack[--top];
    const StorageId* next = adjacency.Row(s);
    const uint32_t n = adjacency.RowSize(s);
    accesses += n;
    for (uint32_t i = 0; i < n; ++i) {
      StorageId us = next[i];
      if (mark[us] == seen) continue;
      mark[us] = seen;
      if (material[us]) {
        frontier[frontier_size++] = us;
      } else {
        interior_compute += compute[us];
        interior[interior_size++] = us;
        stack[top++] = us;
      }
    }
  }
  region.interior.AssignNew(interior, interior + interior_size);
  region.frontier.AssignNew(frontier, frontier + frontier_size);
  region.compute = interior_compute;
  return accesses;
}

// Region.rebuild without the walk: the region still holds what a walk gave
// at change-log position walked_at, so the walk it would take now differs
// only where a storage it met has changed since. Most rebuilds follow a
// rematerialization that turned an interior storage or two material, whose
// own neighbours are all material; the update then takes those storages out
// of the interior and decides again only the frontier storages they touch.
// Anything else (the base changed, a frontier storage or an interior one
// still evicted changed, a storage turned material next to an evicted one)
// returns false and the caller walks. The sets come out equal to the walk's,
// in another order: on an acyclic storage graph nothing simrd computes
// depends on that order (no storage is ever in its own region).
bool Runtime::RegionUpdate(Region& region, StorageId base, bool reverse) {
  const size_t end = change_log_.size();
  if (end - region.walked_at > region.walk_accesses) return false;  // walking is cheaper
  const StorageAdjacency& adjacency = reverse ? parent_storages_ : child_storages_;
  const StorageAdjacency& back = reverse ? child_storages_ : parent_storages_;
  const uint8_t* material = material_.data();
  std::vector<StorageId>& now_material = update_material_;
  now_material.clear();
  const uint32_t seen = NextEpoch();
  for (size_t i = region.walked_at; i < end; ++i) {
    const StorageId v = change_log_[i];
    if (mark_[v] == seen) continue;
    mark_[v] = seen;
    if (v == base) return false;
    if (region.frontier.Contains(v)) {
      if (!material[v]) return false;
      continue;
    }
    // A storage the walk did not meet is still out of its reach: reaching
    // it needs an edge from a storage the walk met, whose change is logged.
    if (!region.interior.Contains(v)) continue;
    if (!material[v]) return false;
    const StorageId* row = adjacency.Row(v);
    for (uint32_t k = 0, n = adjacency.RowSize(v); k < n; ++k)
      if (!material[row[k]]) return false;
    now_material.push_back(v);
  }

  uint64_t accesses = region.walk_accesses;
  Int compute = region.compute;
  bool shapes_kept = true;
  for (StorageId v : now_material) {
    region.interior.Erase(v);
    if (shape_changed_at_[v] > region.walked_at) {
      shapes_kept = false;
    } else {
      accesses -= adjacency.RowSize(v);
      compute -= storage_compute_[v];
    }
  }
  if (!shapes_kept) {  // sum again over what is left
    accesses = adjacency.RowSize(base);
    compute = 0;
    for (StorageId x : region.interior.items()) {
      accesses += adjacency.RowSize(x);
      compute += storage_compute_[x];
    }
  }
  // The storages now material, and the frontier storages they led to, are
  // on the frontier if the base or a storage still inside leads to them.
  std::vector<StorageId>& candidates = update_candidates_;
  candidates.clear();
  const uint32_t listed = NextEpoch2();
  auto consider = [&](StorageId x) {
    if (mark2_[x] != listed) {
      mark2_[x] = listed;
      candidates.push_back(x);
    }
  };
  for (StorageId v : now_material) {
    consider(v);
    const StorageId* row = adjacency.Row(v);
    for (uint32_t k = 0, n = adjacency.RowSize(v); k < n; ++k)
      if (region.frontier.Contains(row[k])) consider(row[k]);
  }
  for (StorageId f : candidates) {
    bool reached = false;
    const StorageId* row = back.Row(f);
    for (uint32_t k = 0, n = back.RowSize(f); k < n && !reached; ++k)
      reached = row[k] == base || region.interior.Contains(row[k]);
    if (reached)
      region.frontier.Insert(f);
    else
      region.frontier.Erase(f);
  }
  region.compute = compute;
  region.walk_accesses = accesses;
  region.walked_at = end;
  return true;
}

void Runtime::CheckRegionUpdate(const Region& region, StorageId base, bool reverse) {
  Region walked;
  const uint64_t accesses = RegionWalk(walked, base, reverse);
  auto sorted = [](const IdSet& set) {
    std::vector<StorageId> v = set.items();
    std::sort(v.begin(), v.end());
    return v;
  };
  if (sorted(region.interior) != sorted(walked.interior) ||
      sorted(region.frontier) != sorted(walked.frontier) || region.compute != walked.compute ||
      region.walk_accesses != accesses) {
    throw std::logic_error("dtrcheck bug: the updated " + std::string(reverse ? "reverse " : "") +
                           "region of storage " + std::to_string(base) +
                           " differs from what a walk gives");
  }
}

void Runtime::LogShapeChange(StorageId s) {
  if (!incremental_regions_) return;
  change_log_.push_back(s);
  shape_changed_at_[s] = change_log_.size();
}

void Runtime::SetMaterial(StorageId s, bool material) {
  if (material_[s] != material) LogChange(s);
  storages_[s].material = material;
  material_[s] = material;
}

uint32_t Runtime::NextEpoch() {
  if (++epoch_ == 0) {  // wrapped: forget every old mark
    std::fill(mark_.begin(), mark_.end(), 0);
    epoch_ = 1;
  }
  return epoch_;
}

uint32_t Runtime::NextEpoch2() {
  if (++epoch2_ == 0) {
    std::fill(mark2_.begin(), mark2_.end(), 0);
    epoch2_ = 1;
  }
  return epoch2_;
}

void Runtime::TCompute(TensorId id, bool rematerialize, bool direct) {
  const Tensor& t = tensors_[id];
  if (direct) {
    if (rematerialize)
      summary_.remat_compute += operators_[t.op].compute;
    else
      summary_.model_compute += operators_[t.op].compute;
  }
  if (rematerialize && !t.is_alias) {
    StorageStats& st = storages_[t.storage].stats;
    if (direct)
      st.direct_remat_count += 1;
    else
      st.collateral_remat_count += 1;
  }
}

void Runtime::TBottleneck(TensorId id) {
  // simrd compares op names such as "constant/3" with "constant": always
  // unequal, so constants count too (QUIRKS.md, Q-CONSTANT-NAME).
  const Tensor& t = tensors_[id];
  Int req = operators_[t.op].total_size;
  for (TensorId p : t.parents) req += (*operators_[tensors_[p].op].sizes)[tensors_[p].index];
  summary_.bottleneck_memory = std::max(summary_.bottleneck_memory, req);
}

// RuntimeV*._compute.
void Runtime::ComputeTensor(TensorId id, bool rematerialize,
                            std::vector<TensorId>* remat_siblings) {
  const Tensor& t = tensors_[id];
  for (TensorId p : t.parents) {
    Check(tensors_[p].defined, "a parent Tensor is undefined");
    if (!banishing_)
      Check(storages_[tensors_[p].storage].material, "a parent Tensor has immaterial storage");
  }
  const Operator& op = operators_[t.op];
  Check(!OverBudget(op.total_size), "not enough memory to compute Tensor");
  if (!banishing_) Check(!t.defined, "assert not t.defined");

  // Scratch lists (ComputeTensor does not nest).
  std::vector<TensorId>& dup_siblings = compute_scratch_.dup_siblings;
  dup_siblings.clear();
  remat_siblings->clear();
  for (TensorId u : t.siblings) (tensors_[u].defined ? dup_siblings : *remat_siblings).push_back(u);
  std::vector<StorageId>& remat_storages = compute_scratch_.remat_storages;
  remat_storages.clear();
  for (TensorId u : t.siblings)
    if (!storages_[tensors_[u].storage].material) remat_storages.push_back(tensors_[u].storage);
  if (!storages_[t.storage].material) remat_storages.push_back(t.storage);

  clock_ += op.compute;
  memory_usage_ += op.total_size;
  summary_.max_memory = std::max(summary_.max_memory, memory_usage_);

  if (t.is_alias)
    Check(storages_[t.storage].material, "the underlying Storage of an alias was evicted");
  SetMaterial(t.storage, true);
  tensors_[id].defined = true;
  TCompute(id, rematerialize, true);
  for (TensorId u : *remat_siblings) {
    Tensor& ut = tensors_[u];
    if (ut.is_alias) Check(storages_[ut.storage].material, "alias sibling of immaterial Storage");
    SetMaterial(ut.storage, true);
    ut.defined = true;
    TCompute(u, rematerialize, false);
  }
  for (TensorId u : dup_siblings) memory_usage_ -= (*op.sizes)[tensors_[u].index];
  for (StorageId s : remat_storages) MakeEvictable(s);

  if (regions_) {
    StorageSet& affected = compute_scratch_.affected;
    StorageSet& affected_rev = compute_scratch_.affected_rev;
    affected.clear();
    affected_rev.clear();
    for (StorageId us : remat_storages) {
      RegionRebuild(storages_[us].region, us, false);
      RegionRebuild(storages_[us].region_rev, us, true);
    }
    // Set unions of the new frontiers; mark2_ dedupes one, mark_ the other.
    uint32_t in_affected = NextEpoch2(), in_affected_rev = NextEpoch();
    for (StorageId us : remat_storages) {
      for (StorageId x : storages_[us].region_rev.frontier.items())
        if (mark2_[x] != in_affected) {
          mark2_[x] = in_affected;
          affected.push_back(x);
        }
      for (StorageId x : storages_[us].region.frontier.items())
        if (mark_[x] != in_affected_rev) {
          mark_[x] = in_affected_rev;
          affected_rev.push_back(x);
        }
    }
    for (StorageId s : affected) RegionRebuild(storages_[s].region, s, false);
    for (StorageId s : affected_rev) RegionRebuild(storages_[s].region_rev, s, true);
  }
  if (eq_class_) {
    for (StorageId sid : remat_storages) {
      Storage& s = storages_[sid];
      Check(s.ecn_state == EcnState::kNode, "assert s.meta.get('ecn', None) is not None");
      Int pre = eq_forest_.GetValue(s.ecn);
      eq_forest_.SetValue(s.ecn, pre - s.compute);
      s.ecn = kNoEqNode;
      s.ecn_state = EcnState::kNone;
    }
  }
}

// _materialize, recursive in simrd through evicted parents; here an explicit
// stack of frames, so that chains of any depth cannot overflow the C++ stack.
void Runtime::Materialize(TensorId t0, bool rematerialize0) {
  size_t base = frames_.size();
  BeginMaterialize(t0, rematerialize0);
  while (frames_.size() > base) {
    size_t fi = frames_.size() - 1;
    if (frames_[fi].child_pending) {
      Lock(tensors_[undefined_parents_[frames_[fi].next]].storage);
      frames_[fi].next += 1;
      frames_[fi].child_pending = false;
    }
    bool descended = false;
    while (frames_[fi].next < frames_[fi].undefined_end) {
      TensorId p = undefined_parents_[frames_[fi].next];
      if (!tensors_[p].defined) {  // a sibling may have materialized it already
        frames_[fi].child_pending = true;
        BeginMaterialize(p, true);
        descended = true;
        break;
      }
      Lock(tensors_[p].storage);
      frames_[fi].next += 1;
    }
    if (descended) continue;
    Frame f = frames_[fi];
    FinishMaterialize(f);  // with its frame still on the pending chain
    frames_.pop_back();
    undefined_parents_.resize(f.undefined_begin);
  }
}

void Runtime::BeginMaterialize(TensorId id, bool rematerialize) {
  const Tensor& t = tensors_[id];
  const Storage& ts = storages_[t.storage];
  Check(!t.defined, "cannot materialize a defined Tensor");
  Check(ts.material || ts.ref_int == 0, "a locked Storage is evicted");
  if (banishing_) Check(!ts.banished, "assert not t.storage.meta['banished']");
  if (observer_) observer_->OnPending(id, frames_.size());

  for (TensorId p : t.parents) {
    Storage& ps = storages_[tensors_[p].storage];
    // V1 updates access times only of externally accessible storages.
    if (!banishing_ || ps.ref_ext > 0) {
      ps.last_access_int = Stamp::At(clock_);
      if (!rematerialize) ps.last_access = Stamp::At(clock_);
    }
  }
  for (TensorId p : t.parents)
    if (tensors_[p].defined) Lock(tensors_[p].storage);
  size_t begin = undefined_parents_.size();
  for (TensorId p : tensors_[id].parents)
    if (!tensors_[p].defined) undefined_parents_.push_back(p);
  frames_.push_back(Frame{id, rematerialize, begin, undefined_parents_.size(), begin, false});
}

void Runtime::FinishMaterialize(const Frame& f) {
  const TensorId id = f.t;
  const Operator& op = operators_[tensors_[id].op];
  if (OverBudget(op.total_size)) {
    try {
      Free(op.total_size);
    } catch (const OutOfMemory&) {
      if (observer_) observer_->OnOom(*this, id, op.total_size);
      throw;
    }
  }
  std::vector<TensorId> remat_siblings;
  ComputeTensor(id, f.rematerialize, &remat_siblings);

  // Index-based, like Python's iteration over the live list: in V1 a banish
  // below may remove entries of t.parents while this loop runs.
  for (size_t i = 0; i < tensors_[id].parents.size(); ++i) {
    StorageId ps = tensors_[tensors_[id].parents[i]].storage;
    Unlock(ps);
    if (banishing_) {
      remat_siblings.push_back(id);
      for (TensorId u : remat_siblings)
        if (storages_[tensors_[u].storage].root_id != storages_[ps].root_id)
          SortedErase(storages_[ps].evicted_dependents, u);
      remat_siblings.pop_back();
      TryBanishV1(ps);
    }
  }

  if (options_.remat_limit_int && summary_.remat_compute > *options_.remat_limit_int)
    throw RematExceeded{};
  if (options_.remat_limit && CompareIntDouble(summary_.remat_compute, *options_.remat_limit) > 0)
    throw RematExceeded{};

  TBottleneck(id);
}

// RuntimeV1._try_banish_V1: a storage no one can reach any more is evicted
// for good, and its children are pinned.
void Runtime::TryBanishV1(StorageId sid) {
  {
    Storage& s = storages_[sid];
    if (s.ref_ext > 0 || !s.evicted_dependents.empty()) return;
    for (TensorId t : s.tensors)
      Check(tensors_[t].ref_ext == 0, "tried to banish a Storage with live Tensors");
    if (s.material) {
      if (s.ref_int > 0) {
        s.ref_int = 0;
        locked_bytes_ -= s.size;
      }
      Evict(sid);
    }
  }
  const TensorId root = storages_[sid].root_id;
  std::vector<TensorId> tensors = storages_[sid].tensors;
  for (TensorId t : tensors) {
    for (TensorId p : tensors_[t].parents) {
      Storage& ps = storages_[tensors_[p].storage];
      if (root != ps.root_id) {
        SortedErase(ps.evicted_dependents, t);
        auto& ch = tensors_[p].children;
        auto it = std::find(ch.begin(), ch.end(), t);
        Check(it != ch.end(), "p.children.remove(t): t not in list");
        ch.erase(it);
        child_storages_.EraseOne(tensors_[p].storage, sid);
        // Every row change is logged, though V1 keeps no regions to update.
        LogShapeChange(tensors_[p].storage);
      }
    }
    std::vector<TensorId> children = tensors_[t].children;
    for (TensorId c : children) {
      if (root != storages_[tensors_[c].storage].root_id) {
        auto& pa = tensors_[c].parents;
        auto it = std::find(pa.begin(), pa.end(), t);
        Check(it != pa.end(), "c.parents.remove(t): t not in list");
        pa.erase(it);
        parent_storages_.EraseOne(tensors_[c].storage, sid);
        LogShapeChange(tensors_[c].storage);
        Pin(c);
      }
    }
  }
  storages_[sid].banished = true;
}

}  // namespace dtrcheck
