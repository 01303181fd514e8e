// Synthetic training steps shaped like real models, as simrd logs.
//
// Each shape writes a forward pass through traces/synthetic/trace_builder.h,
// which adds the backward pass and the optimizer step, so every trace has
// tuple outputs, views (ALIAS != -1), in-place ops (MUTATE), COPY and
// COPY_FROM, constants and RELEASEs, like the public logs. Activation sizes
// are heavy-tailed (discrete Pareto, P(size >= 2^k * base) = 2^-k) and compute
// times mix cheap element-wise ops (1e3..3e4) with expensive ones (1e5..3e6,
// convolutions, matrix products, recurrent cells).
//
//   chain   `layers` linear layers, `width` element-wise ops after each
//   resnet  `layers` residual blocks of `width` conv + batch-norm + relu
//   unet    `layers` levels down and up with skip connections, `width` convs per level
//   lstm    `layers` time steps over `width` stacked cells sharing weights
//   tree    a tree of depth `layers` with `width` children per node (Tree-LSTM)
//   dag     `layers` random ops, each on up to `width` earlier values
//
// The same parameters always give the same log, byte for byte.
#ifndef DTRCHECK_TRACES_SYNTHETIC_GENERATORS_H_
#define DTRCHECK_TRACES_SYNTHETIC_GENERATORS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "io/trace_log.h"

namespace dtrcheck {

struct GeneratorParams {
  std::string shape = "resnet";
  uint64_t seed = 0;
  int layers = 6;
  int width = 2;
  int64_t base_bytes = 1 << 20;  // typical activation size
};

// The shape names, in the order above.
const std::vector<std::string>& GeneratorShapes();

// Throws std::invalid_argument for an unknown shape (listing the valid ones)
// or parameters out of range: layers in [1, 4096], width in [1, 16],
// base_bytes in [4, 2^40], and for tree, width^layers <= 4096 leaves.
TraceLog GenerateTrace(const GeneratorParams& params);

}  // namespace dtrcheck

#endif  // DTRCHECK_TRACES_SYNTHETIC_GENERATORS_H_
