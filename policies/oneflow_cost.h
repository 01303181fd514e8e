// The pieces of oneflow_remat.cc that its tests call directly: OneFlow's
// cost, evictability and the two searches over the pieces.
#ifndef DTRCHECK_POLICIES_ONEFLOW_COST_H_
#define DTRCHECK_POLICIES_ONEFLOW_COST_H_

#include <vector>

#include "dtrcheck/heuristic.h"

namespace dtrcheck::policies {

// RematableTensorStorage::cost with approx_neighbor_cost: (compute +
// region compute) / staleness / size (size 1 for Coop), in doubles.
double OneFlowCost(api::StorageHandle s, double size, api::View& view);
// An allocated piece whose storage is in memory, neither pinned nor locked.
bool IsEvictable(const api::Piece& p, api::View& view);
// EvictAndFindPieceLoop's choice (DTE), or kNoStorage.
api::StorageHandle DteVictim(const std::vector<api::Piece>& pieces, api::View& view);
// EvictAndFindPieceOnce's window (Coop): its storages in address order,
// empty when no window qualifies. O(pieces).
std::vector<api::StorageHandle> CoopWindow(const std::vector<api::Piece>& pieces, api::View& view);

}  // namespace dtrcheck::policies

#endif  // DTRCHECK_POLICIES_ONEFLOW_COST_H_
