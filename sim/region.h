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
#include <cstdint>
#include <vector>

#include "sim/py_arith.h"

namespace dtrcheck {

// A set of storage ids. Python sets are unordered and what simrd computes
// from them does not depend on the order (see Runtime::Evict for the one
// place where it could). Small sets are scanned; a set larger than
// kLinearMax gets a bitmap over storage ids for O(1) membership (one bit per
// storage: less memory than the Python set it stands for), built on the
// first membership question after the set was last cleared: rebuilt regions
// are filled by appending and are often rebuilt again before anyone asks.
class IdSet {
 public:
  const std::vector<int32_t>& items() const { return items_; }
  size_t size() const { return items_.size(); }
  bool empty() const { return items_.empty(); }
  void Clear();
  // Replaces the contents with [first, last), distinct ids.
  void AssignNew(const int32_t* first, const int32_t* last) {
    Clear();
    items_.assign(first, last);
  }
  // Room for n ids, growing geometrically as appending does, in one
  // allocation for a batch of inserts (Region.absorb's).
  void Reserve(size_t n) {
    if (n > items_.capacity()) items_.reserve(std::max(n, 2 * items_.capacity()));
  }
  // x must not be in the set.
  void AppendNew(int32_t x) {
    items_.push_back(x);
    if (indexed_) SetBit(x);
  }
  bool Contains(int32_t x) const {
    if (indexed_ || (items_.size() > kLinearMax && BuildIndex())) return HasBit(x);
    for (int32_t y : items_)
      if (y == x) return true;
    return false;
  }
  bool Insert(int32_t x) {  // true if inserted
    if (Contains(x)) return false;
    AppendNew(x);
    return true;
  }
  bool Erase(int32_t x);  // true if erased

 private:
  static constexpr size_t kLinearMax = 32;
  void SetBit(int32_t x);
  bool HasBit(int32_t x) const {
    size_t word = static_cast<size_t>(x) >> 6;
    return word < bits_.size() && (bits_[word] >> (x & 63)) & 1;
  }
  bool BuildIndex() const;  // true
  std::vector<int32_t> items_;
  mutable std::vector<uint64_t> bits_;  // all zero unless indexed_
  mutable bool indexed_ = false;
};

// How Region.rebuild is carried out. All three give the same records.
enum class RegionRebuilds {
  kUpdate,         // update the region's last walk where possible (RegionUpkeep::Update)
  kWalk,           // always walk, as simrd does
  kUpdateChecked,  // update, then walk too and throw std::logic_error if they differ
};

struct Region {
  IdSet interior;
  IdSet frontier;
  Int compute = 0;
  // Set when a rebuild made the region (RegionUpkeep::Rebuild), cleared by
  // anything else that changes it: the region is then what a walk at
  // position walked_at of the runtime's change log gave, and that walk
  // counted walk_accesses. The next rebuild may update it instead of walking.
  bool walked = false;
  size_t walked_at = 0;
  uint64_t walk_accesses = 0;

  void Clear() {
    interior.Clear();
    frontier.Clear();
    compute = 0;
    walked = false;
  }
};

// Sorted-vector sets, for the small sets of RuntimeV1 (evicted_dependents).
bool SortedInsert(std::vector<int32_t>& set, int32_t x);  // true if inserted
bool SortedErase(std::vector<int32_t>& set, int32_t x);   // true if erased

}  // namespace dtrcheck

#endif  // DTRCHECK_SIM_REGION_H_
