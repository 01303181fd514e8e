#include "sim/runtime.h"

#include <algorithm>
#include <stdexcept>

#include "sim/accepted_pairs.h"

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
    : graph_(&graph),
      options_(options),
      heuristic_(&heuristic),
      observer_(observer),
      eq_forest_(&summary_.heuristic_access_count),
      region_upkeep_(options.region_rebuilds, &summary_.heuristic_access_count, &marks_, &marks2_) {
  if (auto refusal = PairRefusal(options.kind, heuristic)) throw std::invalid_argument(*refusal);
  if (auto refusal = AddressRefusal(options.memory.model == MemoryModel::kBytes, heuristic))
    throw std::invalid_argument(*refusal);
  const Features need = heuristic.RequiredFeatures();
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
  AssignStorages();
  if (options.memory.model != MemoryModel::kBytes)
    placed_ = std::make_shared<PlacedMemory>(options.memory, Capacity(options));
}

// Which storage each tensor of the graph will have, and the storage
// adjacency rows sized for every edge: Compute runs the ops in graph order
// (the graph's tensor ids are the runtime's), creating a storage for each
// output that is not an alias, in this order, so both are known before the run.
// Also whether regions may be rebuilt incrementally (RegionUpkeep::Update): only
// when the storage graph has no cycle, which holds when every edge but a
// storage's edge to itself goes from an older storage to a newer one.
// The tensor rows are sized here too: every output of an op has the op's
// arguments as parents, and is a child of each argument (once per occurrence).
void Runtime::AssignStorages() {
  tensor_storage_.assign(graph_->tensors.size(), -1);
  std::vector<uint32_t> children, parents;
  std::vector<uint32_t> tensor_parents(graph_->tensors.size(), 0);
  std::vector<uint32_t> tensor_children(graph_->tensors.size(), 0);
  bool acyclic = true;
  TensorId next = 0;
  for (const GOp& g : graph_->ops) {
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
    for (TensorId t = first; t < next; ++t) {
      tensor_parents[t] = static_cast<uint32_t>(g.args.size());
      for (TensorId p : g.args) {
        tensor_children[p] += 1;
        children[tensor_storage_[p]] += 1;
        parents[tensor_storage_[t]] += 1;
        acyclic = acyclic && tensor_storage_[p] <= tensor_storage_[t];
      }
    }
  }
  region_upkeep_.Reserve(children, parents, regions_ && acyclic);
  storage_count_ = children.size();
  tensor_parents_.Reserve(tensor_parents);
  tensor_children_.Reserve(tensor_children);
  std::vector<uint32_t> storage_tensors(storage_count_, 0);
  for (StorageId s : tensor_storage_) storage_tensors[s] += 1;
  storage_tensors_.Reserve(storage_tensors);
  ReservePerStorage();
}

// Room for every storage and tensor the graph will create, so that the run
// never reallocates (and moves) its per-storage arrays. A fork needs it
// again: a copied vector has only the room its elements take.
void Runtime::ReservePerStorage() {
  tensors_.reserve(graph_->tensors.size());
  storages_.reserve(storage_count_);
  if (regions_) storage_regions_.Reserve(storage_count_);
  if (options_.stats) storage_stats_.reserve(storage_count_);
  if (banishing_) evicted_dependents_.reserve(storage_count_);
  marks_.Reserve(storage_count_);
  marks2_.Reserve(storage_count_);
  region_upkeep_.ReservePerStorage(storage_count_);
  ever_evicted_.reserve(storage_count_);
  recompute_count_.reserve(storage_count_);
}

void Runtime::AddStorage(Int size) {
  Storage s;
  s.size = size;
  storages_.push_back(std::move(s));
  if (regions_) storage_regions_.AddStorage();
  if (options_.stats) storage_stats_.emplace_back();
  if (banishing_) evicted_dependents_.emplace_back();
  marks_.AddSlot();
  marks2_.AddSlot();
  region_upkeep_.AddStorage();
  ever_evicted_.push_back(0);
  recompute_count_.push_back(0);
}

std::vector<TensorId> Runtime::PendingChain() const {
  std::vector<TensorId> chain;
  for (const Frame& f : frames_) chain.push_back(f.t);
  return chain;
}

