// libFuzzer target: the allocator models against their references
// (memory/allocator_differential.h), on random malloc/free sequences and
// device capacities. Any difference in a handed-out block, a piece or a
// figure, after any step, aborts with the step and what differs.
//
// Input: byte 0 picks the model (bit 0: arena, else cuda-caching) and
// max_split_size_mb (bits 1-2: none, 21, 40, 64); bytes 1-2 the capacity
// (1-1024 MiB plus 0-63 units of 512 bytes, little endian: bits 0-9 MiB - 1,
// bits 10-15 the 512-byte units); then 4 bytes per step: the first byte's
// low 2 bits 0 are a free (of live block number bytes 1-3), else a malloc
// whose size class is the first byte's bits 2-4 (the small pool, the 1-10
// MiB band, 10-74 MiB, 0-4 KiB, within 4 KiB of the pool and segment
// boundaries, up to 1 GiB, absurd sizes past 1 EB) and
// value bytes 1-3.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "memory/allocator_differential.h"

namespace {

using dtrcheck::memory::AllocatorKind;
using dtrcheck::memory::AllocatorStep;
using dtrcheck::memory::DifferentialConfig;

constexpr uint64_t kMiB = 1 << 20;
constexpr size_t kMaxSteps = 4096;

uint64_t SizeOf(uint8_t cls, uint32_t v) {
  static const uint64_t kEdges[] = {kMiB,      2 * kMiB,  10 * kMiB, 20 * kMiB,
                                    21 * kMiB, 40 * kMiB, 64 * kMiB, 80 * kMiB};
  switch (cls) {
    case 0:
      return v % (kMiB + 1);  // small pool (and 0)
    case 1:
      return kMiB + v % (9 * kMiB);  // 20 MiB segments
    case 2:
      return 10 * kMiB + (uint64_t{v} << 2) % (64 * kMiB);  // rounded to 2 MiB
    case 3:
      return v % 4097;  // tiny: 512-byte rounding
    case 4:
    case 5: {  // within 4 KiB of a boundary
      const uint64_t edge = kEdges[v % std::size(kEdges)];
      const uint64_t delta = (v >> 3) % 4096;
      return cls == 4 ? edge - std::min(edge, delta) : edge + delta;
    }
    case 6:
      return uint64_t{v} * 64;  // up to 1 GiB
    default:
      return (uint64_t{v} << 40) | v;  // absurd: refused
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 3) return 0;
  const std::optional<uint64_t> splits[] = {std::nullopt, 21, 40, 64};
  DifferentialConfig config;
  config.kind = (data[0] & 1) ? AllocatorKind::kArena : AllocatorKind::kCudaCaching;
  if (config.kind == AllocatorKind::kCudaCaching)
    config.max_split_size_mb = splits[(data[0] >> 1) & 3];
  const uint32_t cap = data[1] | (uint32_t{data[2]} << 8);
  config.capacity = ((cap & 1023) + 1) * kMiB + (cap >> 10) * 512;
  std::vector<AllocatorStep> steps;
  for (size_t i = 3; i + 4 <= size && steps.size() < kMaxSteps; i += 4) {
    const uint32_t v = data[i + 1] | (uint32_t{data[i + 2]} << 8) | (uint32_t{data[i + 3]} << 16);
    if ((data[i] & 3) == 0) {
      steps.push_back({true, v});
    } else {
      steps.push_back({false, SizeOf(static_cast<uint8_t>((data[i] >> 2) & 7), v)});
    }
  }
  const std::string diff = dtrcheck::memory::RunDifferential(config, steps);
  if (!diff.empty()) {
    std::fprintf(stderr, "allocator_fuzzer: %s, capacity %llu, max_split_size_mb %llu: %s\n",
                 config.kind == AllocatorKind::kArena ? "arena" : "cuda-caching",
                 static_cast<unsigned long long>(config.capacity),
                 static_cast<unsigned long long>(config.max_split_size_mb.value_or(0)),
                 diff.c_str());
    std::abort();
  }
  return 0;
}
