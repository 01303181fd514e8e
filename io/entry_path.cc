#include "io/entry_path.h"

#include <filesystem>
#include <system_error>

#include "io/json.h"  // FieldError

namespace dtrcheck {

namespace {

namespace fs = std::filesystem;

std::string Quoted(std::string_view s) {
  std::string out(1, '"');  // appends: GCC 12's -Wrestrict misreads "\"" + s
  return out.append(s).append(1, '"');
}

[[noreturn]] void Refuse(std::string_view field, const std::string& why) {
  throw FieldError("field " + Quoted(field) + ": " + why);
}

}  // namespace

std::string PathInEntry(const std::string& entry_dir, std::string_view name,
                        std::string_view field) {
  if (name.empty()) Refuse(field, "an empty path");
  if (name.find('\0') != std::string_view::npos) Refuse(field, "a path with a NUL byte");
  const fs::path relative(name);
  if (relative.is_absolute() || relative.has_root_name() || relative.has_root_directory())
    Refuse(field, Quoted(name) +
                      " is an absolute path; the entry's files are named relative to its "
                      "directory");
  std::error_code ec;
  const fs::path dir = fs::weakly_canonical(entry_dir.empty() ? "." : entry_dir, ec);
  if (ec) Refuse(field, "cannot resolve the entry directory " + entry_dir + ": " + ec.message());
  const fs::path joined = fs::path(entry_dir.empty() ? "." : entry_dir) / relative;
  const fs::path target = fs::weakly_canonical(joined, ec);
  if (ec) Refuse(field, "cannot resolve " + Quoted(name) + ": " + ec.message());
  // Inside: the path from the directory to the target neither climbs out
  // nor is the directory itself.
  const fs::path rest = target.lexically_relative(dir);
  if (rest.empty() || rest == "." || *rest.begin() == "..")
    Refuse(field, Quoted(name) + " escapes the entry directory " + entry_dir + " (resolved to " +
                      target.string() + ")");
  return joined.string();
}

void CheckSha256Field(std::string_view digest, std::string_view field) {
  bool hex = digest.size() == 64;
  for (char c : digest) hex = hex && ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'));
  if (!hex)
    Refuse(field, digest.empty()
                      ? std::string("empty; the SHA-256 of the file it guards is required")
                      : Quoted(digest) + " is not a SHA-256 (64 lowercase hex digits)");
}

}  // namespace dtrcheck
