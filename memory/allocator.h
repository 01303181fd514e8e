// The allocator interface: memory as addresses, not bytes. A runtime asks an
// Allocator for a block per allocation, frees it by address, and consults its
// figures (reserved and allocated bytes, their peaks, the largest free block)
// and per-block queries (a block's address, size and segment, the free bytes
// physically adjacent to it, the pieces in address order) that address-aware
// eviction policies read (MegEngine's DTR, OneFlow's DTE and Coop).
//
// Every operation is O(log n) in the number of blocks, except Pieces() (O(n)).
#ifndef DTRCHECK_MEMORY_ALLOCATOR_H_
#define DTRCHECK_MEMORY_ALLOCATOR_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace dtrcheck::memory {

// One block handed out: where it starts, how many bytes it spans (the request
// rounded as the allocator rounds it), and the segment (the base address of
// the device allocation it was cut from) it lives in. A request of 0 bytes
// gets an empty block that occupies nothing (address 0, size 0, segment 0).
struct Block {
  uint64_t address = 0;
  uint64_t size = 0;
  uint64_t segment = 0;
  friend bool operator==(const Block&, const Block&) = default;
};

// A block in the address-ordered listing: allocated or free.
struct Piece {
  uint64_t address = 0;
  uint64_t size = 0;
  uint64_t segment = 0;
  bool allocated = false;
  friend bool operator==(const Piece&, const Piece&) = default;
};

// What the allocator holds. Reserved: bytes of the segments taken from the
// device; allocated: bytes of the blocks handed out (rounded sizes), as
// PyTorch's memory_stats reports reserved_bytes and allocated_bytes.
struct Figures {
  uint64_t reserved = 0;
  uint64_t allocated = 0;
  uint64_t peak_reserved = 0;
  uint64_t peak_allocated = 0;
  uint64_t largest_free_block = 0;  // the largest block cached free
  uint64_t segments = 0;
  uint64_t device_allocations = 0;  // cudaMalloc calls that succeeded
  uint64_t device_frees = 0;        // segments given back (cudaFree)
  uint64_t alloc_retries = 0;       // PyTorch's num_alloc_retries
  uint64_t ooms = 0;                // requests refused (PyTorch's num_ooms)
};

class Allocator {
 public:
  virtual ~Allocator() = default;

  // A block of at least request_bytes, or nullopt when the allocator refuses
  // (out of memory). A refusal leaves the allocated blocks as they were
  // (a caching allocator may have given cached segments back).
  virtual std::optional<Block> Allocate(uint64_t request_bytes) = 0;
  // Frees a block Allocate handed out (an empty block frees nothing).
  virtual void Free(const Block& block) = 0;

  virtual Figures figures() const = 0;
  // The allocated block starting at address (std::out_of_range otherwise).
  virtual Block BlockAt(uint64_t address) const = 0;
  // Free bytes physically adjacent to the block at address, left and right,
  // within its segment (free neighbours are always merged, so one each side).
  virtual uint64_t FreeBytesAdjacent(uint64_t address) const = 0;
  // The same, each side apart: {left, right} (their sum is FreeBytesAdjacent).
  virtual std::pair<uint64_t, uint64_t> FreeBytesBeside(uint64_t address) const = 0;
  // Every block, allocated or free, in address order.
  virtual std::vector<Piece> Pieces() const = 0;

  // Forks: a sweep copies one run at many budgets (sim/simulate.h's
  // SimulateBudgets), so an allocator is copied and given another capacity.
  // The defaults refuse, for a model that cannot be copied.
  //
  // A deep copy (independent of this one), or null when the model cannot be
  // copied.
  virtual std::unique_ptr<Allocator> Clone() const { return nullptr; }
  // The smallest device capacity under which every decision made so far
  // would have been the same: SetCapacity(c) makes this allocator the one a
  // run with capacity c from the start would have, for every c >= it.
  virtual uint64_t CapacityDemand() const { return UINT64_MAX; }
  // Gives the allocator another capacity; nullopt when done, else why not
  // (capacity below CapacityDemand(), or a model whose layout is the
  // capacity), leaving it unchanged.
  virtual std::optional<std::string> SetCapacity(uint64_t /*capacity*/) {
    return "this allocator model cannot change its capacity";
  }
};

}  // namespace dtrcheck::memory

#endif  // DTRCHECK_MEMORY_ALLOCATOR_H_
