#include "sim/region.h"

#include <algorithm>
#include <iterator>

namespace dtrcheck {

bool SetContains(const StorageSet& set, int32_t x) {
  return std::binary_search(set.begin(), set.end(), x);
}

bool SetInsert(StorageSet& set, int32_t x) {
  auto it = std::lower_bound(set.begin(), set.end(), x);
  if (it != set.end() && *it == x) return false;
  set.insert(it, x);
  return true;
}

bool SetErase(StorageSet& set, int32_t x) {
  auto it = std::lower_bound(set.begin(), set.end(), x);
  if (it == set.end() || *it != x) return false;
  set.erase(it);
  return true;
}

void SetUnion(StorageSet& into, const StorageSet& other) {
  if (other.empty()) return;
  StorageSet out;
  out.reserve(into.size() + other.size());
  std::set_union(into.begin(), into.end(), other.begin(), other.end(), std::back_inserter(out));
  into.swap(out);
}

StorageSet SetDifference(const StorageSet& other, const StorageSet& base) {
  StorageSet out;
  std::set_difference(other.begin(), other.end(), base.begin(), base.end(), std::back_inserter(out));
  return out;
}

}  // namespace dtrcheck
