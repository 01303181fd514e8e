// RatioGrid and ByteGrid: grid points are the decimal values from + i*step,
// not accumulated doubles.
#include <gtest/gtest.h>

#include <cstdlib>
#include <stdexcept>
#include <string>

#include "analysis/sweep.h"

namespace dtrcheck {
namespace {

// The grid must give the same double as the literal the user would type
// after --ratio; strtod is the reference for "the double of the literal".
double Literal(const std::string& text) { return std::strtod(text.c_str(), nullptr); }

TEST(RatioGrid, EveryPointIsTheDoubleOfItsDecimalLiteral) {
  auto g = RatioGrid("0.1", "0.15", "0.001");
  ASSERT_EQ(g.size(), 51u);
  for (int i = 0; i <= 50; ++i) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "0.%03d", 100 + i);
    EXPECT_EQ(g[i], Literal(buf)) << buf;
  }
  EXPECT_EQ(g[3], 0.103);
}

TEST(RatioGrid, DiffersFromAccumulatedDoubles) {
  // Guards the reason for the scaled-integer computation: naive accumulation
  // of 0.001 from 0.1 drifts away from the literals within this range, so
  // this test fails if RatioGrid is ever "simplified" to accumulate.
  auto g = RatioGrid("0.1", "1", "0.001");
  double acc = 0.1;
  int differing = 0;
  for (size_t i = 0; i < g.size(); ++i, acc += 0.001) differing += g[i] != acc;
  EXPECT_GT(differing, 0);
  EXPECT_EQ(g.back(), 1.0);
  EXPECT_EQ(g.size(), 901u);
}

TEST(RatioGrid, MixedPrecisionAndExponents) {
  auto g = RatioGrid("0.5", "0.5002", "1e-4");
  ASSERT_EQ(g.size(), 3u);
  EXPECT_EQ(g[0], 0.5);
  EXPECT_EQ(g[1], 0.5001);
  EXPECT_EQ(g[2], 0.5002);
  // The end is inclusive only when it is on the grid.
  EXPECT_EQ(RatioGrid("0.1", "0.35", "0.1").size(), 3u);
  EXPECT_EQ(RatioGrid("0.25", "0.25", "0.01").size(), 1u);
}

TEST(RatioGrid, RejectsBadInput) {
  EXPECT_THROW(RatioGrid("0.1", "0.2", "0"), std::invalid_argument);
  EXPECT_THROW(RatioGrid("0.2", "0.1", "0.01"), std::invalid_argument);
  EXPECT_THROW(RatioGrid("abc", "0.2", "0.01"), std::invalid_argument);
  EXPECT_THROW(RatioGrid("-0.1", "0.2", "0.01"), std::invalid_argument);
  EXPECT_THROW(RatioGrid("0.1", "0.2x", "0.01"), std::invalid_argument);
  EXPECT_THROW(RatioGrid("0.1", "0.2", "."), std::invalid_argument);
  EXPECT_THROW(RatioGrid("0", "1", "1e-9"), std::invalid_argument);  // too many points
}

TEST(ByteGrid, InclusiveIntegerSteps) {
  auto g = ByteGrid(10, 20, 5);
  ASSERT_EQ(g.size(), 3u);
  EXPECT_TRUE(g[0] == 10 && g[1] == 15 && g[2] == 20);
  EXPECT_EQ(ByteGrid(10, 24, 5).size(), 3u);
  EXPECT_THROW(ByteGrid(10, 20, 0), std::invalid_argument);
  EXPECT_THROW(ByteGrid(-1, 20, 1), std::invalid_argument);
}

}  // namespace
}  // namespace dtrcheck
