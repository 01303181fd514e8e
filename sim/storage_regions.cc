#include "sim/storage_regions.h"

namespace dtrcheck {

const RegionPair& StorageRegions::Empty() {
  static const RegionPair empty;
  return empty;
}

RegionPair& StorageRegions::Mutable(int32_t s) {
  int32_t& k = slot_of_[static_cast<size_t>(s)];
  if (k == kNoSlot) {
    if (free_.empty()) {
      k = static_cast<int32_t>(slots_.size());
      slots_.emplace_back();
    } else {
      k = free_.back();
      free_.pop_back();
    }
  }
  return slots_[static_cast<size_t>(k)];
}

void StorageRegions::Free(int32_t s) {
  int32_t& k = slot_of_[static_cast<size_t>(s)];
  if (k == kNoSlot) return;
  // A fresh pair, as a new storage's: its sets' memory goes with the old one.
  slots_[static_cast<size_t>(k)] = RegionPair();
  free_.push_back(k);
  k = kNoSlot;
}

size_t StorageRegions::Bytes() const {
  size_t bytes = slot_of_.capacity() * sizeof(int32_t) + free_.capacity() * sizeof(int32_t) +
                 slots_.size() * sizeof(RegionPair);
  for (const RegionPair& p : slots_) bytes += p.region.HeapBytes() + p.region_rev.HeapBytes();
  return bytes;
}

}  // namespace dtrcheck
