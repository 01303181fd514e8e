// The model-against-reference step (allocator_differential.h).
#include "memory/allocator_differential.h"

#include <algorithm>
#include <sstream>

#include "memory/arena_allocator.h"
#include "memory/cuda_caching_allocator.h"

namespace dtrcheck::memory {
namespace {

std::string Describe(const std::optional<Block>& b) {
  if (!b) return "refused";
  std::ostringstream o;
  o << "block(address " << b->address << ", size " << b->size << ", segment " << b->segment << ")";
  return o.str();
}

std::string Describe(const Piece& p) {
  std::ostringstream o;
  o << "piece(address " << p.address << ", size " << p.size << ", segment " << p.segment
    << (p.allocated ? ", allocated)" : ", free)");
  return o.str();
}

std::string DescribeFigures(const Figures& f) {
  std::ostringstream o;
  o << "reserved " << f.reserved << ", allocated " << f.allocated << ", peaks " << f.peak_reserved
    << "/" << f.peak_allocated << ", largest free " << f.largest_free_block << ", segments "
    << f.segments << ", device allocs/frees " << f.device_allocations << "/" << f.device_frees
    << ", retries " << f.alloc_retries << ", ooms " << f.ooms;
  return o.str();
}

}  // namespace

AllocatorDifferential::AllocatorDifferential(const DifferentialConfig& config) : config_(config) {
  if (config.kind == AllocatorKind::kCudaCaching) {
    model_ = std::make_unique<CudaCachingAllocator>(CudaCachingOptions{
        .capacity = config.capacity, .max_split_size_mb = config.max_split_size_mb});
    cuda_.emplace(config.capacity, config.max_split_size_mb);
  } else {
    model_ = std::make_unique<ArenaAllocator>(config.capacity);
    arena_.emplace(config.capacity);
  }
}

AllocatorDifferential::~AllocatorDifferential() = default;

std::string AllocatorDifferential::Compare(const char* what) const {
  const std::vector<Piece> got = model_->Pieces();
  const std::vector<Piece> want = cuda_ ? cuda_->Pieces() : arena_->Pieces();
  std::ostringstream o;
  for (size_t i = 0; i < std::max(got.size(), want.size()); ++i) {
    if (i < got.size() && i < want.size() && got[i] == want[i]) continue;
    o << what << ": piece " << i << ": model "
      << (i < got.size() ? Describe(got[i]) : std::string("none")) << ", reference "
      << (i < want.size() ? Describe(want[i]) : std::string("none"));
    return o.str();
  }
  Figures expect;
  if (cuda_) {
    expect = cuda_->figures();
  } else {
    expect.reserved = expect.peak_reserved = config_.capacity;
    expect.segments = expect.device_allocations = config_.capacity > 0 ? 1 : 0;
    expect.allocated = arena_->allocated();
    expect.peak_allocated = arena_->peak_allocated();
    expect.ooms = arena_->refusals();
    for (const Piece& p : want) {
      if (!p.allocated) expect.largest_free_block = std::max(expect.largest_free_block, p.size);
    }
  }
  const Figures f = model_->figures();
  if (!(f.reserved == expect.reserved && f.allocated == expect.allocated &&
        f.peak_reserved == expect.peak_reserved && f.peak_allocated == expect.peak_allocated &&
        f.largest_free_block == expect.largest_free_block && f.segments == expect.segments &&
        f.device_allocations == expect.device_allocations &&
        f.device_frees == expect.device_frees && f.alloc_retries == expect.alloc_retries &&
        f.ooms == expect.ooms)) {
    o << what << ": figures: model " << DescribeFigures(f) << "; reference "
      << DescribeFigures(expect);
    return o.str();
  }
  return "";
}

std::string AllocatorDifferential::FreeLive(size_t index) {
  const Block b = live_[index];
  live_.erase(live_.begin() + static_cast<std::ptrdiff_t>(index));
  model_->Free(b);
  if (cuda_) {
    cuda_->Free(b);
  } else {
    arena_->Free(b);
  }
  std::ostringstream what;
  what << "free " << b.address;
  return Compare(what.str().c_str());
}

std::string AllocatorDifferential::FreeAddress(uint64_t address) {
  for (size_t i = 0; i < live_.size(); ++i) {
    if (live_[i].address == address) return FreeLive(i);
  }
  return "free of an address not live";
}

std::string AllocatorDifferential::Step(const AllocatorStep& step) {
  if (step.is_free) {
    if (live_.empty()) return "";
    return FreeLive(static_cast<size_t>(step.value % live_.size()));
  }
  const std::optional<Block> got = model_->Allocate(step.value);
  const std::optional<Block> want =
      cuda_ ? cuda_->Allocate(step.value) : arena_->Allocate(step.value);
  std::ostringstream what;
  what << "malloc " << step.value;
  if (got != want) {
    return what.str() + ": model " + Describe(got) + ", reference " + Describe(want);
  }
  last_served_ = got.has_value();
  if (got && got->size > 0) live_.push_back(*got);
  return Compare(what.str().c_str());
}

std::string RunDifferential(const DifferentialConfig& config,
                            std::span<const AllocatorStep> steps) {
  AllocatorDifferential d(config);
  for (size_t i = 0; i < steps.size(); ++i) {
    const std::string diff = d.Step(steps[i]);
    if (!diff.empty()) return "step " + std::to_string(i) + " (" + diff + ")";
  }
  return "";
}

}  // namespace dtrcheck::memory
