// Region rebuilds by update (RegionUpkeep::Update, sim/region_upkeep.h) against simrd's walk:
// the same records, and the update really taken where it may be.
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "io/record.h"
#include "io/trace_writer.h"
#include "sim/heuristic.h"
#include "sim/parse.h"
#include "sim/runtime.h"
#include "sim/simulate.h"
#include "traces/locate.h"
#include "traces/synthetic/generators.h"

namespace dtrcheck {
namespace {

// The heuristics that read regions, and both runtimes that keep them.
const char* const kRegionHeuristics[] = {"DTR", "MSPS", "AbE", "AbESize"};
const char* const kRegionRuntimes[] = {"RuntimeV2Optimized", "RuntimeV2EagerOptimized"};

std::string RecordText(const Graph& g, RunConfig c, const Baseline& base, RegionRebuilds how) {
  c.region_rebuilds = how;
  c.stats = true;
  return RecordToJson(Simulate(g, c, base)).dump();
}

// Runs the schedule with DTR at int(peak * ratio) and counts the region
// updates, whatever the outcome.
int64_t RegionUpdates(const Graph& g, double ratio, RegionRebuilds how = RegionRebuilds::kUpdate) {
  Baseline base = RunBaseline(g, "RuntimeV2EagerOptimized");
  auto heuristic = MakeHeuristic("DTR");
  RuntimeOptions options;
  options.budget = BudgetFromRatio(base.peak, ratio);
  options.region_rebuilds = how;
  Runtime rt(g, options, *heuristic);
  try {
    rt.RunSchedule();
  } catch (const OutOfMemory&) {
  } catch (const RematExceeded&) {
  } catch (const SimrdAssertion&) {  // simrd's region upkeep can fail on cycles
  }
  return rt.region_updates();
}

// Every rebuild that updates is also walked and compared (kUpdateChecked
// throws on a difference), and the whole record must equal the walk's.
void ExpectSameRecords(const Graph& g, const std::string& what) {
  Baseline base = RunBaseline(g, "RuntimeV2EagerOptimized");
  for (const char* runtime : kRegionRuntimes)
    for (const char* heuristic : kRegionHeuristics)
      for (double ratio : {0.1, 0.2, 0.3, 0.45, 0.6, 0.8}) {
        RunConfig c;
        c.runtime = runtime;
        c.heuristic = heuristic;
        c.ratio = ratio;
        c.overhead_limit = 8.0;
        SCOPED_TRACE(what + " " + runtime + "/" + heuristic + " ratio " + std::to_string(ratio));
        std::string walked = RecordText(g, c, base, RegionRebuilds::kWalk);
        EXPECT_EQ(RecordText(g, c, base, RegionRebuilds::kUpdateChecked), walked);
      }
}

TraceLog Synthetic(const std::string& shape, uint64_t seed) {
  GeneratorParams p;
  p.shape = shape;
  p.seed = seed;
  p.layers = shape == "tree" ? 3 : 8;
  p.width = 2;
  return GenerateTrace(p);
}

TEST(RegionUpdate, SyntheticTracesGiveTheWalksRecords) {
  int64_t updates = 0;
  for (const std::string& shape : GeneratorShapes())
    for (uint64_t seed : {0, 1, 2}) {
      Graph g = ParseTrace(TraceLogText(Synthetic(shape, seed)), shape);
      ExpectSameRecords(g, shape + " seed " + std::to_string(seed));
      updates += RegionUpdates(g, 0.3);
      EXPECT_EQ(RegionUpdates(g, 0.3, RegionRebuilds::kWalk), 0);
    }
  // The comparison above covers updates, not only walks.
  EXPECT_GT(updates, 1000);
}

// An in-place op that adds to a value one computed from it makes a cycle of
// two storages. Updates are then off for the whole trace: their sets would
// come out in another order than the walk's, which matters once a storage
// can be in its own region (RegionUpkeep::Update).
TEST(RegionUpdate, OneStorageCycleTurnsUpdatesOff) {
  TraceLog log = Synthetic("resnet", 2);
  Graph acyclic = ParseTrace(TraceLogText(log), "resnet");
  ASSERT_GT(RegionUpdates(acyclic, 0.3), 0);
  // After the first CALL whose result is a new storage computed from an
  // argument: arg.add_(result), the result an alias of arg.
  for (size_t i = 0; i < log.instrs.size(); ++i) {
    const TraceInstr& in = log.instrs[i];
    if (in.op != TraceOp::kCall || in.args.empty() || in.results.empty() ||
        in.results[0].alias != -1)
      continue;
    TraceInstr add = TraceInstr::Call("add_", {in.args[0], in.results[0].name},
                                      {TraceResult{"cycle_add", 0, 0}}, 10);
    log.instrs.insert(log.instrs.begin() + i + 1, add);
    break;
  }
  Graph cyclic = ParseTrace(TraceLogText(log), "resnet+add_");
  EXPECT_EQ(RegionUpdates(cyclic, 0.3), 0);
  ExpectSameRecords(cyclic, "resnet with a cycle");
}

// The public traces at hand (ResNet-32 and U-Net are small enough here).
TEST(RegionUpdate, PublicTracesGiveTheWalksRecords) {
  for (const char* name : {"resnet32", "unet"}) {
    LocatedTrace t = InspectPublicTrace(name);
    if (t.check != TraceCheck::kVerified)
      GTEST_SKIP() << name << " is not available (traces/README.md)";
    Graph g = ParseTraceFile(t.path);
    EXPECT_GT(RegionUpdates(g, 0.3), 0) << name;
    ExpectSameRecords(g, name);
  }
}

}  // namespace
}  // namespace dtrcheck
