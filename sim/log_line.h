// One line of a simrd log, decoded by the reference JSON reader
// (nlohmann::json), and the fields of such lines.
//
// Both readers of logs use it: ParseTrace (sim/parse.cc), whose fast reader
// falls back to this one on anything it does not accept, and ReadTraceLog
// (io/trace_log.cc). So what makes a line or a field bad, and the message
// that says so, are written once. Every error is a TraceError naming the
// file and line.
#ifndef DTRCHECK_SIM_LOG_LINE_H_
#define DTRCHECK_SIM_LOG_LINE_H_

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/file_text.h"  // TraceError, kMaxLineBytes
#include "sim/python/py_arith.h"

namespace dtrcheck {

// The INSTRUCTION of a line.
enum class LineKind {
  kConstant,
  kMemory,
  kCopy,
  kRelease,
  kCall,
  kMutate,
  kAnnotate,
  kCopyFrom,
  kAlias
};

// The kind an INSTRUCTION value names, if any ("CALL" -> kCall).
std::optional<LineKind> LineKindFromName(std::string_view name);
// Its INSTRUCTION value (kCall -> "CALL").
std::string_view LineKindName(LineKind kind);

// The log's lines as Python's text mode reads them (universal newlines):
// split at "\r\n", "\n" or a lone "\r"; a final line ending ends the last
// line. LogLines hands them out one at a time, without a list of them (the
// parser reads each once, in order); SplitLogLines lists them.
class LogLines {
 public:
  explicit LogLines(std::string_view text);
  // The next line, or false at the end of the text.
  bool Next(std::string_view* line);

 private:
  std::string_view text_;
  size_t pos_ = 0;
  size_t cr_;  // the next "\r" at or after pos_ (or past it: see Next), or npos
};
std::vector<std::string_view> SplitLogLines(std::string_view text);
// The line without its trailing white space, which simrd strips with
// line.rstrip() (Python's whitespace: sim/python/py_text.h).
std::string_view StripLogLine(std::string_view line);

// `text` as an error message quotes it: at most 60 bytes, then its length.
std::string Excerpt(std::string_view text);

// Why an integer field's value is outside what dtrcheck accepts (0 to
// 2^63 - 1, or -1 too where `allow_minus_one`), or nothing if it is inside.
// LogLineReader::Integer and TraceLogGraph (io/trace_graph.h) both use it.
std::optional<std::string> IntegerRangeError(Int value, std::string_view key, bool allow_minus_one);

struct LogLine {
  LineKind kind = LineKind::kConstant;
  long line = 0;  // 1-based
  nlohmann::json j;
};

class LogLineReader {
 public:
  explicit LogLineReader(std::string file) : file_(std::move(file)) {}

  const std::string& file() const { return file_; }

  [[noreturn]] void Fail(long line, const std::string& message) const;

  // A JSON object with a known string INSTRUCTION.
  LogLine Decode(std::string_view text, long line) const;

  const nlohmann::json& Field(const LogLine& l, const char* key) const;
  std::string String(const LogLine& l, const char* key) const;
  std::vector<std::string> Names(const LogLine& l, const char* key) const;
  // simrd reads numbers with Python's int(); logs store them as decimal
  // strings, JSON integers are accepted too. Sizes and times are kept in
  // [0, 2^63) so that sums of them never leave 128 bits; allow_minus_one
  // admits -1 (ALIAS).
  Int Integer(const LogLine& l, const char* key, bool allow_minus_one = false) const;
  // ALIAS: -1, or the index of the argument whose storage the result shares.
  int32_t AliasIndex(const LogLine& l, size_t n_args) const;
  // MUTATE: indices into the op's n_args arguments.
  std::vector<size_t> MutateIndices(const LogLine& l, size_t n_args) const;

 private:
  std::string file_;
};

}  // namespace dtrcheck

#endif  // DTRCHECK_SIM_LOG_LINE_H_
