// Where one `dtrcheck run` spends its CPU time, phase by phase, in one
// process: the parse of the log, the unbounded baseline run, and the
// simulation at a ratio, first as a fresh process meets them (each phase's
// memory new, each page faulted in), then the simulation again N times over
// memory the process already has (best of N). The gap between the two is
// what fresh memory costs; the sum of the first three, with the process's
// start, is what `bench/bench_vs_simrd.sh` times. The heap is set up as
// dtrcheck's is (cli/heap_pages.h).
//
//   build/bin/run_phases_bench [--ratio R] [--rounds N] [--heuristic H] TRACE_FILE
//
// (defaults 0.3, 20, DTR; a trace's file: `dtrcheck trace-path lstm`). Run
// by hand, never by ctest: speed is measured, not asserted. The record's
// status, access count and eviction digest are printed, so that two builds
// compared with it can be seen to do the same work.
#include <sys/resource.h>

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <exception>
#include <string>

#include "cli/heap_pages.h"
#include "sim/parse.h"
#include "sim/simulate.h"

namespace {

double CpuMs() {
  timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}

long MinorFaults() {
  rusage u;
  getrusage(RUSAGE_SELF, &u);
  return u.ru_minflt;
}

// CPU milliseconds and page faults of one call of f.
template <typename F>
void Timed(const char* phase, F&& f) {
  const long faults = MinorFaults();
  const double start = CpuMs();
  f();
  std::printf("%-22s %8.2f ms CPU %7ld page faults\n", phase, CpuMs() - start,
              MinorFaults() - faults);
}

int Usage(const std::string& why) {
  std::fprintf(stderr,
               "run_phases_bench: %s\n"
               "usage: run_phases_bench [--ratio R] [--rounds N] [--heuristic H] TRACE_FILE\n",
               why.c_str());
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  dtrcheck::RunConfig config;
  config.ratio = 0.3;
  int rounds = 20;
  std::string trace;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> const char* {
      if (i + 1 >= argc) std::exit(Usage(a + " needs a value"));
      return argv[++i];
    };
    char* end = nullptr;
    if (a == "--ratio") {
      const char* v = value();
      const double r = std::strtod(v, &end);
      if (*end != '\0' || !(r > 0 && r <= 1e6)) return Usage(a + ": not a number in (0, 1e6]");
      config.ratio = r;
    } else if (a == "--rounds") {
      const char* v = value();
      const long n = std::strtol(v, &end, 10);
      if (*end != '\0' || n < 0 || n > 1000000) return Usage(a + ": not a whole number in range");
      rounds = static_cast<int>(n);
    } else if (a == "--heuristic") {
      config.heuristic = value();
    } else if (!a.empty() && a[0] == '-') {
      return Usage("unknown option " + a);
    } else if (trace.empty()) {
      trace = a;
    } else {
      return Usage("one trace file only");
    }
  }
  if (trace.empty()) return Usage("no trace file");
  dtrcheck::UseHugePagesForHeap();
  try {
    dtrcheck::Graph graph;
    dtrcheck::Baseline baseline;
    dtrcheck::RunRecord record;
    Timed("parse", [&] { graph = dtrcheck::ParseTraceFile(trace, dtrcheck::ParseOptions{}); });
    Timed("baseline run",
          [&] { baseline = dtrcheck::RunBaseline(graph, config.baseline_runtime); });
    Timed("simulation (first)", [&] { record = dtrcheck::Simulate(graph, config, baseline); });
    double best = 0;
    for (int i = 0; i < rounds; ++i) {
      const double start = CpuMs();
      dtrcheck::RunRecord again = dtrcheck::Simulate(graph, config, baseline);
      const double ms = CpuMs() - start;
      if (i == 0 || ms < best) best = ms;
      if (again.eviction_digest != record.eviction_digest) {
        std::fprintf(stderr, "round %d gave another record\n", i + 1);
        return 1;
      }
    }
    if (rounds > 0)
      std::printf("%-22s %8.2f ms CPU (best of %d)\n", "simulation (again)", best, rounds);
    std::printf("record: %s, heuristic_access_count %s, eviction digest %s\n",
                dtrcheck::StatusName(record.status),
                dtrcheck::IntToString(record.heuristic_access_count).c_str(),
                record.eviction_digest.c_str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
  return 0;
}
