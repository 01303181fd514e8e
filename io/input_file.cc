#include "io/input_file.h"

#include <stdexcept>

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
  try {
    return ParseJson(file.text());
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
