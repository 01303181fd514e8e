// Where the public simrd traces are, and whether they are the right bytes.
//
// The eight traces (simrd/logs.zip of uwsampl/dtr-prototype at commit
// eff53cc4) are data the project reads, never copies. traces/manifest.json
// names them and pins their SHA-256; it is compiled into this library, so the
// binary needs no source tree at run time.
//
// A trace is looked up, in this order, in:
//   1. $DTRCHECK_TRACES, if set (and then only there: a wrong setting is an
//      error, not a reason to silently read other files);
//   2. the directory configured with -DDTRCHECK_TRACES_DIR, if any;
//   3. <repository source dir>/../shared/traces;
//   4. ./../shared/traces relative to the current directory;
//   5. ${XDG_CACHE_HOME:-~/.cache}/dtrcheck/traces, which
//      traces/fetch_traces.sh fills on a machine with internet access.
// The first directory holding the file wins; its SHA-256 is checked on every
// use.
#ifndef DTRCHECK_TRACES_LOCATE_H_
#define DTRCHECK_TRACES_LOCATE_H_

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace dtrcheck {

// A named trace that cannot be provided: unknown name, missing file, wrong
// bytes. An invalid_argument so that every command reports it as bad input.
class TraceLocateError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// One entry of a trace manifest: traces/manifest.json (the public traces) or
// traces/captured/manifest.json (traces/captured.h), read by one loader.
struct ManifestTrace {
  std::string name;    // short name: resnet32, unet, vit_b_16, ...
  std::string file;    // file name inside the trace directory (captured: the .log.gz)
  std::string sha256;  // of the (decompressed) log, lowercase hex
  bool has_start = true;
  std::string model;  // e.g. "ResNet-32 (56)", "ViT-B/16 (torchvision)"
};
using PublicTrace = ManifestTrace;

// The "traces" list of a manifest's JSON text. The manifests are compiled in;
// a malformed one is a build defect, reported loudly (nlohmann::json throws)
// rather than turned into an empty list.
std::vector<ManifestTrace> ReadTraceManifest(const char* json);

// The entry named `name` of a manifest's list (public or captured), or nullptr.
template <class Trace>
const Trace* FindTraceByName(const std::vector<Trace>& traces, std::string_view name) {
  for (const auto& t : traces)
    if (t.name == name) return &t;
  return nullptr;
}
// "a, b, c": the names of a manifest's list, for messages.
template <class Trace>
std::string TraceNamesOf(const std::vector<Trace>& traces) {
  std::string out;
  for (const auto& t : traces) out += (out.empty() ? "" : ", ") + t.name;
  return out;
}

// The traces of traces/manifest.json, in manifest order.
const std::vector<PublicTrace>& PublicTraces();
const PublicTrace* FindPublicTrace(std::string_view name);
// "resnet32, unet, ..." for messages.
std::string PublicTraceNames();

// A directory that may hold the traces, and why it is searched.
struct TraceDir {
  std::string path;
  std::string origin;  // "$DTRCHECK_TRACES", "source tree", ...
};
// The directories searched, in order (see the top of this file).
std::vector<TraceDir> TraceSearchPath();

// Lowercase hex SHA-256 of a file. Throws TraceLocateError if unreadable.
std::string Sha256OfFile(const std::string& path);
// Lowercase hex SHA-256 of `text`.
std::string Sha256OfText(std::string_view text);

enum class TraceCheck { kVerified, kMismatch, kMissing };

struct LocatedTrace {
  const PublicTrace* trace = nullptr;
  std::string path;    // absolute; empty when missing
  std::string origin;  // which search-path entry held it
  TraceCheck check = TraceCheck::kMissing;
  std::string actual_sha256;  // when the file was read
};

// Finds a trace without throwing on a missing or mismatching file (for
// listings). Throws TraceLocateError for an unknown name.
LocatedTrace InspectPublicTrace(std::string_view name);

// The absolute path of a verified public trace. Throws TraceLocateError when
// the name is unknown (listing the names), the file is nowhere on the search
// path (listing where it looked, and how to fetch it), or its SHA-256 is not
// the pinned one (both digests).
std::string LocatePublicTrace(std::string_view name);

// A public or captured trace (traces/captured.h) by name: its verified path.
// Throws TraceLocateError for an unknown name, naming both lists.
std::string LocateNamedTrace(std::string_view name);

// The SHA-256 a named trace (public or captured) is pinned to, or nullptr.
const std::string* PinnedTraceSha256(std::string_view name);

// A command's TRACE argument: an existing file is used as given; otherwise a
// public or captured trace name is located. Throws TraceLocateError for neither.
std::string ResolveTraceArgument(const std::string& argument);

}  // namespace dtrcheck

#endif  // DTRCHECK_TRACES_LOCATE_H_