const Region& Runtime::NoRegion() {
  static const Region none;
  return none;
}

uint64_t Runtime::Capacity(const RuntimeOptions& options) {
  // The allocator's device holds the budget (unbounded: 2^62 bytes).
  constexpr Int kMaxCapacity = Int{1} << 62;
  const Int capacity = options.budget ? *options.budget : kMaxCapacity;
  if (capacity < 0 || capacity > kMaxCapacity)
    throw std::invalid_argument("--memory " + MemoryModelName(options.memory.model) +
                                ": the budget must be between 0 and 2^62 bytes");
  return static_cast<uint64_t>(capacity);
}

Int Runtime::max_demand() const {
  if (!placed_) return max_demand_;
  return std::max(max_demand_, static_cast<Int>(placed_->CapacityDemand()));
}

bool Runtime::OverBudget(Int extra) const {
  return options_.budget && memory_usage_ + extra > *options_.budget;
}

Runtime::Runtime(const Runtime& other, Heuristic& heuristic, std::optional<Int> budget)
    : Runtime(other) {
  AdoptFork(heuristic, budget);
}

void Runtime::ForkFrom(const Runtime& other, Heuristic& heuristic, std::optional<Int> budget) {
  if (&other != this) *this = other;
  AdoptFork(heuristic, budget);
}

void Runtime::AdoptFork(Heuristic& heuristic, std::optional<Int> budget) {
  if (!frames_.empty()) throw std::logic_error("Runtime: forked in the middle of a command");
  heuristic_ = &heuristic;
  options_.budget = budget;
  if (placed_) {
    // The fork's own allocator, copied, under the fork's budget.
    placed_ = std::make_shared<PlacedMemory>(*placed_);
    if (auto why = placed_->SetCapacity(Capacity(options_)))
      throw std::logic_error("Runtime: this run cannot be forked at budget " +
                             IntToString(budget.value_or(0)) + ": " + *why);
  }
  eq_forest_.Rebind(&summary_.heuristic_access_count);
  region_upkeep_.Rebind(&summary_.heuristic_access_count, &marks_, &marks2_);
  ReservePerStorage();
}

void Runtime::RunScheduleUntil(size_t end) {
  try {
    RunCommands(end);
  } catch (const SimrdAssertion& e) {
    // simrd's traceback shows where in the log it was; the message names
    // the line of the command that tripped the assertion.
    const int32_t line = graph_->schedule[next_command_].line;
    throw SimrdAssertion(
        std::string(e.what()) + (line > 0 ? " (at log line " + std::to_string(line) + ")"
                                          : " (at the end of the log, pinning the outputs)"),
        line);
  }
}

