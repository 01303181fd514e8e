#include "sim/log_line.h"

#include <cstdint>
#include <utility>

namespace dtrcheck {

TraceError::TraceError(const std::string& file, long line, const std::string& message)
    : std::runtime_error(file + ":" + std::to_string(line) + ": " + message),
      file_(file),
      line_(line),
      message_(message) {}

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

std::vector<std::string_view> SplitLogLines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    lines.push_back(text.substr(pos, end - pos));
    pos = end + 1;
  }
  return lines;
}

std::string_view StripLogLine(std::string_view line) {
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t'))
    line.remove_suffix(1);
  return line;
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
  try {
    l.j = json::parse(StripLogLine(text));
  } catch (const json::exception& e) {  // also out_of_range: a number like 7E777 overflows
    std::string what = e.what();
    auto pos = what.find("syntax error");
    Fail(line, "bad JSON: " + (pos == std::string::npos ? what : what.substr(pos)));
  }
  if (!l.j.is_object()) Fail(line, "expected a JSON object");
  auto it = l.j.find("INSTRUCTION");
  if (it == l.j.end()) Fail(line, "missing field \"INSTRUCTION\"");
  if (!it->is_string()) Fail(line, "field \"INSTRUCTION\" must be a string");
  const std::string& name = it->get_ref<const std::string&>();
  std::optional<LineKind> kind = LineKindFromName(name);
  if (!kind) Fail(line, "unknown instruction \"" + name + "\"");
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
  if (v.is_number_integer()) {
    value = v.is_number_unsigned() ? Int(v.get<uint64_t>()) : Int(v.get<int64_t>());
  } else if (v.is_string()) {
    std::string s = v.get<std::string>();
    value = ParseInt(s);
    if (!value) {
      bool digits = !s.empty();
      for (size_t i = (s.size() > 0 && s[0] == '-') ? 1 : 0; i < s.size(); ++i)
        digits = digits && s[i] >= '0' && s[i] <= '9';
      if (digits && s != "-") Fail(l.line, std::string("field \"") + key + "\" overflows: " + s);
    }
  }
  if (!value) Fail(l.line, std::string("field \"") + key + "\" is not an integer: " + v.dump());
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
  for (const json& e : mv) {
    if (!e.is_number_integer() || e.get<int64_t>() < 0 || e.get<int64_t>() >= int64_t(n_args))
      Fail(l.line, "MUTATE index out of range of the arguments");
    mutate.push_back(e.get<size_t>());
  }
  return mutate;
}

}  // namespace dtrcheck
