// OneFlow's address-aware eviction: DTE and Coop.
//
// Follows Oneflow-Inc/oneflow at commit 86c82db85740aa6981d55482b6cfd6aa3a12c11e
// ("Tensor Rematerialization (a.k.a. DTR/Coop) (#9861)", the merge of the
// branch whose 057f65205ce483cd7c69dde5b1288fac371efc1a memory/ follows; the
// two functions below differ between them only in the class's name):
//  - oneflow/core/vm/remat/allocator.cpp: RematEpAllocator::
//    EvictAndFindPieceLoop(required_size, consider_neighbor = true) (DTE,
//    chosen by ONEFLOW_REMAT_HEURISTIC_DTE) and EvictAndFindPieceOnce (Coop,
//    the default), and get_cost (a null tensor, a free piece, costs 0);
//  - oneflow/core/eager/tensor_storage.cpp: RematableTensorStorage::cost:
//    neighbour cost / (time_now - last_access_time) / size, where size is the
//    blob's bytes (or the override: DTE's size with its neighbourhood) under
//    DTE and DTR and 1 otherwise (Coop), and approx_neighbor_cost (the
//    default, ONEFLOW_REMAT_NEIGHBOR = true): compute_time plus, for each
//    input and output of its compute op not in memory, the larger of its
//    union-find component's compute time and its own.
//
// Deliberate differences:
//  1. The neighbour cost is compute + simrd's s.region.compute (View::
//     Compute + RegionCompute: the exact connected region of evicted
//     ancestors, which the optimized runtime keeps), not OneFlow's
//     union-find (approx_neighbor_cost), which never splits a component on
//     a recompute (it subtracts), counts a component once per input edge
//     that reaches it, and adds the evicted outputs of the same op. OneFlow
//     counts no evicted descendants, so neither does this (no
//     RegionRevCompute: that is simrd's DTR, not OneFlow's).
//  2. Time is simrd's clock (View::Clock, LastAccess), not OneFlow's
//     time_now, which advances by each op's estimated compute after the
//     op (its outputs and inputs are accessed at the op's start time).
//     Never-accessed storages have infinite staleness (cost 0).
//  3. A cost that is NaN (0 / 0) is never the least (OneFlow CHECK-fails);
//     an infinite one (staleness 0) never beats OneFlow's initial
//     DBL_MAX, as in OneFlow.
//  4. The runtime evicts for two reasons (View::PendingRequest): simrd's
//     bytes check first (the bytes over the budget), then the allocator's
//     refusal (a request of some bytes). OneFlow has only the second. For
//     the first, Coop's windows add the storages' sizes only (free pieces
//     bridge a window but free no budget bytes), else a window of free
//     pieces alone would evict nothing; for the second they add every
//     piece's size as OneFlow does.
//  5. Windows do not span segments (cuda-caching has several; OneFlow's
//     arena is one region): a new segment restarts the window, as a
//     pinned piece does. DTE's neighbourhood is likewise the free pieces
//     beside the block in its segment.
//  6. No small-piece area, one group (the arena's defaults: memory/README),
//     so InSmallMemoryArea is never true. A window or a scan that finds no
//     victim fails the allocation (OneFlow: an error, or a null piece):
//     ChooseVictims returns no victim and the run runs out of memory.
//  7. The "cheap tensor partitioning" placement of high-compute operators'
//     outputs (FindProperPositionInGroup with several groups) is the
//     allocator's, and memory/'s arena has one group: not modelled. At
//     this commit it is off by default: ONEFLOW_REMAT_GROUP_NUM defaults
//     to 1 (oneflow/core/common/env_var/remat.h), one group, which is what
//     the arena models.
#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

#include "policies/address_policies.h"
#include "policies/oneflow_cost.h"

