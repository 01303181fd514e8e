// A View built by hand for the policies' tests: the state a source's worked
// example describes (storages with compute, region, last access, locks,
// blocks and pieces), nothing simulated.
#ifndef DTRCHECK_POLICIES_FAKE_VIEW_H_
#define DTRCHECK_POLICIES_FAKE_VIEW_H_

#include <cstdint>
#include <map>
#include <stdexcept>
#include <vector>

#include "dtrcheck/heuristic.h"

namespace dtrcheck::policies {

struct FakeStorage {
  api::Int size = 0, compute = 0, region = 0;
  bool never_accessed = false;
  api::Int last_access = 0;
  bool locked = false, pinned = false, material = true;
  int64_t recomputes = 0;
};

class FakeView : public api::View {
 public:
  api::Int clock = 0;
  std::map<api::StorageHandle, FakeStorage> storages;
  std::vector<api::Piece> pieces;  // address order
  api::Request request;
  std::vector<uint64_t> draws;  // RandBelow's answers, in order
  size_t drawn = 0;

  // Appends a piece right after the last one (segment 0).
  void Place(api::StorageHandle s, uint64_t size) {
    pieces.push_back({NextAddress(), size, 0, true, s});
  }
  void Gap(uint64_t size) { pieces.push_back({NextAddress(), size, 0, false, api::kNoStorage}); }

  api::Int Clock() const override { return clock; }
  api::Int MemoryUsage() const override { return 0; }
  api::Int Budget() const override { return -1; }
  size_t PoolSlotCount() const override { return Pool().size(); }
  api::StorageHandle PoolSlot(size_t i) const override { return Pool().at(i); }
  size_t PoolSize() const override { return Pool().size(); }
  api::StorageHandle PoolNth(size_t i) override { return Pool().at(i); }
  api::Int Size(api::StorageHandle s) const override { return at(s).size; }
  api::Int Compute(api::StorageHandle s) const override { return at(s).compute; }
  api::Int RegionCompute(api::StorageHandle s) const override { return at(s).region; }
  api::Int RegionRevCompute(api::StorageHandle) const override { return 0; }
  api::Int EqClassCompute(api::StorageHandle s) override { return at(s).compute; }
  api::Stamp LastAccess(api::StorageHandle s) const override {
    return {at(s).never_accessed, at(s).last_access};
  }
  bool Locked(api::StorageHandle s) const override { return at(s).locked; }
  bool Pinned(api::StorageHandle s) const override { return at(s).pinned; }
  bool Material(api::StorageHandle s) const override { return at(s).material; }
  double TrueDivide(api::Int a, api::Int b) const override {
    return static_cast<double>(a) / static_cast<double>(b);
  }
  double TrueDivideByProduct(api::Int a, api::Int b, api::Int c) const override {
    return static_cast<double>(a) / static_cast<double>(b * c);
  }
  api::Int RandBelow(api::Int n) override {
    const uint64_t v = draws.at(drawn++);
    if (static_cast<api::Int>(v) >= n) throw std::logic_error("FakeView: draw out of range");
    return v;
  }
  int64_t RecomputeCount(api::StorageHandle s) const override { return at(s).recomputes; }
  api::Request PendingRequest() const override { return request; }
  api::Block BlockOf(api::StorageHandle s) const override {
    for (const auto& p : pieces)
      if (p.storage == s) return {p.address, p.size, p.segment};
    return {};
  }
  api::FreeAdjacent FreeBytesAdjacent(api::StorageHandle s) const override {
    for (size_t i = 0; i < pieces.size(); ++i) {
      if (pieces[i].storage != s) continue;
      api::FreeAdjacent f;
      if (i > 0 && !pieces[i - 1].allocated) f.left = pieces[i - 1].size;
      if (i + 1 < pieces.size() && !pieces[i + 1].allocated) f.right = pieces[i + 1].size;
      return f;
    }
    return {};
  }
  std::vector<api::Piece> Pieces() const override { return pieces; }

 private:
  uint64_t NextAddress() const {
    return pieces.empty() ? 0 : pieces.back().address + pieces.back().size;
  }
  // The evictable storages, by handle.
  std::vector<api::StorageHandle> Pool() const {
    std::vector<api::StorageHandle> out;
    for (const auto& [s, st] : storages)
      if (st.material && !st.locked && !st.pinned) out.push_back(s);
    return out;
  }
  const FakeStorage& at(api::StorageHandle s) const { return storages.at(s); }
};

}  // namespace dtrcheck::policies

#endif  // DTRCHECK_POLICIES_FAKE_VIEW_H_
