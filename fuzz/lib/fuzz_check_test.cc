// The pathology fuzzer's check against the reducer's: a finding the fuzzer
// reports must hold as the PropertySpec it hands to `dtrcheck reduce`, or
// triage would start from a trace the reducer rejects. (Archived manifests:
// analysis/finding_manifest_test.cc.)
#include "fuzz/lib/fuzz_check.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "io/trace_writer.h"
#include "sim/parse.h"

namespace dtrcheck {
namespace {

// Inputs the first campaign claimed (fuzz/campaign_lib/campaign_triage_test.py
// triages the same two).
const unsigned char kInversionInput[] = {0xad, 0x62, 0x16, 0x6d, 0xee, 0x3e, 0xd4, 0xd4,
                                         0x7d, 0xe0, 0x57, 0xe9, 0x2d, 0x9a, 0xa6};
const unsigned char kCliffInput[] = {0xed, 0x24, 0x42, 0x41, 0x40, 0x59, 0x62, 0x47,
                                     0x90, 0x77, 0x03, 0x26, 0xf4, 0x21, 0xf5};

void ExpectFindingsHoldForTheReducer(const unsigned char* input, size_t size,
                                     const std::string& kind, const std::string& id) {
  FuzzCase c = DecodeFuzzCase(input, size);
  FuzzCheck check = CheckFuzzCase(c, FuzzCheckOptions{});
  Graph graph = ParseTrace(TraceLogText(FuzzCaseTrace(c)), "case");
  bool found = false;
  for (const FuzzFinding& f : check.findings) {
    ASSERT_TRUE(f.spec.has_value()) << f.Describe();
    EXPECT_TRUE(CheckTraceProperty(graph, *f.spec).holds) << f.Describe();
    EXPECT_EQ(f.signature.substr(0, f.kind.size() + 1), f.kind + "|");
    found = found || (f.kind == kind && SignatureId(f.signature) == id);
  }
  EXPECT_TRUE(found) << "no " << kind << " with id " << id;
}

TEST(FuzzCheck, AnInversionAsTheReducerSeesIt) {
  ExpectFindingsHoldForTheReducer(kInversionInput, sizeof kInversionInput, "inversion",
                                  "e2b54e03539e3bdd");
}

TEST(FuzzCheck, ACliffAsTheReducerSeesIt) {
  ExpectFindingsHoldForTheReducer(kCliffInput, sizeof kCliffInput, "cliff", "b59669c7a3e2c14d");
}

TEST(FuzzCheck, AStricterFactorDropsTheCliff) {
  FuzzCase c = DecodeFuzzCase(kCliffInput, sizeof kCliffInput);
  FuzzCheckOptions strict;
  strict.cliff_factor = 1e6;
  for (const FuzzFinding& f : CheckFuzzCase(c, strict).findings) EXPECT_NE(f.kind, "cliff");
}

// The fragmentation-oom branch ($DTRCHECK_FUZZ_MEMORY=cuda-caching). With
// 4 KiB tensors the whole trace peaks below 2 MiB, and c10's smallest
// segment is 2 MiB (memory/README.md): a device of any budget below the peak
// holds no segment, so every run under the allocator is out of memory at its
// first allocation, where the bytes (a request at most the budget) fit.
// Every stretch of budgets that is ok in bytes is then one fragmentation
// OOM, reported at its largest budget; bytes alone report none.
TEST(FuzzCheck, AFragmentationOomUnderTheCachingAllocator) {
  FuzzCase c = DecodeFuzzCase(kCliffInput, sizeof kCliffInput);
  c.trace.base_bytes = 4096;
  c.grid_from_milli = 500;
  c.grid_step_milli = 50;
  c.grid_points = 10;  // 0.50 to 0.95
  FuzzCheckOptions caching;
  caching.memory.model = MemoryModel::kCudaCaching;
  const FuzzCheck bytes = CheckFuzzCase(c, FuzzCheckOptions{});
  const FuzzCheck check = CheckFuzzCase(c, caching);
  ASSERT_LT(check.baseline.peak, Int{2} << 20);
  ASSERT_EQ(check.points.size(), bytes.points.size());
  std::vector<size_t> stretch_ends;  // the last bytes-ok point of each stretch
  for (size_t i = 0; i < bytes.points.size(); ++i) {
    EXPECT_EQ(check.points[i].status(), Status::kOom) << "ratio " << c.Ratios().at(i);
    const bool ok = bytes.points[i].status() == Status::kOk;
    const bool next_ok = i + 1 < bytes.points.size() && bytes.points[i + 1].status() == Status::kOk;
    if (ok && !next_ok) stretch_ends.push_back(i);
  }
  ASSERT_FALSE(stretch_ends.empty()) << "no budget of the grid is ok in bytes";
  const Graph graph = ParseTrace(TraceLogText(FuzzCaseTrace(c)), "case");
  std::vector<size_t> found;
  for (const FuzzFinding& f : check.findings) {
    if (f.kind != "fragmentation-oom") continue;
    found.push_back(f.runs.high.index);
    EXPECT_EQ(f.runs.low.status, Status::kOk);
    EXPECT_EQ(f.runs.high.status, Status::kOom);
    EXPECT_EQ(f.signature.rfind("fragmentation-oom|", 0), 0u) << f.signature;
    EXPECT_NE(f.signature.find("memory cuda-caching"), std::string::npos) << f.signature;
    EXPECT_NE(f.detail.find("where the bytes fit"), std::string::npos) << f.detail;
    ASSERT_TRUE(f.spec.has_value());
    EXPECT_EQ(f.spec->property, TraceProperty::kFragmentationOom);
    const PropertyCheck held = CheckTraceProperty(graph, *f.spec);
    EXPECT_TRUE(held.holds) << held.summary;
  }
  EXPECT_EQ(found, stretch_ends);
  for (const FuzzFinding& f : bytes.findings) EXPECT_NE(f.kind, "fragmentation-oom");
}

// The fuzzer turns this exception into its one line and exit code 2
// (pathology_fuzzer.cc, Options()).
TEST(FuzzCheck, AnUnknownMemoryModelIsRefusedNamingTheVariable) {
  ASSERT_EQ(setenv("DTRCHECK_FUZZ_MEMORY", "heap", 1), 0);
  try {
    FuzzCheckOptionsFromEnv();
    ADD_FAILURE() << "DTRCHECK_FUZZ_MEMORY=heap accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()),
              "DTRCHECK_FUZZ_MEMORY=heap: not a memory model (bytes, cuda-caching or arena)");
  }
  ASSERT_EQ(setenv("DTRCHECK_FUZZ_MEMORY", "cuda-caching", 1), 0);
  EXPECT_EQ(FuzzCheckOptionsFromEnv().memory.model, MemoryModel::kCudaCaching);
  unsetenv("DTRCHECK_FUZZ_MEMORY");
}

}  // namespace
}  // namespace dtrcheck
