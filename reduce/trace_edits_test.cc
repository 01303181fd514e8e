#include "reduce/trace_edits.h"

#include <gtest/gtest.h>

#include "io/trace_writer.h"
#include "sim/parse.h"
#include "sim/simulate.h"
#include "traces/locate.h"
#include "traces/synthetic/generators.h"
#include "traces/synthetic/rng.h"

namespace dtrcheck {
namespace {

TraceLog Log(std::vector<TraceInstr> instrs) {
  TraceLog log;
  log.instrs.push_back(TraceInstr::Annotate("START"));
  for (auto& i : instrs) log.instrs.push_back(std::move(i));
  return log;
}

bool Parses(const TraceLog& log) {
  try {
    ParseTrace(TraceLogText(log), "edited");
    return true;
  } catch (const TraceError&) {
    return false;
  }
}

TEST(CheckBindings, AcceptsEveryPublicTrace) {
  int checked = 0;
  for (const auto& t : PublicTraces()) {
    LocatedTrace found = InspectPublicTrace(t.name);
    if (found.check != TraceCheck::kVerified) continue;
    EXPECT_EQ(CheckBindings(ReadTraceLogFile(found.path)), "") << t.name;
    ++checked;
  }
  if (checked == 0) GTEST_SKIP() << "no public trace found";
}

TEST(CheckBindings, FindsUseAfterReleaseRebindingAndDoubleMutation) {
  EXPECT_EQ(CheckBindings(Log({TraceInstr::Constant("a", 8), TraceInstr::Release("a"),
                               TraceInstr::Release("a")})),
            "instruction 3 (RELEASE a): a is not bound");
  EXPECT_EQ(CheckBindings(Log({TraceInstr::Constant("a", 8), TraceInstr::Copy("a", "a")})),
            "instruction 2 (COPY a): a is already bound");
  // Two names of one tensor mutated: simrd would name both results "a$".
  TraceLog twice =
      Log({TraceInstr::Constant("a", 8), TraceInstr::Copy("b", "a"),
           TraceInstr::Mutate("f_", {"a"}, {0}, 1), TraceInstr::Mutate("g_", {"b"}, {0}, 1)});
  EXPECT_EQ(CheckBindings(twice), "instruction 4 (MUTATE g_): tensor a$ is defined twice");
  EXPECT_FALSE(Parses(twice));  // the parser agrees
  EXPECT_EQ(CheckBindings(Log({TraceInstr::Constant("a", 8), TraceInstr::CopyFrom("a", "a")})),
            "instruction 2 (COPY_FROM a): COPY_FROM of a name onto itself");
  TraceLog no_start;
  no_start.instrs.push_back(TraceInstr::Constant("a", 8));
  EXPECT_EQ(CheckBindings(no_start), "no START annotation");
}

TEST(RemoveWithDependents, TakesUsersOfRemovedNamesAlong) {
  TraceLog log =
      Log({TraceInstr::Constant("w", 8), TraceInstr::Call("f", {"w"}, {{"a", 16, -1}}, 5),
           TraceInstr::Copy("b", "a"), TraceInstr::Call("g", {"b"}, {{"c", 16, -1}}, 5),
           TraceInstr::Release("a"), TraceInstr::Release("b"), TraceInstr::Release("w")});
  TraceLog out = RemoveWithDependents(log, {false, false, true, false, false, false, false, false});
  // Removing f: the COPY of its result, g, and the RELEASEs of a and b go too.
  EXPECT_EQ(out, Log({TraceInstr::Constant("w", 8), TraceInstr::Release("w")}));
}

// Random removals on generated traces keep them valid for simrd: bindings,
// parsing, and simulations that end without a simrd assertion.
TEST(RemoveWithDependents, RandomRemovalsKeepGeneratedTracesValid) {
  GenRng rng(42);
  for (const auto& shape : GeneratorShapes()) {
    TraceLog log = GenerateTrace({shape, 3, 3, 2, 1 << 16});
    for (int trial = 0; trial < 20; ++trial) {
      std::vector<bool> remove(log.instrs.size(), false);
      for (size_t k : RemovableInstructions(log)) remove[k] = rng.Chance(1, 10);
      TraceLog out = RemoveWithDependents(log, remove);
      ASSERT_EQ(CheckBindings(out), "") << shape << " trial " << trial;
      Graph g = ParseTrace(TraceLogText(out), shape);
      Baseline base = RunBaseline(g, "RuntimeV2EagerOptimized");
      RunConfig c;
      c.ratio = 0.4;
      RunRecord r = Simulate(g, c, base);
      EXPECT_NE(r.status, Status::kError) << shape << " trial " << trial << ": " << r.message;
    }
  }
}

TEST(RemoveArgument, ShiftsAliasesAndFreesTheAliasedResult) {
  TraceLog log = Log({TraceInstr::Constant("a", 8), TraceInstr::Constant("b", 8),
                      TraceInstr::Call("view", {"a", "b"}, {{"v", 8, 1}, {"w", 4, -1}}, 1)});
  auto drop_a = RemoveArgument(log, 3, 0);
  ASSERT_TRUE(drop_a);
  EXPECT_EQ(drop_a->instrs[3].args, std::vector<std::string>{"b"});
  EXPECT_EQ(drop_a->instrs[3].results[0].alias, 0);
  auto drop_b = RemoveArgument(log, 3, 1);
  ASSERT_TRUE(drop_b);
  EXPECT_EQ(drop_b->instrs[3].results[0].alias, -1);
  EXPECT_TRUE(Parses(*drop_a) && Parses(*drop_b));
  TraceLog mutate = Log({TraceInstr::Constant("a", 8), TraceInstr::Mutate("f_", {"a"}, {0}, 1)});
  EXPECT_FALSE(RemoveArgument(mutate, 2, 0));  // the mutated argument stays
}

TEST(RemoveResult, DropsOneResultAndItsUsers) {
  TraceLog log = Log({TraceInstr::Call("bn", {}, {{"y", 8, -1}, {"m", 4, -1}}, 1),
                      TraceInstr::Call("use", {"m"}, {{"z", 8, -1}}, 1), TraceInstr::Release("y")});
  auto out = RemoveResult(log, 1, 1);
  ASSERT_TRUE(out);
  EXPECT_EQ(*out, Log({TraceInstr::Call("bn", {}, {{"y", 8, -1}}, 1), TraceInstr::Release("y")}));
  EXPECT_FALSE(RemoveResult(*out, 1, 0));  // a CALL keeps at least one result
}

TEST(Contract, ReplacesTheCallByItsFirstArgument) {
  TraceLog log = Log({TraceInstr::Call("f", {}, {{"a", 8, -1}}, 1),
                      TraceInstr::Call("g", {"a"}, {{"b", 8, -1}}, 1),
                      TraceInstr::Call("h", {"b"}, {{"c", 8, -1}}, 1), TraceInstr::Release("b"),
                      TraceInstr::Release("a")});
  auto out = Contract(log, 2);
  ASSERT_TRUE(out);
  EXPECT_EQ(*out, Log({TraceInstr::Call("f", {}, {{"a", 8, -1}}, 1),
                       TraceInstr::Call("h", {"a"}, {{"c", 8, -1}}, 1), TraceInstr::Release("a")}));
  // a released before b's last use: contracting would use a after its release.
  TraceLog late = Log({TraceInstr::Call("f", {}, {{"a", 8, -1}}, 1),
                       TraceInstr::Call("g", {"a"}, {{"b", 8, -1}}, 1), TraceInstr::Release("a"),
                       TraceInstr::Call("h", {"b"}, {{"c", 8, -1}}, 1)});
  EXPECT_FALSE(Contract(late, 2));
}

TEST(MergeIntoPrevious, KeepsTheBytesInFewerOperators) {
  TraceLog log = Log({TraceInstr::Call("f", {}, {{"a", 8, -1}}, 1),
                      TraceInstr::Call("g", {"a"}, {{"b", 24, -1}}, 1)});
  auto out = MergeIntoPrevious(log, 2);
  ASSERT_TRUE(out);
  EXPECT_EQ(*out, Log({TraceInstr::Call("f", {}, {{"a", 32, -1}}, 1)}));
  EXPECT_FALSE(MergeIntoPrevious(log, 1));  // nothing earlier to fold into
}

TEST(SimplerNumbers, FewerSignificantDigitsThenSmaller) {
  // 179,830,912 (the request of the ResNet-32 OOM): 0; then one significant
  // digit: 1, 10^8, 2*10^8 (nearest); then two: 1.8*10^8 (three digits round
  // to the same value).
  EXPECT_EQ(SimplerNumbers(179830912), (std::vector<Int>{0, 1, 100000000, 200000000, 180000000}));
  EXPECT_EQ(SimplerNumbers(1), (std::vector<Int>{0}));
  EXPECT_EQ(SimplerNumbers(0), (std::vector<Int>{}));
  EXPECT_EQ(SimplerNumbers(200), (std::vector<Int>{0, 1, 100}));
}

}  // namespace
}  // namespace dtrcheck
