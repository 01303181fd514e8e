// The allocator models against their references (reference_allocator.h),
// after every step of the same malloc/free sequences
// (allocator_differential.h): every block's address, size and segment, every
// piece and every figure.
//
// Sequences:
//   - the captured zoo's: each captured trace (traces/captured) run by the
//     simulator under the bytes model with DTR, an observer turning every
//     storage the runtime makes material (RuntimeObserver::OnCompute) into a
//     malloc of its size and every eviction (OnEvict, program frees
//     included) into a free of that storage; replayed on a device of 3/4
//     of that run's budget, the budget and twice it (ratios 1, 0.5 and 0.3:
//     no eviction, then more and more; a malloc the replay refuses is
//     skipped with its free);
//   - random ones: fixed seeds, sizes across the small pool, the 1-10 MiB
//     band, large and oversize requests and the exact boundaries;
//   - the divergences found (kept as cases).
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include "memory/allocator_differential.h"
#include "sim/parse.h"
#include "sim/runtime.h"
#include "sim/simulate.h"
#include "sim/telemetry.h"
#include "traces/captured.h"

namespace dtrcheck::memory {
namespace {

constexpr uint64_t kMiB = 1 << 20;

// ---- the captured zoo --------------------------------------------------------

struct TraceEvent {
  bool is_free;
  StorageId storage;
  uint64_t size;
};

// The runtime's placements as malloc/free events (sim/runtime.cc's
// PlaceOutputs places the same storages: the op's outputs not yet material).
class SequenceObserver : public RuntimeObserver {
 public:
  std::vector<TraceEvent> events;

  void OnStart(const Runtime& rt) override { rt_ = &rt; }
  void OnCompute(TensorId tensor) override {
    const Tensor& t = rt_->tensors()[tensor];
    const Operator& op = rt_->operators()[t.op];
    for (TensorId u = tensor - t.index; u < tensor - t.index + op.outputs; ++u) {
      const StorageId s = rt_->tensors()[u].storage;
      if (!rt_->storages()[s].material || Live(s)) continue;
      live_[static_cast<size_t>(s)] = 1;
      events.push_back({false, s, static_cast<uint64_t>(rt_->storages()[s].size)});
    }
  }
  void OnEvict(Int /*clock*/, TensorId root) override {
    const StorageId s = rt_->tensors()[root].storage;
    if (!Live(s)) return;
    live_[static_cast<size_t>(s)] = 0;
    events.push_back({true, s, 0});
  }

