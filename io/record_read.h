// Reading run records back from JSON (the form RecordToJson writes), for
// `sweep --resume` and `sweep --merge`: RecordToJson(RecordFromJson(j))
// gives back j for every record dtrcheck or the oracle prints.
#ifndef DTRCHECK_IO_RECORD_READ_H_
#define DTRCHECK_IO_RECORD_READ_H_

#include <string>
#include <vector>

#include "io/record.h"
#include "sim/simulate.h"

namespace dtrcheck {

// Throws std::invalid_argument naming the missing or mistyped field.
RunRecord RecordFromJson(const Json& j);

// One record per non-empty line. Throws std::invalid_argument
// "FILE:LINE: ..." for a line that is not a record, or if the file cannot
// be read.
std::vector<RunRecord> ReadRecordsJsonl(const std::string& path);

}  // namespace dtrcheck

#endif  // DTRCHECK_IO_RECORD_READ_H_
