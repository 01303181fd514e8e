// The JSON form of a RunRecord: the same object `dtrcheck run --json` prints
// and the oracle (oracle/simrd_oracle.py) prints from simrd.
#ifndef DTRCHECK_IO_RECORD_H_
#define DTRCHECK_IO_RECORD_H_

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/simulate.h"

namespace dtrcheck {

using Json = nlohmann::ordered_json;

// An Int as a JSON integer. Throws std::overflow_error beyond 64 bits.
Json IntJson(Int v);

Json RecordToJson(const RunRecord& record);

// The fields compared for parity, in record order. heuristic_access_count is
// left out for the equivalence-class heuristics (QUIRKS.md, Q-EQCLASS).
std::vector<std::string> ParityFields(const std::string& heuristic);

// The names of the parity fields where a and b differ.
std::vector<std::string> DifferingFields(const Json& a, const Json& b,
                                         const std::string& heuristic);

}  // namespace dtrcheck

#endif  // DTRCHECK_IO_RECORD_H_
