// Both allocators against an independent checker: a plain address-sorted
// list of pieces, searched linearly, that states the same rules without the
// ordered sets (PyTorch's and OneFlow's rules as their sources state them:
// best fit by (size, address), the oversize rules, should_split, release of
// unsplit cached segments on a refused cudaMalloc, merging within a segment).
// After every step of a random malloc/free sequence, every piece (address,
// size, segment, allocated) and every figure must agree, and the invariants
// hold: pieces tile their segments, no two free neighbours in a segment,
// reserved <= capacity.
#include <gtest/gtest.h>  // before rapidcheck/gtest.h, which uses its macros
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <limits>
#include <optional>
#include <vector>

#include "memory/arena_allocator.h"
#include "memory/cuda_caching_allocator.h"

namespace dtrcheck::memory {
namespace {

constexpr uint64_t kMiB = 1 << 20;

struct ListPiece {
  uint64_t address, size, segment;
  int pool;  // 0 large, 1 small (the arena: 0)
  bool allocated;
};

// The checker's shared half: the list, best fit, split and merge.
class PieceList {
 public:
  std::vector<ListPiece> p;

  bool SameSegment(size_t i, size_t j) const { return p[i].segment == p[j].segment; }
  bool IsSplit(size_t i) const {
    return (i > 0 && SameSegment(i - 1, i)) || (i + 1 < p.size() && SameSegment(i, i + 1));
  }
  std::optional<size_t> BestFit(int pool, uint64_t size) const {
    std::optional<size_t> best;
    for (size_t i = 0; i < p.size(); ++i) {
      if (p[i].allocated || p[i].pool != pool || p[i].size < size) continue;
      if (!best || p[i].size < p[*best].size) best = i;  // ascending addresses: first wins
    }
    return best;
  }
  size_t Index(uint64_t address) const {
    for (size_t i = 0; i < p.size(); ++i) {
      if (p[i].address == address) return i;
    }
    RC_FAIL("no piece at the address");
    return 0;
  }
  void Split(size_t i, uint64_t size) {
    ListPiece rest = p[i];
    rest.address += size;
    rest.size -= size;
    rest.allocated = false;
    p[i].size = size;
    p.insert(p.begin() + static_cast<std::ptrdiff_t>(i) + 1, rest);
  }
  void FreeAt(uint64_t address) {
    size_t i = Index(address);
    p[i].allocated = false;
    if (i + 1 < p.size() && SameSegment(i, i + 1) && !p[i + 1].allocated) {
      p[i].size += p[i + 1].size;
      p.erase(p.begin() + static_cast<std::ptrdiff_t>(i) + 1);
    }
    if (i > 0 && SameSegment(i - 1, i) && !p[i - 1].allocated) {
      p[i - 1].size += p[i].size;
      p.erase(p.begin() + static_cast<std::ptrdiff_t>(i));
    }
  }
  uint64_t LargestFree() const {
    uint64_t largest = 0;
    for (const auto& q : p) {
      if (!q.allocated) largest = std::max(largest, q.size);
    }
    return largest;
  }
};

class ListCaching {
 public:
  ListCaching(uint64_t capacity, std::optional<uint64_t> max_split_mb)
      : capacity_(capacity),
        max_split_(max_split_mb ? *max_split_mb * kMiB : std::numeric_limits<uint64_t>::max()) {}

  std::optional<Block> Allocate(uint64_t request) {
    const uint64_t size = std::max<uint64_t>(512, (request + 511) / 512 * 512);
    const int pool = size <= kMiB ? 1 : 0;
    const uint64_t alloc = size <= kMiB       ? 2 * kMiB
                           : size < 10 * kMiB ? 20 * kMiB
                                              : (size + 2 * kMiB - 1) / (2 * kMiB) * 2 * kMiB;
    std::optional<size_t> at;
    if (auto fit = list.BestFit(pool, size)) {
      const uint64_t s = list.p[*fit].size;
      const bool oversize_refused =
          (size < max_split_ && s >= max_split_) || (size >= max_split_ && s >= size + 20 * kMiB);
      if (!oversize_refused) at = fit;
    }
    if (!at) {
      at = Malloc(alloc, pool);
      if (!at && ReleaseAvailable(size, pool)) at = Malloc(alloc, pool);
      if (!at) {
        for (int q : {0, 1}) {
          for (size_t i = list.p.size(); i-- > 0;) {
            if (!list.p[i].allocated && list.p[i].pool == q && !list.IsSplit(i)) Release(i);
          }
        }
        ++retries;
        at = Malloc(alloc, pool);
      }
    }
    if (!at) return std::nullopt;
    list.p[*at].allocated = true;
    const uint64_t remaining = list.p[*at].size - size;
    const bool split = pool == 1 ? remaining >= 512 : size < max_split_ && remaining > kMiB;
    if (split) list.Split(*at, size);
    const ListPiece& q = list.p[*at];
    allocated += q.size;
    return Block{q.address, q.size, q.segment};
  }

  PieceList list;
  uint64_t reserved = 0, allocated = 0, retries = 0, frees = 0;

