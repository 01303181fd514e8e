// dtrcheck run: one simulation, printed as a record.
#include <iostream>
#include <memory>

#include "base/leave_to_exit.h"
#include "cli/commands.h"
#include "cli/memory_option.h"
#include "cli/simulation_options.h"
#include "io/record.h"
#include "sim/runtime.h"

namespace dtrcheck {

namespace {

struct RunOptions {
  SimulationOptions sim;
  MemoryFlags memory;
  bool json = false;
  bool stats = false;
};

CLI::App* RegisterRun(CLI::App& app, RunOptions* o) {
  auto* cmd = app.add_subcommand("run", "simulate one configuration and print its record");
  AddSimulationOptions(cmd, &o->sim);
  AddMemoryOptions(cmd, &o->memory);
  cmd->add_flag("--json", o->json, "print the record as one JSON object");
  cmd->add_flag("--stats", o->stats, "include per-storage statistics in the JSON record");
  return cmd;
}

int RunRun(const RunOptions& options) {
  SimulationOptions sim = options.sim;
  FinishSimulationOptions(&sim);
  sim.config.memory = FinishMemoryOptions(options.memory);
  sim.config.stats = options.stats;
  auto graph = std::make_unique<Graph>(ParseTraceFile(sim.trace, sim.parse));
  Baseline baseline = RunBaseline(*graph, sim.config.baseline_runtime);
  // The process ends after the record: its runtime and graph are left to
  // the kernel, not freed (base/leave_to_exit.h).
  RunRecord rec = Simulate(*graph, sim.config, baseline, nullptr, Teardown::kLeaveToExit);
  if (options.json) {
    std::cout << RecordToJson(rec).dump() << "\n";
  } else {
    std::cout << "status      " << StatusName(rec.status)
              << (rec.message.empty() ? "" : " (" + rec.message + ")") << "\n"
              << "runtime     " << rec.config.runtime << ", heuristic " << rec.config.heuristic
              << "\n"
              << "budget      " << IntToString(rec.budget) << " bytes";
    if (rec.config.ratio)
      std::cout << " (ratio " << *rec.config.ratio << " of peak " << IntToString(baseline.peak)
                << ")";
    std::cout << "\n"
              << "clock       " << IntToString(rec.clock) << "\n"
              << "overhead    " << rec.Overhead()
              << "x (model + remat compute over baseline compute)\n"
              << "remat       " << IntToString(rec.remat_compute) << "\n"
              << "max memory  " << IntToString(rec.max_memory) << "\n"
              << "evictions   " << rec.evictions << " (" << rec.distinct_evicted
              << " distinct storages)\n"
              << "digest      " << rec.eviction_digest << "\n";
    if (rec.memory) PrintMemoryRecord(*rec.memory);
  }
  LeaveToExit(std::move(graph));
  return rec.status == Status::kError ? 1 : 0;
}

}  // namespace

Action AddRunCommand(CLI::App& app) {
  auto o = std::make_shared<RunOptions>();
  return {RegisterRun(app, o.get()), [o] { return RunRun(*o); }};
}

}  // namespace dtrcheck
