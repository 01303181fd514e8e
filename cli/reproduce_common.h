// Settings shared by the parts of `dtrcheck reproduce`.
#ifndef DTRCHECK_CLI_REPRODUCE_COMMON_H_
#define DTRCHECK_CLI_REPRODUCE_COMMON_H_

#include "sim/simulate.h"

namespace dtrcheck {

// The study's configuration: DTR on RuntimeV2EagerOptimized with a
// V2EagerOptimized baseline (RunConfig's defaults) and overhead limit 8.
inline RunConfig StudyConfig() {
  RunConfig c;
  c.overhead_limit = 8;
  return c;
}

// background.md does not say where on the LSTM trace its cliff is. Between
// 0.280 and 0.290 of peak, DTR on this trace switches between a fast regime
// (about 1.33x) and slow ones (5x to 8x, or thrashed) from one 0.001 step to
// the next (found with `dtrcheck sweep`, see corpus/scan-report/lstm for the
// whole range); reproduce sweeps this window, and ablates on a part of it
// (each of the 16 ablations there costs up to ~8 s of CPU per budget).
constexpr const char* kLstmWindowFrom = "0.280";
constexpr const char* kLstmWindowTo = "0.290";
constexpr const char* kLstmAblationFrom = "0.280";
constexpr const char* kLstmAblationTo = "0.284";

}  // namespace dtrcheck

#endif  // DTRCHECK_CLI_REPRODUCE_COMMON_H_
