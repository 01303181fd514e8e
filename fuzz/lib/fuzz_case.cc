#include "fuzz/lib/fuzz_case.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <set>
#include <sstream>
#include <stdexcept>

#include "analysis/format.h"
#include "analysis/sweep.h"
#include "sim/accepted_pairs.h"
#include "sim/heuristic.h"

namespace dtrcheck {

namespace {

// Per shape, the layers an input may ask for. Small enough that a sweep
// stays in the milliseconds (at most a few hundred operators; with ASan a
// 650-operator tree took seconds), large enough for recomputation chains
// to matter. Small traces also reduce in seconds. LSTM stops at 4 layers:
// at 8 layers of width 3 with no overhead limit and ratios near 0.05, simrd's
// rematerialization cascades cost up to 56 s per sweep in the release build
// (minutes under ASan, which stalled a CI fuzz smoke run on one unit); at 4
// the worst such sweep takes 0.35 s (measured over every fuzzed pair).
struct LayerRange {
  const char* shape;
  int lo, hi;
};
constexpr std::array<LayerRange, 6> kLayers = {{
    {"chain", 1, 10},
    {"resnet", 1, 6},
    {"unet", 1, 4},
    {"lstm", 1, 4},
    {"tree", 1, 6},
    {"dag", 4, 48},
}};
constexpr int kMaxTreeLeaves = 16;
constexpr std::array<int64_t, 4> kBaseBytes = {4096, 65536, 1 << 20, 1 << 24};
constexpr std::array<double, 8> kLimits = {0, 1.5, 2, 3, 4, 8, 16, 64};  // 0: none
constexpr std::array<int, 6> kSteps = {1, 2, 5, 10, 20, 50};
constexpr int kMinFrom = 10, kFromChoices = 941, kMaxPoints = 24;

const LayerRange& RangeOf(const std::string& shape) {
  for (const auto& r : kLayers)
    if (shape == r.shape) return r;
  throw std::invalid_argument("fuzz case: shape \"" + shape + "\" has no layer range");
}

// Depth d with width^d <= kMaxTreeLeaves, at most `layers`.
int TreeDepth(int layers, int width) {
  int depth = 0;
  for (int64_t leaves = 1; depth < layers && leaves * width <= kMaxTreeLeaves; ++depth)
    leaves *= width;
  return std::max(depth, 1);
}

std::string Milli(int milli) {
  std::ostringstream s;
  s << milli / 1000 << '.' << char('0' + milli / 100 % 10) << char('0' + milli / 10 % 10)
    << char('0' + milli % 10);
  return s.str();
}

template <typename T, size_t N>
size_t IndexOf(const std::array<T, N>& table, T value, const char* what) {
  for (size_t i = 0; i < N; ++i)
    if (table[i] == value) return i;
  throw std::invalid_argument(std::string("fuzz case: ") + what + " is not encodable");
}

}  // namespace

const std::vector<RuntimeHeuristic>& FuzzCasePairs() {
  // Recomputed when the plugins or the variable change (tests load plugins
  // and set variables as they go; the fuzzer and the CLI do so once).
  static std::vector<RuntimeHeuristic> pairs;
  static std::pair<size_t, std::string> made_for = {SIZE_MAX, ""};
  const char* only_env = std::getenv("DTRCHECK_FUZZ_HEURISTICS");
  const std::pair<size_t, std::string> now = {PluginHeuristicNames().size(),
                                              only_env ? only_env : ""};
  if (now == made_for) return pairs;
  pairs = now.first == 0 ? FuzzedPairs() : PluginPairs();
  if (!now.second.empty()) {
    std::set<std::string> only;
    std::stringstream list(now.second);
    for (std::string name; std::getline(list, name, ',');)
      if (!name.empty()) only.insert(name);
    // dtrcheck's own policies (policies/: they read addresses, so the fuzzer
    // needs DTRCHECK_FUZZ_MEMORY) only when named: the default pairs, and
    // with them every archived input's decoding, stay as they were.
    for (const auto& p : OwnPairs())
      if (only.count(p.heuristic)) pairs.push_back(p);
    std::erase_if(pairs, [&](const RuntimeHeuristic& p) { return !only.count(p.heuristic); });
  }
  made_for = now;
  if (pairs.empty())
    throw std::invalid_argument(
        "fuzz case: no runtime/heuristic pair to fuzz" +
        std::string(now.first ? " among the plugins' heuristics" : "") +
        (now.second.empty() ? "" : " named by DTRCHECK_FUZZ_HEURISTICS=" + now.second));
  return pairs;
}

std::string FuzzCase::GridFrom() const { return Milli(grid_from_milli); }
std::string FuzzCase::GridTo() const {
  return Milli(grid_from_milli + (grid_points - 1) * grid_step_milli);
}
std::string FuzzCase::GridStep() const { return Milli(grid_step_milli); }
std::vector<double> FuzzCase::Ratios() const { return RatioGrid(GridFrom(), GridTo(), GridStep()); }

FuzzCase DecodeFuzzCase(const uint8_t* data, size_t size) {
  auto at = [&](size_t i) -> uint32_t { return i < size ? data[i] : 0; };
  FuzzCase c;
  const auto& shapes = GeneratorShapes();
  c.trace.shape = shapes[at(0) % shapes.size()];
  c.trace.seed = at(1) | at(2) << 8 | at(3) << 16 | at(4) << 24;
  const LayerRange& range = RangeOf(c.trace.shape);
  c.trace.layers = range.lo + static_cast<int>(at(5) % (range.hi - range.lo + 1));
  c.trace.width = 1 + static_cast<int>(at(6) % 3);
  if (c.trace.shape == "tree") c.trace.layers = TreeDepth(c.trace.layers, c.trace.width);
  c.trace.base_bytes = kBaseBytes[at(7) % kBaseBytes.size()];

  const auto& pairs = FuzzCasePairs();
  const RuntimeHeuristic& pair = pairs[at(8) % pairs.size()];
  c.config.runtime = pair.runtime;
  c.config.heuristic = pair.heuristic;
  double limit = kLimits[at(9) % kLimits.size()];
  if (limit > 0) c.config.overhead_limit = limit;

  c.grid_from_milli = kMinFrom + static_cast<int>((at(11) | at(12) << 8) % kFromChoices);
  c.grid_step_milli = kSteps[at(13) % kSteps.size()];
  c.grid_points = 2 + static_cast<int>(at(14) % (kMaxPoints - 1));
  // Budgets above the peak are all alike: keep the grid at or below ratio 1.
  c.grid_from_milli = std::min(c.grid_from_milli, 1000 - c.grid_step_milli);
  c.grid_points = std::min(c.grid_points, (1000 - c.grid_from_milli) / c.grid_step_milli + 1);
  return c;
}

FuzzCase DecodeFuzzCase(const std::string& bytes) {
  return DecodeFuzzCase(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
}

std::string EncodeFuzzCase(const FuzzCase& c) {
  std::string b(kFuzzCaseBytes, '\0');
  const auto& shapes = GeneratorShapes();
  auto shape = std::find(shapes.begin(), shapes.end(), c.trace.shape);
  if (shape == shapes.end()) throw std::invalid_argument("fuzz case: unknown shape");
  b[0] = static_cast<char>(shape - shapes.begin());
  if (c.trace.seed > 0xffffffffu) throw std::invalid_argument("fuzz case: seed above 2^32");
  for (int i = 0; i < 4; ++i) b[1 + i] = static_cast<char>(c.trace.seed >> (8 * i) & 0xff);
  const LayerRange& range = RangeOf(c.trace.shape);
  if (c.trace.layers < range.lo || c.trace.layers > range.hi)
    throw std::invalid_argument("fuzz case: layers");
  b[5] = static_cast<char>(c.trace.layers - range.lo);
  if (c.trace.width < 1 || c.trace.width > 3) throw std::invalid_argument("fuzz case: width");
  b[6] = static_cast<char>(c.trace.width - 1);
  b[7] = static_cast<char>(IndexOf(kBaseBytes, c.trace.base_bytes, "base_bytes"));

  const auto& pairs = FuzzCasePairs();
  size_t pair = 0;
  while (pair < pairs.size() &&
         !(pairs[pair].runtime == c.config.runtime && pairs[pair].heuristic == c.config.heuristic))
    ++pair;
  if (pair == pairs.size() || pair > 255)
    throw std::invalid_argument("fuzz case: runtime/heuristic pair");
  b[8] = static_cast<char>(pair);
  b[9] =
      static_cast<char>(IndexOf(kLimits, c.config.overhead_limit.value_or(0.0), "overhead limit"));
  if (c.config.seed) throw std::invalid_argument("fuzz case: no seed is encodable");

  int from = c.grid_from_milli - kMinFrom;
  if (from < 0 || from >= kFromChoices) throw std::invalid_argument("fuzz case: grid start");
  b[11] = static_cast<char>(from & 0xff);
  b[12] = static_cast<char>(from >> 8);
  b[13] = static_cast<char>(IndexOf(kSteps, c.grid_step_milli, "grid step"));
  if (c.grid_points < 2 || c.grid_points > kMaxPoints)
    throw std::invalid_argument("fuzz case: grid points");
  b[14] = static_cast<char>(c.grid_points - 2);
  return b;
}

TraceLog FuzzCaseTrace(const FuzzCase& c) { return GenerateTrace(c.trace); }

Json FuzzCaseToJson(const FuzzCase& c) {
  Json j;
  j["generator"] = {{"shape", c.trace.shape},
                    {"seed", c.trace.seed},
                    {"layers", c.trace.layers},
                    {"width", c.trace.width},
                    {"base_bytes", c.trace.base_bytes}};
  j["config"] = ConfigToJson(c.config);
  j["grid"] = {{"from", c.GridFrom()},
               {"to", c.GridTo()},
               {"step", c.GridStep()},
               {"points", c.grid_points}};
  return j;
}

std::string DescribeFuzzCase(const FuzzCase& c) {
  std::ostringstream s;
  s << "trace:     dtrcheck gen --shape " << c.trace.shape << " --seed " << c.trace.seed
    << " --layers " << c.trace.layers << " --width " << c.trace.width << " --base-bytes "
    << c.trace.base_bytes << "\n"
    << "config:    --runtime " << c.config.runtime << " --heuristic " << c.config.heuristic;
  if (c.config.overhead_limit)
    s << " --overhead-limit " << ShortestDouble(*c.config.overhead_limit);
  if (c.config.seed) s << " --seed " << IntToString(*c.config.seed);
  s << "\n"
    << "grid:      --from " << c.GridFrom() << " --to " << c.GridTo() << " --step " << c.GridStep()
    << " (" << c.grid_points << " budgets)\n";
  return s.str();
}

}  // namespace dtrcheck
