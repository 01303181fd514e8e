#include "sim/eqclass.h"

namespace dtrcheck {

EqNodeId EqClassForest::NewNode(Int compute) {
  nodes_.push_back(Node{-1, compute});
  return static_cast<EqNodeId>(nodes_.size() - 1);
}

// simrd's find_root is recursive with path compression: each node on the
// path counts one access and ends up pointing at the root.
EqNodeId EqClassForest::FindRoot(EqNodeId n) {
  path_.clear();
  while (true) {
    *access_count_ += 1;
    if (nodes_[n].parent < 0) break;
    path_.push_back(n);
    n = nodes_[n].parent;
  }
  for (EqNodeId p : path_) nodes_[p].parent = n;
  return n;
}

EqNodeId EqClassForest::Merge(EqNodeId lhs, EqNodeId rhs) {
  EqNodeId l = FindRoot(lhs);
  EqNodeId r = FindRoot(rhs);
  if (l == r) return l;
  nodes_[l].parent = r;
  nodes_[r].value = nodes_[l].value + nodes_[r].value;
  return r;
}

}  // namespace dtrcheck
