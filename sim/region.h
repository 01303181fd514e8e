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

#include <cstdint>
#include <vector>

#include "sim/py_arith.h"

namespace dtrcheck {

// A set of storage ids. Python sets are unordered and what simrd computes
// from them does not depend on the order (see Runtime::Evict for the one
// place where it could). Rebuilt regions are filled by appending ids known
// to be new; the vector is sorted lazily, on the first membership question,
// and kept sorted after that (memmove is cheap next to hashing here).
// A plain list of storage ids.
using StorageSet = std::vector<int32_t>;

class IdSet {
 public:
  const std::vector<int32_t>& items() const { return items_; }
  size_t size() const { return items_.size(); }
  bool empty() const { return items_.empty(); }
  void Clear() {
    items_.clear();
    sorted_ = true;
  }
  // x must not be in the set.
  void AppendNew(int32_t x) {
    if (sorted_ && !items_.empty() && items_.back() > x) sorted_ = false;
    items_.push_back(x);
  }
  bool Contains(int32_t x);
  bool Insert(int32_t x);  // true if inserted
  bool Erase(int32_t x);   // true if erased

 private:
  void EnsureSorted();
  std::vector<int32_t> items_;
  bool sorted_ = true;
};

struct Region {
  IdSet interior;
  IdSet frontier;
  Int compute = 0;

  void Clear() {
    interior.Clear();
    frontier.Clear();
    compute = 0;
  }
};

// Sorted-vector sets, for the small sets of RuntimeV1 (evicted_dependents).
bool SortedInsert(std::vector<int32_t>& set, int32_t x);  // true if inserted
bool SortedErase(std::vector<int32_t>& set, int32_t x);   // true if erased

}  // namespace dtrcheck

#endif  // DTRCHECK_SIM_REGION_H_
