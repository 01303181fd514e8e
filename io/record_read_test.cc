// RecordFromJson reads back exactly what RecordToJson wrote, on real
// records (with and without per-storage statistics, ok and oom), so that
// sweep --resume and --merge reproduce a sweep byte for byte.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <set>
#include <stdexcept>

#include "analysis/sweep.h"
#include "io/record.h"
#include "io/record_read.h"
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
  for (bool stats : {false, true}) {
    RunConfig c;
    c.overhead_limit = 8;
    c.stats = stats;
    auto budgets = RatioBudgets(RatioGrid("0.2", "0.8", "0.1"));
    budgets.push_back(BudgetSpec::Bytes(b.peak / 2));
    auto sweep = RunSweep(g, c, b, budgets);
    std::set<std::string> statuses;
    for (const auto& p : sweep.points) {
      Json j = RecordToJson(p.record);
      EXPECT_EQ(RecordToJson(RecordFromJson(j)).dump(), j.dump());
      statuses.insert(StatusName(p.status()));
    }
    EXPECT_TRUE(statuses.count("ok") && statuses.count("oom"));  // both kinds were round-tripped
  }
  RunConfig limited;
  limited.remat_limit = 12345;
  limited.budget = b.peak / 2;
  Json j = RecordToJson(Simulate(g, limited, b));
  EXPECT_EQ(RecordToJson(RecordFromJson(j)).dump(), j.dump());
}

TEST(RecordFromJson, RejectsNonRecords) {
  EXPECT_THROW(RecordFromJson(Json::parse("[1]")), std::invalid_argument);
  EXPECT_THROW(RecordFromJson(Json::parse(R"({"runtime": "X"})")), std::invalid_argument);
}

}  // namespace
}  // namespace dtrcheck
