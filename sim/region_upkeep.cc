#include "sim/region_upkeep.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "sim/simrd_errors.h"

namespace dtrcheck {

namespace {

void Check(bool ok, const char* what) {
  if (!ok) throw SimrdAssertion(what);
}

}  // namespace

void RegionUpkeep::Reserve(const std::vector<uint32_t>& children,
                           const std::vector<uint32_t>& parents, bool updatable) {
  children_.Reserve(children);
  parents_.Reserve(parents);
  incremental_ = updatable && mode_ != RegionRebuilds::kWalk;
}

void RegionUpkeep::Absorb(Region& region, StorageId frontier_s, const Region& frontier_region) {
  Check(!material_[frontier_s], "assert not frontier_s.material");
  Check(region.frontier.Erase(frontier_s), "assert frontier_s.root_id in self.frontier");
  region.walked = false;
  if (&frontier_region == &region) {
    // The region absorbs itself (a cycle through aliases): the frontier
    // update and the interior difference are empty; frontier_s is added.
    *access_count_ += 1;
    region.compute += compute_[frontier_s];
    region.interior.Insert(frontier_s);
    return;
  }
  region.frontier.Reserve(region.frontier.size() + frontier_region.frontier.size());
  for (StorageId x : frontier_region.frontier.items()) region.frontier.Insert(x);
  // interior_diff = reg.interior - self.interior; interior_diff.add(frontier_s);
  // one access and its compute for each storage of interior_diff, which
  // joins the interior. frontier_s counts even if the interior has it.
  const bool union_adds_frontier_s =
      frontier_region.interior.Contains(frontier_s) && !region.interior.Contains(frontier_s);
  uint64_t accesses = 0;
  Int compute = 0;
  const Int* computes = compute_.data();
  region.interior.UniteWith(frontier_region.interior, [&](StorageId x) {
    ++accesses;
    compute += computes[x];
  });
  if (!union_adds_frontier_s) {
    ++accesses;
    compute += computes[frontier_s];
    region.interior.Insert(frontier_s);
  }
  *access_count_ += accesses;
  region.compute += compute;
}

void RegionUpkeep::Rebuild(Region& region, StorageId base, bool reverse) {
  Check(material_[base], "assert self.base.material");
  if (region.walked && Update(region, base, reverse)) {
    ++updates_;
    if (mode_ == RegionRebuilds::kUpdateChecked) CheckUpdate(region, base, reverse);
  } else {
    region.walk_accesses = Walk(region, base, reverse);
    region.walked = incremental_;
    region.walked_at = change_log_.size();
  }
  *access_count_ += region.walk_accesses;
}

// The walk of Region.rebuild, without counting its accesses (returned).
uint64_t RegionUpkeep::Walk(Region& region, StorageId base, bool reverse) {
  StorageId* interior = walk_interior_.data();
  StorageId* frontier = walk_frontier_.data();
  size_t interior_size = 0, frontier_size = 0;
  Int interior_compute = 0;
  const Int* compute = compute_.data();
  const uint64_t accesses = WalkEach(
      base, reverse,
      [&](StorageId us) {
        interior_compute += compute[us];
        interior[interior_size++] = us;
      },
      [&](StorageId us) { frontier[frontier_size++] = us; });
  region.interior.AssignNew(interior, interior + interior_size);
  region.frontier.AssignNew(frontier, frontier + frontier_size);
  region.compute = interior_compute;
  return accesses;
}

// The hot loop of the simulation: it reads the compact per-storage arrays
// rather than the runtime's large structs. Distinct storages have distinct
// root ids, so "root_id != base.root_id" is "!= base". A row of the storage
// adjacency holds one entry per tensor edge, so its length is the number of
// accesses simrd counts for the storage. One mark serves both sets: during
// the walk a storage is either evicted (interior) or material (frontier),
// and base, marked first, is in neither. Each storage enters the stack and
// one of the sets at most once, so the walk's buffers, sized for every
// storage, never grow; local pointers (and the epoch view) let the compiler
// keep them in registers.
template <typename OnInterior, typename OnFrontier>
uint64_t RegionUpkeep::WalkEach(StorageId base, bool reverse, OnInterior&& on_interior,
                                OnFrontier&& on_frontier) {
  const StorageAdjacency& adjacency = Forward(reverse);
  const uint8_t* material = material_.data();
  StorageId* stack = walk_stack_.data();
  size_t top = 0;
  EpochMarks::Epoch seen = marks_->NextEpoch();
  seen.Mark(base);
  stack[top++] = base;
  uint64_t accesses = 0;
  while (top > 0) {
    StorageId s = stack[--top];
    const StorageId* next = adjacency.Row(s);
    const uint32_t n = adjacency.RowSize(s);
    accesses += n;
    for (uint32_t i = 0; i < n; ++i) {
      StorageId us = next[i];
      if (!seen.TryMark(us)) continue;
      if (material[us]) {
        on_frontier(us);
      } else {
        on_interior(us);
        stack[top++] = us;
      }
    }
  }
  return accesses;
}

void RegionUpkeep::Neighborhood(StorageId base, StorageList* out) {
  Check(material_[base], "assert self.base.material");
  out->clear();
  EpochMarks::Epoch listed = marks2_->NextEpoch();
  auto ignore = [](StorageId) {};
  uint64_t accesses = WalkEach(
      base, false,
      [&](StorageId us) {
        listed.Mark(us);
        out->push_back(us);
      },
      ignore);
  accesses += WalkEach(
      base, true,
      [&](StorageId us) {
        if (!listed.IsMarked(us)) out->push_back(us);
      },
      ignore);
  *access_count_ += accesses;
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
bool RegionUpkeep::Update(Region& region, StorageId base, bool reverse) {
  const size_t end = change_log_.size();
  if (end - region.walked_at > region.walk_accesses) return false;  // walking is cheaper
  const StorageAdjacency& adjacency = Forward(reverse);
  const StorageAdjacency& back = Backward(reverse);
  const uint8_t* material = material_.data();
  StorageList& now_material = update_material_;
  now_material.clear();
  EpochMarks::Epoch seen = marks_->NextEpoch();
  for (size_t i = region.walked_at; i < end; ++i) {
    const StorageId v = change_log_[i];
    if (!seen.TryMark(v)) continue;
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
      compute -= compute_[v];
    }
  }
  if (!shapes_kept) {  // sum again over what is left
    accesses = adjacency.RowSize(base);
    compute = 0;
    region.interior.ForEach([&](StorageId x) {
      accesses += adjacency.RowSize(x);
      compute += compute_[x];
    });
  }
  // The storages now material, and the frontier storages they led to, are
  // on the frontier if the base or a storage still inside leads to them.
  StorageList& candidates = update_candidates_;
  candidates.clear();
  EpochMarks::Epoch listed = marks2_->NextEpoch();
  for (StorageId v : now_material) {
    if (listed.TryMark(v)) candidates.push_back(v);
    const StorageId* row = adjacency.Row(v);
    for (uint32_t k = 0, n = adjacency.RowSize(v); k < n; ++k)
      if (region.frontier.Contains(row[k]) && listed.TryMark(row[k])) candidates.push_back(row[k]);
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

void RegionUpkeep::CheckUpdate(const Region& region, StorageId base, bool reverse) {
  // Scratch kept from call to call: a checked sweep checks every update.
  Region& walked = check_walk_;
  const uint64_t accesses = Walk(walked, base, reverse);
  auto same_set = [this](const IdSet& a, const IdSet& b) {
    StorageList& x = check_sorted_[0];
    StorageList& y = check_sorted_[1];
    x.clear();
    y.clear();
    a.ForEach([&](StorageId id) { x.push_back(id); });
    b.ForEach([&](StorageId id) { y.push_back(id); });
    std::sort(x.begin(), x.end());
    std::sort(y.begin(), y.end());
    return x == y;
  };
  if (!same_set(region.interior, walked.interior) || !same_set(region.frontier, walked.frontier) ||
      region.compute != walked.compute || region.walk_accesses != accesses) {
    throw std::logic_error("dtrcheck bug: the updated " + std::string(reverse ? "reverse " : "") +
                           "region of storage " + std::to_string(base) +
                           " differs from what a walk gives");
  }
}

}  // namespace dtrcheck
