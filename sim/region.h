// Evicted-neighbourhood regions (simrd/optimization/region.py).
//
// A Region of storage s is the set of evicted storages reachable from s
// through evicted storages (children direction, or parents when reversed),
// its "interior", and the material storages at its edge, its "frontier".
// RuntimeV2Optimized maintains one in each direction per storage so that the
// DTR score's neighbourhood compute is a lookup. simrd keeps them only
// approximately up to date (absorb on eviction, rebuild on
// rematerialization); dtrcheck reproduces exactly that approximation.
#ifndef DTRCHECK_SIM_REGION_H_
#define DTRCHECK_SIM_REGION_H_

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <vector>

#include <boost/container/small_vector.hpp>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "sim/python/py_arith.h"

namespace dtrcheck {

// Asks the cache for the `bytes` bytes at p, a line at a time: for callers
// about to visit sets and regions that lie elsewhere in memory.
inline void PrefetchLines(const void* p, size_t bytes) {
  constexpr size_t kCacheLine = 64;
  const char* c = static_cast<const char*>(p);
  for (size_t off = 0; off < bytes; off += kCacheLine) __builtin_prefetch(c + off);
}

// The index of x among the n ids at p, or n if it is not there. Absorbs
// look for an id in frontiers of 9 to 32 ids four times each, and a scalar
// scan, which leaves the loop mispredicted, was a seventh of their time:
// SSE2 (every x86-64 has it) compares eight ids at a time, without a branch
// per id.
inline size_t FindId(const int32_t* p, size_t n, int32_t x) {
  size_t i = 0;
#if defined(__SSE2__)
  const __m128i key = _mm_set1_epi32(x);
  auto mask4 = [&](size_t at) {
    const __m128i ids = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + at));
    return _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(ids, key)));
  };
  for (; i + 8 <= n; i += 8) {
    const int mask = mask4(i) | (mask4(i + 4) << 4);
    if (mask != 0) return i + static_cast<size_t>(__builtin_ctz(static_cast<unsigned>(mask)));
  }
  if (i + 4 <= n) {
    const int mask = mask4(i);
    if (mask != 0) return i + static_cast<size_t>(__builtin_ctz(static_cast<unsigned>(mask)));
    i += 4;
  }
#endif
  for (; i < n; ++i)
    if (p[i] == x) return i;
  return n;
}

// A set of storage ids. Python sets are unordered and what simrd computes
// from them does not depend on the order (see Runtime::Evict for the one
// place where it could). Two representations:
//  - a list of the ids in insertion order. Small lists are scanned; a list
//    longer than kLinearMax gets a bitmap over storage ids for O(1)
//    membership (one bit per storage: less memory than the Python set it
//    stands for), built on the first membership question after the set was
//    last cleared: rebuilt regions are filled by appending and are often
//    rebuilt again before anyone asks. Once indexed, the bitmap is the set
//    and erasing clears a bit: the id's entry stays in the list, stale, until
//    the list is next read or is half stale (Compact). Absorbs erase one
//    storage from frontiers of hundreds, one frontier after another, and
//    scanning for the entry had been a tenth of a run's time. Erasing from
//    a small list moves the last entry into the gap.
//  - dense, for sets whose order nothing depends on (Order::kAny): once the
//    list takes more memory than the bitmap (more than one id per 32 bits
//    of it), the list is dropped and the bitmap alone holds the set, which
//    then iterates in increasing id order. Region interiors grow to
//    thousands of evicted storages, and Region.absorb copies them into
//    every material neighbour: as bitmaps they take a bit per storage of
//    the trace instead of 32 bits per member (the memory, which the kernel
//    zeroes page by page, was most of a run's time), unite a word at a time
//    and lose a member in O(1).
class IdSet {
 public:
  // The list, with room for a few ids inside the set itself: most frontiers
  // and many interiors stay that small, and so need no allocation when
  // filled, refilled or copied with a runtime (a budget sweep's forks), and
  // no cache miss beyond the set's own line when scanned.
  static constexpr size_t kInlineIds = 6;
  using List = boost::container::small_vector<int32_t, kInlineIds>;

  enum class Order {
    kInsertion,  // items() lists the ids (in the order they were added, but
                 // for what erasing moves)
    kAny,        // the set may turn dense; ForEach visits ids in some order
  };
  explicit IdSet(Order order = Order::kInsertion) : may_densify_(order == Order::kAny) {}

