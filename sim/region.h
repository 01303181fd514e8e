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

// Sets of storages, as sorted vectors of StorageId (int32).
using StorageSet = std::vector<int32_t>;

struct Region {
  StorageSet interior;
  StorageSet frontier;
  Int compute = 0;

  void Clear() {
    interior.clear();
    frontier.clear();
    compute = 0;
  }
};

// Set helpers on sorted vectors.
bool SetContains(const StorageSet& set, int32_t x);
bool SetInsert(StorageSet& set, int32_t x);  // true if inserted
bool SetErase(StorageSet& set, int32_t x);   // true if erased
void SetUnion(StorageSet& into, const StorageSet& other);
// other \ base, in sorted order.
StorageSet SetDifference(const StorageSet& other, const StorageSet& base);

}  // namespace dtrcheck

#endif  // DTRCHECK_SIM_REGION_H_
