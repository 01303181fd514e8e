// Diagnosis reports (dtrcheck diagnose, scan --report, reproduce): the state
// at an out-of-memory failure and the largest locked total, as text or JSON.
#ifndef DTRCHECK_CLI_DIAGNOSIS_REPORT_H_
#define DTRCHECK_CLI_DIAGNOSIS_REPORT_H_

#include <string>

#include "analysis/pathology.h"
#include "io/record.h"

namespace dtrcheck {

// {"record": run record, "oom": {...} or null, "pinned_frontier_oom",
//  "max_locked_bytes", "max_locked_clock"}.
Json DiagnosisToJson(const Diagnosis& d);

// Lines for people; `indent` prefixes each.
std::string DiagnosisText(const Diagnosis& d, const std::string& indent = "");

}  // namespace dtrcheck

#endif  // DTRCHECK_CLI_DIAGNOSIS_REPORT_H_
