// The pieces of megengine_dtr.cc that its tests call directly.
#ifndef DTRCHECK_POLICIES_MEGENGINE_SCORE_H_
#define DTRCHECK_POLICIES_MEGENGINE_SCORE_H_

#include <vector>

#include "dtrcheck/heuristic.h"

namespace dtrcheck::policies {

// eval_func(estimate_neighbor_cost, free left + right, timestamp, 1, 1, 1,
// 1.0001) for storage s (megengine_dtr.cc lists how each input is read).
double MegEngineScore(api::StorageHandle s, api::View& view);
// find_best_tensor over `candidates`: the least score (the first of equal
// ones), or among about sqrt(n) drawn with view.RandBelow; kNoStorage when
// there are none.
api::StorageHandle FindBestTensor(const std::vector<api::StorageHandle>& candidates,
                                  bool sqrt_sampling, api::View& view);

}  // namespace dtrcheck::policies

#endif  // DTRCHECK_POLICIES_MEGENGINE_SCORE_H_
