// The hook between the runtime and an allocator model (memory/): where
// `--memory cuda-caching` or `--memory arena` places every storage the
// runtime makes material, and frees it when the runtime evicts it. Under
// `--memory bytes` (the default) there is none, and the runtime is simrd's.
//
// The runtime calls Place with the storages an operator's computation makes
// material (all of them or none are placed), Release on every eviction, and
// CountEviction for each eviction it made because the allocator refused
// (after the bytes check had passed: evictions where bytes alone would have
// fit).
#ifndef DTRCHECK_SIM_PLACED_MEMORY_H_
#define DTRCHECK_SIM_PLACED_MEMORY_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "memory/allocator.h"
#include "sim/tensor.h"

namespace dtrcheck {

enum class MemoryModel { kBytes, kCudaCaching, kArena };

// "bytes", "cuda-caching", "arena".
const std::vector<std::string>& MemoryModelNames();
std::optional<MemoryModel> MemoryModelFromName(const std::string& name);
std::string MemoryModelName(MemoryModel model);

struct MemoryOptions {
  MemoryModel model = MemoryModel::kBytes;
  std::optional<uint64_t> max_split_size_mb;  // cuda-caching only
  friend bool operator==(const MemoryOptions&, const MemoryOptions&) = default;
};

// The model named by the environment variable (the fuzz targets'
// DTRCHECK_FUZZ_MEMORY, the RapidCheck properties' DTRCHECK_PROPERTIES_MEMORY);
// bytes when unset or empty. Throws std::invalid_argument naming the
// variable for an unknown model.
MemoryOptions MemoryOptionsFromEnv(const char* variable);

// What a record under an allocator model adds.
struct MemoryRecord {
  MemoryModel model = MemoryModel::kBytes;
  uint64_t reserved_peak = 0, allocated_peak = 0;
  // At the peak: the moment (reserved, allocated) was largest, reserved
  // first (the arena's reserved never changes: its allocated peak).
  uint64_t peak_reserved_minus_allocated = 0, peak_largest_free_block = 0;
  int64_t evictions_bytes_fit = 0;
  memory::Figures final;  // the allocator's figures at the end of the run
};

class PlacedMemory {
 public:
  // capacity: the budget (the device's bytes). Throws std::invalid_argument
  // naming the option on a bad model option.
  PlacedMemory(const MemoryOptions& options, uint64_t capacity);
  // A deep copy (a fork of the run; std::logic_error if the model cannot be
  // copied).
  PlacedMemory(const PlacedMemory& other);
  PlacedMemory& operator=(const PlacedMemory&) = delete;

  // The smallest capacity under which the allocator would have decided
  // everything so far the same (memory::Allocator::CapacityDemand).
  uint64_t CapacityDemand() const { return allocator_->CapacityDemand(); }
  // The allocator under another capacity, as if it had had it from the
  // start; nullopt when done, else why the model cannot.
  std::optional<std::string> SetCapacity(uint64_t capacity);

  // Places every (storage, size); on a refusal frees what this call placed
  // and returns false.
  bool Place(std::span<const std::pair<StorageId, uint64_t>> storages);
  // Frees the storage's block (nothing when it has none).
  void Release(StorageId s);
  void CountEviction() { ++record_.evictions_bytes_fit; }

  const memory::Allocator& allocator() const { return *allocator_; }
  // The storage's block (an empty one when it is not placed).
  memory::Block BlockOf(StorageId s) const;
  // The storage whose (non-empty) block starts at address, or -1: what
  // address-aware policies read with the pieces (OneFlow's piece->tensor).
  StorageId StorageAt(uint64_t address) const;
  // The size of the last request the allocator refused (0 before any).
  uint64_t LastRefusedBytes() const { return last_refused_bytes_; }
  MemoryRecord Record() const;

 private:
  std::unique_ptr<memory::Allocator> allocator_;
  std::vector<memory::Block> blocks_;                   // by storage id
  std::vector<uint8_t> placed_;                         // by storage id
  std::unordered_map<uint64_t, StorageId> storage_at_;  // block address -> storage
  uint64_t last_refused_bytes_ = 0;
  MemoryRecord record_;
  std::pair<uint64_t, uint64_t> peak_{0, 0};  // (reserved, allocated) at the peak
};

}  // namespace dtrcheck

#endif  // DTRCHECK_SIM_PLACED_MEMORY_H_
