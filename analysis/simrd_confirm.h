// Confirming a trace property with simrd itself: the oracle runs the
// property's configurations on the trace, its records must equal dtrcheck's,
// and the property must hold on simrd's own records.
#ifndef DTRCHECK_ANALYSIS_SIMRD_CONFIRM_H_
#define DTRCHECK_ANALYSIS_SIMRD_CONFIRM_H_

#include <string>
#include <vector>

#include <optional>
#include <string>

#include "analysis/reduce_property.h"
#include "io/record.h"

namespace dtrcheck {

// The property on records of its runs (lo then hi). simrd reports statuses,
// not pools, so pinned-oom is checked as: oom at hi (and ok at lo).
bool PropertyHoldsOnRecords(const PropertySpec& spec, const std::vector<RunRecord>& records);

// Why simrd cannot judge the property, or nothing: simrd's memory is bytes,
// so of the properties under an allocator model it judges only the bytes
// half of a fragmentation OOM (confirmation and archive replay alike).
std::optional<std::string> SimrdCannotJudge(const PropertySpec& spec);

// simrd's records of the property's runs on the trace (lo then hi), read.
// Throws SimrdUnavailable or OracleError (oracle/simrd_client.h), and
// std::runtime_error for a run simrd refused.
std::vector<RunRecord> SimrdRecords(const std::string& trace_path, const PropertySpec& spec,
                                    std::vector<Json>* as_printed = nullptr);

struct SimrdConfirmation {
  bool available = false;  // simrd was found (oracle/simrd_client.h)
  bool confirmed = false;  // records equal and the property holds on simrd's
  bool property_holds = false;
  std::vector<Json> records;             // simrd's, lo then hi
  std::vector<std::string> differences;  // "run 1: clock", ...
  std::string error;                     // why simrd could not be asked
  Json ToJson() const;
};

// `ours` is CheckTraceProperty's result on the same file.
SimrdConfirmation ConfirmWithSimrd(const std::string& trace_path, const PropertySpec& spec,
                                   const PropertyCheck& ours);

}  // namespace dtrcheck

#endif  // DTRCHECK_ANALYSIS_SIMRD_CONFIRM_H_
