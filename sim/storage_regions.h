// The storages' regions (s.region and s.region_rev, simrd/optimization/
// region.py), held only for the storages that have one.
//
// Only a material storage has non-empty regions: eviction empties a
// storage's regions (Runtime::Evict) and only a rematerialization or an
// absorb into a material neighbour fills them again. A long chain evicts
// nearly every storage it makes, so a Region pair per storage of the graph,
// allocated before the run (512 bytes each), was most of a run's memory: a
// third of the 1.45 GB a chain of 1,000,000 operators took (issue 45). Here a
// storage holds a slot only from the first time its regions are written to
// its eviction, and a storage without a slot reads as the empty regions a
// fresh storage has; the table costs 4 bytes per storage beside the slots.
#ifndef DTRCHECK_SIM_STORAGE_REGIONS_H_
#define DTRCHECK_SIM_STORAGE_REGIONS_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "sim/region.h"

namespace dtrcheck {

// A storage's two regions (Runtime::RegionOf, RegionRevOf).
struct RegionPair {
  Region region, region_rev;
};

class StorageRegions {
 public:
  StorageRegions() = default;
  // A fork's copy (Runtime's copy): every slot copied into chunks of its own.
  StorageRegions(const StorageRegions& other);
  StorageRegions& operator=(const StorageRegions& other);
  StorageRegions(StorageRegions&&) = default;
  StorageRegions& operator=(StorageRegions&&) = default;

  // Room for n storages (AddStorage never reallocates below it).
  void Reserve(size_t n) { slot_of_.reserve(n); }
  // The next storage id, without regions yet.
  void AddStorage() { slot_of_.push_back(kNoSlot); }
  size_t storages() const { return slot_of_.size(); }

  // The regions of s: empty ones if s holds no slot.
  const RegionPair& Get(int32_t s) const {
    const int32_t k = slot_of_[static_cast<size_t>(s)];
    return k == kNoSlot ? Empty() : Slot(k);
  }
  // The regions of s, to be written: s takes a slot (empty regions) if it
  // has none. References stay valid while other storages take slots (the
  // slots live in fixed chunks, never moved); a Free invalidates only those
  // into the storage freed. Inline: the absorbs of every eviction go
  // through it, nearly always into a storage that holds its slot already.
  RegionPair& Mutable(int32_t s) {
    const int32_t k = slot_of_[static_cast<size_t>(s)];
    return k == kNoSlot ? Take(s) : Slot(k);
  }
  // s's regions become empty again and their memory goes back (what a
  // storage's eviction does to them).
  void Free(int32_t s);

  // Storages holding a slot now.
  size_t held() const { return slots_ - free_.size(); }
  // Every byte the table holds: its index, its slots, and what the slots'
  // sets hold outside themselves.
  size_t Bytes() const;

 private:
  static constexpr int32_t kNoSlot = -1;
  static const RegionPair& Empty();
  // Mutable's slow path: s, holding none, takes a slot.
  RegionPair& Take(int32_t s);
  // Slot k: chunks of a power of two, so a lookup is a shift and a mask
  // (a std::deque held one 512-byte pair per block, and its lookup cost the
  // LSTM run 4.7% more instructions than the per-storage vector before it).
  static constexpr int kChunkBits = 6;
  static constexpr size_t kChunk = size_t{1} << kChunkBits;
  RegionPair& Slot(int32_t k) const {
    const auto i = static_cast<size_t>(k);
    return chunks_[i >> kChunkBits][i & (kChunk - 1)];
  }

  std::vector<int32_t> slot_of_;  // per storage: its slot, or kNoSlot
  std::vector<std::unique_ptr<RegionPair[]>> chunks_;
  size_t slots_ = 0;           // slots made so far, in chunks_
  std::vector<int32_t> free_;  // slots no storage holds, each empty
};

}  // namespace dtrcheck

#endif  // DTRCHECK_SIM_STORAGE_REGIONS_H_
