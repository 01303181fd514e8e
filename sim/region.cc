#include "sim/region.h"

#include <algorithm>

namespace dtrcheck {

bool SortedInsert(std::vector<int32_t>& set, int32_t x) {
  auto it = std::lower_bound(set.begin(), set.end(), x);
  if (it != set.end() && *it == x) return false;
  set.insert(it, x);
  return true;
}

bool SortedErase(std::vector<int32_t>& set, int32_t x) {
  auto it = std::lower_bound(set.begin(), set.end(), x);
  if (it == set.end() || *it != x) return false;
  set.erase(it);
  return true;
}

void IdSet::EnsureSorted() {
  if (!sorted_) {
    std::sort(items_.begin(), items_.end());
    sorted_ = true;
  }
}

bool IdSet::Contains(int32_t x) {
  EnsureSorted();
  return std::binary_search(items_.begin(), items_.end(), x);
}

bool IdSet::Insert(int32_t x) {
  EnsureSorted();
  return SortedInsert(items_, x);
}

bool IdSet::Erase(int32_t x) {
  EnsureSorted();
  return SortedErase(items_, x);
}

}  // namespace dtrcheck
