#include "analysis/allocator_pathology.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

namespace dtrcheck {

namespace {

bool Failed(Status s) { return s == Status::kOom || s == Status::kThrashed; }

FindingEnd EndOf(const SweepPoint& p, size_t i) {
  return FindingEnd{i, p.record.config.ratio, p.budget(), p.status(), p.overhead()};
}

void CheckSameBudgets(const std::vector<SweepPoint>& allocator,
                      const std::vector<SweepPoint>& bytes) {
  if (allocator.size() != bytes.size())
    throw std::invalid_argument("the allocator's and the bytes sweeps have different points");
  for (size_t i = 0; i < allocator.size(); ++i) {
    if (allocator[i].budget() != bytes[i].budget() ||
        (i > 0 && allocator[i].budget() < allocator[i - 1].budget()))
      throw std::invalid_argument("the allocator's and the bytes sweeps differ at point " +
                                  std::to_string(i) + " (or are not ascending)");
  }
}

uint64_t ReservedPeak(const SweepPoint& p) {
  return p.record.memory ? p.record.memory->reserved_peak : 0;
}

}  // namespace

bool IsFragmentationOom(Status bytes, Status allocator) {
  return bytes == Status::kOk && allocator == Status::kOom;
}

std::vector<Finding> FindFragmentationOoms(const std::vector<SweepPoint>& allocator,
                                           const std::vector<SweepPoint>& bytes) {
  CheckSameBudgets(allocator, bytes);
  auto fragmented = [&](size_t i) {
    return IsFragmentationOom(bytes[i].status(), allocator[i].status());
  };
  std::vector<Finding> out;
  for (size_t i = 0; i < allocator.size(); ++i) {
    if (!fragmented(i) || (i + 1 < allocator.size() && fragmented(i + 1))) continue;
    out.push_back(
        Finding{FindingKind::kFragmentationOom, EndOf(bytes[i], i), EndOf(allocator[i], i), 0});
  }
  return out;
}

void MarkAllocatorOnly(const std::vector<SweepPoint>& bytes, double cliff_factor,
                       std::vector<Finding>* findings) {
  for (Finding& f : *findings) {
    if (f.low.index >= bytes.size() || f.high.index >= bytes.size())
      throw std::invalid_argument("a finding outside the bytes sweep");
    const SweepPoint& lo = bytes[f.low.index];
    const SweepPoint& hi = bytes[f.high.index];
    if (f.kind == FindingKind::kInversion) {
      if (!(lo.status() == Status::kOk && Failed(hi.status())))
        f.kind = FindingKind::kAllocatorInversion;
    } else if (f.kind == FindingKind::kRegimeCliff) {
      const double a = lo.overhead(), b = hi.overhead();
      const bool cliff = lo.status() == Status::kOk && hi.status() == Status::kOk && a > 0 &&
                         b > 0 && std::max(a, b) >= cliff_factor * std::min(a, b);
      if (!cliff) f.kind = FindingKind::kAllocatorCliff;
    }
  }
}

std::vector<Finding> FindReservedPeakInversions(const std::vector<SweepPoint>& allocator) {
  std::vector<Finding> out;
  std::optional<size_t> prev;
  for (size_t i = 0; i < allocator.size(); ++i) {
    if (allocator[i].status() != Status::kOk) continue;
    if (prev && allocator[*prev].budget() < allocator[i].budget() &&
        ReservedPeak(allocator[*prev]) > ReservedPeak(allocator[i])) {
      Finding f{FindingKind::kReservedPeakInversion, EndOf(allocator[*prev], *prev),
                EndOf(allocator[i], i), 0};
      const uint64_t small = ReservedPeak(allocator[i]);
      f.factor = small > 0 ? static_cast<double>(ReservedPeak(allocator[*prev])) /
                                 static_cast<double>(small)
                           : 0;
      out.push_back(f);
    }
    prev = i;
  }
  return out;
}

}  // namespace dtrcheck
