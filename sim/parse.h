// simrd's log parser (simrd/parse/parse.py, parse_file).
//
// A log has one JSON object per line: CONSTANT, MEMORY, COPY, COPY_FROM,
// RELEASE, CALL, MUTATE, ALIAS, ANNOTATE. ParseTrace builds the Graph that
// simrd's parse_file builds, command for command. Input that simrd would
// reject (or crash on) and input that is plainly wrong (negative sizes,
// numbers that overflow) raise TraceError (sim/log_line.h) naming the file
// and line.
#ifndef DTRCHECK_SIM_PARSE_H_
#define DTRCHECK_SIM_PARSE_H_

#include <string>
#include <string_view>

#include "sim/graph.h"
#include "sim/log_line.h"  // TraceError

namespace dtrcheck {

enum class OutputCondition { kRematerialize, kPreallocate };

struct ParseOptions {
  bool start = true;  // skip everything up to the first START annotation
  OutputCondition out_cond = OutputCondition::kRematerialize;
  bool ignore_undefined_release = true;
  // Testing: decode with the reference JSON reader only (sim/parse.cc).
  bool reference_json_reader = false;
};

// Parses log text; `file` only names the source in errors.
Graph ParseTrace(std::string_view text, const std::string& file, const ParseOptions& options = {});

// Reads and parses a log file. Throws TraceError if it cannot be read.
Graph ParseTraceFile(const std::string& path, const ParseOptions& options = {});

}  // namespace dtrcheck

#endif  // DTRCHECK_SIM_PARSE_H_