namespace dtrcheck::policies {

namespace {

using api::Features;
using api::Piece;
using api::StorageHandle;
using api::View;
namespace feature = api::feature;

constexpr Features kNeeds = feature::kRegions | feature::kLastAccessInt | feature::kAddresses;

class Dte : public api::Heuristic {
 public:
  Features RequiredFeatures() const override { return kNeeds; }
  // Not called: Choose scans the pieces itself.
  api::Cost Score(StorageHandle s, View& view) override {
    return api::Cost::Float(OneFlowCost(s, 1, view));
  }
  std::vector<StorageHandle> ChooseVictims(View& view) override {
    const StorageHandle s = DteVictim(view.Pieces(), view);
    if (s == api::kNoStorage) return {};
    return {s};
  }
};

class Coop : public api::Heuristic {
 public:
  Features RequiredFeatures() const override { return kNeeds; }
  api::Cost Score(StorageHandle s, View& view) override {
    return api::Cost::Float(OneFlowCost(s, 1, view));
  }
  std::vector<StorageHandle> ChooseVictims(View& view) override {
    return CoopWindow(view.Pieces(), view);
  }
};

}  // namespace

StorageHandle DteVictim(const std::vector<Piece>& pieces, View& view) {
  double min_cost = std::numeric_limits<double>::max();
  StorageHandle min_tensor = api::kNoStorage;
  for (size_t i = 0; i < pieces.size(); ++i) {
    const Piece& p = pieces[i];
    if (!IsEvictable(p, view)) continue;
    // GetSizeIncludingNeighborhood: the piece and the free pieces beside it
    // (merged: at most one each side), within its segment.
    uint64_t size = p.size;
    if (i > 0 && !pieces[i - 1].allocated && pieces[i - 1].segment == p.segment)
      size += pieces[i - 1].size;
    if (i + 1 < pieces.size() && !pieces[i + 1].allocated && pieces[i + 1].segment == p.segment)
      size += pieces[i + 1].size;
    const double cost = OneFlowCost(p.storage, static_cast<double>(size), view);
    if (cost < min_cost) {
      min_cost = cost;
      min_tensor = p.storage;
    }
  }
  return min_tensor;
}

std::vector<StorageHandle> CoopWindow(const std::vector<Piece>& pieces, View& view) {
  const api::Request request = view.PendingRequest();
  // A request of 0 bytes never needs eviction; 1 keeps the window non-empty.
  const uint64_t required = request.bytes > 0 ? static_cast<uint64_t>(request.bytes) : 1;
  const size_t n = pieces.size();
  size_t start = 0, end = 0;
  uint64_t total_size = 0;
  double cost_except_size = 0;
  double min_cost = std::numeric_limits<double>::max();
  size_t min_start = 0, min_end = 0;
  std::vector<double> costs;
  costs.reserve(n);
  while (end < n) {
    if (total_size < required) {
      const Piece& p = pieces[end];
      const bool new_segment = end > start && pieces[end - 1].segment != p.segment;
      if ((p.allocated && !IsEvictable(p, view)) || new_segment) {
        // A pinned or locked piece ends every window (OneFlow skips it and
        // restarts after it); a segment's first piece starts a new one.
        if (new_segment && !(p.allocated && !IsEvictable(p, view))) {
          start = end;
          total_size = 0;
          cost_except_size = 0;
          continue;
        }
        ++end;
        costs.push_back(0);
        start = end;
        total_size = 0;
        cost_except_size = 0;
        continue;
      }
      // Free pieces count their bytes only for the allocator's request
      // (difference 4).
      if (p.allocated || request.placement) total_size += p.size;
      const double cost = p.allocated ? OneFlowCost(p.storage, 1, view) : 0.0;
      costs.push_back(cost);
      cost_except_size += cost;
      ++end;
    } else {
      const Piece& p = pieces[start];
      if (p.allocated || request.placement) total_size -= p.size;
      cost_except_size -= costs[start];
      ++start;
    }
    if (total_size >= required && cost_except_size < min_cost) {
      min_cost = cost_except_size;
      min_start = start;
      min_end = end;
    }
  }
  std::vector<StorageHandle> victims;
  for (size_t i = min_start; i < min_end; ++i)
    if (pieces[i].allocated) victims.push_back(pieces[i].storage);
  return victims;
}

bool IsEvictable(const Piece& p, View& view) {
  return p.allocated && p.storage != api::kNoStorage && view.Material(p.storage) &&
         !view.Pinned(p.storage) && !view.Locked(p.storage);
}

double OneFlowCost(StorageHandle s, double size, View& view) {
  const double neighbor =
      static_cast<double>(view.Compute(s)) + static_cast<double>(view.RegionCompute(s));
  const api::Stamp last = view.LastAccess(s);
  const double staleness = last.minus_inf ? std::numeric_limits<double>::infinity()
                                          : static_cast<double>(view.Clock() - last.value);
  return neighbor / staleness / size;
}

std::unique_ptr<api::Heuristic> MakeOneFlowDte() { return std::make_unique<Dte>(); }
std::unique_ptr<api::Heuristic> MakeOneFlowCoop() { return std::make_unique<Coop>(); }

}  // namespace dtrcheck::policies
