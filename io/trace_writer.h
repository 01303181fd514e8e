// Writes a TraceLog (io/trace_log.h) as a simrd log.
//
// The output is what simrd's parse_file reads: one JSON object per line, keys
// sorted, no spaces, numbers (MEMORY, ALIAS, TIME) as decimal strings and
// MUTATE indices as integers -- the exact format of the public traces, so that
// reading and writing one of them reproduces it byte for byte.
#ifndef DTRCHECK_IO_TRACE_WRITER_H_
#define DTRCHECK_IO_TRACE_WRITER_H_

#include <ostream>
#include <string>

#include "io/trace_log.h"

namespace dtrcheck {

void WriteTraceLog(const TraceLog& log, std::ostream& out);
std::string TraceLogText(const TraceLog& log);

// Writes to `path` through a temporary file renamed into place
// (io/atomic_file.h), so that a reader (or an interrupted reducer) never
// sees half a log. Throws OutputError naming the path when it cannot be
// written.
void WriteTraceLogFile(const TraceLog& log, const std::string& path);

}  // namespace dtrcheck

#endif  // DTRCHECK_IO_TRACE_WRITER_H_
