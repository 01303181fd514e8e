// The differential fuzzer's cases, dtrcheck's side of it, the archive and
// its replay, without simrd: the "simrd" record of an archived entry here
// is dtrcheck's own record of another run (an injected divergence), so the
// replay must find it; with dtrcheck's faithful record it must find none.
// The loop with the real simrd is tests/parity/fuzz_diff_test.py.
#include "fuzz/lib/diff_fuzz.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>

#include "io/trace_writer.h"
#include "reduce/trace_edits.h"
#include "sim/parse.h"
#include "traces/locate.h"

namespace dtrcheck {
namespace {

namespace fs = std::filesystem;

TEST(DiffCase, IsAFunctionOfSeedAndIndex) {
  for (uint64_t i = 0; i < 20; ++i) {
    DiffCase a = MakeDiffCase(7, i), b = MakeDiffCase(7, i);
    EXPECT_EQ(TraceLogText(a.log), TraceLogText(b.log));
    ASSERT_EQ(a.configs.size(), b.configs.size());
    for (size_t k = 0; k < a.configs.size(); ++k)
      EXPECT_EQ(ConfigToJson(a.configs[k]), ConfigToJson(b.configs[k]));
    EXPECT_EQ(a.mutations, b.mutations);
    EXPECT_EQ(ParseOptionsToJson(a.parse), ParseOptionsToJson(b.parse));
  }
  EXPECT_NE(TraceLogText(MakeDiffCase(7, 0).log), TraceLogText(MakeDiffCase(8, 0).log));
  EXPECT_NE(TraceLogText(MakeDiffCase(7, 0).log), TraceLogText(MakeDiffCase(7, 1).log));
}

// Every mutation is made somewhere in 400 cases; the ones meant to keep a
// log valid do; traces stay within the operator bound (plus the few
// operators mutations add).
TEST(DiffCase, MakesEveryMutationAndKeepsValidLogsValid) {
  std::set<std::string> seen;
  DiffCaseOptions options;
  for (uint64_t i = 0; i < 400; ++i) {
    DiffCase c = MakeDiffCase(1, i, options);
    seen.insert(c.mutations.begin(), c.mutations.end());
    bool invalid = false;
    for (const auto& m : c.mutations) invalid |= m == "undefined-release" || m == "no-start";
    if (!invalid) {
      EXPECT_EQ(CheckBindings(c.log), "") << "case " << i;
    }
    EXPECT_LE(c.log.NumOperators(), options.max_operators + 12) << "case " << i;
    // The log the graph is built from is the text simrd reads.
    EXPECT_EQ(ReadTraceLog(TraceLogText(c.log), "x"), c.log);
  }
  for (const auto& m : DiffMutationNames()) EXPECT_TRUE(seen.count(m)) << m;
}

// "wide-values" cases hold values a log may hold (below 2^63) whose sums
// pass 64 bits: the model compute of their unbounded run does, in some.
TEST(DiffCase, WideValuesPassSixtyFourBits) {
  int wide_cases = 0, past_64_bits = 0;
  for (uint64_t i = 0; i < 400 && past_64_bits < 3; ++i) {
    DiffCase c = MakeDiffCase(1, i);
    if (std::find(c.mutations.begin(), c.mutations.end(), "wide-values") == c.mutations.end())
      continue;
    ++wide_cases;
    for (const auto& in : c.log.instrs) {
      EXPECT_LT(in.time, Int(1) << 63);
      for (const auto& r : in.results) EXPECT_LT(r.memory, Int(1) << 63);
    }
    c.parse = {};
    try {
      const Baseline b =
          RunBaseline(ParseTrace(TraceLogText(c.log), "x", c.parse), "RuntimeV2EagerOptimized");
      if (b.compute > (Int(1) << 64)) ++past_64_bits;
    } catch (const std::exception&) {  // a mutation simrd refuses
    }
  }
  EXPECT_GT(wide_cases, 0);
  EXPECT_EQ(past_64_bits, 3);
}

TEST(DiffCase, RunArgumentsNameEveryOption) {
  RunConfig c;
  c.runtime = "RuntimeV2";
  c.heuristic = "LRU";
  c.budget = 123;
  c.remat_limit = 9;
  c.seed = 5;
  ParseOptions p;
  p.start = false;
  p.out_cond = OutputCondition::kPreallocate;
  p.ignore_undefined_release = false;
  EXPECT_EQ(RunArguments(p, c),
            "--runtime RuntimeV2 --heuristic LRU --budget 123 --remat-limit 9 --seed 5 "
            "--no-start --preallocate --strict-release");
}

// dtrcheck's side gives what `dtrcheck run` gives on the written log, and a
// refusal, not an exception, for a log it cannot parse.
TEST(DtrcheckSide, AnswersAsARunOfTheWrittenLog) {
  DiffCase c = MakeDiffCase(3, 5);
  c.parse = {};
  Graph g = ParseTrace(TraceLogText(c.log), "x", c.parse);
  DtrcheckSide side(c.log, c.parse);
  for (const auto& config : c.configs) {
    Json expected;
    try {
      expected = RecordToJson(Simulate(g, config, RunBaseline(g, config.baseline_runtime)));
    } catch (const std::invalid_argument& e) {
      expected = {{"error", e.what()}};
    }
    Json got = side.Answer(config);
    EXPECT_TRUE(CompareAnswers(expected, got, config.heuristic).empty()) << got.dump();
  }
  TraceLog no_start = c.log;
  no_start.instrs.erase(no_start.instrs.begin());  // the START annotation
  EXPECT_TRUE(IsRefusal(DtrcheckSide(no_start, {}).Answer(c.configs[0])));
}

class ParityArchive : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("dtrcheck_parity_test_" + std::to_string(getpid()));
    fs::remove_all(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // A case whose first configuration evicts, and an entry for it whose
  // "simrd" record is `simrd`.
  std::string File(const Json& simrd, DiffCase* c) {
    *c = MakeDiffCase(11, 0);
    c->parse = {};
    c->configs.resize(1);
    c->configs[0] = RunConfig{};
    c->configs[0].ratio = 0.4;
    c->configs[0].stats = true;
    ReducedDivergence r;
    r.log = c->log;
    r.outcome.simrd = simrd;
    r.outcome.dtrcheck = DtrcheckSide(c->log, c->parse).Answer(c->configs[0]);
    r.outcome.differences = CompareAnswers(simrd, r.outcome.dtrcheck, "DTR");
    return ArchiveDivergence(dir_.string(), *c, c->log, r, {"abc", "def", "cmd", "again"});
  }

  fs::path dir_;
};

TEST_F(ParityArchive, ReplayFindsAnInjectedDivergence) {
  DiffCase c;
  DiffCase probe = MakeDiffCase(11, 0);
  RunConfig run;
  run.ratio = 0.4;
  run.stats = true;
  DtrcheckSide side(probe.log, {});
  Json faithful = side.Answer(run);
  ASSERT_GT(faithful["evictions"].get<int64_t>(), 0);
  // Another storage evicted at the first eviction the heuristic chooses
  // (eager evictions, counted too, have no choice to perturb).
  Json perturbed = faithful;
  for (int64_t i = 0; i < faithful["evictions"].get<int64_t>(); ++i) {
    perturbed = side.Answer(run, i);
    if (!CompareAnswers(faithful, perturbed, "DTR").empty()) break;
  }
  ASSERT_FALSE(CompareAnswers(faithful, perturbed, "DTR").empty());

  std::string id = File(perturbed, &c);
  fs::path entry = dir_ / id;
  for (const char* f : {"trace.log", "original.log", "case.jsonl", "manifest.json"})
    EXPECT_TRUE(fs::exists(entry / f)) << f;
  std::ifstream m(entry / "manifest.json");
  Json manifest = ParseJson(m);
  EXPECT_EQ(manifest["trace_sha256"], Sha256OfFile((entry / "trace.log").string()));
  EXPECT_EQ(manifest["dtrcheck_commit"], "abc");
  EXPECT_EQ(manifest["simrd"], perturbed);
  EXPECT_FALSE(manifest["differences"].empty());
  auto diffs = ReplayParityEntry(entry.string());
  ASSERT_FALSE(diffs.empty());
  std::set<std::string> fields;
  for (const auto& d : diffs) fields.insert(d.field);
  EXPECT_TRUE(fields.count("eviction_digest"));

  // Filing the same divergence again changes nothing.
  EXPECT_EQ(File(perturbed, &c), id);
}

TEST_F(ParityArchive, ReplayOfAFaithfulRecordIsClean) {
  DiffCase c;
  RunConfig run;
  run.ratio = 0.4;
  run.stats = true;
  std::string id = File(DtrcheckSide(MakeDiffCase(11, 0).log, {}).Answer(run), &c);
  EXPECT_TRUE(ReplayParityEntry((dir_ / id).string()).empty());
  // A trace edited after filing is refused, not replayed.
  std::ofstream(dir_ / id / "trace.log", std::ios::app) << "\n";
  EXPECT_THROW(ReplayParityEntry((dir_ / id).string()), std::invalid_argument);
}

TEST(KnownDivergence, OnlyTheAccessCountOfTwoAssertionFailures) {
  DiffOutcome o;
  o.simrd = {{"status", "error"}, {"heuristic_access_count", 6}};
  o.dtrcheck = {{"status", "error"}, {"heuristic_access_count", 7}};
  o.differences = {{"heuristic_access_count", "6", "7"}};
  EXPECT_EQ(KnownDivergence(o), "Q-SETORDER");
  o.simrd["status"] = "ok";
  o.dtrcheck["status"] = "ok";
  EXPECT_EQ(KnownDivergence(o), "");
  o.simrd["status"] = o.dtrcheck["status"] = "error";
  o.differences.push_back({"clock", "1", "2"});
  EXPECT_EQ(KnownDivergence(o), "");
}

}  // namespace
}  // namespace dtrcheck
