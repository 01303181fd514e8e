#include "fuzz/lib/trace_input_check.h"

#include <cstdint>
#include <string>

#include "io/trace_log.h"
#include "io/trace_writer.h"
#include "sim/accepted_pairs.h"
#include "sim/parse.h"
#include "sim/runtime.h"
#include "sim/simulate.h"
#include "sim/telemetry.h"

namespace dtrcheck {

namespace {

// One input must run in milliseconds: larger schedules are only parsed.
constexpr size_t kMaxScheduleForRuns = 2000;
// And a run stops after this many materializations and evictions: with
// zero compute times a remat limit never triggers.
constexpr int64_t kMaxRuntimeEvents = 200000;

struct WorkCapReached {};

class WorkCap : public RuntimeObserver {
 public:
  void OnEvict(Int, TensorId) override { Tick(); }
  void OnPending(TensorId, size_t) override { Tick(); }

 private:
  void Tick() {
    if (++events_ > kMaxRuntimeEvents) throw WorkCapReached{};
  }
  int64_t events_ = 0;
};

// FNV-1a: picks the parse options and the configuration, deterministically.
uint64_t Hash(std::string_view s) {
  uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ULL;
  return h;
}

std::string CheckRoundTrip(std::string_view text) {
  TraceLog log;
  try {
    log = ReadTraceLog(text, "input");
  } catch (const TraceError&) {
    return "";
  }
  std::string written = TraceLogText(log);
  TraceLog again;
  try {
    again = ReadTraceLog(written, "written");
  } catch (const TraceError& e) {
    return std::string("the writer's output does not read back: ") + e.what();
  }
  if (!(again == log)) return "the writer's output reads back as a different log";
  return "";
}

void RunBriefly(const Graph& graph, uint64_t h) {
  if (graph.schedule.size() > kMaxScheduleForRuns) return;
  Baseline baseline;
  try {
    baseline = RunBaseline(graph, "RuntimeV2EagerOptimized");
  } catch (const SimrdAssertion&) {
    return;  // simrd would crash too (QUIRKS.md, Q-ASSERT): an invalid log
  }
  const auto& pairs = AcceptedPairs();
  const RuntimeHeuristic& pair = pairs[(h >> 8) % pairs.size()];
  RunConfig config;
  config.runtime = pair.runtime;
  config.heuristic = pair.heuristic;
  config.overhead_limit = 4.0;
  // Region updates checked against simrd's walk (a difference throws).
  config.region_rebuilds = RegionRebuilds::kUpdateChecked;
  for (double ratio : {0.5, 0.9}) {
    config.ratio = ratio;
    WorkCap cap;
    try {
      Simulate(graph, config, baseline, &cap);
    } catch (const WorkCapReached&) {
    }
  }
}

}  // namespace

std::string CheckTraceInput(std::string_view text) {
  const uint64_t h = Hash(text);
  if (std::string why = CheckRoundTrip(text); !why.empty()) return why;

  ParseOptions options;
  // Mutated logs rarely keep a START line; without one the default
  // (skip to START) would interpret nothing.
  options.start = text.find("START") != std::string_view::npos && (h & 1);
  options.out_cond = (h & 2) ? OutputCondition::kPreallocate : OutputCondition::kRematerialize;
  options.ignore_undefined_release = (h & 4) == 0;
  // The fast and the reference JSON readers (sim/parse.cc) must agree:
  // the same graph, or the same error.
  Graph graph, reference;
  std::string error, reference_error;
  try {
    graph = ParseTrace(text, "input", options);
  } catch (const TraceError& e) {
    error = e.what();
  }
  options.reference_json_reader = true;
  try {
    reference = ParseTrace(text, "input", options);
  } catch (const TraceError& e) {
    reference_error = e.what();
  }
  if (error != reference_error)
    return "the JSON readers disagree: fast \"" + error + "\", reference \"" + reference_error +
           "\"";
  if (!error.empty()) return "";
  if (!(graph == reference)) return "the JSON readers build different graphs";
  try {
    RunBriefly(graph, h);
  } catch (const std::exception& e) {
    return std::string("a parsed log failed to run: ") + e.what();
  }
  return "";
}

}  // namespace dtrcheck
