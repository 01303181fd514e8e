#include "fuzz/lib/fuzz_case.h"

#include <gtest/gtest.h>

#include "base/sha256.h"
#include "fuzz/lib/fuzz_check.h"
#include "io/trace_writer.h"
#include "sim/accepted_pairs.h"
#include "sim/heuristic.h"
#include "sim/parse.h"
#include "sim/runtime.h"
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

// The fuzzers are built with clang and the CLI that triages their findings
// with GCC: both must generate the same trace for a case, byte for byte.
// (They did not while generators.cc drew two random numbers in one call's
// arguments, whose order of evaluation differs.) The digests are those of
// `dtrcheck gen --shape S --seed 7 --layers 3 --width 3 --base-bytes 65536`
// built with GCC; ci/fuzz_smoke.sh runs this test in the clang build too.
TEST(FuzzCase, TracesAreTheSameUnderEveryCompiler) {
  const std::vector<std::pair<std::string, std::string>> golden = {
      {"chain", "890d1b50b779382f9699b46517a237018344dd7cc298d3461eb3179d7232476c"},
      {"resnet", "7441aefb5e3f9a3bafead9e2c1fec982b43c075fe92fc68576f263dc332375eb"},
      {"unet", "898f0e831198b4de98fa955127079e6a64425ee7d9c5d035f79ef196de0d7cf5"},
      {"lstm", "43a6a7e4be6906a0c59f1462378f43fc976a445eaa018ec0f8ff215a3dad6fe0"},
      {"tree", "bb833dc73b96bfac706097227f3f8390382afa9f6b46b2a67abe7a76a5ea47d1"},
      {"dag", "5d41f5b198662f8d623e55c1606a3ddef546966ee76bfafd3d62a12a42da3527"},
  };
  for (const auto& [shape, digest] : golden) {
    GeneratorParams p;
    p.shape = shape;
    p.seed = 7;
    p.layers = 3;
    p.width = 3;
    p.base_bytes = 65536;
    EXPECT_EQ(Sha256Hex(TraceLogText(GenerateTrace(p))), digest) << shape;
  }
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
