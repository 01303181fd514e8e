// CPU time of one eviction decision of OneFlow's Coop (ChooseVictims: the
// cheapest window, two pointers) and DTE (one pass) over N pieces, for the
// issue 43 requirement "Coop's window search is O(pieces) per decision":
// if it is, the time per piece stays about constant as N grows a
// thousandfold. Run by hand, never by ctest: speed is measured, not
// asserted (bench/RESULTS.md has the figures and the command).
//
//   build/bin/address_policies_bench [N...]   (default 1000 10000 100000 1000000)
//
// The View is policies/fake_view.h's, built by hand, with one change: its
// storages are read from a vector indexed by handle, as the simulator's
// View reads its runtime's (plugins/plugin_heuristic.cc), instead of the
// test view's std::map, whose O(log n) lookups would be the view's cost,
// not the policy's (the map's column shows it). The decision is split into
// the View's copy of the pieces and the search over the copy. The pieces: one segment
// (arena) or segments of 64 pieces (cuda-caching-like), every 8th piece
// free, every 97th storage locked; sizes 512 B - 1 MiB, computes,
// accesses drawn from a fixed seed; the request is the allocator's
// (placement), 4 MiB, so windows span several pieces.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <memory>
#include <random>
#include <vector>

#include "cpu_seconds.h"
#include "policies/address_policies.h"
#include "policies/fake_view.h"
#include "policies/oneflow_cost.h"

namespace {

namespace api = dtrcheck::api;
using dtrcheck::policies::FakeStorage;
using dtrcheck::policies::FakeView;

// FakeView with the storages the policies read in a vector (handles 0..n-1).
class DenseView : public FakeView {
 public:
  std::vector<FakeStorage> dense;
  api::Int Size(api::StorageHandle s) const override { return dense[s].size; }
  api::Int Compute(api::StorageHandle s) const override { return dense[s].compute; }
  api::Int RegionCompute(api::StorageHandle s) const override { return dense[s].region; }
  api::Stamp LastAccess(api::StorageHandle s) const override {
    return {dense[s].never_accessed, dense[s].last_access};
  }
  bool Locked(api::StorageHandle s) const override { return dense[s].locked; }
  bool Pinned(api::StorageHandle s) const override { return dense[s].pinned; }
  bool Material(api::StorageHandle s) const override { return dense[s].material; }
};

// N pieces in address order (as above); `segment_pieces` 0: one segment.
void Build(FakeView& v, std::vector<FakeStorage>* dense, size_t n, size_t segment_pieces) {
  std::mt19937_64 rng(1);
  v.clock = 1'000'000'000;
  v.request = {4 << 20, true};
  api::StorageHandle next = 0;
  uint64_t address = 0;
  for (size_t i = 0; i < n; ++i) {
    const uint64_t size = 512 + rng() % (1 << 20);
    const uint64_t segment = segment_pieces ? i / segment_pieces : 0;
    if (i % 8 == 7) {
      v.pieces.push_back({address, size, segment, false, api::kNoStorage});
    } else {
      FakeStorage s;
      s.size = size;
      s.compute = 1 + rng() % 1'000'000;
      s.region = rng() % 4 == 0 ? rng() % 1'000'000 : 0;
      s.last_access = static_cast<api::Int>(rng() % 1'000'000'000);
      s.locked = next % 97 == 96;
      if (dense)
        dense->push_back(s);
      else
        v.storages[next] = s;
      v.pieces.push_back({address, size, segment, true, next});
      ++next;
    }
    address += size;
  }
}

// The best of 5 batches' mean CPU seconds per call of `decide` (about 2M
// pieces' worth of calls a batch); `sink` keeps what it returns so the work
// is not optimized away.
template <typename F>
double PerCall(size_t n, size_t* sink, F decide) {
  const size_t per_batch = std::max<size_t>(1, 2'000'000 / n);
  double best = 1e300;
  for (int batch = 0; batch < 5; ++batch) {
    const double start = CpuSeconds();
    for (size_t i = 0; i < per_batch; ++i) *sink += decide();
    best = std::min(best, (CpuSeconds() - start) / static_cast<double>(per_batch));
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<size_t> sizes;
  for (int i = 1; i < argc; ++i) sizes.push_back(std::strtoull(argv[i], nullptr, 10));
  if (sizes.empty()) sizes = {1000, 10000, 100000, 1000000};
  // Per piece: the whole decision (ChooseVictims), then its two parts, the
  // View's copy of the pieces (Pieces()) and the search over that copy
  // (CoopWindow, DteVictim); last, the whole decision on the std::map view.
  std::printf("%-9s %-6s %-10s %8s %12s %10s %10s %10s %10s\n", "pieces", "policy", "segments",
              "victims", "us/decision", "ns/piece", "Pieces()", "search", "map view");
  for (size_t n : sizes) {
    for (size_t segment_pieces : {size_t{0}, size_t{64}}) {
      DenseView dense;
      Build(dense, &dense.dense, n, segment_pieces);
      FakeView mapped;
      Build(mapped, nullptr, n, segment_pieces);
      const std::vector<api::Piece> pieces = dense.Pieces();
      for (const bool coop : {true, false}) {
        std::unique_ptr<api::Heuristic> h =
            coop ? dtrcheck::policies::MakeOneFlowCoop() : dtrcheck::policies::MakeOneFlowDte();
        size_t sink = 0;
        const double whole = PerCall(n, &sink, [&] { return h->ChooseVictims(dense).size(); });
        const double copy = PerCall(n, &sink, [&] { return dense.Pieces().size(); });
        const double search = PerCall(n, &sink, [&]() -> size_t {
          if (coop) return dtrcheck::policies::CoopWindow(pieces, dense).size();
          return dtrcheck::policies::DteVictim(pieces, dense) != api::kNoStorage;
        });
        const double map = PerCall(n, &sink, [&] { return h->ChooseVictims(mapped).size(); });
        const double per = 1e9 / static_cast<double>(n);
        std::printf("%-9zu %-6s %-10s %8zu %12.1f %10.2f %10.2f %10.2f %10.2f\n", n,
                    coop ? "Coop" : "DTE", segment_pieces ? "64 pieces" : "one",
                    h->ChooseVictims(dense).size(), whole * 1e6, whole * per, copy * per,
                    search * per, map * per);
        if (sink == 0) std::printf("(nothing chosen)\n");
      }
    }
  }
  return 0;
}
