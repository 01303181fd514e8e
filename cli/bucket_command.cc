// dtrcheck bucket: the root-cause bucket of reduced counterexamples
// (analysis/bucket.h). Reads a manifest as `dtrcheck reduce` writes it
// beside its output or as the archive keeps it; the campaign groups its
// findings with it (fuzz/campaign buckets, fuzz/README.md).
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "analysis/bucket.h"
#include "analysis/finding_manifest.h"
#include "cli/commands.h"
#include "sim/parse.h"

namespace dtrcheck {

namespace {

struct BucketOptions {
  std::vector<std::string> manifests;
};

CLI::App* RegisterBucket(CLI::App& app, BucketOptions* o) {
  auto* cmd = app.add_subcommand(
      "bucket", "the root-cause bucket of reduced counterexamples, one JSON object per line");
  cmd->add_option("MANIFEST", o->manifests,
                  "a manifest (corpus/<kind>/<id>/manifest.json, OUT.manifest.json of reduce) or "
                  "an entry's directory")
      ->required();
  return cmd;
}

int RunBucket(const BucketOptions& o) {
  namespace fs = std::filesystem;
  for (const std::string& path : o.manifests) {
    const std::string manifest =
        fs::is_directory(path) ? (fs::path(path) / "manifest.json").string() : path;
    FindingManifest m = ReadFindingManifest(manifest);
    const std::string trace = ManifestFile(manifest, m.trace, "trace");
    Bucket b = BucketOf(ParseTraceFile(trace), m.spec);
    Json j = {{"manifest", manifest}, {"bucket", BucketToJson(b)}};
    if (!m.id.empty()) j["id"] = m.id;
    if (!m.kind.empty()) j["kind"] = m.kind;
    std::cout << j.dump() << "\n" << std::flush;
  }
  return 0;
}

}  // namespace

Action AddBucketCommand(CLI::App& app) {
  auto o = std::make_shared<BucketOptions>();
  return {RegisterBucket(app, o.get()), [o] { return RunBucket(*o); }};
}

}  // namespace dtrcheck
