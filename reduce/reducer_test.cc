#include "reduce/reducer.h"

#include <gtest/gtest.h>

#include "reduce/trace_edits.h"
#include "traces/synthetic/generators.h"

namespace dtrcheck {
namespace {

// A property whose 1-minimal witness is known: "some CALL is named
// cudnn_convolution and allocates at least 5 bytes".
bool HasBigConvolution(const TraceLog& log) {
  for (const auto& i : log.instrs)
    if (i.op == TraceOp::kCall && i.name == "cudnn_convolution")
      for (const auto& r : i.results)
        if (r.alias == -1 && r.memory >= 5) return true;
  return false;
}

TEST(Reducer, ReachesTheOneMinimalWitness) {
  TraceLog log = GenerateTrace({"resnet", 1, 3, 2, 1 << 16});
  ASSERT_TRUE(HasBigConvolution(log));
  ReduceResult r = Reduce(log, HasBigConvolution);
  EXPECT_TRUE(r.minimal);
  EXPECT_FALSE(r.cancelled);
  // START and one argument-less convolution, time 0, whose size has no
  // simpler value that is still >= 5.
  ASSERT_EQ(r.log.instrs.size(), 2u);
  const TraceInstr& conv = r.log.instrs[1];
  EXPECT_EQ(conv.name, "cudnn_convolution");
  EXPECT_TRUE(conv.args.empty());
  ASSERT_EQ(conv.results.size(), 1u);
  EXPECT_GE(conv.results[0].memory, 5);
  for (Int simpler : SimplerNumbers(conv.results[0].memory)) EXPECT_LT(simpler, 5);
  EXPECT_TRUE(conv.time == 0);
  EXPECT_EQ(CheckBindings(r.log), "");
}

TEST(Reducer, ACancelledReductionReturnsTheBestSoFar) {
  TraceLog log = GenerateTrace({"chain", 1, 3, 1, 1 << 16});
  std::atomic<bool> cancel{true};
  ReduceOptions options;
  options.cancel = &cancel;
  ReduceResult r = Reduce(log, HasBigConvolution, options);
  EXPECT_TRUE(r.cancelled);
  EXPECT_EQ(r.tests, 0u);
  EXPECT_EQ(r.log, log);
}

TEST(Reducer, IsDeterministic) {
  TraceLog log = GenerateTrace({"dag", 5, 20, 2, 1 << 16});
  auto property = [](const TraceLog& l) { return l.NumOperators() >= 7; };
  EXPECT_EQ(Reduce(log, property).log, Reduce(log, property).log);
}

}  // namespace
}  // namespace dtrcheck
