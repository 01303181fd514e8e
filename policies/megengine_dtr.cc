// MegEngine's DTR (its "dynamic sublinear" interpreter).
//
// Follows MegEngine/MegEngine at commit 47952c075d868665e1116214bea760d786144081:
//  - imperative/src/impl/interpreter/tensor_info.h: TensorInfo::eval_func,
//      pow(cost + 1e-3, param_cost) * pow(param_recompute_times, recompute_times)
//      / (pow((memory + free_mem) / 1024.0 / 1024.0, param_mem)
//         * pow(cur_time - last_used_time + 1e-3, param_time)),
//    size_exceeds_thd (memory > thd);
//  - imperative/src/impl/interpreter/interpreter_impl.cpp: find_best_tensor
//    (params 1.0, 1.0, 1.0, 1.0001; the least score, ties to the first; the
//    free bytes left and right of the block, get_free_left_and_right; the
//    sqrt sampling loop), estimate_neighbor_cost (for each dropped input of
//    the producer and each dropped output, the larger of its union-find
//    component's time and its own compute time), the candidate list (only
//    tensors above dtr_evictee_minimum_size enter it, insert_candidate);
//  - imperative/src/impl/interpreter/option_manager.h: the options
//    MEGENGINE_DTR_EVICTEE_MINIMUM_SIZE (1048576) and
//    MEGENGINE_DTR_SQRT_SAMPLING (0).
//
// Deliberate differences:
//  1. The neighbour cost is simrd's s.region.compute (View::RegionCompute,
//     the exact connected region of evicted ancestors), not MegEngine's
//     union-find, which never splits a component on a recompute (it
//     subtracts), counts a component once per input edge reaching it, and
//     adds the producer's dropped outputs. As in MegEngine the tensor's own
//     compute is not in it (estimate_neighbor_cost sums neighbours only),
//     nor are evicted descendants.
//  2. Units: compute_time is the trace's compute (MegEngine estimates it as
//     the bytes of the op's inputs and outputs) and time is simrd's clock
//     divided by 1e8, which is how MegEngine's estimate_timestamp advances
//     (by each op's compute_time / 1e8); the epsilons (1e-3) are kept.
//     Never-accessed storages have infinite staleness (score 0).
//  3. Candidates are the evictable pool's storages larger than the minimum
//     size, in pool order (MegEngine's candidate vector is in insertion
//     order, erased by swapping with the last), read afresh per decision.
//  4. Sampling draws with the heuristic's generator (View::RandBelow,
//     seeded with the run's --seed) where MegEngine calls rand(); the loop
//     stops at ti >= candidates (MegEngine tests ti > size and would read one
//     past the end).
//  5. No candidate (or none sampled with a score): no victim, the run runs
//     out of memory (MegEngine's auto_evict stops and the allocation
//     fails). The eviction threshold (MEGENGINE_DTR_EVICTION_THRESHOLD,
//     evicting before memory runs out) is the runtime's: dtrcheck evicts on
//     the budget check and on the allocator's refusal.
//  6. Memory is the block's size as the allocator rounded it (MegEngine's
//     blob size is the tensor's bytes).
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "policies/address_policies.h"
#include "policies/megengine_score.h"

namespace dtrcheck::policies {

namespace {

using api::Features;
using api::StorageHandle;
using api::View;
namespace feature = api::feature;

class MegEngineDtr : public api::Heuristic {
 public:
  explicit MegEngineDtr(const MegEngineOptions& options) : options_(options) {}
  Features RequiredFeatures() const override {
    return feature::kRegions | feature::kLastAccessInt | feature::kAddresses;
  }
  api::Cost Score(StorageHandle s, View& view) override {
    return api::Cost::Float(MegEngineScore(s, view));
  }
  std::vector<StorageHandle> ChooseVictims(View& view) override {
    candidates_.clear();
    for (size_t i = 0; i < view.PoolSlotCount(); ++i) {
      const StorageHandle s = view.PoolSlot(i);
      if (s >= 0 && view.Size(s) > static_cast<api::Int>(options_.evictee_minimum_size))
        candidates_.push_back(s);
    }
    const StorageHandle best = FindBestTensor(candidates_, options_.sqrt_sampling, view);
    if (best == api::kNoStorage) return {};
    return {best};
  }

 private:
  MegEngineOptions options_;
  std::vector<StorageHandle> candidates_;
};

uint64_t EnvInteger(const char* name, uint64_t fallback) {
  const char* text = std::getenv(name);
  if (text == nullptr || *text == '\0') return fallback;
  char* end = nullptr;
  errno = 0;
  const unsigned long long v = std::strtoull(text, &end, 10);
  if (*end != '\0' || errno != 0 || text[0] == '-')
    throw std::invalid_argument(std::string(name) + "=" + text +
                                ": expected a non-negative integer");
  return v;
}

}  // namespace

double MegEngineScore(StorageHandle s, View& view) {
  const double cost = static_cast<double>(view.RegionCompute(s));
  const api::FreeAdjacent side = view.FreeBytesAdjacent(s);
  const double free_mem = static_cast<double>(side.left) + static_cast<double>(side.right);
  const double memory = static_cast<double>(view.BlockOf(s).size);
  const api::Stamp last = view.LastAccess(s);
  const double stale = last.minus_inf ? std::numeric_limits<double>::infinity()
                                      : static_cast<double>(view.Clock() - last.value) / 1e8;
  const auto recompute_times = static_cast<double>(view.RecomputeCount(s));
  // eval_func(neighbor_cost, free_mem, estimate_timestamp, 1.0, 1.0, 1.0, 1.0001)
  return std::pow(cost + 1e-3, 1.0) * std::pow(1.0001, recompute_times) /
         (std::pow((memory + free_mem) / 1024.0 / 1024.0, 1.0) * std::pow(stale + 1e-3, 1.0));
}

StorageHandle FindBestTensor(const std::vector<StorageHandle>& candidates, bool sqrt_sampling,
                             View& view) {
  if (candidates.empty()) return api::kNoStorage;
  double min_msps = -1;
  StorageHandle best = api::kNoStorage;
  size_t sz = 1;
  if (sqrt_sampling) {
    while (sz * sz <= candidates.size()) sz++;
    sz--;
  } else {
    sz = candidates.size();
  }
  size_t ti = sqrt_sampling ? static_cast<size_t>(view.RandBelow(static_cast<api::Int>(sz))) : 0;
  for (size_t vi = 0; vi < sz; vi++) {
    if (!sqrt_sampling) ti = vi;
    const StorageHandle i = candidates[ti];
    const double msps = MegEngineScore(i, view);
    if (min_msps < 0 || msps < min_msps) {
      min_msps = msps;
      best = i;
    }
    if (sqrt_sampling) {
      ti += static_cast<size_t>(view.RandBelow(static_cast<api::Int>(sz)));
      if (ti >= candidates.size()) break;
    }
  }
  return best;
}

MegEngineOptions MegEngineOptionsFromEnv() {
  MegEngineOptions o;
  o.evictee_minimum_size = EnvInteger("MEGENGINE_DTR_EVICTEE_MINIMUM_SIZE", o.evictee_minimum_size);
  o.sqrt_sampling = EnvInteger("MEGENGINE_DTR_SQRT_SAMPLING", 0) != 0;
  return o;
}

std::unique_ptr<api::Heuristic> MakeMegEngineDtr(const MegEngineOptions& options) {
  return std::make_unique<MegEngineDtr>(options);
}

}  // namespace dtrcheck::policies