 private:
  bool Live(StorageId s) {
    if (live_.size() <= static_cast<size_t>(s)) live_.resize(static_cast<size_t>(s) + 1, 0);
    return live_[static_cast<size_t>(s)] != 0;
  }
  const Runtime* rt_ = nullptr;
  std::vector<uint8_t> live_;
};

struct Replayed {
  size_t mallocs = 0, refused = 0, frees = 0;
};

// Replays the events on both; a refused malloc's storage is skipped when
// freed. Fails the test at the first difference.
Replayed Replay(const DifferentialConfig& config, const std::vector<TraceEvent>& events,
                const std::string& name) {
  AllocatorDifferential d(config);
  std::unordered_map<StorageId, uint64_t> address;
  Replayed r;
  for (size_t i = 0; i < events.size(); ++i) {
    const TraceEvent& e = events[i];
    std::string diff;
    if (e.is_free) {
      const auto it = address.find(e.storage);
      if (it == address.end()) continue;
      diff = d.FreeAddress(it->second);
      address.erase(it);
      ++r.frees;
    } else {
      diff = d.Step({false, e.size});
      ++r.mallocs;
      if (!d.last_served()) {
        ++r.refused;
      } else if (e.size > 0) {
        address[e.storage] = d.live().back().address;
      }
    }
    if (!diff.empty()) {
      ADD_FAILURE() << name << ": event " << i << ": " << diff;
      return r;
    }
  }
  return r;
}

class CapturedZoo : public testing::TestWithParam<std::string> {};

TEST_P(CapturedZoo, ModelsAgreeWithTheReferenceOnTheTracesSequences) {
  const std::string name = GetParam();
  const Graph graph = ParseTraceFile(LocateCapturedTrace(name));
  const Baseline baseline = RunBaseline(graph, "RuntimeV2EagerOptimized");
  for (double ratio : {1.0, 0.5, 0.3}) {
    SequenceObserver observer;
    RunConfig config;
    config.heuristic = "DTR";
    config.ratio = ratio;
    Simulate(graph, config, baseline, &observer);
    // At 0.3 a trace may be out of memory before its first compute.
    if (ratio == 1.0) {
      ASSERT_FALSE(observer.events.empty());
    }
    if (observer.events.empty()) continue;
    const uint64_t budget = static_cast<uint64_t>(BudgetFromRatio(baseline.peak, ratio));
    for (uint64_t capacity : {budget * 3 / 4, budget, 2 * budget}) {
      for (AllocatorKind kind : {AllocatorKind::kCudaCaching, AllocatorKind::kArena}) {
        const std::string what = name + " ratio " + std::to_string(ratio) + " capacity " +
                                 std::to_string(capacity) +
                                 (kind == AllocatorKind::kArena ? " arena" : " cuda-caching");
        const Replayed r =
            Replay({.kind = kind, .capacity = capacity, .max_split_size_mb = std::nullopt},
                   observer.events, what);
        EXPECT_GT(r.mallocs, 0u) << what;
      }
    }
    // max_split_size_mb: the traces' tensors are mostly below it; the
    // oversize ones exercise release_available_cached_blocks.
    Replay({.kind = AllocatorKind::kCudaCaching, .capacity = budget, .max_split_size_mb = 21},
           observer.events, name + " max_split_size_mb 21");
  }
}

std::vector<std::string> CapturedNames() {
  std::vector<std::string> names;
  for (const auto& t : CapturedTraces()) names.push_back(t.name);
  return names;
}

INSTANTIATE_TEST_SUITE_P(Traces, CapturedZoo, testing::ValuesIn(CapturedNames()),
                         [](const auto& info) { return info.param; });

// ---- random sequences --------------------------------------------------------

uint64_t RandomSize(std::mt19937_64& rng) {
  // The boundaries, and NativeCachingAllocator::allocate's 1 EB limit.
  static const uint64_t kEdges[] = {0,
                                    1,
                                    511,
                                    512,
                                    513,
                                    kMiB - 512,
                                    kMiB,
                                    kMiB + 1,
                                    2 * kMiB,
                                    10 * kMiB - 1,
                                    10 * kMiB,
                                    10 * kMiB + 1,
                                    20 * kMiB,
                                    21 * kMiB,
                                    40 * kMiB,
                                    64 * kMiB,
                                    (uint64_t{1} << 60) - 1,
                                    uint64_t{1} << 60};
  switch (rng() % 6) {
    case 0:
      return kEdges[rng() % std::size(kEdges)];
    case 1:
    case 2:
      return 1 + rng() % kMiB;  // small pool
    case 3:
      return kMiB + 1 + rng() % (9 * kMiB);  // 1-10 MiB: 20 MiB segments
    case 4:
      return 10 * kMiB + rng() % (30 * kMiB);
    default:
      return 1 + rng() % (80 * kMiB);
  }
}

std::vector<AllocatorStep> RandomSteps(std::mt19937_64& rng, size_t n) {
  std::vector<AllocatorStep> steps;
  for (size_t i = 0; i < n; ++i) {
    if (rng() % 5 < 2) {
      steps.push_back({true, rng()});
    } else {
      steps.push_back({false, RandomSize(rng)});
    }
  }
  return steps;
}

TEST(AllocatorSequence, RandomSequencesCudaCaching) {
  std::mt19937_64 rng(20261207);
  const std::optional<uint64_t> splits[] = {std::nullopt, 21, 40, 64};
  for (int c = 0; c < 400; ++c) {
    const uint64_t capacity = (24 + rng() % 300) * kMiB + (rng() % 4) * 512;
    const DifferentialConfig config{.kind = AllocatorKind::kCudaCaching,
                                    .capacity = capacity,
                                    .max_split_size_mb = splits[rng() % 4]};
    const std::vector<AllocatorStep> steps = RandomSteps(rng, 300);
    const std::string diff = RunDifferential(config, steps);
    ASSERT_EQ(diff, "") << "case " << c << ", capacity " << capacity;
  }
}

TEST(AllocatorSequence, RandomSequencesArena) {
  std::mt19937_64 rng(42);
  for (int c = 0; c < 400; ++c) {
    const uint64_t capacity = (1 + rng() % 200) * kMiB + rng() % 4096;
    const DifferentialConfig config{
        .kind = AllocatorKind::kArena, .capacity = capacity, .max_split_size_mb = std::nullopt};
    const std::vector<AllocatorStep> steps = RandomSteps(rng, 300);
    const std::string diff = RunDifferential(config, steps);
    ASSERT_EQ(diff, "") << "case " << c << ", capacity " << capacity;
  }
}

}  // namespace
}  // namespace dtrcheck::memory
