// The published ResNet-32 findings (analysis/published_findings.h: the
// study's table and diagnosis, measured on simrd itself) against what
// sweep, scan and diagnose give. The expected values are the study's;
// nothing here was produced by dtrcheck.
#include "analysis/published_findings.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "analysis/pathology.h"
#include "analysis/scan.h"
#include "analysis/sweep.h"
#include "io/record.h"
#include "sim/parse.h"

namespace dtrcheck {
namespace {

const char* kResNet = "resnet32-56-9000000000.0-2020-10-1-13-3-30-default.log";

class ResNetPublished : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    const char* dir = std::getenv("DTRCHECK_TRACES");
    if (dir == nullptr || *dir == '\0') return;
    std::string path = std::string(dir) + "/" + kResNet;
    if (!std::filesystem::exists(path)) return;
    graph_ = new Graph(ParseTraceFile(path));
    baseline_ = RunBaseline(*graph_, "RuntimeV2EagerOptimized");
  }
  static void TearDownTestSuite() {
    delete graph_;
    graph_ = nullptr;
  }
  void SetUp() override {
    if (graph_ == nullptr) GTEST_SKIP() << "DTRCHECK_TRACES does not hold " << kResNet;
  }
  static RunConfig Config() {
    RunConfig c;  // DTR on RuntimeV2EagerOptimized, baseline V2EagerOptimized
    c.overhead_limit = 8;
    return c;
  }
  static Graph* graph_;
  static Baseline baseline_;
};
Graph* ResNetPublished::graph_ = nullptr;
Baseline ResNetPublished::baseline_;

std::string ThreeDecimals(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", v);
  return buf;
}

TEST_F(ResNetPublished, FineSweepMatchesThePublishedTable) {
  auto ratios = RatioGrid("0.100", "0.150", "0.001");
  auto result = RunSweep(*graph_, Config(), baseline_, RatioBudgets(ratios),
                         {.jobs = 2, .on_point = {}, .cancel = nullptr, .skip = {}});
  ASSERT_EQ(result.points.size(), 51u);
  for (const published::SweepStretch& s : published::kResNetSweep) {
    for (int m = s.from; m <= s.to; ++m) {
      const SweepPoint& p = result.points[m - 100];
      SCOPED_TRACE("ratio 0." + std::to_string(m));
      EXPECT_EQ(StatusName(p.status()), std::string(s.status));
      if (*s.overhead) {
        EXPECT_EQ(ThreeDecimals(p.overhead()), s.overhead);
      }
    }
  }
  // "A bigger budget can be infeasible where a smaller one is fine": by the
  // table, the minimal witness is 0.101 ok -> 0.102 oom.
  auto inversions = FindInversions(result.points);
  ASSERT_EQ(inversions.size(), 1u);
  EXPECT_EQ(inversions[0].low.ratio, 0.101);
  EXPECT_EQ(inversions[0].high.ratio, 0.102);
}

TEST_F(ResNetPublished, SweepIsIdenticalForOneAndTwoJobs) {
  auto budgets = RatioBudgets(RatioGrid("0.100", "0.130", "0.001"));
  auto one = RunSweep(*graph_, Config(), baseline_, budgets,
                      {.jobs = 1, .on_point = {}, .cancel = nullptr, .skip = {}});
  auto two = RunSweep(*graph_, Config(), baseline_, budgets,
                      {.jobs = 2, .on_point = {}, .cancel = nullptr, .skip = {}});
  ASSERT_EQ(one.points.size(), two.points.size());
  for (size_t i = 0; i < one.points.size(); ++i) {
    EXPECT_EQ(one.points[i].index, i);
    EXPECT_EQ(RecordToJson(one.points[i].record).dump(), RecordToJson(two.points[i].record).dump());
  }
}

TEST_F(ResNetPublished, DiagnosisAt0104IsAPinnedFrontierOom) {
  RunConfig c = Config();
  c.ratio = published::kDiagnosisRatio;
  Diagnosis d = Diagnose(*graph_, c, baseline_);
  ASSERT_EQ(d.record.status, Status::kOom);
  ASSERT_TRUE(d.oom.has_value());
  // The study: "when computing tensor x7977 (simrd id 190), which needs
  // 179,830,912 bytes while 889,795,480 bytes are resident and every one of
  // them is locked (the evictable pool is empty)".
  // "Computing x7977" is the last materialization simrd started
  // (_T_pending); the request is that of x7977's child x7984 (id 193, op
  // cudnn_batch_norm/193), whose _free(t.op.total_size) raises. The
  // failing tensor is checked against simrd itself by diagnose_parity.
  EXPECT_EQ(d.oom->last_started_name, published::kDiagnosisTensorName);
  EXPECT_EQ(d.oom->last_started, published::kDiagnosisTensorId);
  EXPECT_TRUE(d.oom->request == published::kDiagnosisRequest);
  EXPECT_TRUE(d.oom->resident == published::kDiagnosisResident);
  EXPECT_TRUE(d.oom->locked_bytes == published::kDiagnosisResident);  // "every one of them"
  EXPECT_EQ(d.oom->pool_count, 0u);
  EXPECT_TRUE(d.oom->pool_bytes == 0);
  EXPECT_TRUE(d.PinnedFrontierOom());
  EXPECT_EQ(d.oom->chain.back(), d.oom->tensor);
}

TEST_F(ResNetPublished, LargestLockedTotalsAt0101And0107) {
  // The study: "At 0.101 the largest locked total seen was about 754.9 MB,
  // at 0.107 about 575.1 MB" (MB = 10^6 bytes, one decimal).
  auto mb = [](Int bytes) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", IntToDouble(bytes) / 1e6);
    return std::string(buf);
  };
  ASSERT_EQ(published::kLockedPeaks.size(), 2u);
  for (const published::LockedPeak& peak : published::kLockedPeaks) {
    RunConfig c = Config();
    c.ratio = peak.ratio;
    EXPECT_EQ(mb(Diagnose(*graph_, c, baseline_).max_locked_bytes), peak.megabytes) << peak.ratio;
  }
}

TEST_F(ResNetPublished, ScanBisectsTheInversionToAdjacentBytes) {
  ScanSettings s;
  s.refine = true;
  s.tolerance = 1;
  s.jobs = 2;
  auto r =
      RunScan(*graph_, Config(), baseline_, RatioBudgets(RatioGrid("0.100", "0.104", "0.001")), s);
  ASSERT_EQ(r.findings.size(), 1u);
  const ScanFinding& f = r.findings[0];
  ASSERT_TRUE(f.refined.has_value());
  EXPECT_EQ(f.refined->stop_reason, "converged");
  // simrd itself, `oracle/simrd_oracle.py run resnet32.log --budget B
  // --overhead-limit 8`: ok at B = 1024657199, oom at B = 1024657200.
  EXPECT_TRUE(f.refined->finding.low.budget == 1024657199);
  EXPECT_EQ(f.refined->finding.low.status, Status::kOk);
  EXPECT_TRUE(f.refined->finding.high.budget == 1024657200);
  EXPECT_EQ(f.refined->finding.high.status, Status::kOom);
  ASSERT_TRUE(f.failure.has_value());
  EXPECT_TRUE(f.failure->PinnedFrontierOom());
}

}  // namespace
}  // namespace dtrcheck
