// Allocator operations per CPU second at a given number of live blocks:
// the models (memory/: std::map and std::set, O(log n) per operation)
// beside their references (memory/reference_allocator.h: a vector searched
// linearly, O(n)). Run by hand, never by ctest: speed is measured, not
// asserted (bench/RESULTS.md has the figures and the command).
//
//   build/bin/allocator_bench [LIVE...]      (default 1000 10000 100000)
//
// For each LIVE: a device large enough for all of them, LIVE blocks
// allocated (sizes drawn as below), then pairs of operations timed: free a
// random live block, allocate a new one of a random size. Sizes: 3 in 4
// small (512 B - 1 MiB, the small pool), 1 in 4 in 1-10 MiB (20 MiB
// segments); the arena gets the same. The reference runs only while it
// takes under ~2 s (it is quadratic in LIVE over a run).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "cpu_seconds.h"
#include "memory/arena_allocator.h"
#include "memory/cuda_caching_allocator.h"
#include "memory/reference_allocator.h"

namespace {

using dtrcheck::memory::ArenaAllocator;
using dtrcheck::memory::Block;
using dtrcheck::memory::CudaCachingAllocator;
using dtrcheck::memory::ReferenceArena;
using dtrcheck::memory::ReferenceCudaCaching;

constexpr uint64_t kMiB = 1 << 20;

uint64_t Size(std::mt19937_64& rng) {
  return rng() % 4 != 0 ? 512 + rng() % kMiB : kMiB + 1 + rng() % (9 * kMiB);
}

// Live blocks, then `ops` free+allocate pairs; returns operations per CPU second.
template <typename A>
double Measure(A& a, size_t live, size_t pairs, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Block> blocks;
  blocks.reserve(live);
  for (size_t i = 0; i < live; ++i) {
    const std::optional<Block> b = a.Allocate(Size(rng));
    if (!b) {
      std::fprintf(stderr, "allocator_bench: the device is too small\n");
      std::exit(2);
    }
    blocks.push_back(*b);
  }
  const double start = CpuSeconds();
  for (size_t i = 0; i < pairs; ++i) {
    const size_t k = rng() % blocks.size();
    a.Free(blocks[k]);
    const std::optional<Block> b = a.Allocate(Size(rng));
    if (!b) {
      std::fprintf(stderr, "allocator_bench: refused\n");
      std::exit(2);
    }
    blocks[k] = *b;
  }
  return 2.0 * static_cast<double>(pairs) / (CpuSeconds() - start);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<size_t> lives;
  for (int i = 1; i < argc; ++i) lives.push_back(std::strtoull(argv[i], nullptr, 10));
  if (lives.empty()) lives = {1000, 10000, 100000};
  std::printf("%-10s %-22s %14s %12s\n", "live", "allocator", "ops/CPU s", "ns/op");
  for (size_t live : lives) {
    // Worst case per block: a 20 MiB segment each; the arena: 10 MiB each.
    const uint64_t capacity = static_cast<uint64_t>(live) * 20 * kMiB + kMiB;
    const size_t pairs = 200000;
    auto report = [&](const char* name, double ops) {
      std::printf("%-10zu %-22s %14.0f %12.1f\n", live, name, ops, 1e9 / ops);
    };
    {
      CudaCachingAllocator a({.capacity = capacity, .max_split_size_mb = std::nullopt});
      report("cuda-caching model", Measure(a, live, pairs, 1));
    }
    {
      ArenaAllocator a(static_cast<uint64_t>(live) * 10 * kMiB + kMiB);
      report("arena model", Measure(a, live, pairs, 1));
    }
    if (live <= 10000) {  // O(n): 100k live would take minutes
      const size_t ref_pairs = live <= 1000 ? 20000 : 2000;
      {
        ReferenceCudaCaching a(capacity, std::nullopt);
        report("cuda-caching reference", Measure(a, live, ref_pairs, 1));
      }
      {
        ReferenceArena a(static_cast<uint64_t>(live) * 10 * kMiB + kMiB);
        report("arena reference", Measure(a, live, ref_pairs, 1));
      }
    }
  }
  return 0;
}
