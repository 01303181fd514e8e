#include "fuzz/lib/fuzz_case.h"

#include <gtest/gtest.h>

#include "fuzz/lib/accepted_pairs.h"
#include "fuzz/lib/fuzz_check.h"
#include "sim/heuristic.h"
#include "sim/parse.h"
#include "sim/runtime.h"
#include "sim/trace_writer.h"
#include "traces/synthetic/rng.h"

namespace dtrcheck {
namespace {

// Byte strings of every length up to 2 * kFuzzCaseBytes, from a fixed seed.
std::vector<std::string> SomeInputs(int count) {
  GenRng rng(20240601);
  std::vector<std::string> out = {"", std::string(64, '\xff'), std::string(kFuzzCaseBytes, '\0')};
  for (int i = 0; i < count; ++i) {
    std::string s(rng.Below(2 * kFuzzCaseBytes + 1), '\0');
    for (char& ch : s) ch = static_cast<char>(rng.Below(256));
    out.push_back(s);
  }
  return out;
}

TEST(FuzzCase, EveryByteStringDecodesToACaseSimrdRuns) {
  for (const std::string& bytes : SomeInputs(300)) {
    FuzzCase c = DecodeFuzzCase(bytes);
    std::vector<double> ratios = c.Ratios();
    ASSERT_EQ(ratios.size(), static_cast<size_t>(c.grid_points));
    EXPECT_GE(ratios.front(), 0.01);
    EXPECT_LE(ratios.back(), 1.0);
    TraceLog log = FuzzCaseTrace(c);  // throws if the generator rejects the parameters
    EXPECT_GT(log.NumOperators(), 0u);
    EXPECT_LT(log.NumOperators(), 2000u) << DescribeFuzzCase(c);
    Graph g = ParseTrace(TraceLogText(log), "case");
    RunConfig config = c.config;
    config.ratio = 1.0;
    // Throws if simrd refuses the pair. Not necessarily ok: the peak is the
    // baseline runtime's, and a non-eager runtime may need more.
    RunRecord r = Simulate(g, config, RunBaseline(g, config.baseline_runtime));
    EXPECT_NE(r.status, Status::kError) << r.message << "\n" << DescribeFuzzCase(c);
  }
}

TEST(FuzzCase, EncodeIsTheInverseOfDecode) {
  for (const std::string& bytes : SomeInputs(300)) {
    FuzzCase c = DecodeFuzzCase(bytes);
    std::string encoded = EncodeFuzzCase(c);
    EXPECT_EQ(encoded.size(), kFuzzCaseBytes);
    EXPECT_EQ(FuzzCaseToJson(DecodeFuzzCase(encoded)), FuzzCaseToJson(c));
  }
}

TEST(FuzzCase, DecodingIsDeterministicAndIgnoresTrailingBytes) {
  std::string bytes = "\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f";
  FuzzCase a = DecodeFuzzCase(bytes), b = DecodeFuzzCase(bytes + "trailing");
  EXPECT_EQ(FuzzCaseToJson(a), FuzzCaseToJson(b));
  EXPECT_EQ(TraceLogText(FuzzCaseTrace(a)), TraceLogText(FuzzCaseTrace(b)));
}

TEST(FuzzCase, PairsAreAcceptedAndThePapersComesFirst) {
  const auto& pairs = AcceptedPairs();
  ASSERT_GT(pairs.size(), 20u);
  EXPECT_EQ(pairs[0].runtime, "RuntimeV2EagerOptimized");
  EXPECT_EQ(pairs[0].heuristic, "DTR");
  for (const auto& p : pairs) EXPECT_FALSE(p.runtime == "RuntimeV2" && p.heuristic == "DTR");
  const auto& fuzzed = FuzzedPairs();
  EXPECT_EQ(fuzzed.size() + 2 * RuntimeNames().size(), pairs.size())
      << "every runtime accepts RandomStorage and AbRandom, and fuzzing drops them";
  for (const auto& p : fuzzed) EXPECT_FALSE(IsRandomHeuristic(p.heuristic));
}

}  // namespace
}  // namespace dtrcheck
