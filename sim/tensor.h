// Runtime objects (simrd/tensor.py): Operator, Tensor, Storage.
//
// A Storage is a buffer; a Tensor is a view on one (aliases share their
// parent's storage). Storages are numbered in creation order; a storage's
// root_id is the id of its first tensor, the number simrd reports.
#ifndef DTRCHECK_SIM_TENSOR_H_
#define DTRCHECK_SIM_TENSOR_H_

#include <cstdint>
#include <string>
#include <vector>

#include "sim/graph.h"
#include "sim/python/py_arith.h"
#include "sim/region.h"

namespace dtrcheck {

using StorageId = int32_t;
// Storage ids in an order that matters (a Python list, or a set built by
// appending); not a set: membership is not what it offers (IdSet is).
using StorageList = std::vector<StorageId>;
using EqNodeId = int32_t;
constexpr EqNodeId kNoEqNode = -1;

// A timestamp as simrd stores it: an int clock value, or -inf before the
// first access (simrd initialises last_access to -math.inf).
struct Stamp {
  bool minus_inf = true;
  Int value = 0;
  static Stamp At(Int v) { return Stamp{false, v}; }
};

struct Operator {
  Int compute = 0;
  const std::vector<Int>* sizes = nullptr;  // owned by the Graph's GOp
  const std::vector<int32_t>* aliases = nullptr;
  const std::string* name = nullptr;
  Int total_size = 0;
  bool is_constant = false;  // name.split('/')[0] == 'constant'
  int32_t outputs = 0;
};

// Its parents and children, and its storage's tensors, are rows of the
// runtime's (Runtime::Parents, Children, TensorsOf); its siblings are the
// other outputs of its op, ids op_first .. op_first + outputs - 1.
struct Tensor {
  int32_t index = 0;
  OpId op = -1;
  StorageId storage = -1;
  bool defined = false;
  bool is_alias = false;
  // Whether summary.bottleneck_memory has counted this tensor's compute
  // (Runtime::TBottleneck): what it counts depends on the graph alone, so
  // a rematerialization cannot raise it again.
  bool bottleneck_counted = false;
  int64_t ref_ext = 0;  // simrd's t.meta['ref_ext']
};

enum class EcnState : uint8_t { kAbsent, kNone, kNode };

struct StorageStats {
  int64_t evict_count = 0;
  int64_t direct_remat_count = 0;
  int64_t collateral_remat_count = 0;
};

// Fields ordered so that the 16-byte Ints leave no padding: a run
// allocates one per storage of the graph (and a fork copies them), 160
// bytes on x86-64. What only some runs keep is the runtime's, per storage
// only when kept: RuntimeV1's evicted dependents (Runtime::EvictedDependents),
// the statistics (Runtime::storage_stats) and the regions.
struct Storage {
  Int size = 0;
  Int compute = 0;  // sum of the compute of its tensors' distinct ops
  bool material = false;
  bool pinned = false;
  bool banished = false;  // RuntimeV1
  // s.region and s.region_rev are the runtime's (Runtime::RegionOf,
  // sim/storage_regions.h): only optimized runtimes with 'regions'
  // heuristics keep them, and only material storages have any.
  EcnState ecn_state = EcnState::kAbsent;
  TensorId root_id = -1;
  EqNodeId ecn = kNoEqNode;
  int32_t pool_slot = -1;  // position in the storage pool, -1 if not evictable
  int64_t ref_int = 0;
  int64_t ref_ext = 0;
  Stamp last_access, last_access_int, last_evict;
};

}  // namespace dtrcheck

#endif  // DTRCHECK_SIM_TENSOR_H_