void Runtime::RunCommands(size_t end) {
  for (size_t& i = next_command_; i < end; ++i) {
    const Command& cmd = graph_->schedule[i];
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
  const GOp& g = graph_->ops[op_id];
  const Operator& op = operators_[op_id];
  TensorId first = static_cast<TensorId>(tensors_.size());
  for (int32_t i = 0; i < op.outputs; ++i) {
    TensorId id = first + i;
    Tensor t;
    for (TensorId p : g.args) tensor_parents_.Append(id, p);
    t.index = i;
    t.op = op_id;
    t.ref_ext = 1;
    const StorageId sid = tensor_storage_[id];  // AssignStorages
    // Not an alias: a new storage.
    if (sid == static_cast<StorageId>(storages_.size())) AddStorage(g.size[i]);
    Storage& s = storages_[sid];
    t.storage = sid;
    const std::span<const TensorId> s_tensors = TensorsOf(sid);
    if (s_tensors.empty()) s.root_id = id;
    // Storage.get_compute: the compute of the distinct ops of its tensors.
    // Tensors of one op are appended together, so only the last can repeat it.
    if (s_tensors.empty() || tensors_[s_tensors.back()].op != op_id) {
      s.compute += op.compute;
      region_upkeep_.SetCompute(sid, s.compute, /*first=*/s_tensors.empty());
    }
    storage_tensors_.Append(sid, id);
    s.ref_ext += 1;
    t.is_alias = id != s.root_id;
    tensors_.push_back(std::move(t));
  }
  for (TensorId p : g.args)
    for (int32_t i = 0; i < op.outputs; ++i) tensor_children_.Append(p, first + i);
  // The same edges at storage level, for region rebuilds.
  for (int32_t i = 0; i < op.outputs; ++i) {
    const StorageId si = tensor_storage_[first + i];
    const bool new_storage = storages_[si].root_id >= first;  // its root tensor is this op's
    for (TensorId p : g.args) region_upkeep_.AddEdge(tensor_storage_[p], si, new_storage);
  }

  for (int32_t i = 0; i < op.outputs; ++i) {
    TensorId id = first + i;
    Storage& s = storages_[tensors_[id].storage];
    if (banishing_) NewTensorV1(id);
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
    request_bytes_ = memory_usage_ + size - *options_.budget;
    StorageList& victims = ChooseVictims();
    for (size_t i = 0; i < victims.size(); ++i) {
      StorageId s = victims[i];
      if (i == 0 && digest_.count() == options_.perturb_eviction) {
        for (StorageId other : pool_.slots())
          if (other >= 0 && other != s) {
            s = other;
            break;
          }
      }
      if (storages_[s].pool_slot >= 0) Evict(s);
    }
  }
  request_bytes_ = 0;
  request_is_placement_ = false;
}

StorageList& Runtime::ChooseVictims() {
  victims_.clear();
  heuristic_->ChooseVictims(*this, &victims_);
  // A policy that finds no candidate fails the allocation (MegEngine's
  // find_best_tensor returning null, OneFlow's Coop finding no window).
  if (victims_.empty()) throw OutOfMemory{};
  return victims_;
}

void Runtime::PlaceOutputs(TensorId id) {
  // The storages ComputeTensor makes material, the op's outputs in order.
  const Tensor& t = tensors_[id];
  const Operator& op = operators_[t.op];
  std::vector<std::pair<StorageId, uint64_t>> place;
  for (TensorId u = id - t.index; u < id - t.index + op.outputs; ++u) {
    const StorageId s = tensors_[u].storage;
    if (storages_[s].material) continue;
    if (std::find_if(place.begin(), place.end(), [s](const auto& p) { return p.first == s; }) ==
        place.end())
      place.emplace_back(s, static_cast<uint64_t>(storages_[s].size));
  }
  while (!placed_->Place(place)) {
    request_bytes_ = static_cast<Int>(placed_->LastRefusedBytes());
    request_is_placement_ = true;
    try {
      if (pool_.size() == 0) throw OutOfMemory{};
      for (StorageId s : ChooseVictims())
        if (storages_[s].pool_slot >= 0) {
          Evict(s);
          placed_->CountEviction();
        }
    } catch (const OutOfMemory&) {
      if (observer_) observer_->OnOom(*this, id, op.total_size);
      throw;
    }
  }
  request_bytes_ = 0;
  request_is_placement_ = false;
}

void Runtime::TEvict(StorageId sid) {
  Storage& s = storages_[sid];
  if (options_.stats) storage_stats_[sid].evict_count += 1;
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
    if (placed_) placed_->Release(sid);
    pool_.Remove(sid, storages_);
    for (TensorId t : TensorsOf(sid)) tensors_[t].defined = false;
  }
  if (banishing_) EvictV1(sid);
  TEvict(sid);

  if (regions_) {
    // Copies: absorbing may touch s's own regions when the storage graph has
    // a cycle through s (aliases), and simrd iterates the sets as they are.
    StorageList& frontier = evict_scratch_;
    StorageRegions& r = storage_regions_;
    // Absorbs sid into the regions of its frontier, one after another, each
    // elsewhere in memory: fetched ahead, the region itself six absorbs
    // ahead, then what its sets point to three ahead. The frontier's
    // storages are material, and hold their regions already (an absorb
    // erases sid from the frontier of the region it absorbs into). sid's own
    // pair, looked up once: either sid holds a slot, which the absorbs never
    // move, or it holds none, and its frontiers are empty.
    const RegionPair& own = r.Get(sid);
    // Each frontier storage's pair is looked up once, six absorbs ahead, and
    // kept in a ring until its absorb: taking it early changes nothing, as
    // pairs never move and no absorb frees one.
    auto absorb_all = [&](Region RegionPair::*which, bool reverse) {
      constexpr size_t kAhead = 6, kRing = 8;
      Region* ring[kRing];
      const size_t n = frontier.size();
      for (size_t i = 0; i < n && i < kAhead; ++i) {
        ring[i] = &(r.Mutable(frontier[i]).*which);
        PrefetchLines(ring[i], sizeof(Region));
      }
      for (size_t i = 0; i < n; ++i) {
        if (i + kAhead < n) {
          Region* ahead = &(r.Mutable(frontier[i + kAhead]).*which);
          ring[(i + kAhead) % kRing] = ahead;
          PrefetchLines(ahead, sizeof(Region));
        }
        if (i + 3 < n) ring[(i + 3) % kRing]->PrefetchAbsorb(sid);
        region_upkeep_.Absorb(*ring[i % kRing], reverse, sid, own.*which);
      }
    };
    const IdSet::List* items = &own.region_rev.frontier.items();
    frontier.assign(items->begin(), items->end());
    absorb_all(&RegionPair::region, false);
    items = &own.region.frontier.items();
    frontier.assign(items->begin(), items->end());
    absorb_all(&RegionPair::region_rev, true);
    r.Free(sid);
  }
  if (eq_class_) {
    Storage& s = storages_[sid];
    Check(s.ecn_state != EcnState::kNode, "assert s.meta.get('ecn', None) is None");
    s.ecn = eq_forest_.NewNode(s.compute);
    s.ecn_state = EcnState::kNode;
    StorageList& neighbors = evict_scratch_;  // the absorbs above are done with it
    EvictedNeighbors(sid, &neighbors);
    for (StorageId n : neighbors) {
      Check(storages_[n].ecn_state == EcnState::kNode,
            "assert n.meta.get('ecn', None) is not None");
      eq_forest_.Merge(storages_[n].ecn, storages_[sid].ecn);
    }
  }
}

