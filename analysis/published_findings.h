// The published findings that `dtrcheck reproduce` reports on and
// analysis/published_findings_test.cc checks: transcribed from the study
// summarised in the project's background notes ("What a recent study found";
// measured on simrd itself: DTR, RuntimeV2EagerOptimized, overhead limit 8,
// budgets int(peak * ratio) from an unbounded V2EagerOptimized baseline).
// The quotations below are the study's words; nothing here comes from
// dtrcheck. This is the one copy: the report and the test read it.
#ifndef DTRCHECK_ANALYSIS_PUBLISHED_FINDINGS_H_
#define DTRCHECK_ANALYSIS_PUBLISHED_FINDINGS_H_

#include <cstdint>
#include <vector>

namespace dtrcheck::published {

// ResNet-32 fine sweep, ratios in thousandths: "feasible at 0.100 and 0.101
// (overhead 2.223x), out of memory from 0.102 to 0.106, feasible again from
// 0.107 (2.077x up to 0.110; 3.212x 0.111-0.115; 3.330x 0.116-0.119; 2.933x
// 0.120-0.124; 2.924x 0.125-0.128; 2.903x 0.129-0.133; 2.881x 0.134-0.137;
// 2.667x 0.138-0.142; 2.718x 0.143-0.146; 1.843x 0.147-0.150)".
struct SweepStretch {
  int from, to;          // thousandths of the peak
  const char* status;    // "ok" or "oom"
  const char* overhead;  // 3 decimals, "" for oom
};
inline const std::vector<SweepStretch> kResNetSweep = {
    {100, 101, "ok", "2.223"}, {102, 106, "oom", ""},     {107, 110, "ok", "2.077"},
    {111, 115, "ok", "3.212"}, {116, 119, "ok", "3.330"}, {120, 124, "ok", "2.933"},
    {125, 128, "ok", "2.924"}, {129, 133, "ok", "2.903"}, {134, 137, "ok", "2.881"},
    {138, 142, "ok", "2.667"}, {143, 146, "ok", "2.718"}, {147, 150, "ok", "1.843"}};

// "The OOM at ratio 0.104 happens when computing tensor x7977 (simrd id
// 190), which needs 179,830,912 bytes while 889,795,480 bytes are resident
// and every one of them is locked (the evictable pool is empty)".
constexpr double kDiagnosisRatio = 0.104;
constexpr const char* kDiagnosisTensorName = "x7977";
constexpr int32_t kDiagnosisTensorId = 190;
constexpr int64_t kDiagnosisRequest = 179830912;
constexpr int64_t kDiagnosisResident = 889795480;

// "At 0.101 the largest locked total seen was about 754.9 MB, at 0.107
// about 575.1 MB."
struct LockedPeak {
  double ratio;
  const char* megabytes;  // one decimal, MB = 10^6 bytes
};
inline const std::vector<LockedPeak> kLockedPeaks = {{0.101, "754.9"}, {0.107, "575.1"}};

// LSTM: "two budgets 0.10% of peak apart select a fast and a slow regime
// with very different overheads (the slow one several times the fast one).
// The slow regime re-evicts the same storages many times (evictions per
// evicted storage 1.33 vs 8.27) while the set of distinct evicted storages
// is almost unchanged (5,233 vs 5,236; Jaccard 0.999)."
constexpr double kLstmGapFraction = 0.001;
constexpr const char* kLstmPerStorageFast = "1.33";
constexpr const char* kLstmPerStorageSlow = "8.27";
constexpr int64_t kLstmDistinctFast = 5233;
constexpr int64_t kLstmDistinctSlow = 5236;
constexpr const char* kLstmJaccard = "0.999";

}  // namespace dtrcheck::published

#endif  // DTRCHECK_ANALYSIS_PUBLISHED_FINDINGS_H_
