// Region upkeep (simrd/optimization/region.py): Region.absorb and
// Region.rebuild over the runtime's storage graph, and dtrcheck's update of
// a region in place of a rebuild's walk.
//
// RegionUpkeep keeps its own compact copy of what regions read of the
// storage graph: per storage, whether it is material, its compute, and the
// storages of its tensors' children and parents (StorageAdjacency). The
// runtime reports every change to them (SetMaterial, SetCompute, AddEdge,
// RemoveChildEntry, RemoveParentEntry). When updates are enabled each change
// is also appended to a change log, so that a rebuild can tell what changed
// since a region was last walked and update it instead of walking again.
//
// The regions themselves live in the runtime's storages (Storage::region,
// region_rev) and are passed in.
#ifndef DTRCHECK_SIM_REGION_UPKEEP_H_
#define DTRCHECK_SIM_REGION_UPKEEP_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "base/epoch_marks.h"
#include "base/masked_sum.h"
#include "sim/python/py_arith.h"
#include "sim/region.h"
#include "sim/storage_adjacency.h"
#include "sim/tensor.h"

namespace dtrcheck {

class RegionUpkeep {
 public:
  // access_count: simrd's heuristic_access_count, which absorbs and rebuilds
  // advance as simrd's do. marks, marks2: scratch visit marks over storage
  // ids, shared with the runtime, which grows them; no call here holds an
  // epoch of them beyond its return.
  RegionUpkeep(RegionRebuilds mode, Int* access_count, EpochMarks* marks, EpochMarks* marks2)
      : mode_(mode), access_count_(access_count), marks_(marks), marks2_(marks2) {}
  // A copy, made with its runtime's, counts into and marks with that
  // runtime's own counter and marks.
  void Rebind(Int* access_count, EpochMarks* marks, EpochMarks* marks2) {
    access_count_ = access_count;
    marks_ = marks;
    marks2_ = marks2;
  }

  // Before the run: room for every edge the graph will give each storage
  // (children[s], parents[s] entries), and whether rebuilds may update the
  // last walk (unless the mode is kWalk): the runtime says so when it keeps
  // regions up to date and the storage graph is acyclic.
  void Reserve(const std::vector<uint32_t>& children, const std::vector<uint32_t>& parents,
               bool updatable);

  // Room for n storages in the per-storage arrays (AddStorage).
  void ReservePerStorage(size_t n) {
    material_.reserve(n);
    compute_.reserve(n);
    compute64_.reserve(n);
    walk_stack_.reserve(n);
    walk_interior_.reserve(n);
    walk_frontier_.reserve(n);
    shape_changed_at_[0].reserve(n);
    shape_changed_at_[1].reserve(n);
  }
  // The next storage id: immaterial, compute 0, no edges yet.
  void AddStorage() {
    material_.push_back(0);
    compute_.push_back(0);
    compute64_.push_back(0);
    walk_stack_.push_back(0);
    walk_interior_.push_back(0);
    walk_frontier_.push_back(0);
    shape_changed_at_[0].push_back(0);
    shape_changed_at_[1].push_back(0);
  }
  void SetMaterial(StorageId s, bool material) {
    if (material_[s] != material) LogChange(s);
    material_[s] = material;
  }
  // `first`: the storage's first compute, which comes as it is created,
  // before any edge leads to it; only a later one (an alias's operator)
  // changes a sum.
  void SetCompute(StorageId s, Int compute, bool first) {
    compute_[s] = compute;
    if (compute > -kMaskedSumValueLimit && compute < kMaskedSumValueLimit) {
      compute64_[s] = static_cast<int64_t>(compute);
    } else {
      computes_fit_ = false;
    }
    LogChange(s);
    if (incremental_ && !first)
      shape_changed_at_[0][s] = shape_changed_at_[1][s] = change_log_.size();
  }
  // A tensor of storage `child` has a parent tensor in storage `parent`
  // (one call per tensor edge, in the order simrd's tensors gain them).
  // child_is_new: the child storage was created by the operator that adds
  // the edge. Its parents row then takes its first entries, which any
  // region meets with it (none can meet it before it exists): they are not
  // a change since a region met it, and marking them as one made every
  // region that absorbed storages newer than its walk sum again on each
  // update (eleven in twelve interior storages updates saw as changed, on
  // LSTM).
  void AddEdge(StorageId parent, StorageId child, bool child_is_new) {
    children_.Append(parent, child);
    parents_.Append(child, parent);
    LogChange(parent);
    LogChange(child);
    if (incremental_) {
      const size_t now = change_log_.size();
      child_added_at_[children_.RowBegin(parent) + children_.RowSize(parent) - 1] = now;
      shape_changed_at_[0][parent] = now;
      if (!child_is_new) {
        parent_added_at_[parents_.RowBegin(child) + parents_.RowSize(child) - 1] = now;
        shape_changed_at_[1][child] = now;
      }
    }
  }
  // RuntimeV1's banishing removes tensor edges one side at a time: one entry
  // `child` from the children of s, or one entry `parent` from its parents.
  void RemoveChildEntry(StorageId s, StorageId child) {
    children_.EraseOne(s, child);
    LogChange(s);
  }
  void RemoveParentEntry(StorageId s, StorageId parent) {
    parents_.EraseOne(s, parent);
    LogChange(s);
  }

