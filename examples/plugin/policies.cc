// Example dtrcheck plugin: eviction heuristics written against the public
// API only (dtrcheck/heuristic.h), built out of tree with
// find_package(dtrcheck).
//
//   PublicDTR       DTR's score, re-implemented: its records must equal the
//                   built-in DTR's (the test that the API exposes enough).
//   DTRLockAware    aimed at pinned-frontier OOMs: DTR's score, but the
//                   evicted neighbourhood that a rematerialization would have
//                   to lock counts in memory too (see README.md).
//   DTRStableTie    aimed at regime chaos: DTR's score quantized to a relative
//                   grid, ties broken by the storage's age in the pool, so
//                   that small budget changes do not flip the victim order.
//   ThrowingScore   throws from its score (tests the error path).
//   FitWindow       (API version 2) reads addresses: when the allocator
//                   refuses a request, evicts the contiguous window of
//                   blocks that makes a hole of the requested size while
//                   evicting the fewest bytes; before that (the budget
//                   check), DTR's scan. Refused under --memory bytes.
//
// Built against the version-1 header (tests/plugin_abi_v1) it is a
// version-1 plugin without FitWindow: DTRCHECK_API_VERSION is version 2's.
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <stdexcept>
#include <vector>

#include <dtrcheck/heuristic.h>

