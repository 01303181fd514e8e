// Throughput of the pathology fuzzer's per-input work, without libFuzzer:
// each input is decoded and checked exactly as LLVMFuzzerTestOneInput does
// (DecodeFuzzCase, then CheckFuzzCase with the default FuzzCheckOptions, so
// one sweep in four also checks every region update against a walk).
//
//   build/bin/pathology_fuzzer_bench [--rounds N] [--random K] [--seed S] [DIR]
//
// The inputs are fixed: the files of DIR (default: the committed seed
// corpus, fuzz/pathology_fuzzer_seed_corpus) in name order, then K inputs of
// kFuzzCaseBytes drawn with SplitMix64 from seed S (default 200 from seed 1),
// which decode uniformly over shapes, pairs and grids as a campaign's
// mutated inputs do. All of them are run N times (default 3); the figure is
// inputs per CPU second of the fastest round (CLOCK_PROCESS_CPUTIME_ID: the
// machine is shared, wall time would measure the other jobs). A digest of
// every check's outcome (statuses, clocks, finding signatures) is printed
// too, so that two builds can be seen to do the same work.
#include <time.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "cpu_seconds.h"
#include "fuzz/lib/fuzz_case.h"
#include "fuzz/lib/fuzz_check.h"
#include "sim/python/py_arith.h"

namespace {

using namespace dtrcheck;

uint64_t SplitMix64(uint64_t* state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// FNV-1a over the outcome of a check: what a faster build must keep.
void Mix(uint64_t* h, const std::string& text) {
  for (unsigned char c : text) *h = (*h ^ c) * 0x100000001b3ull;
  *h = (*h ^ 0xff) * 0x100000001b3ull;
}

void MixCheck(uint64_t* h, const FuzzCheck& check) {
  Mix(h, IntToString(check.baseline.peak) + " " + IntToString(check.baseline.compute));
  for (const SweepPoint& p : check.points)
    Mix(h, std::string(StatusName(p.status())) + " " + IntToString(p.record.clock) + " " +
               IntToString(p.record.heuristic_access_count) + " " + p.record.eviction_digest);
  for (const FuzzFinding& f : check.findings) Mix(h, f.signature);
}

int Usage(const char* why) {
  std::fprintf(stderr,
               "pathology_fuzzer_bench: %s\n"
               "usage: pathology_fuzzer_bench [--rounds N] [--random K] [--seed S] [DIR]\n",
               why);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  int rounds = 3;
  long random_inputs = 200;
  uint64_t seed = 1;
  std::string dir = DTRCHECK_SOURCE_DIR "/fuzz/pathology_fuzzer_seed_corpus";
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto number = [&](long lo) -> long {
      if (i + 1 >= argc) std::exit(Usage((a + " needs a value").c_str()));
      char* end = nullptr;
      long v = std::strtol(argv[++i], &end, 10);
      if (*end != '\0' || v < lo) std::exit(Usage((a + ": not a whole number in range").c_str()));
      return v;
    };
    if (a == "--rounds")
      rounds = static_cast<int>(number(1));
    else if (a == "--random")
      random_inputs = number(0);
    else if (a == "--seed")
      seed = static_cast<uint64_t>(number(0));
    else if (!a.empty() && a[0] == '-')
      return Usage(("unknown option " + a).c_str());
    else
      dir = a;
  }

  std::vector<std::string> inputs;
  std::vector<std::filesystem::path> files;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec))
    if (entry.is_regular_file()) files.push_back(entry.path());
  if (ec) return Usage((dir + ": " + ec.message()).c_str());
  std::sort(files.begin(), files.end());
  for (const auto& path : files) {
    std::ifstream in(path, std::ios::binary);
    inputs.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  const size_t from_corpus = inputs.size();
  uint64_t state = seed;
  for (long k = 0; k < random_inputs; ++k) {
    std::string bytes(kFuzzCaseBytes, '\0');
    for (char& b : bytes) b = static_cast<char>(SplitMix64(&state) & 0xff);
    inputs.push_back(bytes);
  }
  if (inputs.empty()) return Usage("no inputs");

  const FuzzCheckOptions options;  // the fuzzer's defaults
  double best = 1e300;
  uint64_t digest = 0;
  for (int r = 0; r < rounds; ++r) {
    uint64_t h = 0xcbf29ce484222325ull;
    const double start = CpuSeconds();
    for (const std::string& bytes : inputs)
      MixCheck(&h, CheckFuzzCase(DecodeFuzzCase(bytes), options));
    const double took = CpuSeconds() - start;
    best = std::min(best, took);
    if (r > 0 && h != digest) {
      std::fprintf(stderr, "pathology_fuzzer_bench: round %d gave another digest\n", r + 1);
      return 1;
    }
    digest = h;
    std::printf("round %d: %zu inputs in %.3f CPU s (%.1f inputs/s)\n", r + 1, inputs.size(), took,
                static_cast<double>(inputs.size()) / took);
  }
  std::printf(
      "pathology_fuzzer_bench: %zu inputs (%zu from %s, %ld random from seed %llu), best of %d "
      "rounds: %.3f CPU s, %.1f inputs/s; outcome digest %016llx\n",
      inputs.size(), from_corpus, dir.c_str(), random_inputs, static_cast<unsigned long long>(seed),
      rounds, best, static_cast<double>(inputs.size()) / best,
      static_cast<unsigned long long>(digest));
  return 0;
}