  // Region.absorb(frontier_s) on `region` (through children, or parents
  // when reverse), whose frontier holds the storage frontier_s that was just
  // evicted; frontier_region is frontier_s's own region in the same
  // direction (it may be `region` itself, when the storage graph has a cycle
  // through aliases). Costs O(|frontier_region|), as in Python, not
  // O(|region|). If both regions may be updated, so may the union.
  void Absorb(Region& region, bool reverse, StorageId frontier_s, const Region& frontier_region);

  // Region.rebuild: the evicted storages reachable from base (through
  // children, or parents when reverse), and the material ones at their edge.
  // simrd walks every time; the default mode updates the last walk when it
  // can, which gives the same sets and the same count of accesses.
  void Rebuild(Region& region, StorageId base, bool reverse);

  // The interiors of base's two regions, as rebuilt afresh (forward, then
  // the reverse one's storages not listed yet), for Heuristic's
  // evicted_neighborhood (DTRUnopt), which reads only them: the accesses
  // of both rebuilds are counted, no region is kept.
  void Neighborhood(StorageId base, StorageList* out);

  // Rebuilds that updated the last walk instead of walking (dtrcheck's own
  // statistic, not simrd's).
  int64_t updates() const { return updates_; }
  // Absorbs whose union stayed updatable (dtrcheck's own statistic).
  int64_t kept_absorbs() const { return kept_absorbs_; }

 private:
  uint64_t Walk(Region& region, StorageId base, bool reverse);  // returns the accesses
  // The walk from base: on_interior(s) for each evicted storage reached,
  // on_frontier(s) for each material one at the edge, in discovery order;
  // returns the accesses.
  template <typename OnInterior, typename OnFrontier>
  uint64_t WalkEach(StorageId base, bool reverse, OnInterior&& on_interior,
                    OnFrontier&& on_frontier);
  bool Update(Region& region, StorageId base, bool reverse);
  // Adds to *entries the row sizes (in adjacency) and to *compute the
  // computes of the storages of set.
  void AddSums(const IdSet& set, const StorageAdjacency& adjacency, uint64_t* entries,
               Int* compute) const;
  // The same for storage x alone.
  void AddStorageSums(const StorageAdjacency& adjacency, StorageId x, uint64_t* entries,
                      Int* compute) const {
    *entries += adjacency.RowSize(x);
    *compute += compute_[x];
  }
  // The same for the storages first + i of each bit i of bits: a bitmap
  // word at a time (SumMasked) while every compute fits (computes_fit_), a
  // storage at a time otherwise.
  void AddWordSums(const StorageAdjacency& adjacency, StorageId first, uint64_t bits,
                   uint64_t* entries, Int* compute) const;
  bool Cut(const Region& region, StorageId base, bool reverse, StorageList* cut_off);

  void CheckUpdate(const Region& region, StorageId base, bool reverse);
  void LogChange(StorageId s) {
    if (!incremental_) return;
    change_log_.push_back(s);
  }
  const StorageAdjacency& Forward(bool reverse) const { return reverse ? parents_ : children_; }
  const StorageAdjacency& Backward(bool reverse) const { return reverse ? children_ : parents_; }
  const size_t* AddedAt(bool reverse) const {
    return reverse ? parent_added_at_.data() : child_added_at_.data();
  }

  RegionRebuilds mode_;
  Int* access_count_;
  EpochMarks* marks_;
  EpochMarks* marks2_;

  // The storage graph as regions read it, compact for the walk, which is the
  // simulation's hot loop. Per storage, the storages of its tensors'
  // children (parents), one entry per tensor edge: Region.rebuild's walk
  // without the tensor indirection.
  std::vector<uint8_t> material_;
  std::vector<Int> compute_;
  // The computes again, as int64, while every one of them is small enough
  // for SumMasked (computes_fit_): what absorbs sum a bitmap word at a time.
  std::vector<int64_t> compute64_;
  bool computes_fit_ = true;
  StorageAdjacency children_, parents_;

  // Walk's buffers, one slot per storage.
  std::vector<StorageId> walk_stack_, walk_interior_, walk_frontier_;

  // Update's record of what changed: when the storage graph is acyclic, each
  // storage whose material state, adjacency rows or compute changes is
  // appended to change_log_; shape_changed_at_[reverse][s] is the log's
  // length just after the last change of its compute (0 if none since its
  // creation) or its row of children (parents when reverse). Rows only grow
  // then: child_added_at_ (parent_added_at_) holds, beside each entry of
  // children_ (parents_), the log's length just after the entry came.
  bool incremental_ = false;
  int64_t updates_ = 0;
  int64_t kept_absorbs_ = 0;
  StorageList change_log_;
  std::vector<size_t> shape_changed_at_[2];
  std::vector<size_t> child_added_at_, parent_added_at_;
  StorageList update_material_, update_candidates_, update_reached_, update_reached_from_;
  StorageList update_outside_from_;
  StorageList update_cut_off_, update_suspects_, update_stack_;
  // CheckUpdate's walk and sorted copies.
  Region check_walk_;
  StorageList check_sorted_[2];
};

}  // namespace dtrcheck

#endif  // DTRCHECK_SIM_REGION_UPKEEP_H_