namespace {

using dtrcheck::api::Cost;
using dtrcheck::api::Features;
using dtrcheck::api::Int;
using dtrcheck::api::StorageHandle;
using dtrcheck::api::View;
namespace feature = dtrcheck::api::feature;

constexpr double kInf = std::numeric_limits<double>::infinity();

// simrd's `compute / (size * staleness) if size * staleness > 0 else inf`,
// staleness = clock - last_access_int (inf when never accessed).
Cost DtrQuotient(Int compute, Int size, StorageHandle s, View& v) {
  const auto last = v.LastAccess(s);
  if (last.minus_inf) {
    // size * inf is inf (size > 0) or nan (size == 0, not > 0).
    if (size > 0) return Cost::Float(static_cast<double>(compute) / kInf);
    return Cost::Infinity();
  }
  const Int stale = v.Clock() - last.value;
  const bool positive = (size > 0 && stale > 0) || (size < 0 && stale < 0);
  if (!positive) return Cost::Infinity();
  return Cost::Float(v.TrueDivideByProduct(compute, size, stale));
}

Int EStar(StorageHandle s, const View& v) {
  return v.Compute(s) + v.RegionCompute(s) + v.RegionRevCompute(s);
}

class PublicDtr : public dtrcheck::api::Heuristic {
 public:
  Features RequiredFeatures() const override { return feature::kLastAccessInt | feature::kRegions; }
  Cost Score(StorageHandle s, View& v) override {
    return DtrQuotient(EStar(s, v), v.Size(s), s, v);
  }
};

// A storage whose rematerialization chain is long forces every evicted
// ancestor back into memory, locked, at once. DTR charges such a victim only
// for the compute of that chain; this variant also charges the bytes the
// chain will hold: the cost is multiplied by (1 + region compute / own
// compute), a proxy for the chain's depth that the public API exposes.
class DtrLockAware : public dtrcheck::api::Heuristic {
 public:
  Features RequiredFeatures() const override { return feature::kLastAccessInt | feature::kRegions; }
  Cost Score(StorageHandle s, View& v) override {
    const Cost base = DtrQuotient(EStar(s, v), v.Size(s), s, v);
    if (base.is_int || std::isinf(base.f)) return base;
    const Int own = v.Compute(s) > 0 ? v.Compute(s) : 1;
    const double depth = 1.0 + static_cast<double>(v.RegionCompute(s)) / static_cast<double>(own);
    return Cost::Float(base.f * depth);
  }
};

// Regime chaos: adjacent budgets evict different victims because scores that
// differ in the last few bits swap order. Quantize the score to 1/8 of an
// octave (a relative grid), so near-ties become exact ties, and let simrd's
// scan order (the last of equal costs wins) break them the same way at every
// budget.
class DtrStableTie : public dtrcheck::api::Heuristic {
 public:
  Features RequiredFeatures() const override { return feature::kLastAccessInt | feature::kRegions; }
  Cost Score(StorageHandle s, View& v) override {
    const Cost base = DtrQuotient(EStar(s, v), v.Size(s), s, v);
    if (base.is_int || base.f <= 0 || std::isinf(base.f)) return base;
    const double q = std::floor(std::log2(base.f) * 8.0) / 8.0;
    return Cost::Float(std::exp2(q));
  }
};

class ThrowingScore : public dtrcheck::api::Heuristic {
 public:
  Features RequiredFeatures() const override { return 0; }
  Cost Score(StorageHandle, View&) override { throw std::runtime_error("this score always fails"); }
};

#if defined(DTRCHECK_API_VERSION) && DTRCHECK_API_VERSION >= 2
class FitWindow : public dtrcheck::api::Heuristic {
 public:
  Features RequiredFeatures() const override {
    return feature::kLastAccessInt | feature::kRegions | feature::kAddresses;
  }
  Cost Score(StorageHandle s, View& v) override {
    return DtrQuotient(EStar(s, v), v.Size(s), s, v);
  }
  std::vector<StorageHandle> ChooseVictims(View& v) override {
    const dtrcheck::api::Request request = v.PendingRequest();
    if (!request.placement) return {dtrcheck::api::kUseScores};
    const std::vector<dtrcheck::api::Piece> pieces = v.Pieces();
    const auto wanted = static_cast<uint64_t>(request.bytes);
    // Two pointers over the pieces in address order: [start, end) spans
    // `span` bytes, `evicted` of them in storages. A piece that cannot be
    // evicted, or another segment, starts a new window.
    size_t start = 0, best_start = 0, best_end = 0;
    uint64_t span = 0, evicted = 0, best = UINT64_MAX;
    for (size_t end = 0; end < pieces.size(); ++end) {
      const auto& p = pieces[end];
      const bool movable = !p.allocated || (p.storage != dtrcheck::api::kNoStorage &&
                                            !v.Locked(p.storage) && !v.Pinned(p.storage));
      if (!movable || (end > start && pieces[end - 1].segment != p.segment)) {
        start = movable ? end : end + 1;
        span = evicted = 0;
        if (!movable) continue;
      }
      span += p.size;
      if (p.allocated) evicted += p.size;
      // Shrink from the left while the hole stays big enough.
      while (start < end && span - pieces[start].size >= wanted) {
        span -= pieces[start].size;
        if (pieces[start].allocated) evicted -= pieces[start].size;
        ++start;
      }
      if (span >= wanted && evicted > 0 && evicted < best) {
        best = evicted;
        best_start = start;
        best_end = end + 1;
      }
    }
    std::vector<StorageHandle> victims;
    for (size_t i = best_start; i < best_end; ++i)
      if (pieces[i].allocated) victims.push_back(pieces[i].storage);
    return victims;  // empty: no window fits, out of memory
  }
};
#endif

template <typename H>
void Add(dtrcheck::api::Registrar& r, const char* name) {
  r.Add(name, name, [](Int) { return std::make_unique<H>(); });
}

}  // namespace

DTRCHECK_PLUGIN(registrar) {
  Add<PublicDtr>(registrar, "PublicDTR");
  Add<DtrLockAware>(registrar, "DTRLockAware");
  Add<DtrStableTie>(registrar, "DTRStableTie");
  Add<ThrowingScore>(registrar, "ThrowingScore");
#if defined(DTRCHECK_API_VERSION) && DTRCHECK_API_VERSION >= 2
  Add<FitWindow>(registrar, "FitWindow");
#endif
}
