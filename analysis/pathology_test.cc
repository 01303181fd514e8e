// The pathology predicates on synthetic sweeps. Each expected pair follows
// from the definitions at the top of analysis/pathology.h applied by hand to the
// few points listed in the test (the "documented calculation").
#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "analysis/pathology.h"

namespace dtrcheck {
namespace {

constexpr Int kCompute = 1000;

// A point with budget `budget` and, if ok, overhead `overhead` (the record's
// (model + remat) / baseline compute is built to equal it exactly).
SweepPoint Point(Int budget, Status status, double overhead = 1.0) {
  SweepPoint p;
  p.record.budget = budget;
  p.record.status = status;
  p.record.baseline.compute = kCompute;
  p.record.model_compute = kCompute;
  p.record.remat_compute = static_cast<Int>((overhead - 1.0) * kCompute + 0.5);
  return p;
}

std::vector<std::pair<size_t, size_t>> Pairs(const std::vector<Finding>& fs) {
  std::vector<std::pair<size_t, size_t>> out;
  for (const auto& f : fs) out.emplace_back(f.low.index, f.high.index);
  return out;
}

using P = std::vector<std::pair<size_t, size_t>>;
constexpr Status kOk = Status::kOk, kOom = Status::kOom, kThr = Status::kThrashed;

TEST(FindInversions, LastOkBeforeEachFailingStretch) {
  // ok ok oom oom ok thrashed ok: stretches start at 2 and 5.
  std::vector<SweepPoint> pts = {Point(10, kOk), Point(20, kOk),  Point(30, kOom), Point(40, kOom),
                                 Point(50, kOk), Point(60, kThr), Point(70, kOk)};
  EXPECT_EQ(Pairs(FindInversions(pts)), (P{{1, 2}, {4, 5}}));
}

TEST(FindInversions, FailuresBelowEveryOkAreNotInversions) {
  // Monotone feasibility: oom up to some budget, ok above it.
  std::vector<SweepPoint> pts = {Point(10, kOom), Point(20, kThr), Point(30, kOk), Point(40, kOk)};
  EXPECT_TRUE(FindInversions(pts).empty());
  // An error status is neither ok nor a failure.
  std::vector<SweepPoint> err = {Point(10, kOk), Point(20, Status::kError)};
  EXPECT_TRUE(FindInversions(err).empty());
}

TEST(FindInversions, RejectsUnorderedPoints) {
  std::vector<SweepPoint> pts = {Point(20, kOk), Point(10, kOom)};
  EXPECT_THROW(FindInversions(pts), std::invalid_argument);
}

TEST(FindOverheadRises, MinimalRisesBeyondTheFactor) {
  // Overheads 2.0, 1.5, 1.6, 2.0 (oom), 2.5, 1.4: with factor 1.5 the pairs
  // exceeding it are (1,4) 2.5 > 2.25; (2,4) 2.5 > 2.4. Minimal: (2,4) lies
  // inside (1,4), so only (2,4). The oom point's overhead is never used.
  std::vector<SweepPoint> pts = {Point(10, kOk, 2.0),  Point(20, kOk, 1.5), Point(30, kOk, 1.6),
                                 Point(40, kOom, 9.0), Point(50, kOk, 2.5), Point(60, kOk, 1.4)};
  auto fs = FindOverheadRises(pts, 1.5);
  EXPECT_EQ(Pairs(fs), (P{{2, 4}}));
  EXPECT_DOUBLE_EQ(fs[0].factor, 2.5 / 1.6);
  // Factor 1: every strict rise; minimal pairs are the adjacent-in-ok rises.
  EXPECT_EQ(Pairs(FindOverheadRises(pts, 1.0)), (P{{1, 2}, {2, 4}}));
  EXPECT_THROW(FindOverheadRises(pts, 0.5), std::invalid_argument);
}

TEST(FindRegimeCliffs, OnlyWithinTheGapAndBothDirections) {
  // 1.0 at 100, 2.0 at 101 (factor 2, gap 1), 2.0 at 110, 1.0 at 111
  // (factor 2 downwards), 3.0 at 200 (gap 89 from 111).
  std::vector<SweepPoint> pts = {Point(100, kOk, 1.0), Point(101, kOk, 2.0), Point(110, kOk, 2.0),
                                 Point(111, kOk, 1.0), Point(200, kOk, 3.0)};
  EXPECT_EQ(Pairs(FindRegimeCliffs(pts, 2.0, 1)), (P{{0, 1}, {2, 3}}));
  EXPECT_EQ(Pairs(FindRegimeCliffs(pts, 2.0, 100)), (P{{0, 1}, {2, 3}, {3, 4}}));
  EXPECT_TRUE(FindRegimeCliffs(pts, 3.01, 1000).empty());  // the largest factor is 3.0/1.0
  // An oom point between two ok points does not hide the cliff across it.
  std::vector<SweepPoint> gap = {Point(100, kOk, 1.0), Point(101, kOom), Point(102, kOk, 4.0)};
  EXPECT_EQ(Pairs(FindRegimeCliffs(gap, 2.0, 2)), (P{{0, 2}}));
  EXPECT_TRUE(FindRegimeCliffs(gap, 2.0, 1).empty());
}

TEST(FindRegimeCliffs, NoneWhenTheBaselineComputesNothing) {
  // Overheads are 0/0 then (RunRecord::Overhead gives 0): two ok points at
  // adjacent budgets are not a cliff, whatever the factor.
  std::vector<SweepPoint> pts = {Point(100, kOk), Point(101, kOk)};
  for (SweepPoint& p : pts)
    p.record.baseline.compute = p.record.model_compute = p.record.remat_compute = 0;
  EXPECT_TRUE(FindRegimeCliffs(pts, 2.0, 10).empty());
  EXPECT_TRUE(FindOverheadRises(pts, 1.0).empty());
}

TEST(GapFromFractionOfPeak, CoversTruncationOfBothBudgets) {
  // peak 10061179648 (ResNet-32): int(peak*0.111) - int(peak*0.110) is the
  // difference that a 0.1% gap must admit.
  const Int peak = 10061179648;
  Int gap = GapFromFractionOfPeak(0.001, peak);
  EXPECT_LE(BudgetFromRatio(peak, 0.111) - BudgetFromRatio(peak, 0.110), gap);
  EXPECT_EQ(gap, TruncToInt(0.001 * IntToDouble(peak)) + 1);
}

}  // namespace
}  // namespace dtrcheck
