// The pathology fuzzer's input format: a byte string decoded into a
// synthetic training trace, a runtime/heuristic pair and a budget grid.
//
// Decoding is total and deterministic: every byte string (empty, short, long,
// anything) decodes to one FuzzCase whose trace the generators accept and
// whose pair simrd accepts, so libFuzzer never wastes an input on a
// rejection, and an artifact written on one machine decodes to the same case
// on any other. The same function serves the fuzzer (fuzz/pathology_fuzzer.cc)
// and the CLI (`dtrcheck fuzz-decode`), so a finding is triaged on exactly
// the case the fuzzer saw.
//
// Layout (missing bytes read as 0, bytes past kFuzzCaseBytes are ignored):
//   0      shape (GeneratorShapes() index, modulo)
//   1-4    generator seed, little endian
//   5      layers, within the shape's range (kept small: one input is a sweep)
//   6      width, 1..3 (tree: depth shrunk to at most 16 leaves)
//   7      base_bytes: 4 KiB, 64 KiB, 1 MiB or 16 MiB
//   8      runtime/heuristic pair, index into FuzzCasePairs()
//   9      overhead limit: none, 1.5, 2, 3, 4, 8, 16, 64
//   10     reserved (ignored)
//   11-12  first ratio of the grid, in thousandths: 10..950
//   13     grid step in thousandths: 1, 2, 5, 10, 20, 50
//   14     number of grid points: 2..24 (cut at ratio 1.000)
#ifndef DTRCHECK_FUZZ_LIB_FUZZ_CASE_H_
#define DTRCHECK_FUZZ_LIB_FUZZ_CASE_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "io/record.h"
#include "io/trace_log.h"
#include "sim/accepted_pairs.h"
#include "sim/simulate.h"
#include "traces/synthetic/generators.h"

namespace dtrcheck {

constexpr size_t kFuzzCaseBytes = 15;

struct FuzzCase {
  GeneratorParams trace;
  RunConfig config;  // runtime, heuristic, overhead limit, seed; no budget
  // The ratio grid from, from + step, ... (points of them), in thousandths:
  // ratios are the exact decimals, as RatioGrid makes them.
  int grid_from_milli = 100;
  int grid_step_milli = 10;
  int grid_points = 2;

  // The grid as RatioGrid text ("0.123") and as doubles.
  std::string GridFrom() const;
  std::string GridTo() const;
  std::string GridStep() const;
  std::vector<double> Ratios() const;
};

// The pairs byte 8 chooses from: FuzzedPairs() (sim/accepted_pairs.h), or,
// once plugins are loaded (--plugin, DTRCHECK_PLUGINS), their heuristics'
// pairs only (PluginPairs()), so that a campaign run with plugins fuzzes
// the policies under test and nothing else; $DTRCHECK_FUZZ_HEURISTICS
// (names separated by ',') keeps only the pairs of those heuristics, and
// adds those of dtrcheck's own it names (OwnPairs(): DTE, Coop, ...). An
// input therefore decodes to another pair under other plugins or another
// list: triage a campaign's findings as it ran (fuzz/campaign does). Throws
// std::invalid_argument if no pair is left.
const std::vector<RuntimeHeuristic>& FuzzCasePairs();

FuzzCase DecodeFuzzCase(const uint8_t* data, size_t size);
FuzzCase DecodeFuzzCase(const std::string& bytes);

// The kFuzzCaseBytes that decode to `c`, for seeds and the custom mutator.
// Requires a case DecodeFuzzCase can produce (std::invalid_argument if not).
std::string EncodeFuzzCase(const FuzzCase& c);

// The synthetic trace of the case.
TraceLog FuzzCaseTrace(const FuzzCase& c);

// Everything the case decodes to, for people and for the campaign.
Json FuzzCaseToJson(const FuzzCase& c);
std::string DescribeFuzzCase(const FuzzCase& c);

}  // namespace dtrcheck

#endif  // DTRCHECK_FUZZ_LIB_FUZZ_CASE_H_
