// Buckets of archived counterexamples: the key ignores names and a common
// scale of sizes and of times, gives one bucket (with both labels) to an
// inversion whose failed end is a pinned-frontier oom however it was filed,
// and separates different mechanisms and policy families.
#include "analysis/bucket.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "analysis/finding_manifest.h"
#include "sim/parse.h"
#include "sim/score_family.h"

namespace dtrcheck {
namespace {

// Copies of archived entries (tests/data/archive/README.md): the archive
// keeps one entry per bucket, and a campaign may replace any of them.
const std::string kCorpus = std::string(DTRCHECK_SOURCE_DIR) + "/tests/data/archive/";

std::string ReadText(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct Entry {
  Graph graph;
  PropertySpec spec;
};

Entry Load(const std::string& dir) {
  FindingManifest m = ReadFindingManifest(kCorpus + dir + "/manifest.json");
  return {ParseTraceFile(kCorpus + dir + "/" + m.trace), m.spec};
}

// The log with every tensor renamed ("x12" -> "renamed_12_t"), every size
// times `size_factor` and every TIME times `time_factor`.
Graph Transformed(const std::string& dir, Int size_factor, Int time_factor) {
  std::istringstream in(ReadText(kCorpus + dir + "/trace.log"));
  auto rename = [](const Json& name) { return "renamed_" + name.get<std::string>() + "_t"; };
  std::string out, line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    Json j = ParseJson(line);
    const std::string ins = j["INSTRUCTION"];
    // A CALL's or MUTATE's NAME is the operator's; elsewhere it is a tensor's.
    if (j.contains("NAME") && ins != "CALL" && ins != "MUTATE") j["NAME"] = rename(j["NAME"]);
    for (const char* f : {"SRC", "DST"})
      if (j.contains(f)) j[f] = rename(j[f]);
    for (const char* f : {"ARGS", "RESULT"})
      if (j.contains(f))
        for (auto& n : j[f]) n = rename(n);
    if (j.contains("MEMORY"))
      j["MEMORY"] = IntToString(std::stoll(j["MEMORY"].get<std::string>()) * size_factor);
    if (j.contains("TIME"))
      j["TIME"] = IntToString(std::stoll(j["TIME"].get<std::string>()) * time_factor);
    out += j.dump() + "\n";
  }
  return ParseTrace(out, dir);
}

// An ok -> thrashed inversion with compute (AbESizeStale, overhead limit 1.5).
const char kThrashed[] = "inversion/5bf9dcec5dcfd63c";
// One ok -> oom failure on a pinned frontier, archived twice (AbStale).
const char kInversion[] = "inversion/35bb6d445d81d295";
const char kPinned[] = "pinned-oom/dc87c8d9aa189f79";

TEST(Bucket, InvariantUnderRenamingAndScale) {
  for (const char* dir : {kThrashed, kInversion}) {
    Entry e = Load(dir);
    Bucket original = BucketOf(e.graph, e.spec);
    Graph renamed = Transformed(dir, 3, 7);
    EXPECT_NE(ReadText(kCorpus + dir + "/trace.log").find("\"x"), std::string::npos);
    EXPECT_EQ(TraceForm(renamed), TraceForm(e.graph)) << dir;
    Bucket b = BucketOf(renamed, e.spec);
    EXPECT_EQ(b.key, original.key) << dir;
    EXPECT_EQ(b.id, original.id) << dir;
    EXPECT_EQ(b.trace_form, original.trace_form) << dir;
  }
}

TEST(Bucket, TraceFormSeesOtherSizes) {
  // Scaling one size but not the others is another trace.
  Entry e = Load(kThrashed);
  Graph g = e.graph;
  g.ops.back().size[0] += 1;
  EXPECT_NE(TraceFormDigest(g), TraceFormDigest(e.graph));
}

TEST(Bucket, PinnedInversionIsOneBucketWithBothLabels) {
  Entry inv = Load(kInversion), pin = Load(kPinned);
  Bucket a = BucketOf(inv.graph, inv.spec), b = BucketOf(pin.graph, pin.spec);
  EXPECT_EQ(a.labels, (std::vector<std::string>{"inversion", "pinned-oom"}));
  EXPECT_EQ(a.failure, "ok>oom");
  EXPECT_EQ(a.family, "stale");
  EXPECT_EQ(a.id, b.id);
  EXPECT_EQ(a.key, b.key);
}

TEST(Bucket, DifferentMechanismsDiffer) {
  Entry thr = Load(kThrashed), pin = Load(kPinned);
  Bucket t = BucketOf(thr.graph, thr.spec), p = BucketOf(pin.graph, pin.spec);
  EXPECT_EQ(t.labels, std::vector<std::string>{"inversion"});
  EXPECT_EQ(t.failure, "ok>thrashed");
  EXPECT_EQ(t.oom_site, "");
  EXPECT_NE(t.id, p.id);
  // The same trace and budgets under a heuristic of another family.
  PropertySpec lru = thr.spec;
  lru.config.heuristic = "LRU";
  Bucket l = BucketOf(thr.graph, lru);
  EXPECT_EQ(l.family, "lru");
  EXPECT_NE(l.id, t.id);
  // Without the overhead limit the thrashing end is an ok run: no inversion.
  PropertySpec unlimited = thr.spec;
  unlimited.config.overhead_limit.reset();
  Bucket u = BucketOf(thr.graph, unlimited);
  EXPECT_EQ(u.failure, "ok>ok");
  EXPECT_NE(u.id, t.id);
}

// A cliff whose higher budget is the costlier run: DTRUnopt on RuntimeV2Eager
// (overhead limit 64), ok 1.000x at ratio 0.641 and ok 2.250x at 0.646. The
// reduced trace of claim a6fdfeebd48b7090 of the campaign in
// fuzz/reports/campaign-20261204-093432.md, confirmed by simrd there.
PropertySpec RisingCliff(TraceProperty property) {
  PropertySpec spec;
  spec.property = property;
  spec.config.runtime = "RuntimeV2Eager";
  spec.config.heuristic = "DTRUnopt";
  spec.config.baseline_runtime = "RuntimeV2EagerOptimized";
  spec.config.overhead_limit = 64.0;
  spec.lo = BudgetSpec::Ratio(0.641);
  spec.hi = BudgetSpec::Ratio(0.646);
  spec.factor = 2.0;
  return spec;
}

TEST(Bucket, CliffThatRisesCarriesBothLabels) {
  Graph g =
      ParseTraceFile(std::string(DTRCHECK_SOURCE_DIR) + "/tests/data/cliff_overhead_rise.log");
  Bucket cliff = BucketOf(g, RisingCliff(TraceProperty::kCliff));
  EXPECT_EQ(cliff.labels, (std::vector<std::string>{"cliff", "overhead-rise"}));
  EXPECT_EQ(cliff.failure, "ok>ok");
  EXPECT_EQ(cliff.family, "dtr");
  // Reduced as an overhead rise, the budgets say nothing of a cliff's gap.
  Bucket rise = BucketOf(g, RisingCliff(TraceProperty::kOverheadRise));
  EXPECT_EQ(rise.labels, std::vector<std::string>{"overhead-rise"});
  EXPECT_NE(rise.id, cliff.id);
  // A falling cliff (archived, 2.000x -> 1.000x) is no overhead rise.
  Entry falling = Load("cliff/fe5e9911ae247607");
  EXPECT_EQ(BucketOf(falling.graph, falling.spec).labels, std::vector<std::string>{"cliff"});
}

TEST(Bucket, ScoreFamilies) {
  for (const char* h : {"DTR", "DTREqClass", "DTRLocal", "DTRUnopt", "AbESizeStale",
                        "AbEqSizeStale", "AbLocalSizeStale"})
    EXPECT_EQ(ScoreFamily(h), "dtr") << h;
  EXPECT_EQ(ScoreFamily("LargestStorage"), "size");
  EXPECT_EQ(ScoreFamily("AbSize"), "size");
  EXPECT_EQ(ScoreFamily("AbEqStale"), "cost+stale");
  EXPECT_EQ(ScoreFamily("AbLocal"), "cost");
  EXPECT_EQ(ScoreFamily("AbSizeStale"), "size+stale");
  EXPECT_EQ(ScoreFamily("MSPS"), "msps");
  EXPECT_EQ(ScoreFamily("LRU"), "lru");
  EXPECT_EQ(ScoreFamily("RandomStorage"), "random");
  EXPECT_EQ(ScoreFamily("AbRandom"), "random");
  EXPECT_EQ(ScoreFamily("NoSuchHeuristic"), "");
}

}  // namespace
}  // namespace dtrcheck
