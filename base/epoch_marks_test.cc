#include "base/epoch_marks.h"

#include <gtest/gtest.h>

#include <limits>

namespace dtrcheck {
namespace {

EpochMarks WithSlots(int n, uint32_t first_epoch = 0) {
  EpochMarks marks(first_epoch);
  for (int i = 0; i < n; ++i) marks.AddSlot();
  return marks;
}

TEST(EpochMarks, MarksLastUntilTheNextEpoch) {
  EpochMarks marks = WithSlots(4);
  EXPECT_EQ(marks.size(), 4u);
  EpochMarks::Epoch a = marks.NextEpoch();
  EXPECT_FALSE(a.IsMarked(2));
  a.Mark(2);
  EXPECT_TRUE(a.IsMarked(2));
  EXPECT_FALSE(a.IsMarked(1));
  EXPECT_FALSE(a.TryMark(2));  // already marked
  EXPECT_TRUE(a.TryMark(3));
  EXPECT_TRUE(a.IsMarked(3));

  EpochMarks::Epoch b = marks.NextEpoch();
  for (int x = 0; x < 4; ++x) EXPECT_FALSE(b.IsMarked(x)) << x;
  EXPECT_TRUE(b.TryMark(2));
}

TEST(EpochMarks, AddedSlotsStartUnmarked) {
  EpochMarks marks = WithSlots(1);
  EpochMarks::Epoch e = marks.NextEpoch();
  e.Mark(0);
  marks.AddSlot();
  e = marks.NextEpoch();  // the view of before AddSlot is stale
  EXPECT_FALSE(e.IsMarked(1));
  e.Mark(1);
  EXPECT_TRUE(e.IsMarked(1));
  EXPECT_FALSE(e.IsMarked(0));
}

TEST(EpochMarks, TwoMarkersAreIndependent) {
  EpochMarks one = WithSlots(3), two = WithSlots(3);
  EpochMarks::Epoch a = one.NextEpoch(), b = two.NextEpoch();
  a.Mark(0);
  b.Mark(1);
  EXPECT_TRUE(a.IsMarked(0));
  EXPECT_FALSE(a.IsMarked(1));
  EXPECT_TRUE(b.IsMarked(1));
  EXPECT_FALSE(b.IsMarked(0));
}

// When the 32-bit epoch wraps, the counter must skip 0 (the value of every
// slot never marked) and marks made under the old numbers must not read as
// marks of the new epochs.
TEST(EpochMarks, WrapForgetsOldMarks) {
  const uint32_t max = std::numeric_limits<uint32_t>::max();
  EpochMarks marks = WithSlots(3, max - 2);
  EpochMarks::Epoch e = marks.NextEpoch();  // epoch max - 1
  e.Mark(0);
  e = marks.NextEpoch();  // epoch max
  e.Mark(1);
  EXPECT_TRUE(e.IsMarked(1));
  e = marks.NextEpoch();  // wraps to 1
  for (int x = 0; x < 3; ++x) EXPECT_FALSE(e.IsMarked(x)) << x;
  e.Mark(2);
  e = marks.NextEpoch();  // 2
  for (int x = 0; x < 3; ++x) EXPECT_FALSE(e.IsMarked(x)) << x;
}

}  // namespace
}  // namespace dtrcheck
