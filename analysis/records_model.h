// The memory model a census asks of its records (`dtrcheck census
// --memory`, Python's census(memory=)): a census reads runs, it does not
// make them, so a model asked for must be the records' own, as `scan
// --records` and `sweep --resume` refuse records of another model.
#ifndef DTRCHECK_ANALYSIS_RECORDS_MODEL_H_
#define DTRCHECK_ANALYSIS_RECORDS_MODEL_H_

#include <string>
#include <vector>

#include "sim/placed_memory.h"
#include "sim/simulate.h"

namespace dtrcheck {

// Throws std::invalid_argument naming `input` and both models when a record
// of `records` ran under another model (or max_split_size_mb) than `wanted`.
void RefuseRecordsOfOtherModel(const std::string& input, const std::vector<RunRecord>& records,
                               const MemoryOptions& wanted);

}  // namespace dtrcheck

#endif  // DTRCHECK_ANALYSIS_RECORDS_MODEL_H_
