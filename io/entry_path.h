// Files named by an untrusted entry: an archived finding's manifest
// (corpus/<kind>/<id>/manifest.json) names its trace and fuzzer input
// relative to its own directory, and anyone may hand dtrcheck such a
// manifest. A name is used only if it stays inside that directory, and a
// digest that guards a file must be a digest.
#ifndef DTRCHECK_IO_ENTRY_PATH_H_
#define DTRCHECK_IO_ENTRY_PATH_H_

#include <string>
#include <string_view>

namespace dtrcheck {

// entry_dir / name, if it resolves inside entry_dir once every symbolic
// link of either is followed (std::filesystem::weakly_canonical: the file
// need not exist yet). Throws FieldError (io/json.h) naming `field`:
//   field "fuzzer.input": "/etc/passwd" is an absolute path; the entry's files are named relative
//   to its directory field "trace": "../../x" escapes the entry directory DIR
// and for an empty name. Callers prefix the manifest's path.
std::string PathInEntry(const std::string& entry_dir, std::string_view name,
                        std::string_view field);

// Throws FieldError naming `field` unless `digest` is a SHA-256 in hex (64
// lowercase hex digits): a missing or empty digest is an error, never a
// reason to skip the check it guards.
void CheckSha256Field(std::string_view digest, std::string_view field);

}  // namespace dtrcheck

#endif  // DTRCHECK_IO_ENTRY_PATH_H_
