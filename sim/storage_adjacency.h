// Storage-level adjacency for Region::rebuild (simrd/optimization/region.py).
//
// simrd's rebuild walks tensor by tensor: for each tensor of a storage, its
// children (or parents), and each such tensor's storage. The walk's result
// and the accesses simrd counts depend only on the storage of each edge's far
// end, one entry per tensor edge, so dtrcheck keeps exactly that list per
// storage, in the order simrd's tensors gain the edges.
//
// The lists live in one array of rows (compressed sparse rows) because the
// rebuild walk is the simulation's hot loop. Every storage's row is sized
// before the run for all the edges it will ever have (Runtime counts them in
// a pass over the graph), so appending never moves a row. RuntimeV1's
// banishing removes edges; a removed entry's place is simply left unused.
//
// The runtime keeps its tensor lists the same way (Tensor.parents and
// .children, Storage.tensors: rows of tensor ids), so that they cost no
// allocation per tensor, and a fork copies three arrays, not a vector per
// tensor.
#ifndef DTRCHECK_SIM_STORAGE_ADJACENCY_H_
#define DTRCHECK_SIM_STORAGE_ADJACENCY_H_

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "sim/tensor.h"

namespace dtrcheck {

class StorageAdjacency {
 public:
  // One row per storage; row s has room for capacity[s] entries.
  void Reserve(const std::vector<uint32_t>& capacity) {
    begin_.assign(capacity.size() + 1, 0);
    for (size_t s = 0; s < capacity.size(); ++s) begin_[s + 1] = begin_[s] + capacity[s];
    size_.assign(capacity.size(), 0);
    entries_.assign(begin_.back(), 0);
  }
  // The caller guarantees room: Reserve counted every edge of the graph.
  void Append(StorageId s, StorageId x) { entries_[begin_[s] + size_[s]++] = x; }
  // Removes the first entry equal to x, if any, keeping the others' order;
  // false if there was none.
  bool EraseOne(StorageId s, StorageId x) {
    StorageId* row = entries_.data() + begin_[s];
    uint32_t n = size_[s];
    for (uint32_t i = 0; i < n; ++i) {
      if (row[i] != x) continue;
      for (uint32_t j = i + 1; j < n; ++j) row[j - 1] = row[j];
      size_[s] = n - 1;
      return true;
    }
    return false;
  }
  const StorageId* Row(StorageId s) const { return entries_.data() + begin_[s]; }
  // Where row s starts in the array of all rows: an index for arrays kept
  // beside the entries, one slot per entry.
  uint32_t RowBegin(StorageId s) const { return begin_[s]; }
  size_t Capacity() const { return entries_.size(); }
  uint32_t RowSize(StorageId s) const { return size_[s]; }
  // The row sizes of all storages, RowSize(s) at index s.
  const uint32_t* RowSizes() const { return size_.data(); }
  // Row s as a range; valid until the row changes (Append, EraseOne).
  std::span<const StorageId> Items(StorageId s) const { return {Row(s), RowSize(s)}; }

 private:
  std::vector<uint32_t> begin_;  // row s is entries_[begin_[s], begin_[s] + size_[s])
  std::vector<uint32_t> size_;
  std::vector<StorageId> entries_;
};

}  // namespace dtrcheck

#endif  // DTRCHECK_SIM_STORAGE_ADJACENCY_H_