void Runtime::EvictedNeighbors(StorageId sid, StorageList* out) {
  out->clear();
  EpochMarks::Epoch seen = marks_.NextEpoch();
  const Storage& s = storages_[sid];
  auto visit = [&](TensorId u) {
    summary_.heuristic_access_count += 1;
    StorageId us = tensors_[u].storage;
    const Storage& o = storages_[us];
    if (!o.material && o.root_id != s.root_id && seen.TryMark(us)) out->push_back(us);
  };
  for (TensorId t : TensorsOf(sid)) {
    for (TensorId p : Parents(t)) visit(p);
    for (TensorId c : Children(t)) visit(c);
  }
}

void Runtime::EvictedNeighborhood(StorageId sid, StorageList* out) {
  region_upkeep_.Neighborhood(sid, out);
}

void Runtime::TCompute(TensorId id, bool rematerialize, bool direct) {
  const Tensor& t = tensors_[id];
  if (direct) {
    if (rematerialize)
      summary_.remat_compute += operators_[t.op].compute;
    else
      summary_.model_compute += operators_[t.op].compute;
  }
  if (rematerialize && !t.is_alias) recompute_count_[t.storage] += 1;
  if (options_.stats && rematerialize && !t.is_alias) {
    StorageStats& st = storage_stats_[t.storage];
    if (direct)
      st.direct_remat_count += 1;
    else
      st.collateral_remat_count += 1;
  }
}

void Runtime::TBottleneck(TensorId id) {
  // simrd compares op names such as "constant/3" with "constant": always
  // unequal, so constants count too (QUIRKS.md, Q-CONSTANT-NAME). The
  // requirement depends on the graph alone: once counted, a tensor's
  // recomputations leave the maximum as it is (a remat-heavy run computes
  // each tensor many times, and the parents' sizes are three loads away).
  Tensor& t = tensors_[id];
  if (t.bottleneck_counted) return;
  t.bottleneck_counted = true;
  Int req = operators_[t.op].total_size;
  for (TensorId p : Parents(id)) req += (*operators_[tensors_[p].op].sizes)[tensors_[p].index];
  summary_.bottleneck_memory = std::max(summary_.bottleneck_memory, req);
}

