#include "traces/locate.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "base/sha256.h"
#include "traces/captured.h"

namespace dtrcheck {

// traces/manifest.json, embedded by traces/CMakeLists.txt (manifest_data.cc).
extern const char kTraceManifestJson[];

namespace fs = std::filesystem;

namespace {

std::string EnvOr(const char* name, const std::string& fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::string(v) : fallback;
}

std::string Absolute(const fs::path& p) {
  std::error_code ec;
  fs::path abs = fs::weakly_canonical(fs::absolute(p, ec), ec);
  return (ec ? fs::absolute(p) : abs).string();
}

bool IsFile(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec);
}

}  // namespace

std::vector<ManifestTrace> ReadTraceManifest(const char* json) {
  auto j = nlohmann::json::parse(json);
  std::vector<ManifestTrace> out;
  for (const auto& t : j.at("traces")) {
    ManifestTrace m;
    m.name = t.at("name").get<std::string>();
    m.file = t.at("file").get<std::string>();
    m.sha256 = t.at("sha256").get<std::string>();
    m.has_start = t.at("has_start").get<bool>();
    m.model = t.at("model").get<std::string>();
    out.push_back(std::move(m));
  }
  return out;
}

const std::vector<PublicTrace>& PublicTraces() {
  static const std::vector<PublicTrace> traces = ReadTraceManifest(kTraceManifestJson);
  return traces;
}

const PublicTrace* FindPublicTrace(std::string_view name) {
  return FindTraceByName(PublicTraces(), name);
}

std::string PublicTraceNames() { return TraceNamesOf(PublicTraces()); }

std::vector<TraceDir> TraceSearchPath() {
  if (const char* env = std::getenv("DTRCHECK_TRACES"); env && *env)
    return {{Absolute(env), "$DTRCHECK_TRACES"}};
  std::vector<TraceDir> dirs;
#ifdef DTRCHECK_CONFIGURED_TRACES_DIR
  if (std::string_view(DTRCHECK_CONFIGURED_TRACES_DIR).size() > 0)
    dirs.push_back({Absolute(DTRCHECK_CONFIGURED_TRACES_DIR), "-DDTRCHECK_TRACES_DIR"});
#endif
#ifdef DTRCHECK_SOURCE_DIR
  dirs.push_back({Absolute(fs::path(DTRCHECK_SOURCE_DIR) / ".." / "shared" / "traces"),
                  "source tree (../shared/traces)"});
#endif
  std::error_code ec;
  fs::path cwd = fs::current_path(ec);
  if (!ec)
    dirs.push_back(
        {Absolute(cwd / ".." / "shared" / "traces"), "current directory (../shared/traces)"});
  std::string home = EnvOr("HOME", ".");
  std::string cache = EnvOr("XDG_CACHE_HOME", (fs::path(home) / ".cache").string());
  dirs.push_back({Absolute(fs::path(cache) / "dtrcheck" / "traces"),
                  "cache (filled by traces/fetch_traces.sh)"});
  // The same directory reached two ways is searched once.
  std::vector<TraceDir> unique;
  for (auto& d : dirs) {
    bool seen = false;
    for (const auto& u : unique) seen = seen || u.path == d.path;
    if (!seen) unique.push_back(std::move(d));
  }
  return unique;
}

std::string Sha256OfFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw TraceLocateError(path + ": cannot open file");
  Sha256 sha;
  std::vector<char> buffer(1 << 16);
  while (in) {
    in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
    if (in.gcount() > 0) sha.Update(buffer.data(), static_cast<size_t>(in.gcount()));
  }
  if (in.bad()) throw TraceLocateError(path + ": read error");
  return sha.HexDigest();
}

std::string Sha256OfText(std::string_view text) { return Sha256Hex(text); }

LocatedTrace InspectPublicTrace(std::string_view name) {
  const PublicTrace* trace = FindPublicTrace(name);
  if (!trace)
    throw TraceLocateError("unknown trace \"" + std::string(name) +
                           "\"; known traces: " + PublicTraceNames());
  LocatedTrace found;
  found.trace = trace;
  for (const auto& dir : TraceSearchPath()) {
    fs::path p = fs::path(dir.path) / trace->file;
    if (!IsFile(p)) continue;
    found.path = p.string();
    found.origin = dir.origin;
    found.actual_sha256 = Sha256OfFile(found.path);
    found.check =
        found.actual_sha256 == trace->sha256 ? TraceCheck::kVerified : TraceCheck::kMismatch;
    break;
  }
  return found;
}

std::string LocatePublicTrace(std::string_view name) {
  LocatedTrace found = InspectPublicTrace(name);
  const PublicTrace& t = *found.trace;
  if (found.check == TraceCheck::kMissing) {
    std::string where;
    for (const auto& dir : TraceSearchPath()) where += "\n  " + dir.path + "  [" + dir.origin + "]";
    throw TraceLocateError("trace " + t.name + " (" + t.file + ") not found; searched:" + where +
                           "\nSet DTRCHECK_TRACES to the directory holding the simrd logs, or run "
                           "traces/fetch_traces.sh on a machine with internet access.");
  }
  if (found.check == TraceCheck::kMismatch)
    throw TraceLocateError(
        found.path + ": SHA-256 mismatch for trace " + t.name + ": expected " + t.sha256 +
        ", found " + found.actual_sha256 +
        " (the file is not simrd's log; re-fetch it with traces/fetch_traces.sh)");
  return found.path;
}

std::string LocateNamedTrace(std::string_view name) {
  if (FindPublicTrace(name)) return LocatePublicTrace(name);
  if (FindCapturedTrace(name)) return LocateCapturedTrace(name);
  throw TraceLocateError("unknown trace \"" + std::string(name) + "\"; known traces: " +
                         PublicTraceNames() + "; captured: " + CapturedTraceNames());
}

const std::string* PinnedTraceSha256(std::string_view name) {
  if (const PublicTrace* t = FindPublicTrace(name)) return &t->sha256;
  if (const CapturedTrace* t = FindCapturedTrace(name)) return &t->sha256;
  return nullptr;
}

std::string ResolveTraceArgument(const std::string& argument) {
  if (IsFile(argument)) return argument;
  if (FindPublicTrace(argument) || FindCapturedTrace(argument)) return LocateNamedTrace(argument);
  throw TraceLocateError("\"" + argument + "\" is neither a file nor a trace name (" +
                         PublicTraceNames() + "; captured: " + CapturedTraceNames() + ")");
}

}  // namespace dtrcheck
