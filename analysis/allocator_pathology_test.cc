// The allocator-only pathologies (analysis/allocator_pathology.h) on
// synthetic sweeps; each expectation applies the definitions in that header
// by hand to the few points listed (the "documented calculation").
#include "analysis/allocator_pathology.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <utility>
#include <vector>

namespace dtrcheck {
namespace {

constexpr Int kCompute = 1000;
constexpr Status kOk = Status::kOk, kOom = Status::kOom, kThr = Status::kThrashed;

// A point at `budget` with `status`, overhead `overhead` when ok, and (under
// an allocator) the reserved peak `reserved`.
SweepPoint Point(Int budget, Status status, double overhead = 1.0, uint64_t reserved = 0) {
  SweepPoint p;
  p.record.budget = budget;
  p.record.status = status;
  p.record.baseline.compute = kCompute;
  p.record.model_compute = kCompute;
  p.record.remat_compute = static_cast<Int>((overhead - 1.0) * kCompute + 0.5);
  if (reserved) {
    MemoryRecord m;
    m.reserved_peak = reserved;
    p.record.memory = m;
  }
  return p;
}

std::vector<SweepPoint> Indexed(std::vector<SweepPoint> pts) {
  for (size_t i = 0; i < pts.size(); ++i) pts[i].index = i;
  return pts;
}

using P = std::vector<std::pair<size_t, size_t>>;
P Pairs(const std::vector<Finding>& fs) {
  P out;
  for (const auto& f : fs) out.emplace_back(f.low.index, f.high.index);
  return out;
}

TEST(FindFragmentationOoms, OnePerStretchAtItsLargestBudget) {
  // bytes:     oom ok  ok  ok  ok  ok  ok  ok
  // allocator: oom oom oom thr ok  oom ok  ok
  // Fragmented (ok in bytes, out of memory under the allocator): 1, 2 and 5;
  // 3 thrashed, which is not out of memory, so it ends the first stretch.
  auto bytes = Indexed({Point(10, kOom), Point(20, kOk), Point(30, kOk), Point(40, kOk),
                        Point(50, kOk), Point(60, kOk), Point(70, kOk), Point(80, kOk)});
  auto alloc = Indexed({Point(10, kOom), Point(20, kOom), Point(30, kOom), Point(40, kThr),
                        Point(50, kOk), Point(60, kOom), Point(70, kOk), Point(80, kOk)});
  const auto fs = FindFragmentationOoms(alloc, bytes);
  EXPECT_EQ(Pairs(fs), (P{{2, 2}, {5, 5}}));
  ASSERT_EQ(fs.size(), 2u);
  EXPECT_EQ(fs[0].kind, FindingKind::kFragmentationOom);
  EXPECT_EQ(fs[0].low.status, kOk);    // bytes
  EXPECT_EQ(fs[0].high.status, kOom);  // the allocator
  EXPECT_EQ(fs[1].high.budget, 60);
  EXPECT_EQ(std::string(FindingKindName(fs[1].kind)), "fragmentation-oom");
}

// Issue 42: a thrashed allocator run (the overhead limit, Status::kThrashed)
// where bytes is ok is no fragmentation OOM: nothing was out of memory, and
// `reduce --property fragmentation-oom` (which needs an oom) would refuse it.
TEST(FindFragmentationOoms, AThrashedAllocatorPointIsNoFragmentationOom) {
  EXPECT_FALSE(IsFragmentationOom(kOk, kThr));
  EXPECT_TRUE(IsFragmentationOom(kOk, kOom));
  EXPECT_FALSE(IsFragmentationOom(kOom, kOom));
  EXPECT_FALSE(IsFragmentationOom(kThr, kOom));
  auto bytes = Indexed({Point(10, kOk), Point(20, kOk), Point(30, kOk)});
  auto alloc = Indexed({Point(10, kThr), Point(20, kThr), Point(30, kOk)});
  EXPECT_TRUE(FindFragmentationOoms(alloc, bytes).empty());
}

TEST(FindFragmentationOoms, RefusesSweepsOfOtherBudgets) {
  auto a = Indexed({Point(10, kOk), Point(20, kOk)});
  auto b = Indexed({Point(10, kOk), Point(30, kOk)});
  EXPECT_THROW(FindFragmentationOoms(a, b), std::invalid_argument);
  EXPECT_THROW(FindFragmentationOoms(a, Indexed({Point(10, kOk)})), std::invalid_argument);
}

TEST(MarkAllocatorOnly, RelabelsWhatBytesLacks) {
  // Allocator: ok oom ok oom; bytes: ok oom ok ok. Inversions (0,1) and
  // (2,3); bytes has (0,1) only, so (2,3) is the allocator's own.
  auto bytes = Indexed({Point(10, kOk), Point(20, kOom), Point(30, kOk), Point(40, kOk)});
  auto alloc = Indexed({Point(10, kOk), Point(20, kOom), Point(30, kOk), Point(40, kOom)});
  std::vector<Finding> inversions = FindInversions(alloc);
  MarkAllocatorOnly(bytes, 2.0, &inversions);
  ASSERT_EQ(Pairs(inversions), (P{{0, 1}, {2, 3}}));
  EXPECT_EQ(inversions[0].kind, FindingKind::kInversion);
  EXPECT_EQ(inversions[1].kind, FindingKind::kAllocatorInversion);
  // Cliffs: 1.0 -> 3.0 under the allocator at (0,1) and (2,3); bytes
  // 1.0 -> 2.5 at (0,1) (a cliff at factor 2) and 1.0 -> 1.5 at (2,3) (none).
  auto bytes2 =
      Indexed({Point(10, kOk, 1.0), Point(11, kOk, 2.5), Point(20, kOk, 1.0), Point(21, kOk, 1.5)});
  auto alloc2 =
      Indexed({Point(10, kOk, 1.0), Point(11, kOk, 3.0), Point(20, kOk, 1.0), Point(21, kOk, 3.0)});
  std::vector<Finding> cliffs = FindRegimeCliffs(alloc2, 2.0, 1);
  MarkAllocatorOnly(bytes2, 2.0, &cliffs);
  ASSERT_EQ(Pairs(cliffs), (P{{0, 1}, {2, 3}}));
  EXPECT_EQ(cliffs[0].kind, FindingKind::kRegimeCliff);
  EXPECT_EQ(cliffs[1].kind, FindingKind::kAllocatorCliff);
}

TEST(FindReservedPeakInversions, NeighbouringOkPointsWhosePeakFalls) {
  // Reserved peaks 100, 80 (oom: skipped), 120, 90, 90, 100 at rising
  // budgets: among ok points 100 -> 120 rises, 120 -> 90 falls (2, 3), 90 ->
  // 90 and 90 -> 100 do not.
  auto pts = Indexed({Point(10, kOk, 1, 100), Point(20, kOom, 1, 80), Point(30, kOk, 1, 120),
                      Point(40, kOk, 1, 90), Point(50, kOk, 1, 90), Point(60, kOk, 1, 100)});
  const auto fs = FindReservedPeakInversions(pts);
  EXPECT_EQ(Pairs(fs), (P{{2, 3}}));
  ASSERT_EQ(fs.size(), 1u);
  EXPECT_DOUBLE_EQ(fs[0].factor, 120.0 / 90.0);
  EXPECT_EQ(std::string(FindingKindName(fs[0].kind)), "reserved-peak-inversion");
}

TEST(FindingKinds, EveryKindHasOneName) {
  std::vector<std::string> names;
  for (FindingKind k : AllFindingKinds()) names.push_back(FindingKindName(k));
  EXPECT_EQ(names, (std::vector<std::string>{"inversion", "overhead-rise", "cliff",
                                             "fragmentation-oom", "allocator-inversion",
                                             "allocator-cliff", "reserved-peak-inversion"}));
}

}  // namespace
}  // namespace dtrcheck
