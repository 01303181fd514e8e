#include "traces/synthetic/generators.h"

#include <set>

#include <gtest/gtest.h>

#include "io/trace_writer.h"
#include "sim/parse.h"
#include "sim/simulate.h"

namespace dtrcheck {
namespace {

struct Features {
  bool tuple = false, alias = false, mutate = false, copy = false, copy_from = false;
  bool constant = false, release = false, backward = false;
};

Features FeaturesOf(const TraceLog& log) {
  Features f;
  for (const auto& i : log.instrs) {
    switch (i.op) {
      case TraceOp::kCall:
        f.tuple = f.tuple || i.results.size() > 1;
        for (const auto& r : i.results) f.alias = f.alias || r.alias != -1;
        break;
      case TraceOp::kMutate:
        f.mutate = true;
        break;
      case TraceOp::kCopy:
        f.copy = true;
        break;
      case TraceOp::kCopyFrom:
        f.copy_from = true;
        break;
      case TraceOp::kConstant:
        f.constant = true;
        break;
      case TraceOp::kRelease:
        f.release = true;
        break;
      case TraceOp::kAnnotate:
        f.backward = f.backward || i.name == "BACKWARD";
        break;
    }
  }
  return f;
}

// The discipline that makes a log valid for simrd beyond parsing: a name is
// used only while bound and released at most once per binding (simrd asserts
// that a released storage still has external references).
void ExpectNamesUsedWhileBound(const TraceLog& log, const std::string& what) {
  std::set<std::string> bound;
  auto use = [&](const std::string& n) {
    EXPECT_TRUE(bound.count(n)) << what << ": " << n << " used unbound";
  };
  for (const auto& i : log.instrs) {
    switch (i.op) {
      case TraceOp::kConstant:
        EXPECT_TRUE(bound.insert(i.name).second) << what;
        break;
      case TraceOp::kCopy:
        use(i.src);
        EXPECT_TRUE(bound.insert(i.dst).second) << what;
        break;
      case TraceOp::kCopyFrom:
        use(i.src);
        use(i.dst);
        break;
      case TraceOp::kRelease:
        use(i.name);
        bound.erase(i.name);
        break;
      case TraceOp::kCall:
        for (const auto& a : i.args) use(a);
        for (const auto& r : i.results)
          EXPECT_TRUE(bound.insert(r.name).second) << what << ": " << r.name;
        break;
      case TraceOp::kMutate:
        for (const auto& a : i.args) use(a);
        break;
      case TraceOp::kAnnotate:
        break;
    }
  }
}

TEST(Generators, SameParametersGiveTheSameBytes) {
  for (const auto& shape : GeneratorShapes()) {
    GeneratorParams p{shape, 7, 3, 2, 1 << 16};
    EXPECT_EQ(TraceLogText(GenerateTrace(p)), TraceLogText(GenerateTrace(p))) << shape;
    GeneratorParams q = p;
    q.seed = 8;
    EXPECT_NE(TraceLogText(GenerateTrace(p)), TraceLogText(GenerateTrace(q))) << shape;
  }
}

TEST(Generators, EveryShapeIsAValidTrainingStep) {
  for (const auto& shape : GeneratorShapes()) {
    Features any;
    for (uint64_t seed = 0; seed < 6; ++seed) {
      GeneratorParams p{shape, seed, 4, 2, 1 << 16};
      std::string what = shape + " seed " + std::to_string(seed);
      TraceLog log = GenerateTrace(p);
      ExpectNamesUsedWhileBound(log, what);
      Features f = FeaturesOf(log);
      EXPECT_TRUE(f.tuple && f.alias && f.copy && f.constant && f.release && f.backward) << what;
      any.mutate = any.mutate || f.mutate;
      any.copy_from = any.copy_from || f.copy_from;

      Graph g = ParseTrace(TraceLogText(log), what);
      EXPECT_EQ(g.ops.size(), log.NumOperators()) << what;
      Baseline base = RunBaseline(g, "RuntimeV2EagerOptimized");
      EXPECT_GT(base.peak, 0) << what;
      for (double ratio : {1.0, 0.6, 0.3}) {
        RunConfig c;
        c.ratio = ratio;
        RunRecord r = Simulate(g, c, base);
        EXPECT_NE(r.status, Status::kError) << what << " ratio " << ratio << ": " << r.message;
        // An unbounded-enough budget never rematerializes.
        if (ratio == 1.0) {
          EXPECT_EQ(r.status, Status::kOk) << what;
          EXPECT_TRUE(r.remat_compute == 0) << what;
        }
      }
    }
    EXPECT_TRUE(any.mutate && any.copy_from) << shape;
  }
}

TEST(Generators, BadParametersAreRejected) {
  EXPECT_THROW(GenerateTrace({"moebius", 0, 3, 2, 1024}), std::invalid_argument);
  EXPECT_THROW(GenerateTrace({"chain", 0, 0, 2, 1024}), std::invalid_argument);
  EXPECT_THROW(GenerateTrace({"chain", 0, 3, 17, 1024}), std::invalid_argument);
  EXPECT_THROW(GenerateTrace({"tree", 0, 13, 2, 1024}), std::invalid_argument);
  EXPECT_THROW(GenerateTrace({"chain", 0, 3, 2, 2}), std::invalid_argument);
}

}  // namespace
}  // namespace dtrcheck
