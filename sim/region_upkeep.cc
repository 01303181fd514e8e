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
  if (incremental_) {
    child_added_at_.assign(children_.Capacity(), 0);
    parent_added_at_.assign(parents_.Capacity(), 0);
  }
}

// An absorb keeps the region updatable when both regions are: each is
// what a walk gives once the storages changed since its position are
// accounted for (Update's rules), so their union is too, from the earlier
// position: it is closed under the edges of what it holds (the frontier
// storage's own region holds the storages its edges lead to), and every
// storage whose state differs from the one it had when met is in the log
// from that position on (frontier_s, just evicted, among them).
void RegionUpkeep::Absorb(Region& region, bool reverse, StorageId frontier_s,
                          const Region& frontier_region) {
  Check(!material_[frontier_s], "assert not frontier_s.material");
  Check(region.frontier.Erase(frontier_s), "assert frontier_s.root_id in self.frontier");
  const bool both_walks = region.walked && frontier_region.walked;
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
  const bool frontier_s_inside = region.interior.Contains(frontier_s);
  const bool union_adds_frontier_s =
      !frontier_s_inside && frontier_region.interior.Contains(frontier_s);
  uint64_t accesses = 0;
  Int compute = 0;
  uint64_t walk_entries = 0;  // what a walk counts for the storages added
  const StorageAdjacency& adjacency = Forward(reverse);
  region.interior.UniteWith(
      frontier_region.interior,
      [&](StorageId first, uint64_t bits) {
        accesses += static_cast<uint64_t>(__builtin_popcountll(bits));
        AddWordSums(adjacency, first, bits, &walk_entries, &compute);
      },
      [&](StorageId x) {
        ++accesses;
        AddStorageSums(adjacency, x, &walk_entries, &compute);
      });
  if (!union_adds_frontier_s) {
    ++accesses;
    compute += compute_[frontier_s];
    if (!frontier_s_inside) walk_entries += adjacency.RowSize(frontier_s);
    region.interior.Insert(frontier_s);
  }
  *access_count_ += accesses;
  region.compute += compute;
  if (both_walks && !frontier_s_inside) {
    region.walked = true;
    region.walked_at = std::min(region.walked_at, frontier_region.walked_at);
    region.walk_accesses += walk_entries;
    ++kept_absorbs_;
  }
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
  region.base_entries = Forward(reverse).RowSize(base);
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

// Region.rebuild without the walk: the region holds what a walk gives once
// the storages logged since position walked_at are accounted for (a walk
// then, or an absorb of two such regions), so the walk it would take now
// differs only where a storage it met has changed since. Most rebuilds
// follow a rematerialization that turned an interior storage or two
// material; the update takes those storages out of the interior, with what
// only they led to (Cut), and decides again only the frontier storages they
// touch. It also follows edges gained since by the base or by an evicted
// interior storage that is still reached. Anything else (a frontier
// storage evicted, a new edge to an evicted storage outside the region from
// the base or from a storage still reached, too much cut off) returns false
// and the caller walks. The sets come out equal to the walk's, in another
// order: on an acyclic storage graph nothing simrd computes depends on that
// order (no storage is ever in its own region).
bool RegionUpkeep::Update(Region& region, StorageId base, bool reverse) {
  const size_t end = change_log_.size();
  const size_t since = region.walked_at;
  const StorageAdjacency& adjacency = Forward(reverse);
  const StorageAdjacency& back = Backward(reverse);
  const uint8_t* material = material_.data();
  StorageList& now_material = update_material_;
  now_material.clear();
  // What the walk met and has changed since: a frontier storage must still
  // be material; an interior one still evicted may have gained edges (and a
  // new row or compute means summing again); one now material leaves the
  // interior, with what only it led to (Cut).
  const size_t* added_at = AddedAt(reverse);
  // The new edges of interior storages still evicted, as (from, to) pairs:
  // to material (joins the frontier), and to an evicted storage outside
  // the region (which only a walk would follow). Both count only if `from`
  // is still reached: an interior storage that gained edges while
  // material, before it was evicted again, is often cut off now, with the
  // new edges, by the rematerialization of a storage between it and the
  // base (on LSTM such edges made a thousand rebuilds walk, two thirds of
  // all the walks' accesses, and the walk added nothing).
  StorageList& reached = update_reached_;
  StorageList& reached_from = update_reached_from_;
  StorageList& outside_from = update_outside_from_;
  reached.clear();
  reached_from.clear();
  outside_from.clear();
  const size_t* shape_changed_at = shape_changed_at_[reverse].data();
  // Whether a storage's row or compute may not be the one the region summed.
  bool sums_kept = true;
  // Whether a storage now material leads to an evicted one, so that part of
  // the interior may be out of reach now (Cut).
  bool cut = false;
  auto interior_changed = [&](StorageId v) {
    if (!material[v]) {
      // Evicted now: the walk goes along all its edges. Those it had when
      // met lead into the region; those gained since (its row's last
      // entries) lead to storages the region holds, or to material ones,
      // which join the frontier, or out of the region.
      if (shape_changed_at[v] <= since) return;
      sums_kept = false;
      const StorageId* row = adjacency.Row(v);
      const size_t* row_added_at = added_at + adjacency.RowBegin(v);
      for (uint32_t k = adjacency.RowSize(v); k > 0 && row_added_at[k - 1] > since; --k) {
        const StorageId u = row[k - 1];
        if (u == base) continue;
        if (material[u]) {
          reached.push_back(u);
          reached_from.push_back(v);
        } else if (!region.interior.Contains(u)) {
          outside_from.push_back(v);
        }
      }
      return;
    }
    const StorageId* row = adjacency.Row(v);
    for (uint32_t k = 0, n = adjacency.RowSize(v); k < n && !cut; ++k) cut = !material[row[k]];
    now_material.push_back(v);
  };
  // The base's row of this direction grew since (its material state cannot
  // have changed: evicting it clears the region).
  const bool base_changed = shape_changed_at[base] > since;
  // The changes are found from whichever is shorter: the change log since
  // the walk, or the region's own storages. A storage the walk did not meet
  // is still out of its reach: reaching it needs an edge from a storage the
  // walk met, whose change is logged.
  if (end - since <= region.interior.size() + region.frontier.size()) {
    EpochMarks::Epoch seen = marks_->NextEpoch();
    seen.Mark(base);
    for (size_t i = since; i < end; ++i) {
      const StorageId v = change_log_[i];
      if (!seen.TryMark(v)) continue;
      // Both, when absorbs met v in each role.
      if (!material[v] && region.frontier.Contains(v)) return false;
      if (region.interior.Contains(v)) interior_changed(v);
    }
  } else {
    // Only a storage in a role it no longer has, or with a new shape, can
    // have changed in a way that matters.
    for (StorageId v : region.frontier.items())
      if (!material[v]) return false;
    region.interior.ForEach([&](StorageId v) {
      if (material[v] || shape_changed_at[v] > since) interior_changed(v);
    });
  }
  // The base gained edges (it was an operator's argument): rows only grow,
  // so its new neighbours are the row's last entries. A material one other
  // than the base (an alias of its argument) joins the frontier; an evicted
  // one the walk did not reach would take a walk.
  const uint32_t base_entries = adjacency.RowSize(base);
  if (base_changed) {
    if (base_entries < region.base_entries) return false;
    const StorageId* row = adjacency.Row(base);
    for (uint32_t k = region.base_entries; k < base_entries; ++k)
      if (!material[row[k]] && row[k] != base && !region.interior.Contains(row[k])) return false;
  }

  StorageList& cut_off = update_cut_off_;
  cut_off.clear();
  if (cut) {
    if (!Cut(region, base, reverse, &cut_off)) return false;
    // New edges out of the region from a storage still reached take a
    // walk; those from a storage cut off lead nowhere now. (Cut follows
    // paths inside the region only: a path from the base that leaves it
    // takes a new edge of the base, checked above, or one of a storage
    // still reached, checked here; an old edge out leads to a frontier
    // storage, and one evicted since was checked in the loop.)
    // A cut with no new edges beside it has nothing to filter.
    if (!outside_from.empty() || !reached.empty()) {
      EpochMarks::Epoch is_cut_off = marks_->NextEpoch();
      for (StorageId v : cut_off) is_cut_off.Mark(v);
      for (StorageId v : outside_from)
        if (!is_cut_off.IsMarked(v)) return false;
      size_t kept = 0;
      for (size_t i = 0; i < reached.size(); ++i)
        if (!is_cut_off.IsMarked(reached_from[i])) reached[kept++] = reached[i];
      reached.resize(kept);
    }
  } else if (!outside_from.empty()) {
    return false;
  }

  uint64_t accesses = region.walk_accesses;
  Int compute = region.compute;
  auto leave_interior = [&](StorageId v) {
    region.interior.Erase(v);
    if (shape_changed_at[v] > since) {
      sums_kept = false;
    } else {
      accesses -= adjacency.RowSize(v);
      compute -= compute_[v];
    }
  };
  for (StorageId v : cut_off) leave_interior(v);
  for (StorageId v : now_material) leave_interior(v);
  accesses += base_entries;
  accesses -= region.base_entries;
  if (!sums_kept) {  // sum again over what is left
    accesses = adjacency.RowSize(base);
    compute = 0;
    AddSums(region.interior, adjacency, &accesses, &compute);
  }
  // The storages now material, and the frontier storages they led to, are
  // on the frontier if the base or a storage still inside leads to them.
  StorageList& candidates = update_candidates_;
  candidates.clear();
  EpochMarks::Epoch listed = marks2_->NextEpoch();
  auto list_frontier_neighbours = [&](StorageId v) {
    const StorageId* row = adjacency.Row(v);
    for (uint32_t k = 0, n = adjacency.RowSize(v); k < n; ++k)
      if (material[row[k]] && region.frontier.Contains(row[k]) && listed.TryMark(row[k]))
        candidates.push_back(row[k]);
  };
  for (StorageId v : now_material) {
    if (listed.TryMark(v)) candidates.push_back(v);
    list_frontier_neighbours(v);
  }
  for (StorageId v : cut_off) list_frontier_neighbours(v);
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
  if (base_changed) {
    const StorageId* row = adjacency.Row(base);
    for (uint32_t k = region.base_entries; k < base_entries; ++k)
      if (material[row[k]] && row[k] != base) region.frontier.Insert(row[k]);
  }
  for (StorageId u : reached) region.frontier.Insert(u);
  region.compute = compute;
  region.walk_accesses = accesses;
  region.base_entries = base_entries;
  region.walked_at = end;
  return true;
}

void RegionUpkeep::AddSums(const IdSet& set, const StorageAdjacency& adjacency, uint64_t* entries,
                           Int* compute) const {
  set.ForEachWord([&](StorageId first,
                      uint64_t bits) { AddWordSums(adjacency, first, bits, entries, compute); },
                  [&](StorageId x) { AddStorageSums(adjacency, x, entries, compute); });
}

void RegionUpkeep::AddWordSums(const StorageAdjacency& adjacency, StorageId first, uint64_t bits,
                               uint64_t* entries, Int* compute) const {
  if (computes_fit_) {
    // The row sizes' sum modulo 2^32 is exact: all rows together hold
    // fewer than 2^32 entries (StorageAdjacency indexes them with uint32).
    const MaskedSums sums =
        SumMasked(compute64_.data() + first, adjacency.RowSizes() + first, bits);
    *entries += sums.counts;
    *compute += sums.values;
    return;
  }
  for (uint64_t b = bits; b != 0; b &= b - 1)
    AddStorageSums(adjacency, first | static_cast<StorageId>(__builtin_ctzll(b)), entries, compute);
}

// The storages of the interior that the storages now material
// (update_material_, all still in the interior) cut off from the base: the
// evicted storages their evicted neighbours lead to (the suspects), less
// those still reached from the base or from an evicted interior storage
// that is not a suspect (its path from the base avoids the storages now
// material). False, changing nothing, when the suspects are so many that a
// walk is as cheap.
bool RegionUpkeep::Cut(const Region& region, StorageId base, bool reverse, StorageList* cut_off) {
  const StorageAdjacency& adjacency = Forward(reverse);
  const StorageAdjacency& back = Backward(reverse);
  const uint8_t* material = material_.data();
  auto evicted_inside = [&](StorageId x) { return !material[x] && region.interior.Contains(x); };
  StorageList& suspects = update_suspects_;
  suspects.clear();
  EpochMarks::Epoch suspect = marks_->NextEpoch();
  for (StorageId v : update_material_) {
    const StorageId* row = adjacency.Row(v);
    for (uint32_t k = 0, n = adjacency.RowSize(v); k < n; ++k)
      if (evicted_inside(row[k]) && suspect.TryMark(row[k])) suspects.push_back(row[k]);
  }
  const size_t limit = region.interior.size() / 2;
  for (size_t i = 0; i < suspects.size(); ++i) {
    if (suspects.size() > limit) return false;
    const StorageId* row = adjacency.Row(suspects[i]);
    for (uint32_t k = 0, n = adjacency.RowSize(suspects[i]); k < n; ++k)
      if (evicted_inside(row[k]) && suspect.TryMark(row[k])) suspects.push_back(row[k]);
  }
  // Reached: the suspects with a parent (child, when reverse) outside the
  // suspects that is the base or evicted inside, and what they lead to.
  StorageList& stack = update_stack_;
  stack.clear();
  EpochMarks::Epoch reached = marks2_->NextEpoch();
  for (StorageId x : suspects) {
    const StorageId* row = back.Row(x);
    for (uint32_t k = 0, n = back.RowSize(x); k < n; ++k) {
      const StorageId p = row[k];
      if (p == base || (!suspect.IsMarked(p) && evicted_inside(p))) {
        reached.Mark(x);
        stack.push_back(x);
        break;
      }
    }
  }
  while (!stack.empty()) {
    const StorageId x = stack.back();
    stack.pop_back();
    const StorageId* row = adjacency.Row(x);
    for (uint32_t k = 0, n = adjacency.RowSize(x); k < n; ++k)
      if (suspect.IsMarked(row[k]) && reached.TryMark(row[k])) stack.push_back(row[k]);
  }
  for (StorageId x : suspects)
    if (!reached.IsMarked(x)) cut_off->push_back(x);
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
    throw std::logic_error("dtrcheck bug: the updated or absorbed " +
                           std::string(reverse ? "reverse " : "") + "region of storage " +
                           std::to_string(base) + " differs from what a walk gives");
  }
}

}  // namespace dtrcheck
