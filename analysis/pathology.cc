#include "analysis/pathology.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "analysis/format.h"
#include "sim/runtime.h"

namespace dtrcheck {

namespace {

bool Ok(const SweepPoint& p) { return p.status() == Status::kOk; }
bool Failed(const SweepPoint& p) {
  return p.status() == Status::kOom || p.status() == Status::kThrashed;
}

void CheckOrdered(const std::vector<SweepPoint>& points) {
  for (size_t i = 1; i < points.size(); ++i)
    if (points[i].budget() < points[i - 1].budget())
      throw std::invalid_argument("sweep points must be ordered by budget, ascending (point " +
                                  std::to_string(i) + " has a smaller budget than point " +
                                  std::to_string(i - 1) + ")");
}

void CheckFactor(double factor) {
  if (!(factor >= 1.0)) throw std::invalid_argument("a pathology factor must be >= 1");
}

FindingEnd EndOf(const std::vector<SweepPoint>& points, size_t i) {
  const SweepPoint& p = points[i];
  return FindingEnd{i, p.record.config.ratio, p.budget(), p.status(), p.overhead()};
}

// Given, for each i, the first j > i that forms a qualifying pair with it
// (npos if none), keeps the minimal pairs: (i, j_i) is minimal unless some
// i' > i has j_i' <= j_i, i.e. a qualifying pair lies inside [i, j_i].
constexpr size_t kNone = static_cast<size_t>(-1);
std::vector<Finding> MinimalPairs(const std::vector<SweepPoint>& points,
                                  const std::vector<size_t>& first_partner, FindingKind kind) {
  std::vector<Finding> out;
  size_t min_after = kNone;
  for (size_t i = points.size(); i-- > 0;) {
    size_t j = first_partner[i];
    if (j == kNone) continue;
    if (j < min_after) {
      Finding f{kind, EndOf(points, i), EndOf(points, j), 0};
      if (kind != FindingKind::kInversion) {
        double a = f.low.overhead, b = f.high.overhead;
        f.factor = std::min(a, b) > 0 ? std::max(a, b) / std::min(a, b)
                                      : std::numeric_limits<double>::infinity();
      }
      out.push_back(f);
      min_after = j;
    }
  }
  std::reverse(out.begin(), out.end());
  return out;
}

// Range maximum of the overheads of ok points (-inf elsewhere), to find the
// first later point above a threshold in O(log n).
class OkOverheadMax {
 public:
  explicit OkOverheadMax(const std::vector<SweepPoint>& points) {
    std::vector<double> v;
    for (const auto& p : points)
      v.push_back(Ok(p) ? p.overhead() : -std::numeric_limits<double>::infinity());
    table_.push_back(v);
    for (size_t w = 1; 2 * w <= v.size(); w *= 2) {
      const auto& prev = table_.back();
      std::vector<double> next(v.size() - 2 * w + 1);
      for (size_t p = 0; p < next.size(); ++p) next[p] = std::max(prev[p], prev[p + w]);
      table_.push_back(std::move(next));
    }
  }
  // The first index >= from whose value is > threshold, or kNone.
  size_t FirstAbove(size_t from, double threshold) const {
    const size_t n = table_[0].size();
    size_t pos = from;
    for (size_t k = table_.size(); k-- > 0;) {
      size_t w = size_t(1) << k;
      if (pos + w <= n && table_[k][pos] <= threshold) pos += w;
    }
    return pos < n ? pos : kNone;
  }

 private:
  std::vector<std::vector<double>> table_;  // table_[k][p] = max of v[p .. p + 2^k)
};

std::string DescribeEnd(const FindingEnd& e) {
  std::string s;
  if (e.ratio) s += "ratio " + ShortestDouble(*e.ratio) + " ";
  // The overhead of a failed run is only that of its prefix: left out.
  s += "(budget " + IntToString(e.budget) + ") " + StatusName(e.status);
  return e.status == Status::kOk ? s + " " + Fixed(e.overhead, 3) + "x" : s;
}

// Tracks the runtime's state for Diagnose.
class DiagnosisObserver : public RuntimeObserver {
 public:
  DiagnosisObserver(const Graph& graph, Diagnosis* out) : graph_(graph), out_(out) {}

  void OnOom(const Runtime& rt, TensorId tensor, Int request) override {
    OomDetails d;
    d.tensor = tensor;
    d.tensor_name = graph_.tensors[tensor].name;
    d.op_name = graph_.ops[graph_.tensors[tensor].op].name;
    d.request = request;
    d.last_started = last_started_;
    if (last_started_ >= 0) d.last_started_name = graph_.tensors[last_started_].name;
    d.budget = rt.budget().value_or(0);
    d.resident = rt.memory_usage();
    for (StorageId s : rt.pool().slots()) {
      if (s < 0) continue;
      d.pool_bytes += rt.storages()[s].size;
      ++d.pool_count;
    }
    d.locked_bytes = rt.locked_bytes();
    for (const Storage& s : rt.storages())
      if (s.material && s.ref_int > 0) ++d.locked_storages;
    d.chain = rt.PendingChain();
    for (TensorId t : d.chain) d.chain_names.push_back(graph_.tensors[t].name);
    d.depth = d.chain.empty() ? 0 : d.chain.size() - 1;
    out_->oom = std::move(d);
  }
  void OnPending(TensorId tensor, size_t) override { last_started_ = tensor; }
  void OnFinish(const Runtime& rt) override {
    out_->max_locked_bytes = rt.max_locked_bytes();
    out_->max_locked_clock = rt.max_locked_clock();
  }

