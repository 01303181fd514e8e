// A model against its reference (reference_allocator.h), step by step: the
// same malloc/free sequence drives an allocator model and its reference, and
// after every step the result of the call, every piece (address, size,
// segment, allocated) and every figure must agree. allocator_sequence_test
// and fuzz/allocator_fuzzer run it; a difference names the step and what
// differs.
#ifndef DTRCHECK_MEMORY_ALLOCATOR_DIFFERENTIAL_H_
#define DTRCHECK_MEMORY_ALLOCATOR_DIFFERENTIAL_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "memory/allocator.h"
#include "memory/reference_allocator.h"

namespace dtrcheck::memory {

enum class AllocatorKind { kCudaCaching, kArena };

struct DifferentialConfig {
  AllocatorKind kind = AllocatorKind::kCudaCaching;
  uint64_t capacity = 0;                      // the device / the region
  std::optional<uint64_t> max_split_size_mb;  // cuda-caching only, > 20
};

// malloc(bytes), or free of a live block: the live block number
// `live_index` (taken modulo the live count; nothing when none is live), in
// the order the blocks were handed out.
struct AllocatorStep {
  bool is_free = false;
  uint64_t value = 0;  // bytes, or live_index
};

class AllocatorDifferential {
 public:
  explicit AllocatorDifferential(const DifferentialConfig& config);
  ~AllocatorDifferential();

  // Runs the step on both; an empty string, or the first difference.
  std::string Step(const AllocatorStep& step);
  // Frees a live block by its address (a sequence that names its frees).
  std::string FreeAddress(uint64_t address);
  // Whether the last Allocate handed out a block (false after a refusal).
  bool last_served() const { return last_served_; }
  const std::vector<Block>& live() const { return live_; }
  const Allocator& model() const { return *model_; }
  // The cuda-caching reference (PyTorch's full statistics); null for the arena.
  const ReferenceCudaCaching* cuda_reference() const { return cuda_ ? &*cuda_ : nullptr; }

 private:
  std::string Compare(const char* what) const;
  std::string FreeLive(size_t index);

  DifferentialConfig config_;
  std::unique_ptr<Allocator> model_;
  std::optional<ReferenceCudaCaching> cuda_;
  std::optional<ReferenceArena> arena_;
  std::vector<Block> live_;
  bool last_served_ = false;
};

// Runs the whole sequence; "" or "step N (malloc|free ...): difference".
std::string RunDifferential(const DifferentialConfig& config, std::span<const AllocatorStep> steps);

}  // namespace dtrcheck::memory

#endif  // DTRCHECK_MEMORY_ALLOCATOR_DIFFERENTIAL_H_
