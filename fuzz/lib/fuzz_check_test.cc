// The pathology fuzzer's check against the reducer's: a finding the fuzzer
// reports must hold as the PropertySpec it hands to `dtrcheck reduce`, or
// triage would start from a trace the reducer rejects. (Archived manifests:
// analysis/finding_manifest_test.cc.)
#include "fuzz/lib/fuzz_check.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace dtrcheck