 private:
  std::optional<size_t> Malloc(uint64_t alloc, int pool) {
    if (reserved + alloc > capacity_) return std::nullopt;
    list.p.push_back({next_, alloc, next_, pool, true});
    next_ += alloc;
    reserved += alloc;
    return list.p.size() - 1;
  }
  void Release(size_t i) {
    reserved -= list.p[i].size;
    ++frees;
    list.p.erase(list.p.begin() + static_cast<std::ptrdiff_t>(i));
  }
  bool ReleaseAvailable(uint64_t size, int pool) {
    if (max_split_ == std::numeric_limits<uint64_t>::max()) return false;
    const uint64_t key = std::max(size, max_split_);
    std::vector<ListPiece> free;
    for (const auto& q : list.p) {
      if (!q.allocated && q.pool == pool) free.push_back(q);
    }
    std::sort(free.begin(), free.end(), [](const ListPiece& a, const ListPiece& b) {
      return a.size != b.size ? a.size < b.size : a.address < b.address;
    });
    for (const auto& q : free) {
      if (q.size >= key) {
        Release(list.Index(q.address));
        return true;
      }
    }
    uint64_t released = 0;
    for (auto it = free.rbegin(); it != free.rend() && released < key; ++it) {
      if (it->size < max_split_) break;
      released += it->size;
      Release(list.Index(it->address));
    }
    return released >= key;
  }

  uint64_t capacity_, max_split_;
  uint64_t next_ = CudaCachingAllocator::kDeviceBase;
};

void CheckSame(const Allocator& model, const PieceList& list, uint64_t capacity) {
  const std::vector<Piece> pieces = model.Pieces();
  RC_ASSERT(pieces.size() == list.p.size());
  for (size_t i = 0; i < pieces.size(); ++i) {
    const ListPiece& q = list.p[i];
    RC_ASSERT(pieces[i] == (Piece{q.address, q.size, q.segment, q.allocated}));
    if (i > 0 && list.SameSegment(i - 1, i)) {
      RC_ASSERT(q.address == list.p[i - 1].address + list.p[i - 1].size);
      RC_ASSERT(q.allocated || list.p[i - 1].allocated);
    }
  }
  const Figures f = model.figures();
  RC_ASSERT(f.largest_free_block == list.LargestFree());
  RC_ASSERT(f.reserved <= capacity);
  RC_ASSERT(f.peak_reserved >= f.reserved);
  RC_ASSERT(f.peak_allocated >= f.allocated);
  uint64_t allocated = 0;
  for (const auto& q : list.p) allocated += q.allocated ? q.size : 0;
  RC_ASSERT(f.allocated == allocated);
}

// Request sizes across both pools and the 1-10 MiB band, some zero.
rc::Gen<uint64_t> Request() {
  return rc::gen::oneOf(rc::gen::just<uint64_t>(0), rc::gen::inRange<uint64_t>(1, kMiB + 1),
                        rc::gen::inRange<uint64_t>(kMiB, 10 * kMiB),
                        rc::gen::inRange<uint64_t>(10 * kMiB, 80 * kMiB));
}

// Steps: allocate (true, size) or free (false, a live block's index).
rc::Gen<std::vector<std::pair<bool, uint64_t>>> Steps() {
  return rc::gen::container<std::vector<std::pair<bool, uint64_t>>>(
      rc::gen::pair(rc::gen::arbitrary<bool>(), Request()));
}

RC_GTEST_PROP(AllocatorProperty, CudaCachingAgreesWithThePieceList, ()) {
  const uint64_t capacity = *rc::gen::element<uint64_t>(40 * kMiB, 100 * kMiB, 300 * kMiB);
  const auto max_split = *rc::gen::element<std::optional<uint64_t>>(std::nullopt, 21, 40, 64);
  CudaCachingAllocator model({.capacity = capacity, .max_split_size_mb = max_split});
  ListCaching list(capacity, max_split);
  std::vector<Block> live;
  for (const auto& [allocate, value] : *Steps()) {
    if (allocate || live.empty()) {
      const auto got = model.Allocate(value);
      const auto want = value == 0 ? std::optional<Block>(Block{}) : list.Allocate(value);
      RC_ASSERT(got == want);
      if (got && got->size > 0) live.push_back(*got);
    } else {
      const size_t i = value % live.size();
      model.Free(live[i]);
      list.list.FreeAt(live[i].address);
      live.erase(live.begin() + static_cast<std::ptrdiff_t>(i));
    }
    CheckSame(model, list.list, capacity);
    for (const Block& b : live) RC_ASSERT(model.BlockAt(b.address) == b);
    RC_ASSERT(model.figures().reserved == list.reserved);
    RC_ASSERT(model.figures().device_frees == list.frees);
  }
}

RC_GTEST_PROP(AllocatorProperty, ArenaAgreesWithThePieceList, ()) {
  const uint64_t budget = *rc::gen::element<uint64_t>(40 * kMiB, 100 * kMiB, 300 * kMiB);
  ArenaAllocator model(budget);
  PieceList list;
  list.p.push_back({ArenaAllocator::kBase, budget, ArenaAllocator::kBase, 0, false});
  std::vector<Block> live;
  for (const auto& [allocate, value] : *Steps()) {
    if (allocate || live.empty()) {
      const auto got = model.Allocate(value);
      if (value == 0) {
        RC_ASSERT(got == std::optional<Block>(Block{}));
      } else {
        const uint64_t size = (value + 511) / 512 * 512;
        const auto fit = list.BestFit(0, size);
        RC_ASSERT(got.has_value() == fit.has_value());
        if (fit) {
          list.p[*fit].allocated = true;
          if (list.p[*fit].size > size) list.Split(*fit, size);
          const ListPiece& q = list.p[*fit];
          RC_ASSERT(*got == (Block{q.address, q.size, q.segment}));
          live.push_back(*got);
        }
      }
    } else {
      const size_t i = value % live.size();
      RC_ASSERT(model.FreeBytesAdjacent(live[i].address) <= budget - live[i].size);
      model.Free(live[i]);
      list.FreeAt(live[i].address);
      live.erase(live.begin() + static_cast<std::ptrdiff_t>(i));
    }
    CheckSame(model, list, budget);
  }
}

}  // namespace
}  // namespace dtrcheck::memory
