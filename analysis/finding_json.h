// One end of a finding (analysis/pathology.h) as JSON, the same object in
// `dtrcheck scan --json` (cli/scan_report.cc) and the Python package's scan
// results (python/src/simulation.cc).
#ifndef DTRCHECK_ANALYSIS_FINDING_JSON_H_
#define DTRCHECK_ANALYSIS_FINDING_JSON_H_

#include "analysis/pathology.h"
#include "io/json.h"

namespace dtrcheck {

// {"ratio": R or null, "budget": B, "status": "ok", "overhead": X}
Json FindingEndToJson(const FindingEnd& e);

}  // namespace dtrcheck

#endif  // DTRCHECK_ANALYSIS_FINDING_JSON_H_
