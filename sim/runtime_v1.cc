// RuntimeV1's banishing (simrd/runtime/v1.py): a storage that nothing can
// reach any more (no external reference, no evicted dependent that may need
// it for a rematerialization) is evicted for good, "banished", and its
// children are pinned. The bookkeeping that decides it is each storage's
// evicted_dependents: the tensors of other storages computed from it that
// are not (or no longer) defined.
#include <algorithm>

#include "sim/runtime.h"

namespace dtrcheck {

// RuntimeV1.compute: a new tensor is a dependent, not yet computed, of each
// parent's storage.
void Runtime::NewTensorV1(TensorId id) {
  const Storage& s = storages_[tensors_[id].storage];
  if (s.banished) Check(false, "assert not t.storage.meta['banished']");
  for (TensorId p : Parents(id)) {
    const StorageId ps = tensors_[p].storage;
    if (s.root_id != storages_[ps].root_id) SortedInsert(evicted_dependents_[ps], id);
  }
}

// RuntimeV1._evict: the evicted storage's tensors are again dependents of
// their parents' storages.
void Runtime::EvictV1(StorageId sid) {
  const Storage& s = storages_[sid];
  for (TensorId t : TensorsOf(sid))
    for (TensorId p : Parents(t)) {
      const StorageId ps = tensors_[p].storage;
      if (s.root_id != storages_[ps].root_id) SortedInsert(evicted_dependents_[ps], t);
    }
}

// RuntimeV1._materialize, after unlocking the storage of a parent of t: t
// and the siblings computed with it are no longer its evicted dependents.
void Runtime::ComputedDependentsV1(TensorId t, const std::vector<TensorId>& remat_siblings,
                                   StorageId parent) {
  const TensorId root = storages_[parent].root_id;
  std::vector<TensorId>& dependents = evicted_dependents_[parent];
  for (TensorId u : remat_siblings)
    if (storages_[tensors_[u].storage].root_id != root) SortedErase(dependents, u);
  if (storages_[tensors_[t].storage].root_id != root) SortedErase(dependents, t);
}

// RuntimeV1._try_banish_V1: a storage no one can reach any more is evicted
// for good, and its children are pinned.
void Runtime::TryBanishV1(StorageId sid) {
  {
    Storage& s = storages_[sid];
    if (s.ref_ext > 0 || !evicted_dependents_[sid].empty()) return;
    for (TensorId t : TensorsOf(sid))
      Check(tensors_[t].ref_ext == 0, "tried to banish a Storage with live Tensors");
    if (s.material) {
      if (s.ref_int > 0) {
        s.ref_int = 0;
        locked_bytes_ -= s.size;
      }
      Evict(sid);
    }
  }
  const TensorId root = storages_[sid].root_id;
  // The rows iterated here do not change meanwhile: only Compute appends to
  // s.tensors, and the removals below are from other tensors' lists (t's
  // parents' children, t's children's parents).
  for (TensorId t : TensorsOf(sid)) {
    for (TensorId p : Parents(t)) {
      const StorageId ps = tensors_[p].storage;
      if (root != storages_[ps].root_id) {
        SortedErase(evicted_dependents_[ps], t);
        Check(tensor_children_.EraseOne(p, t), "p.children.remove(t): t not in list");
        region_upkeep_.RemoveChildEntry(tensors_[p].storage, sid);
      }
    }
    for (TensorId c : Children(t)) {
      if (root != storages_[tensors_[c].storage].root_id) {
        Check(tensor_parents_.EraseOne(c, t), "c.parents.remove(t): t not in list");
        region_upkeep_.RemoveParentEntry(tensors_[c].storage, sid);
        Pin(c);
      }
    }
  }
  storages_[sid].banished = true;
}

}  // namespace dtrcheck