// RuntimeV*._compute.
void Runtime::ComputeTensor(TensorId id, bool rematerialize,
                            std::vector<TensorId>* remat_siblings) {
  const Tensor& t = tensors_[id];
  for (TensorId p : Parents(id)) {
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
  // t.siblings: the op's other outputs, in order.
  const TensorId op_first = id - t.index;
  const TensorId op_end = op_first + op.outputs;
  for (TensorId u = op_first; u < op_end; ++u)
    if (u != id) (tensors_[u].defined ? dup_siblings : *remat_siblings).push_back(u);
  StorageList& remat_storages = compute_scratch_.remat_storages;
  remat_storages.clear();
  for (TensorId u = op_first; u < op_end; ++u)
    if (u != id && !storages_[tensors_[u].storage].material)
      remat_storages.push_back(tensors_[u].storage);
  if (!storages_[t.storage].material) remat_storages.push_back(t.storage);

  clock_ += op.compute;
  memory_usage_ += op.total_size;
  summary_.max_memory = std::max(summary_.max_memory, memory_usage_);
  if (observer_) observer_->OnCompute(id);

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
    StorageList& affected = compute_scratch_.affected;
    StorageList& affected_rev = compute_scratch_.affected_rev;
    affected.clear();
    affected_rev.clear();
    StorageRegions& r = storage_regions_;
    for (StorageId us : remat_storages) {
      RegionPair& p = r.Mutable(us);
      region_upkeep_.Rebuild(p.region, us, false);
      region_upkeep_.Rebuild(p.region_rev, us, true);
    }
    // Set unions of the new frontiers, each deduplicated by its own marks.
    EpochMarks::Epoch in_affected = marks2_.NextEpoch(), in_affected_rev = marks_.NextEpoch();
    for (StorageId us : remat_storages) {
      for (StorageId x : r.Get(us).region_rev.frontier.items())
        if (in_affected.TryMark(x)) affected.push_back(x);
      for (StorageId x : r.Get(us).region.frontier.items())
        if (in_affected_rev.TryMark(x)) affected_rev.push_back(x);
    }
    for (StorageId s : affected) region_upkeep_.Rebuild(r.Mutable(s).region, s, false);
    for (StorageId s : affected_rev) region_upkeep_.Rebuild(r.Mutable(s).region_rev, s, true);
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

  for (TensorId p : Parents(id)) {
    Storage& ps = storages_[tensors_[p].storage];
    // V1 updates access times only of externally accessible storages.
    if (!banishing_ || ps.ref_ext > 0) {
      ps.last_access_int = Stamp::At(clock_);
      if (!rematerialize) ps.last_access = Stamp::At(clock_);
    }
  }
  for (TensorId p : Parents(id))
    if (tensors_[p].defined) Lock(tensors_[p].storage);
  size_t begin = undefined_parents_.size();
  for (TensorId p : Parents(id))
    if (!tensors_[p].defined) undefined_parents_.push_back(p);
  frames_.push_back(Frame{id, rematerialize, begin, undefined_parents_.size(), begin, false});
}

void Runtime::FinishMaterialize(const Frame& f) {
  const TensorId id = f.t;
  const Operator& op = operators_[tensors_[id].op];
  // ComputeTensor checks the same sum again, before anything changes it.
  max_demand_ = std::max(max_demand_, memory_usage_ + op.total_size);
  if (OverBudget(op.total_size)) {
    try {
      Free(op.total_size);
    } catch (const OutOfMemory&) {
      if (observer_) observer_->OnOom(*this, id, op.total_size);
      throw;
    }
  }
  if (placed_) PlaceOutputs(id);
  std::vector<TensorId>& remat_siblings = compute_scratch_.remat_siblings;
  ComputeTensor(id, f.rematerialize, &remat_siblings);

  // Index-based, like Python's iteration over the live list: in V1 a banish
  // below may remove entries of t.parents while this loop runs.
  for (size_t i = 0; i < tensor_parents_.RowSize(id); ++i) {
    StorageId ps = tensors_[tensor_parents_.Row(id)[i]].storage;
    Unlock(ps);
    if (banishing_) {
      ComputedDependentsV1(id, remat_siblings, ps);
      TryBanishV1(ps);
    }
  }

  if (options_.remat_limit_int && summary_.remat_compute > *options_.remat_limit_int)
    throw RematExceeded{};
  if (options_.remat_limit && CompareIntDouble(summary_.remat_compute, *options_.remat_limit) > 0)
    throw RematExceeded{};

  TBottleneck(id);
}

}  // namespace dtrcheck
