#include "sim/log_line.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <utility>

#include "sim/python/py_text.h"

namespace dtrcheck {

namespace {

using nlohmann::json;

constexpr std::pair<std::string_view, LineKind> kKinds[] = {
    {"CONSTANT", LineKind::kConstant}, {"MEMORY", LineKind::kMemory},
    {"COPY", LineKind::kCopy},         {"RELEASE", LineKind::kRelease},
    {"CALL", LineKind::kCall},         {"MUTATE", LineKind::kMutate},
    {"ANNOTATE", LineKind::kAnnotate}, {"COPY_FROM", LineKind::kCopyFrom},
    {"ALIAS", LineKind::kAlias}};

}  // namespace

std::optional<LineKind> LineKindFromName(std::string_view name) {
  for (const auto& [text, kind] : kKinds)
    if (name == text) return kind;
  return std::nullopt;
}

std::string_view LineKindName(LineKind kind) {
  for (const auto& [text, k] : kKinds)
    if (k == kind) return text;
  return "?";
}

// One memchr per line for LF, and one for CR each time the last CR found is
// passed (CRs are rare): find_first_of("\r\n") calls memchr per byte.
namespace {
size_t FindByte(std::string_view text, char c, size_t from) {
  const void* hit = std::memchr(text.data() + from, c, text.size() - from);
  return hit ? static_cast<size_t>(static_cast<const char*>(hit) - text.data())
             : std::string_view::npos;
}
}  // namespace

LogLines::LogLines(std::string_view text) : text_(text), cr_(FindByte(text, '\r', 0)) {}

bool LogLines::Next(std::string_view* line) {
  constexpr size_t npos = std::string_view::npos;
  if (pos_ >= text_.size()) return false;
  if (cr_ != npos && cr_ < pos_) cr_ = FindByte(text_, '\r', pos_);
  size_t end = std::min(FindByte(text_, '\n', pos_), cr_);
  if (end == npos) end = text_.size();
  *line = text_.substr(pos_, end - pos_);
  const bool crlf = end + 1 < text_.size() && text_[end] == '\r' && text_[end + 1] == '\n';
  pos_ = end + (crlf ? 2 : 1);
  return true;
}

std::vector<std::string_view> SplitLogLines(std::string_view text) {
  std::vector<std::string_view> lines;
  LogLines cursor(text);
  for (std::string_view line; cursor.Next(&line);) lines.push_back(line);
  return lines;
}

std::string_view StripLogLine(std::string_view line) { return PyRstrip(line); }

std::string Excerpt(std::string_view text) {
  constexpr size_t kMax = 60;
  if (text.size() <= kMax) return std::string(text);
  return std::string(text.substr(0, kMax)) + "... (" + std::to_string(text.size()) + " bytes)";
}

void LogLineReader::Fail(long line, const std::string& message) const {
  throw TraceError(file_, line, message);
}

std::optional<std::string> IntegerRangeError(Int value, std::string_view key,
                                             bool allow_minus_one) {
  const std::string field = "field \"" + std::string(key) + "\"";
  if (allow_minus_one && value < -1) return field + " must be -1 or an argument index";
  if (!allow_minus_one && value < 0) return field + " must not be negative: " + IntToString(value);
  if (value > Int(INT64_MAX)) return field + " overflows 2^63";
  return std::nullopt;
}

LogLine LogLineReader::Decode(std::string_view text, long line) const {
  LogLine l;
  l.line = line;
  if (text.size() > kMaxLineBytes)
    Fail(line, "a line of " + std::to_string(text.size()) +
                   " bytes; dtrcheck reads lines of at "
                   "most 16 MiB (QUIRKS.md, Q-LONG-LINE)");
  text = StripLogLine(text);
  // nlohmann reads a NUL as the end of the text; Python's json.loads calls
  // what follows "Extra data" (or an invalid control character in a string).
  if (size_t nul = text.find('\0'); nul != std::string_view::npos)
    Fail(line, "bad JSON: NUL byte at column " + std::to_string(nul + 1));
  try {
    l.j = json::parse(text);
  } catch (const json::exception& e) {  // also out_of_range: a number like 7E777 overflows
    // nlohmann quotes the text it read up to the error ("last read: ..."),
    // which can be the whole line: keep its first words only.
    std::string what = e.what();
    auto pos = what.find("syntax error");
    what = pos == std::string::npos ? what : what.substr(pos);
    Fail(line, "bad JSON: " + Excerpt(what));
  }
  if (!l.j.is_object()) Fail(line, "expected a JSON object");
  auto it = l.j.find("INSTRUCTION");
  if (it == l.j.end()) Fail(line, "missing field \"INSTRUCTION\"");
  if (!it->is_string()) Fail(line, "field \"INSTRUCTION\" must be a string");
  const std::string& name = it->get_ref<const std::string&>();
  std::optional<LineKind> kind = LineKindFromName(name);
  if (!kind) Fail(line, "unknown instruction \"" + Excerpt(name) + "\"");
  l.kind = *kind;
  return l;
}

const json& LogLineReader::Field(const LogLine& l, const char* key) const {
  auto it = l.j.find(key);
  if (it == l.j.end()) Fail(l.line, std::string("missing field \"") + key + "\"");
  return *it;
}

std::string LogLineReader::String(const LogLine& l, const char* key) const {
  const json& v = Field(l, key);
  if (!v.is_string()) Fail(l.line, std::string("field \"") + key + "\" must be a string");
  return v.get<std::string>();
}

std::vector<std::string> LogLineReader::Names(const LogLine& l, const char* key) const {
  const json& v = Field(l, key);
  if (!v.is_array()) Fail(l.line, std::string("field \"") + key + "\" must be a list of names");
  std::vector<std::string> out;
  for (const json& e : v) {
    if (!e.is_string()) Fail(l.line, std::string("field \"") + key + "\" must be a list of names");
    out.push_back(e.get<std::string>());
  }
  return out;
}

Int LogLineReader::Integer(const LogLine& l, const char* key, bool allow_minus_one) const {
  const json& v = Field(l, key);
  std::optional<Int> value;
  // simrd calls int() on the value: a JSON integer, a string int() reads, a
  // float (truncated: int(10.5) is 10) or a boolean (int(True) is 1).
  if (v.is_number_integer()) {
    value = v.is_number_unsigned() ? Int(v.get<uint64_t>()) : Int(v.get<int64_t>());
  } else if (v.is_boolean()) {
    value = Int(v.get<bool>());
  } else if (v.is_number_float()) {
    double d = v.get<double>();  // finite: nlohmann refuses what overflows a double
    if (std::fabs(d) >= 0x1p127) Fail(l.line, std::string("field \"") + key + "\" overflows 2^63");
    value = TruncToInt(d);
  } else if (v.is_string()) {
    std::string s = v.get<std::string>();
    bool out_of_range = false;
    value = PyIntFromText(s, &out_of_range);
    if (out_of_range) Fail(l.line, std::string("field \"") + key + "\" overflows: " + Excerpt(s));
  }
  if (!value)
    Fail(l.line, std::string("field \"") + key + "\" is not an integer: " + Excerpt(v.dump()));
  if (std::optional<std::string> error = IntegerRangeError(*value, key, allow_minus_one))
    Fail(l.line, *error);
  return *value;
}

int32_t LogLineReader::AliasIndex(const LogLine& l, size_t n_args) const {
  Int a = Integer(l, "ALIAS", /*allow_minus_one=*/true);
  if (a >= Int(n_args)) Fail(l.line, "ALIAS index out of range of the arguments");
  return static_cast<int32_t>(a);
}

std::vector<size_t> LogLineReader::MutateIndices(const LogLine& l, size_t n_args) const {
  const json& mv = Field(l, "MUTATE");
  if (!mv.is_array()) Fail(l.line, "field \"MUTATE\" must be a list of argument indices");
  std::vector<size_t> mutate;
  // simrd indexes a Python list with each: a negative index counts from the
  // end, and a boolean is 0 or 1.
  const int64_t n = static_cast<int64_t>(n_args);
  for (const json& e : mv) {
    if (!e.is_number_integer() && !e.is_boolean())
      Fail(l.line, "MUTATE index is not an integer: " + Excerpt(e.dump()));
    int64_t i = e.is_boolean() ? int64_t(e.get<bool>()) : e.get<int64_t>();
    if (e.is_number_unsigned() && e.get<uint64_t>() > uint64_t(INT64_MAX)) i = n;
    if (i < 0 && i >= -n) i += n;
    if (i < 0 || i >= n) Fail(l.line, "MUTATE index out of range of the arguments");
    mutate.push_back(static_cast<size_t>(i));
  }
  return mutate;
}

}  // namespace dtrcheck
