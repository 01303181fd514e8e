// The manifest format reads back what it writes (every archived manifest
// round trips byte for byte), reads format 1, and names what is wrong.
#include "analysis/finding_manifest.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "analysis/archived_finding.h"
#include "io/error_of.h"

namespace dtrcheck {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> ArchivedManifests() {
  std::vector<fs::path> out;
  for (const auto& kind : fs::directory_iterator(fs::path(DTRCHECK_SOURCE_DIR) / "corpus")) {
    if (!kind.is_directory()) continue;  // corpus/README.md
    // The differential fuzzers' violations have their own manifests
    // (fuzz/lib/diff_fuzz.h; optimal/optimum_fuzz.h), not finding manifests.
    if (kind.path().filename() == "parity" || kind.path().filename() == "optimal-violation")
      continue;
    for (const auto& entry : fs::directory_iterator(kind.path()))
      if (fs::exists(entry.path() / "manifest.json")) out.push_back(entry.path() / "manifest.json");
  }
  std::sort(out.begin(), out.end());
  return out;
}

Json ReadJson(const fs::path& path) {
  std::ifstream in(path);
  return ParseJson(in);
}

TEST(FindingManifest, ArchivedManifestsRoundTrip) {
  auto manifests = ArchivedManifests();
  ASSERT_GT(manifests.size(), 10u);
  for (const auto& path : manifests) {
    Json j = ReadJson(path);
    EXPECT_EQ(ManifestToJson(ManifestFromJson(j)).dump(2), j.dump(2)) << path;
    ArchivedFinding f = ReadArchivedFinding(path.string());
    EXPECT_EQ(f.kind, TracePropertyName(f.spec.property)) << path;
    // One record per budget; a finding between memory models (a
    // fragmentation OOM) also keeps the bytes model's record.
    const size_t bytes_record = f.kind == "fragmentation-oom" ? 1 : 0;
    EXPECT_EQ(f.expected.size(), (f.spec.lo ? 2u : 1u) + bytes_record) << path;
  }
}

Json AnArchivedManifest() { return ReadJson(ArchivedManifests().at(0)); }

TEST(FindingManifest, ReadsFormat1) {
  Json j = AnArchivedManifest();
  j["format"] = 1;
  j.erase("holds");
  j["simrd_status"] = "unavailable";
  FindingManifest m = ManifestFromJson(j);
  EXPECT_TRUE(m.holds);
  EXPECT_EQ(m.simrd_status, kSimrdNotConfirmed);
  EXPECT_EQ(ManifestToJson(m)["format"], kManifestFormat);
}

TEST(FindingManifest, NamesWhatIsWrong) {
  auto error = [](const Json& j) {
    return ErrorOf<std::invalid_argument>([&] { ManifestFromJson(j); });
  };
  Json good = AnArchivedManifest();
  auto without = [&](const char* key) {
    Json j = good;
    j.erase(key);
    return error(j);
  };
  for (const char* key : {"format", "property", "summary", "trace", "trace_sha256", "config",
                          "budgets", "expected", "dtrcheck", "simrd_status", "simrd", "operators",
                          "instructions", "reduction", "commands", "holds"})
    EXPECT_EQ(without(key), std::string("missing field \"") + key + "\"");
  Json j = good;
  j["format"] = 3;
  EXPECT_EQ(error(j), "field \"format\": expected 1 to 2, found 3");
  j = good;
  j["property"] = "slowness";
  EXPECT_NE(error(j).find("field \"property\": "), std::string::npos) << error(j);
  j = good;
  j["config"]["budget"] = 10;
  EXPECT_EQ(error(j),
            "field \"config.budget\": expected no budget (budgets are in \"budgets\"), found 10");
  j = good;
  j["config"]["ratoi"] = 1;
  EXPECT_EQ(error(j), "unknown field \"ratoi\"");
  j = good;
  j["budgets"]["hi"].erase("ratio");
  j["budgets"]["hi"].erase("bytes");
  EXPECT_EQ(error(j), "missing field \"budgets.hi.bytes\"");
  j = good;
  j["expected"]["hi"]["overhead"] = "1.5";
  EXPECT_EQ(error(j), "field \"expected.hi.overhead\": expected a number, found \"1.5\"");
  j = good;
  j["simrd_status"] = "probably";
  EXPECT_EQ(error(j),
            "field \"simrd_status\": expected \"confirmed\", \"not confirmed by simrd\", "
            "\"simrd disagrees\" or \"confirmed by replay in dtrcheck (plugin heuristic: no "
            "simrd oracle)\", found \"probably\"");
  j = good;
  j["dtrcheck"].erase(0);
  EXPECT_NE(error(j).find("field \"dtrcheck\": expected one record per budget"), std::string::npos);
}

TEST(FindingManifest, ReadingAFileNamesIt) {
  auto dir = fs::temp_directory_path() / ("dtrcheck_manifest_test_" + std::to_string(getpid()));
  fs::create_directories(dir);
  Json j = AnArchivedManifest();
  j.erase("budgets");
  std::ofstream(dir / "manifest.json") << j.dump();
  std::ofstream(dir / "broken.json") << "{";
  std::string where = (dir / "manifest.json").string();
  EXPECT_EQ(ErrorOf<std::invalid_argument>([&] { ReadFindingManifest(where); }),
            where + ": missing field \"budgets\"");
  EXPECT_NE(ErrorOf<std::invalid_argument>([&] {
              ReadFindingManifest((dir / "broken.json").string());
            }).find("broken.json:1: not JSON"),  // the line where it stops being JSON
            std::string::npos);
  j = AnArchivedManifest();
  j.erase("id");
  std::ofstream(dir / "manifest.json") << j.dump();
  EXPECT_EQ(ErrorOf<std::invalid_argument>([&] { ReadArchivedFinding(where); }),
            where + ": missing field \"id\" (not an archived manifest)");
  fs::remove_all(dir);
}

// A manifest's records past 64 bits (a clock past 2^64, as simrd's
// json.dumps prints it) are written and read back exactly (QUIRKS.md,
// Q-INT-RANGE).
TEST(FindingManifest, IntegersPast64BitsRoundTrip) {
  auto dir = fs::temp_directory_path() / ("dtrcheck_manifest_big_" + std::to_string(getpid()));
  fs::create_directories(dir);
  Json j = AnArchivedManifest();
  j["dtrcheck"][0]["clock"] = (Int(1) << 100) + 3;
  j["dtrcheck"][1]["memory_usage"] = (Int(1) << 64) + 1;
  const std::string where = (dir / "manifest.json").string();
  std::ofstream(where) << j.dump(2);
  FindingManifest m = ReadFindingManifest(where);
  EXPECT_EQ(ManifestToJson(m).dump(2), j.dump(2));
  EXPECT_NE(j.dump().find("\"clock\":1267650600228229401496703205379,"), std::string::npos);
  fs::remove_all(dir);
}

TEST(FindingManifest, ManifestPathBesideTheTrace) {
  EXPECT_EQ(ManifestPathFor("dir/x.log"), "dir/x.manifest.json");
  EXPECT_EQ(ManifestPathFor("x.trace"), "x.trace.manifest.json");
}

}  // namespace
}  // namespace dtrcheck