  // The ids in insertion order. Only for Order::kInsertion sets.
  const List& items() const {
    assert(!may_densify_);
    if (stale_ != 0) Compact();
    return items_;
  }
  // f(id) for each id: insertion order, or increasing order when dense.
  template <typename F>
  void ForEach(F&& f) const;
  // The same visit a bitmap word at a time when dense: on_word(first, bits)
  // for the ids first + i of each set bit i (first a multiple of 64) of
  // each non-zero word; f(id) for each id otherwise.
  template <typename FWord, typename F>
  void ForEachWord(FWord&& on_word, F&& f) const;
  size_t size() const { return dense_ ? count_ : items_.size() - stale_; }
  bool empty() const { return size() == 0; }
  void Clear();
  // Clear, and the memory back too: a set that will stay empty for long
  // holds nothing beyond the set itself (the ids kept inline aside).
  void Release();
  // The bytes the set holds outside itself: its list's allocation (none
  // while the ids fit inline) and its bitmap's.
  size_t HeapBytes() const {
    const size_t list = items_.capacity() > kInlineIds ? items_.capacity() * sizeof(int32_t) : 0;
    return list + bits_.capacity() * sizeof(uint64_t);
  }
  // Replaces the contents with [first, last), distinct ids.
  void AssignNew(const int32_t* first, const int32_t* last);
  // Room for n ids, in one allocation for a batch of inserts
  // (Region.absorb's), growing geometrically by half: frontiers are a sixth
  // of a run's heap, whose huge pages are zeroed as they are first touched
  // (doubling: 15.5 MB at the LSTM run's peak, half again: 14.9 MB, and
  // fewer instructions).
  void Reserve(size_t n) {
    if (!dense_ && n > items_.capacity())
      items_.reserve(std::max(n, items_.capacity() + items_.capacity() / 2));
  }
  // x must not be in the set.
  void AppendNew(int32_t x) {
    if (dense_) {
      SetBit(x);
      ++count_;
      return;
    }
    items_.push_back(x);
    if (indexed_) {
      SetBit(x);
      if (may_densify_ && ListIsLarger(size(), bits_.size())) Densify();
    } else if (may_densify_ && items_.size() > kLinearMax) {
      BuildIndex();
    }
  }
  bool Contains(int32_t x) const {
    if (indexed_ || (items_.size() > kLinearMax && BuildIndex())) return HasBit(x);
    return FindId(items_.data(), items_.size(), x) != items_.size();
  }
  bool Insert(int32_t x) {  // true if inserted
    if (Contains(x)) return false;
    AppendNew(x);
    return true;
  }
  bool Erase(int32_t x);  // true if erased
  // Asks the cache for what Contains(x) and Erase(x) will read: the bitmap
  // word of x, or the list.
  void Prefetch(int32_t x) const {
    if (indexed_) {
      size_t word = static_cast<size_t>(x) >> 6;
      if (word < bits_.size()) __builtin_prefetch(bits_.data() + word);
    } else {
      PrefetchLines(items_.data(), items_.size() * sizeof(int32_t));
    }
  }
  // Adds the ids of other (a different set) that this one lacks, calling
  // on_added(id) for each: Python's difference then update.
  template <typename F>
  void UniteWith(const IdSet& other, F&& on_added);
  // The same union, reporting what it adds a bitmap word at a time where
  // both sets are dense: on_added_word(first, bits) for the ids first + i of
  // each set bit i (first a multiple of 64), on_added(id) for the others.
  template <typename FWord, typename F>
  void UniteWith(const IdSet& other, FWord&& on_added_word, F&& on_added);

 private:
  static constexpr size_t kLinearMax = 32;
  // Whether a list of n ids takes more memory than a bitmap of `words`
  // 64-bit words: the rule by which a set turns dense.
  static bool ListIsLarger(size_t n, size_t words) { return n > 2 * words; }
  // The words of a bitmap that holds the largest of the ids [first, last).
  static size_t WordsFor(const int32_t* first, const int32_t* last);
  // Sets the bits of the ids [first, last), which bits_ must cover.
  void SetBits(const int32_t* first, const int32_t* last) const;
  void SetBit(int32_t x) {
    const size_t word = static_cast<size_t>(x) >> 6;
    if (word >= bits_.size()) GrowBitsTo(word + 1);
    bits_[word] |= uint64_t(1) << (x & 63);
  }
  void GrowBitsTo(size_t words) const;  // at least `words` words, the new ones zero
  bool HasBit(int32_t x) const {
    size_t word = static_cast<size_t>(x) >> 6;
    return word < bits_.size() && (bits_[word] >> (x & 63)) & 1;
  }
  // Builds the bitmap of the list (true); a set that may turn dense does so
  // if the list is the larger.
  bool BuildIndex() const;
  void Densify() const;  // the bitmap alone holds the set; it must be indexed
  // Drops the stale entries of an indexed list: those whose bit is clear,
  // and all but the first entry of an id erased and added again.
  void Compact() const;
  // f(id) for each set bit of the words [0, n), in increasing order.
  template <typename F>
  static void ForEachBit(const uint64_t* words, size_t n, F&& f) {
    for (size_t w = 0; w < n; ++w)
      for (uint64_t b = words[w]; b != 0; b &= b - 1)
        f(static_cast<int32_t>((w << 6) | static_cast<size_t>(__builtin_ctzll(b))));
  }

