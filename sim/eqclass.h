// Equivalence classes of evicted storages (simrd/optimization/eqclass.py).
//
// A union-find forest whose class values are CheckpointInfo computes. Every
// find_root call counts one heuristic access, so path compression shapes the
// heuristic_access_count. simrd merges in the iteration order of a Python set
// of Storage objects (memory addresses), so its access count varies from run
// to run; dtrcheck merges in discovery order (see QUIRKS.md, Q-EQCLASS).
#ifndef DTRCHECK_SIM_EQCLASS_H_
#define DTRCHECK_SIM_EQCLASS_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/python/py_arith.h"

namespace dtrcheck {

using EqNodeId = int32_t;

class EqClassForest {
 public:
  // access_count is bumped once per find_root step, as in simrd.
  explicit EqClassForest(Int* access_count) : access_count_(access_count) {}
  // A copied forest counts into its own runtime's counter.
  void Rebind(Int* access_count) { access_count_ = access_count; }

  EqNodeId NewNode(Int compute);
  EqNodeId FindRoot(EqNodeId n);
  Int GetValue(EqNodeId n) { return nodes_[FindRoot(n)].value; }
  // The value of a root, without a find_root (and so without an access).
  Int RootValue(EqNodeId root) const { return nodes_[root].value; }
  void SetValue(EqNodeId n, Int value) { nodes_[FindRoot(n)].value = value; }
  // EqClassNode.merge(CheckpointInfo.merge_f, lhs, rhs): lhs's root joins rhs's.
  EqNodeId Merge(EqNodeId lhs, EqNodeId rhs);
  // EqClassNode._parent (-1 for a root), read and written: simrd's own
  // find_root, run from Python by the simrd adapter
  // (python/src/simrd_state.cc), compresses paths through it.
  EqNodeId Parent(EqNodeId n) const { return nodes_[n].parent; }
  void SetParent(EqNodeId n, EqNodeId parent) { nodes_[n].parent = parent; }
  size_t size() const { return nodes_.size(); }

 private:
  struct Node {
    EqNodeId parent;  // -1 for a root
    Int value;
  };
  std::vector<Node> nodes_;
  std::vector<EqNodeId> path_;
  Int* access_count_;
};

}  // namespace dtrcheck

#endif  // DTRCHECK_SIM_EQCLASS_H_
