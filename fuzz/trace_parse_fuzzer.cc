// libFuzzer target: arbitrary bytes into simrd's log parser.
//
// Every input goes through ParseTrace (sim/parse.h) and the instruction-level
// reader and writer (sim/trace_log.h, sim/trace_writer.h); what parses is
// then simulated briefly. Nothing may crash, hang, leak or trip a sanitizer.
// A TraceError is the expected answer to a malformed log. Two invariants
// abort (and so become findings):
//   - a log the reader accepts is written and read back unchanged;
//   - a log the parser accepts runs without a C++ exception other than
//     simrd's own outcomes (ok, oom, thrashed, a simrd assertion).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "fuzz/lib/accepted_pairs.h"
#include "sim/parse.h"
#include "sim/runtime.h"
#include "sim/simulate.h"
#include "sim/telemetry.h"
#include "sim/trace_log.h"
#include "sim/trace_writer.h"

namespace {

using namespace dtrcheck;

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

[[noreturn]] void Fail(const std::string& what) {
  std::fprintf(stderr, "trace_parse_fuzzer: %s\n", what.c_str());
  std::abort();
}

// FNV-1a: picks the parse options and the configuration, deterministically.
uint64_t Hash(std::string_view s) {
  uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ULL;
  return h;
}

void CheckRoundTrip(std::string_view text) {
  TraceLog log;
  try {
    log = ReadTraceLog(text, "input");
  } catch (const TraceError&) {
    return;
  }
  std::string written = TraceLogText(log);
  TraceLog again;
  try {
    again = ReadTraceLog(written, "written");
  } catch (const TraceError& e) {
    Fail(std::string("the writer's output does not read back: ") + e.what());
  }
  if (!(again == log)) Fail("the writer's output reads back as a different log");
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

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  const uint64_t h = Hash(text);
  CheckRoundTrip(text);

  ParseOptions options;
  // Mutated logs rarely keep a START line; without one the default
  // (skip to START) would interpret nothing.
  options.start = text.find("START") != std::string_view::npos && (h & 1);
  options.out_cond = (h & 2) ? OutputCondition::kPreallocate : OutputCondition::kRematerialize;
  options.ignore_undefined_release = (h & 4) == 0;
  Graph graph;
  try {
    graph = ParseTrace(text, "input", options);
  } catch (const TraceError&) {
    return 0;
  }
  try {
    RunBriefly(graph, h);
  } catch (const std::exception& e) {
    Fail(std::string("a parsed log failed to run: ") + e.what());
  }
  return 0;
}
