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
#include <cmath>
#include <limits>
#include <memory>
#include <stdexcept>

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
}
