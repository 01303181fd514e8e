// Visit marks over storage ids that are cleared in O(1).
//
// The runtime's set operations (region walks, unions of frontiers, evicted
// neighbours) need "have I met this storage in the current pass?" for a few
// storages out of many, thousands of times per run. Clearing a flag array
// per pass would cost O(storages); instead each slot holds the number of the
// pass (the epoch) that last marked it, and starting a pass increments the
// epoch, which forgets every mark at once. Only when the 32-bit counter wraps
// are the slots reset.
//
// A pass works on an Epoch, a view of the marks for the current epoch that
// is two words (the slots' address and the epoch number), so that hot loops
// keep both in registers. The view stays valid until the next NextEpoch() or
// AddSlot() of its EpochMarks: passes that overlap use distinct EpochMarks.
#ifndef DTRCHECK_BASE_EPOCH_MARKS_H_
#define DTRCHECK_BASE_EPOCH_MARKS_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace dtrcheck {

class EpochMarks {
 public:
  class Epoch {
   public:
    bool IsMarked(int32_t x) const { return slots_[x] == epoch_; }
    void Mark(int32_t x) { slots_[x] = epoch_; }
    // Marks x; true if it was not marked yet in this epoch.
    bool TryMark(int32_t x) {
      if (slots_[x] == epoch_) return false;
      slots_[x] = epoch_;
      return true;
    }

   private:
    friend class EpochMarks;
    Epoch(uint32_t* slots, uint32_t epoch) : slots_(slots), epoch_(epoch) {}
    uint32_t* slots_;
    uint32_t epoch_;
  };

  EpochMarks() = default;
  // Starts the counter at `epoch` instead of 0; tests use it to reach the wrap.
  explicit EpochMarks(uint32_t epoch) : epoch_(epoch) {}

  // One more id, unmarked: ids are 0 .. size() - 1.
  void AddSlot() { slots_.push_back(0); }
  void Reserve(size_t n) { slots_.reserve(n); }
  size_t size() const { return slots_.size(); }

  // Starts a pass in which no id is marked.
  Epoch NextEpoch() {
    if (++epoch_ == 0) Wrap();
    return Epoch(slots_.data(), epoch_);
  }

 private:
  void Wrap() {  // the counter wrapped: forget every old mark
    std::fill(slots_.begin(), slots_.end(), 0);
    epoch_ = 1;
  }
  std::vector<uint32_t> slots_;
  uint32_t epoch_ = 0;  // slots start at 0, which no epoch ever is
};

}  // namespace dtrcheck

#endif  // DTRCHECK_BASE_EPOCH_MARKS_H_