  bool may_densify_;
  // Membership is a const question that may build the index, and building
  // it may turn the set dense: the representation is mutable, the set not.
  mutable List items_;                  // empty when dense_
  mutable std::vector<uint64_t> bits_;  // all zero unless indexed_ or dense_
  mutable bool indexed_ = false;        // bits_ indexes items_
  mutable bool dense_ = false;          // bits_ is the set, of count_ ids
  mutable size_t count_ = 0;
  mutable size_t stale_ = 0;  // entries of items_ that Compact drops (only when indexed_)
};

template <typename F>
void IdSet::ForEach(F&& f) const {
  if (dense_) {
    ForEachBit(bits_.data(), bits_.size(), f);
  } else {
    if (stale_ != 0) Compact();
    for (int32_t x : items_) f(x);
  }
}

template <typename FWord, typename F>
void IdSet::ForEachWord(FWord&& on_word, F&& f) const {
  if (!dense_) {
    ForEach(f);
    return;
  }
  for (size_t w = 0, n = bits_.size(); w < n; ++w)
    if (bits_[w] != 0) on_word(static_cast<int32_t>(w << 6), bits_[w]);
}

template <typename F>
void IdSet::UniteWith(const IdSet& other, F&& on_added) {
  UniteWith(
      other,
      [&](int32_t first, uint64_t bits) {
        ForEachBit(&bits, 1, [&](int32_t bit) { on_added(first | bit); });
      },
      on_added);
}

template <typename FWord, typename F>
void IdSet::UniteWith(const IdSet& other, FWord&& on_added_word, F&& on_added) {
  assert(&other != this);
  // Into a dense set, a dense one unites a word at a time: the union will
  // be at least as large as it, so this set turns dense first if it may.
  if (other.dense_ && !dense_ && may_densify_) {
    if (!indexed_) BuildIndex();
    if (!dense_) Densify();
  }
  if (dense_ && other.dense_) {
    GrowBitsTo(other.bits_.size());
    uint64_t* mine = bits_.data();
    const uint64_t* theirs = other.bits_.data();
    for (size_t w = 0, n = other.bits_.size(); w < n; ++w) {
      const uint64_t added = theirs[w] & ~mine[w];
      if (added == 0) continue;
      mine[w] |= added;
      count_ += static_cast<size_t>(__builtin_popcountll(added));
      on_added_word(static_cast<int32_t>(w << 6), added);
    }
    return;
  }
  if (!other.dense_) Reserve(size() + other.items_.size());
  other.ForEach([&](int32_t x) {
    if (Insert(x)) on_added(x);
  });
}

// How Region.rebuild is carried out. All three give the same records.
enum class RegionRebuilds {
  kUpdate,         // update the region's last walk where possible (RegionUpkeep::Update)
  kWalk,           // always walk, as simrd does
  kUpdateChecked,  // update, then walk too and throw std::logic_error if they differ
};

struct Region {
  IdSet interior{IdSet::Order::kAny};
  IdSet frontier;
  Int compute = 0;
  // Set when a rebuild made the region (RegionUpkeep::Rebuild), or an absorb
  // of two such regions; cleared by anything else that changes it. The
  // region is then what a walk gives once the storages logged since
  // position walked_at of the runtime's change log are accounted for, and
  // walk_accesses what that walk would count. The next rebuild may update
  // it instead of walking.
  bool walked = false;
  size_t walked_at = 0;
  uint64_t walk_accesses = 0;
  uint32_t base_entries = 0;  // of walk_accesses, the base's own adjacency row

  // Asks the cache for what absorbing storage x reads of the sets
  // (RegionUpkeep::Absorb); the caller is about to absorb into region after
  // region, each a cache miss otherwise.
  void PrefetchAbsorb(int32_t x) const {
    interior.Prefetch(x);
    frontier.Prefetch(x);
  }
  // Empties the region and gives its sets' memory back: the region of an
  // evicted storage stays empty until the storage is rematerialized (if it
  // ever is), and a bitmap spans the storage ids up to the largest it ever
  // held, so keeping one per evicted storage took memory growing with the
  // square of the trace (issue 45: 2.2 GB for a chain of 300,000
  // operators).
  size_t HeapBytes() const { return interior.HeapBytes() + frontier.HeapBytes(); }
  void Release() {
    interior.Release();
    frontier.Release();
    compute = 0;
    walked = false;
  }
};

// Sorted-vector sets, for the small sets of RuntimeV1 (evicted_dependents).
bool SortedInsert(std::vector<int32_t>& set, int32_t x);  // true if inserted
bool SortedErase(std::vector<int32_t>& set, int32_t x);   // true if erased

}  // namespace dtrcheck

#endif  // DTRCHECK_SIM_REGION_H_
