// RecordFromJson reads back exactly what RecordToJson wrote, on real
// records (with and without per-storage statistics, ok and oom), so that
// sweep --resume and --merge reproduce a sweep byte for byte; configurations
// round trip through ConfigToJson and ConfigFromJson; bad fields are named.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <stdexcept>

#include "analysis/sweep.h"
#include "io/error_of.h"
#include "io/record.h"
#include "sim/parse.h"

namespace dtrcheck {
namespace {

TEST(RecordFromJson, RoundTripsRealRecords) {
  const char* dir = std::getenv("DTRCHECK_TRACES");
  std::string path =
      std::string(dir ? dir : "") + "/unet-6-8000000000.0-2020-10-1-10-57-18-default.log";
  if (!dir || !*dir || !std::filesystem::exists(path)) GTEST_SKIP() << "no " << path;
  Graph g = ParseTraceFile(path);
  Baseline b = RunBaseline(g, "RuntimeV2EagerOptimized");
  std::set<std::string> statuses;
  for (bool stats : {false, true}) {
    RunConfig c;
    c.overhead_limit = stats ? 8 : 1.2;  // 1.2: U-Net thrashes at ratios 0.2-0.4
    c.stats = stats;
    auto budgets = RatioBudgets(RatioGrid("0.2", "0.8", "0.1"));
    budgets.push_back(BudgetSpec::Bytes(b.peak / 2));
    auto sweep = RunSweep(g, c, b, budgets);
    for (const auto& p : sweep.points) {
      Json j = RecordToJson(p.record);
      const RunRecord back = RecordFromJson(j);
      EXPECT_EQ(RecordToJson(back).dump(), j.dump());
      // A record read back runs again as it ran: under the same remat limit
      // (the float the overhead limit gave), not unlimited.
      EXPECT_EQ(RecordToJson(Simulate(g, back.config, b)).dump(), j.dump()) << j.dump();
      statuses.insert(StatusName(p.status()));
    }
  }
  // Every kind was round-tripped and rerun (thrashed: the limit was kept).
  EXPECT_TRUE(statuses.count("ok") && statuses.count("oom") && statuses.count("thrashed"));
  RunConfig limited;
  limited.remat_limit = 12345;
  limited.budget = b.peak / 2;
  Json j = RecordToJson(Simulate(g, limited, b));
  EXPECT_EQ(RecordToJson(RecordFromJson(j)).dump(), j.dump());
}

// Under an allocator model the record keeps the model (and its option) and
// the allocator's figures: read back, it writes the same JSON, runs again
// under the same model, and a sweep read back (sweep --merge, --resume,
// scan --records) keeps them.
TEST(RecordFromJson, RoundTripsAllocatorRecords) {
  const char* dir = std::getenv("DTRCHECK_TRACES");
  std::string path =
      std::string(dir ? dir : "") + "/resnet32-56-9000000000.0-2020-10-1-13-3-30-default.log";
  if (!dir || !*dir || !std::filesystem::exists(path)) GTEST_SKIP() << "no " << path;
  Graph g = ParseTraceFile(path);
  Baseline b = RunBaseline(g, "RuntimeV2EagerOptimized");
  std::set<std::string> statuses;
  for (MemoryModel model : {MemoryModel::kCudaCaching, MemoryModel::kArena}) {
    RunConfig c;
    c.memory.model = model;
    if (model == MemoryModel::kCudaCaching) c.memory.max_split_size_mb = 64;
    for (const auto& p : RunSweep(g, c, b, RatioBudgets({0.02, 0.6, 1.0})).points) {
      ASSERT_TRUE(p.record.memory.has_value());
      Json j = RecordToJson(p.record);
      const RunRecord back = RecordFromJson(j);
      EXPECT_EQ(RecordToJson(back).dump(), j.dump());
      EXPECT_EQ(back.config.memory, c.memory);
      EXPECT_EQ(back.memory->reserved_peak, p.record.memory->reserved_peak);
      EXPECT_EQ(RecordToJson(Simulate(g, back.config, b)).dump(), j.dump());
      statuses.insert(StatusName(p.status()));
    }
  }
  EXPECT_TRUE(statuses.count("ok") && statuses.count("oom"));
  // A bytes record has no memory field and reads back as bytes.
  RunConfig bytes;
  bytes.ratio = 0.5;
  EXPECT_EQ(RecordFromJson(RecordToJson(Simulate(g, bytes, b))).config.memory, MemoryOptions{});
}

TEST(RecordFromJson, NamesABadMemoryField) {
  RunConfig c;
  c.ratio = 1.0;
  c.memory.model = MemoryModel::kArena;
  Graph g = ParseTrace(
      "{\"ANNOTATION\":\"START\",\"INSTRUCTION\":\"ANNOTATE\"}\n"
      "{\"INSTRUCTION\":\"CONSTANT\",\"NAME\":\"x\"}\n"
      "{\"INSTRUCTION\":\"MEMORY\",\"MEMORY\":\"1024\",\"NAME\":\"x\"}\n",
      "one");
  Baseline b = RunBaseline(g, c.baseline_runtime);
  const Json good = RecordToJson(Simulate(g, c, b));
  ASSERT_TRUE(good.contains("memory"));
  Json bad = good;
  bad["memory"]["model"] = "heap";
  EXPECT_EQ(ErrorOf<FieldError>([&] { RecordFromJson(bad); }),
            "field \"memory.model\": expected bytes, cuda-caching or arena, found \"heap\"");
  bad = good;
  bad["memory"]["max_split_size_mb"] = 40;
  EXPECT_NE(ErrorOf<FieldError>([&] { RecordFromJson(bad); }).find("max_split_size_mb"),
            std::string::npos);
  bad = good;
  bad["memory"].erase("reserved_peak");
  EXPECT_EQ(ErrorOf<FieldError>([&] { RecordFromJson(bad); }),
            "missing field \"memory.reserved_peak\"");
}

TEST(RecordFromJson, RejectsNonRecords) {
  EXPECT_THROW(RecordFromJson(ParseJson("[1]")), FieldError);
  EXPECT_EQ(ErrorOf<FieldError>([] { RecordFromJson(ParseJson(R"({"runtime": "X"})")); }),
            "missing field \"heuristic\"");
}

// The records simrd printed for corpus/oracle/local_small_resnet.jsonl
// (refusals, {"error": ...}, left out).
std::vector<Json> OracleRecords() {
  std::ifstream in(std::string(DTRCHECK_SOURCE_DIR) + "/corpus/oracle/local_small_resnet.jsonl");
  std::vector<Json> out;
  std::string line;
  while (std::getline(in, line)) {
    Json j = ParseJson(line)["record"];
    if (j.contains("status")) out.push_back(j);
  }
  return out;
}

TEST(RecordFromJson, ReadsTheOraclesRecords) {
  std::vector<Json> records = OracleRecords();
  ASSERT_GT(records.size(), 100u);
  for (Json j : records) {
    Json back = RecordToJson(RecordFromJson(j));
    j.erase("trace_sha256");  // the oracle's own fields, not a run's
    j.erase("oracle");
    EXPECT_EQ(back.dump(), j.dump());
  }
}

TEST(RecordFromJson, NamesTheBadField) {
  Json good = OracleRecords().at(0);
  EXPECT_EQ(ErrorOf<FieldError>([&] { RecordFromJson(good); }), "");
  auto with = [&](const char* key, const Json& value) {
    Json j = good;
    j[key] = value;
    return ErrorOf<FieldError>([&] { RecordFromJson(j); });
  };
  auto without = [&](const char* key) {
    Json j = good;
    j.erase(key);
    return ErrorOf<FieldError>([&] { RecordFromJson(j); });
  };
  EXPECT_EQ(without("ratio"), "missing field \"ratio\"");  // null, not absent
  EXPECT_EQ(without("eviction_digest"), "missing field \"eviction_digest\"");
  EXPECT_EQ(with("status", "fine"),
            "field \"status\": expected ok, oom, thrashed or error, found \"fine\"");
  EXPECT_EQ(with("status", "error"), "missing field \"message\"");
  EXPECT_EQ(with("clock", "12"), "field \"clock\": expected an integer, found \"12\"");
  EXPECT_EQ(with("remat_limit", "x"), "field \"remat_limit\": expected a number, found \"x\"");
  EXPECT_EQ(with("storage_stats", ParseJson(R"([{"root_id": 1}])")),
            "missing field \"storage_stats[0].size\"");
}

TEST(ConfigJson, RoundTrips) {
  std::vector<RunConfig> configs(6);
  configs[0].ratio = 0.104;
  configs[0].overhead_limit = 8;
  configs[1].budget = Int(UINT64_MAX);
  configs[1].remat_limit = 12345;
  configs[1].runtime = "RuntimeV1";
  configs[1].heuristic = "LRU";
  configs[1].baseline_runtime = "RuntimeV2";
  configs[2].ratio = 0.5;
  configs[2].heuristic = "RandomStorage";
  configs[2].seed = -7;
  configs[2].stats = true;
  configs[3].overhead_limit = 1.05;  // no budget: an archived finding's configuration
  configs[4].budget = 0;
  configs[5].ratio = 1.0;
  configs.push_back(configs[5]);
  configs[6].memory.model = MemoryModel::kCudaCaching;
  configs[6].memory.max_split_size_mb = 64;
  configs.push_back(configs[5]);
  configs[7].memory.model = MemoryModel::kArena;
  for (const RunConfig& c : configs) {
    Json j = ConfigToJson(c);
    RunConfig back = ConfigFromJson(j);
    EXPECT_EQ(ConfigToJson(back).dump(), j.dump());
    EXPECT_EQ(back.runtime, c.runtime);
    EXPECT_EQ(back.heuristic, c.heuristic);
    EXPECT_EQ(back.baseline_runtime, c.baseline_runtime);
    EXPECT_EQ(back.ratio, c.ratio);
    EXPECT_EQ(back.budget, c.budget);
    EXPECT_EQ(back.overhead_limit, c.overhead_limit);
    EXPECT_EQ(back.remat_limit, c.remat_limit);
    EXPECT_EQ(back.seed, c.seed);
    EXPECT_EQ(back.stats, c.stats);
    EXPECT_EQ(back.memory, c.memory);
  }
  // The oracle's key order, as archived manifests hold it.
  EXPECT_EQ(ConfigToJson(configs[0]).dump(),
            R"({"runtime":"RuntimeV2EagerOptimized","heuristic":"DTR",)"
            R"("baseline_runtime":"RuntimeV2EagerOptimized","ratio":0.104,"overhead_limit":8.0})");
}

TEST(ConfigJson, ReadsWhatTheOracleAccepts) {
  // A line of oracle/record_corpus.py: no baseline runtime, nulls as absent,
  // the oracle's output options.
  RunConfig c = ConfigFromJson(ParseJson(
      R"({"runtime": "RuntimeV2", "ratio": 0.3, "stats": true, "seed": null,
          "remat_limit": null, "time": true, "eviction_log": false, "costs_at": 3})"));
  EXPECT_EQ(c.runtime, "RuntimeV2");
  EXPECT_EQ(c.heuristic, "DTR");
  EXPECT_EQ(c.baseline_runtime, "RuntimeV2EagerOptimized");
  EXPECT_EQ(c.ratio, 0.3);
  EXPECT_TRUE(c.stats);
  EXPECT_FALSE(c.seed || c.remat_limit || c.budget || c.overhead_limit);
}

TEST(ConfigJson, NamesTheBadField) {
  auto error = [](const char* text) {
    return ErrorOf<FieldError>([&] { ConfigFromJson(ParseJson(text)); });
  };
  EXPECT_EQ(error(R"({"ratio": "0.5"})"), "field \"ratio\": expected a number, found \"0.5\"");
  EXPECT_EQ(error(R"({"budget": 1.5})"), "field \"budget\": expected an integer, found 1.5");
  EXPECT_EQ(error(R"({"runtime": 2})"), "field \"runtime\": expected a string, found 2");
  EXPECT_EQ(error(R"({"stats": 1})"), "field \"stats\": expected true or false, found 1");
  EXPECT_EQ(error(R"({"ratoi": 0.5})"), "unknown field \"ratoi\"");
  EXPECT_EQ(error(R"({"ratio": 0.5, "budget": 10})"),
            "field \"budget\": expected no budget beside a ratio, found 10");
  EXPECT_EQ(error(R"({"overhead_limit": 2, "remat_limit": 10})"),
            "field \"remat_limit\": expected no remat_limit beside an overhead_limit, found 10");
  EXPECT_EQ(error("[]"), "document: expected an object, found []");
}

}  // namespace
}  // namespace dtrcheck
