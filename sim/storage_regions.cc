#include "sim/storage_regions.h"

namespace dtrcheck {

const RegionPair& StorageRegions::Empty() {
  static const RegionPair empty;
  return empty;
}

StorageRegions::StorageRegions(const StorageRegions& other)
    : slot_of_(other.slot_of_), slots_(other.slots_), free_(other.free_) {
  chunks_.reserve(other.chunks_.size());
  for (const auto& chunk : other.chunks_) {
    chunks_.push_back(std::make_unique<RegionPair[]>(kChunk));
    for (size_t i = 0; i < kChunk; ++i) chunks_.back()[i] = chunk[i];
  }
}

StorageRegions& StorageRegions::operator=(const StorageRegions& other) {
  if (this != &other) *this = StorageRegions(other);
  return *this;
}

RegionPair& StorageRegions::Take(int32_t s) {
  int32_t& k = slot_of_[static_cast<size_t>(s)];
  if (free_.empty()) {
    if (slots_ == chunks_.size() * kChunk)
      chunks_.push_back(std::make_unique<RegionPair[]>(kChunk));
    k = static_cast<int32_t>(slots_++);
  } else {
    k = free_.back();
    free_.pop_back();
  }
  return Slot(k);
}

void StorageRegions::Free(int32_t s) {
  int32_t& k = slot_of_[static_cast<size_t>(s)];
  if (k == kNoSlot) return;
  // A fresh pair, as a new storage's: its sets' memory goes with the old one.
  Slot(k) = RegionPair();
  free_.push_back(k);
  k = kNoSlot;
}

size_t StorageRegions::Bytes() const {
  size_t bytes = slot_of_.capacity() * sizeof(int32_t) + free_.capacity() * sizeof(int32_t) +
                 chunks_.capacity() * sizeof(chunks_[0]) +
                 chunks_.size() * kChunk * sizeof(RegionPair);
  for (size_t k = 0; k < slots_; ++k) {
    const RegionPair& p = Slot(static_cast<int32_t>(k));
    bytes += p.region.HeapBytes() + p.region_rev.HeapBytes();
  }
  return bytes;
}

}  // namespace dtrcheck
