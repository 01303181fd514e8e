#include "analysis/parallel_for.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace dtrcheck {
namespace {

// A value computed from i alone, with uneven work per index so that
// threads finish out of order.
uint64_t Work(size_t i) {
  uint64_t x = i;
  for (size_t k = 0; k < (i % 7) * 1000; ++k) x = x * 6364136223846793005u + 1442695040888963407u;
  return x;
}

std::vector<uint64_t> Results(size_t n, int jobs) {
  std::vector<uint64_t> out(n, 0);
  std::vector<std::atomic<int>> calls(n);
  ParallelFor(n, jobs, [&](size_t i) {
    out[i] = Work(i);
    calls[i].fetch_add(1);
  });
  for (size_t i = 0; i < n; ++i) EXPECT_EQ(calls[i].load(), 1) << "index " << i;
  return out;
}

TEST(ParallelFor, EveryIndexOnceAndTheSameResultsForAnyJobs) {
  for (size_t n : {0u, 1u, 2u, 1000u}) {
    std::vector<uint64_t> want(n);
    for (size_t i = 0; i < n; ++i) want[i] = Work(i);
    for (int jobs : {-1, 0, 1, 2, 3, 8, 64}) EXPECT_EQ(Results(n, jobs), want) << n << " " << jobs;
  }
}

TEST(ParallelFor, RethrowsTheLowestFailingIndexWhateverTheJobs) {
  for (int jobs : {1, 2, 4, 16}) {
    for (int round = 0; round < 20; ++round) {
      try {
        ParallelFor(500, jobs, [](size_t i) {
          if (i == 137 || i == 138 || i == 400) throw std::runtime_error(std::to_string(i));
        });
        ADD_FAILURE() << "no exception";
      } catch (const std::runtime_error& e) {
        EXPECT_EQ(std::string(e.what()), "137") << "jobs " << jobs;
      }
    }
  }
}

TEST(ParallelFor, NoIndexStartsAfterAFailureWithOneJob) {
  std::vector<int> ran(100, 0);
  EXPECT_THROW(ParallelFor(100, 1,
                           [&](size_t i) {
                             ran[i] = 1;
                             if (i == 10) throw std::logic_error("stop");
                           }),
               std::logic_error);
  for (size_t i = 0; i < 100; ++i) EXPECT_EQ(ran[i], i <= 10 ? 1 : 0) << i;
}

TEST(ParallelFor, StopEndsTheLoopWithoutAnError) {
  for (int jobs : {1, 2, 4}) {
    std::atomic<bool> stop{false};
    std::vector<std::atomic<int>> ran(1000);
    ParallelFor(
        1000, jobs,
        [&](size_t i) {
          ran[i] = 1;
          if (i == 50) stop = true;
        },
        [&] { return stop.load(); });
    // Indices are handed out in order, so what ran is a prefix holding 50;
    // with one job, nothing after it.
    size_t count = 0;
    for (size_t i = 0; i < 1000; ++i) count += ran[i].load();
    for (size_t i = 0; i < count; ++i) EXPECT_EQ(ran[i].load(), 1) << "jobs " << jobs << " " << i;
    EXPECT_GE(count, 51u);
    if (jobs == 1) {
      EXPECT_EQ(count, 51u);
    }
  }
}

TEST(ParallelFor, StoppedBeforeTheStartRunsNothing) {
  for (int jobs : {1, 4}) {
    std::atomic<int> ran{0};
    ParallelFor(
        100, jobs, [&](size_t) { ++ran; }, [] { return true; });
    EXPECT_EQ(ran.load(), 0);
  }
}

TEST(DefaultJobs, IsAtLeastOne) { EXPECT_GE(DefaultJobs(), 1); }

}  // namespace
}  // namespace dtrcheck
