// Eviction policies of production DTR systems that read addresses: OneFlow's
// DTE and Coop (oneflow_remat.cc) and MegEngine's DTR (megengine_dtr.cc),
// written against the public heuristic API only (include/dtrcheck/
// heuristic.h, version 2), as a plugin would be. The plugin loader
// registers them before any plugin (plugins/plugin_heuristic.h,
// LoadPlugins), so every command, fuzzer and property takes them by name.
#ifndef DTRCHECK_POLICIES_ADDRESS_POLICIES_H_
#define DTRCHECK_POLICIES_ADDRESS_POLICIES_H_

#include <cstdint>
#include <memory>
#include <optional>

#include "dtrcheck/heuristic.h"

namespace dtrcheck::policies {

// OneFlow's EvictAndFindPieceLoop(consider_neighbor = true): one victim per
// decision, the least cost / (size + free pieces beside it). "DTE".
std::unique_ptr<api::Heuristic> MakeOneFlowDte();
// OneFlow's EvictAndFindPieceOnce: the contiguous window of pieces of at
// least the requested size with the least summed cost. "Coop".
std::unique_ptr<api::Heuristic> MakeOneFlowCoop();

struct MegEngineOptions {
  // MEGENGINE_DTR_EVICTEE_MINIMUM_SIZE (option_manager.h; 1 MiB): only
  // storages larger than this are candidates.
  uint64_t evictee_minimum_size = 1048576;
  // MEGENGINE_DTR_SQRT_SAMPLING: score about sqrt(n) candidates drawn with
  // the run's seed instead of all of them.
  bool sqrt_sampling = false;
};
// Reads MEGENGINE_DTR_EVICTEE_MINIMUM_SIZE and MEGENGINE_DTR_SQRT_SAMPLING
// as MegEngine does (a non-negative integer each; std::invalid_argument
// naming the variable otherwise).
MegEngineOptions MegEngineOptionsFromEnv();
// MegEngine's find_best_tensor with eval_func. "MegEngineDTR".
std::unique_ptr<api::Heuristic> MakeMegEngineDtr(const MegEngineOptions& options);

// Registers DTE, Coop, MegEngineDTR and MegEngineDTRSqrt (sqrt sampling).
void RegisterAddressPolicies(api::Registrar& registrar);

}  // namespace dtrcheck::policies

#endif  // DTRCHECK_POLICIES_ADDRESS_POLICIES_H_
