#include "traces/captured.h"

#include <unistd.h>
#include <zlib.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "traces/locate.h"

namespace dtrcheck {

// traces/captured/manifest.json, embedded by traces/CMakeLists.txt.
extern const char kCapturedManifestJson[];

namespace fs = std::filesystem;

namespace {

std::string EnvOr(const char* name, const std::string& fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::string(v) : fallback;
}

// Decompresses archive into dest through a temporary file in dest's directory.
void Decompress(const std::string& archive, const std::string& dest) {
  gzFile in = gzopen(archive.c_str(), "rb");
  if (!in) throw TraceLocateError(archive + ": cannot open the compressed log");
  std::string tmp = dest + ".tmp." + std::to_string(getpid());
  std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
  if (!out) {
    gzclose(in);
    throw TraceLocateError(tmp + ": cannot write to the trace cache");
  }
  std::vector<char> buffer(1 << 16);
  int n;
  while ((n = gzread(in, buffer.data(), static_cast<unsigned>(buffer.size()))) > 0)
    out.write(buffer.data(), n);
  int error = 0;
  const char* message = gzerror(in, &error);
  std::string what = error == Z_OK || error == Z_STREAM_END ? "" : message;
  gzclose(in);
  out.close();
  if (n < 0 || !what.empty() || !out) {
    std::error_code ec;
    fs::remove(tmp, ec);
    throw TraceLocateError(archive + ": corrupt compressed log (" +
                           (what.empty() ? "write error" : what) + ")");
  }
  std::error_code ec;
  fs::rename(tmp, dest, ec);
  if (ec) throw TraceLocateError(dest + ": cannot install the decompressed log: " + ec.message());
}

}  // namespace

const std::vector<CapturedTrace>& CapturedTraces() {
  static const std::vector<CapturedTrace> traces = ReadTraceManifest(kCapturedManifestJson);
  return traces;
}

const CapturedTrace* FindCapturedTrace(std::string_view name) {
  return FindTraceByName(CapturedTraces(), name);
}

std::string CapturedTraceNames() { return TraceNamesOf(CapturedTraces()); }

std::string CapturedTraceDir() {
#ifdef DTRCHECK_SOURCE_DIR
  const std::string source = (fs::path(DTRCHECK_SOURCE_DIR) / "traces" / "captured").string();
#else
  const std::string source = "traces/captured";
#endif
  return EnvOr("DTRCHECK_CAPTURED", source);
}

std::string CapturedCacheDir() {
  std::string cache = EnvOr("XDG_CACHE_HOME", (fs::path(EnvOr("HOME", ".")) / ".cache").string());
  return (fs::path(cache) / "dtrcheck" / "captured").string();
}

std::string LocateCapturedTrace(std::string_view name) {
  const CapturedTrace* t = FindCapturedTrace(name);
  if (!t)
    throw TraceLocateError("unknown captured trace \"" + std::string(name) +
                           "\"; known: " + CapturedTraceNames());
  fs::path dest = fs::path(CapturedCacheDir()) / (t->name + ".log");
  std::error_code ec;
  if (fs::is_regular_file(dest, ec) && Sha256OfFile(dest.string()) == t->sha256)
    return fs::absolute(dest).string();
  std::string archive = (fs::path(CapturedTraceDir()) / t->file).string();
  if (!fs::is_regular_file(archive, ec))
    throw TraceLocateError("captured trace " + t->name + ": " + archive +
                           " not found (set DTRCHECK_CAPTURED to the directory holding " + t->file +
                           ")");
  fs::create_directories(dest.parent_path(), ec);
  if (ec)
    throw TraceLocateError(dest.parent_path().string() +
                           ": cannot create the trace cache: " + ec.message());
  Decompress(archive, dest.string());
  std::string actual = Sha256OfFile(dest.string());
  if (actual != t->sha256) {
    fs::remove(dest, ec);  // never leave a wrong log where the next call would look
    throw TraceLocateError(archive + ": SHA-256 mismatch for captured trace " + t->name +
                           ": the manifest says " + t->sha256 + ", the decompressed log is " +
                           actual + " (recapture it: python3 -m capture zoo --only " + t->name +
                           ")");
  }
  return fs::absolute(dest).string();
}

}  // namespace dtrcheck