 private:
  const Graph& graph_;
  Diagnosis* out_;
  TensorId last_started_ = -1;
};

}  // namespace

const char* FindingKindName(FindingKind kind) {
  switch (kind) {
    case FindingKind::kInversion:
      return "inversion";
    case FindingKind::kOverheadRise:
      return "overhead-rise";
    case FindingKind::kRegimeCliff:
      return "cliff";
    case FindingKind::kFragmentationOom:
      return "fragmentation-oom";
    case FindingKind::kAllocatorInversion:
      return "allocator-inversion";
    case FindingKind::kAllocatorCliff:
      return "allocator-cliff";
    case FindingKind::kReservedPeakInversion:
      return "reserved-peak-inversion";
  }
  return "?";
}

const std::vector<FindingKind>& AllFindingKinds() {
  static const std::vector<FindingKind> kinds = {FindingKind::kInversion,
                                                 FindingKind::kOverheadRise,
                                                 FindingKind::kRegimeCliff,
                                                 FindingKind::kFragmentationOom,
                                                 FindingKind::kAllocatorInversion,
                                                 FindingKind::kAllocatorCliff,
                                                 FindingKind::kReservedPeakInversion};
  return kinds;
}

std::string DescribeFinding(const Finding& f) {
  std::string s = std::string(FindingKindName(f.kind)) + ": " + DescribeEnd(f.low) + " -> " +
                  DescribeEnd(f.high);
  if (f.factor > 0) s += " (factor " + Fixed(f.factor, 2) + ")";
  return s;
}

std::vector<Finding> FindInversions(const std::vector<SweepPoint>& points) {
  CheckOrdered(points);
  std::vector<size_t> first(points.size(), kNone);
  size_t next_failed = kNone;  // the first failed point after i
  for (size_t i = points.size(); i-- > 0;) {
    if (Ok(points[i]) && next_failed != kNone) first[i] = next_failed;
    if (Failed(points[i])) next_failed = i;
  }
  return MinimalPairs(points, first, FindingKind::kInversion);
}

std::vector<Finding> FindOverheadRises(const std::vector<SweepPoint>& points, double factor) {
  CheckOrdered(points);
  CheckFactor(factor);
  std::vector<size_t> first(points.size(), kNone);
  if (!points.empty()) {
    OkOverheadMax max(points);
    // A point of equal budget has the same overhead, which factor >= 1
    // never exceeds, so the first point above the threshold has B2 > B1.
    for (size_t i = 0; i < points.size(); ++i)
      if (Ok(points[i])) first[i] = max.FirstAbove(i + 1, factor * points[i].overhead());
  }
  return MinimalPairs(points, first, FindingKind::kOverheadRise);
}

std::vector<Finding> FindRegimeCliffs(const std::vector<SweepPoint>& points, double factor,
                                      Int max_gap) {
  CheckOrdered(points);
  CheckFactor(factor);
  if (max_gap < 0) throw std::invalid_argument("a cliff gap must not be negative");
  std::vector<size_t> first(points.size(), kNone);
  for (size_t i = 0; i < points.size(); ++i) {
    if (!Ok(points[i])) continue;
    const double a = points[i].overhead();
    // Overhead 0 means the baseline computes nothing (0/0, RunRecord::Overhead):
    // no ratio of overheads, no cliff.
    if (!(a > 0)) continue;
    for (size_t j = i + 1; j < points.size() && points[j].budget() - points[i].budget() <= max_gap;
         ++j) {
      if (!Ok(points[j]) || points[j].budget() == points[i].budget()) continue;
      const double b = points[j].overhead();
      if (!(b > 0)) continue;
      if (std::max(a, b) >= factor * std::min(a, b)) {
        first[i] = j;
        break;
      }
    }
  }
  return MinimalPairs(points, first, FindingKind::kRegimeCliff);
}

Int GapFromFractionOfPeak(double fraction, Int peak) {
  if (!(fraction >= 0)) throw std::invalid_argument("a cliff gap must not be negative");
  return TruncToInt(fraction * IntToDouble(peak)) + 1;
}

Diagnosis Diagnose(const Graph& graph, const RunConfig& config, const Baseline& baseline) {
  Diagnosis d;
  DiagnosisObserver observer(graph, &d);
  d.record = Simulate(graph, config, baseline, &observer);
  return d;
}

}  // namespace dtrcheck
