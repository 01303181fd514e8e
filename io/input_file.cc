#include "io/input_file.h"

#include <algorithm>
#include <stdexcept>
#include <string_view>

#include "sim/log_line.h"  // Excerpt, kMaxLineBytes, TraceError

namespace dtrcheck {

namespace {

// TraceError (what FileText throws) says "PATH:LINE: ..."; the readers of
// records and manifests throw std::invalid_argument, which says the same.
std::invalid_argument InputError(const TraceError& e) {
  if (e.line() == 0) return std::invalid_argument(e.file() + ": " + e.message());
  return std::invalid_argument(e.what());
}

}  // namespace

FileText OpenInputFile(const std::string& path, size_t max_bytes) {
  try {
    return FileText(path, FileLimits{.regular_only = true, .max_bytes = max_bytes});
  } catch (const TraceError& e) {
    if (e.message() == "cannot open file") throw std::invalid_argument(path + ": cannot read");
    throw InputError(e);
  }
}

Json ReadJsonFile(const std::string& path) {
  const FileText file = OpenInputFile(path, kMaxLineBytes);
  const std::string_view text = file.text();
  try {
    return ParseJson(text);
  } catch (const Json::parse_error& e) {
    // The line of the byte the parser stopped at: a truncated manifest names
    // where it ends.
    const size_t at = std::min<size_t>(e.byte == 0 ? 0 : e.byte - 1, text.size());
    const long line = 1 + std::count(text.begin(), text.begin() + at, '\n');
    throw std::invalid_argument(path + ":" + std::to_string(line) +
                                ": not JSON: " + Excerpt(e.what()));
  } catch (const Json::exception& e) {
    throw std::invalid_argument(path + ": not JSON: " + Excerpt(e.what()));
  } catch (const std::invalid_argument& e) {  // FieldError
    throw std::invalid_argument(path + ": " + e.what());
  }
}

std::string ReadSmallFile(const std::string& path, size_t max_bytes) {
  return std::string(OpenInputFile(path, max_bytes).text());
}

}  // namespace dtrcheck
