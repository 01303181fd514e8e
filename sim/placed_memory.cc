#include "sim/placed_memory.h"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>

#include "memory/arena_allocator.h"
#include "memory/cuda_caching_allocator.h"

namespace dtrcheck {

const std::vector<std::string>& MemoryModelNames() {
  static const std::vector<std::string> names = {"bytes", "cuda-caching", "arena"};
  return names;
}

std::optional<MemoryModel> MemoryModelFromName(const std::string& name) {
  if (name == "bytes") return MemoryModel::kBytes;
  if (name == "cuda-caching") return MemoryModel::kCudaCaching;
  if (name == "arena") return MemoryModel::kArena;
  return std::nullopt;
}

std::string MemoryModelName(MemoryModel model) {
  return MemoryModelNames()[static_cast<size_t>(model)];
}

MemoryOptions MemoryOptionsFromEnv(const char* variable) {
  MemoryOptions o;
  const char* text = std::getenv(variable);
  if (!text || !*text) return o;
  const auto model = MemoryModelFromName(text);
  if (!model)
    throw std::invalid_argument(std::string(variable) + "=" + text +
                                ": not a memory model (bytes, cuda-caching or arena)");
  o.model = *model;
  return o;
}

PlacedMemory::PlacedMemory(const MemoryOptions& options, uint64_t capacity) {
  record_.model = options.model;
  if (options.model != MemoryModel::kCudaCaching && options.max_split_size_mb) {
    throw std::invalid_argument("--max-split-size-mb belongs to --memory cuda-caching, not " +
                                MemoryModelName(options.model));
  }
  switch (options.model) {
    case MemoryModel::kCudaCaching:
      allocator_ = std::make_unique<memory::CudaCachingAllocator>(memory::CudaCachingOptions{
          .capacity = capacity, .max_split_size_mb = options.max_split_size_mb});
      break;
    case MemoryModel::kArena:
      allocator_ = std::make_unique<memory::ArenaAllocator>(capacity);
      break;
    case MemoryModel::kBytes:
      throw std::logic_error("PlacedMemory: the bytes model places nothing");
  }
}

PlacedMemory::PlacedMemory(const PlacedMemory& other)
    : allocator_(other.allocator_->Clone()),
      blocks_(other.blocks_),
      placed_(other.placed_),
      storage_at_(other.storage_at_),
      last_refused_bytes_(other.last_refused_bytes_),
      record_(other.record_),
      peak_(other.peak_) {
  if (!allocator_) {
    throw std::logic_error("PlacedMemory: the " + MemoryModelName(record_.model) +
                           " allocator cannot be copied");
  }
}

std::optional<std::string> PlacedMemory::SetCapacity(uint64_t capacity) {
  const bool undecided = allocator_->CapacityDemand() == 0;
  if (auto why = allocator_->SetCapacity(capacity)) return why;
  if (undecided && peak_ != std::pair<uint64_t, uint64_t>{0, 0}) {
    // Only empty placements so far: the peak is the allocator as it is now
    // (nothing allocated), under the new capacity.
    const memory::Figures f = allocator_->figures();
    peak_ = {f.reserved, f.allocated};
    record_.reserved_peak = f.reserved;
    record_.allocated_peak = f.allocated;
    record_.peak_reserved_minus_allocated = f.reserved - f.allocated;
    record_.peak_largest_free_block = f.largest_free_block;
  }
  return std::nullopt;
}

bool PlacedMemory::Place(std::span<const std::pair<StorageId, uint64_t>> storages) {
  for (size_t i = 0; i < storages.size(); ++i) {
    const auto [s, size] = storages[i];
    const std::optional<memory::Block> block = allocator_->Allocate(size);
    if (!block) {
      last_refused_bytes_ = size;
      for (size_t j = 0; j < i; ++j) Release(storages[j].first);
      return false;
    }
    const auto index = static_cast<size_t>(s);
    if (index >= blocks_.size()) {
      blocks_.resize(index + 1);
      placed_.resize(index + 1);
    }
    if (placed_[index]) throw std::logic_error("PlacedMemory: a storage placed twice");
    blocks_[index] = *block;
    placed_[index] = 1;
    if (block->size > 0) storage_at_[block->address] = s;
  }
  // Peaks after whole placements: a refused call's first blocks, given
  // back, do not count.
  const memory::Figures f = allocator_->figures();
  record_.reserved_peak = std::max(record_.reserved_peak, f.reserved);
  record_.allocated_peak = std::max(record_.allocated_peak, f.allocated);
  if (std::pair(f.reserved, f.allocated) > peak_) {
    peak_ = {f.reserved, f.allocated};
    record_.peak_reserved_minus_allocated = f.reserved - f.allocated;
    record_.peak_largest_free_block = f.largest_free_block;
  }
  return true;
}

void PlacedMemory::Release(StorageId s) {
  const auto index = static_cast<size_t>(s);
  if (index >= placed_.size() || !placed_[index]) return;
  allocator_->Free(blocks_[index]);
  if (blocks_[index].size > 0) storage_at_.erase(blocks_[index].address);
  placed_[index] = 0;
  blocks_[index] = {};
}

memory::Block PlacedMemory::BlockOf(StorageId s) const {
  const auto index = static_cast<size_t>(s);
  return index < placed_.size() && placed_[index] ? blocks_[index] : memory::Block{};
}

StorageId PlacedMemory::StorageAt(uint64_t address) const {
  const auto it = storage_at_.find(address);
  return it == storage_at_.end() ? StorageId{-1} : it->second;
}

MemoryRecord PlacedMemory::Record() const {
  MemoryRecord r = record_;
  r.final = allocator_->figures();
  return r;
}

}  // namespace dtrcheck
