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

// background.md does not say where on the LSTM trace the cliff is; the
// corpus scan (corpus/scan-report/lstm, ratios 0.10 to 1.00 step 0.001)
// finds it in this window, which reproduce sweeps at step 0.001.
constexpr const char* kLstmWindowFrom = "WINDOW_FROM";
constexpr const char* kLstmWindowTo = "WINDOW_TO";

}  // namespace dtrcheck

#endif  // DTRCHECK_CLI_REPRODUCE_COMMON_H_
