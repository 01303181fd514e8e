// The one bounded reader of dtrcheck's inputs besides traces: records (JSON
// Lines: ReadJsonLines, io/json.h, reads through OpenInputFile), manifests
// (one JSON document) and fuzzer inputs (bytes).
//
// They are read as the trace reader reads a log (base/file_text.h, with its
// line cap kMaxLineBytes, 16 MiB): only a regular file (a directory,
// /dev/zero or a FIFO is refused by name before a byte is read: "PATH: is a
// character device, not a regular file"), at most max_bytes, lines of at
// most kMaxLineBytes ("PATH:N: a line of ... bytes"). A read that fails,
// memory included, throws: it never reads as the end of the file.
#ifndef DTRCHECK_IO_INPUT_FILE_H_
#define DTRCHECK_IO_INPUT_FILE_H_

#include <cstddef>
#include <string>

#include "base/file_text.h"
#include "io/json.h"

namespace dtrcheck {

// The text of the regular file `path`, of at most `max_bytes`. Throws
// std::invalid_argument "PATH: cannot read" (missing, unreadable) or
// "PATH: is a ..., not a regular file" or "PATH: longer than ...".
FileText OpenInputFile(const std::string& path, size_t max_bytes);

// The one JSON document in `path` (a manifest), at most kMaxLineBytes long.
// Throws std::invalid_argument "PATH: ..." (as OpenInputFile, not JSON, or
// a FieldError's message).
Json ReadJsonFile(const std::string& path);

// The bytes of `path` (a fuzzer input), at most `max_bytes`. Throws
// std::invalid_argument as OpenInputFile.
std::string ReadSmallFile(const std::string& path, size_t max_bytes);

}  // namespace dtrcheck

#endif  // DTRCHECK_IO_INPUT_FILE_H_
