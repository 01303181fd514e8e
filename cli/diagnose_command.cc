// dtrcheck diagnose: one run, observed. For an oom it tells what could not
// be allocated and why nothing could be evicted (the pinned frontier); for
// any run, the largest total of locked bytes.
#include <iostream>
#include <memory>

#include "analysis/pathology.h"
#include "cli/commands.h"
#include "cli/diagnosis_report.h"
#include "cli/memory_option.h"
#include "cli/simulation_options.h"

namespace dtrcheck {

namespace {

struct DiagnoseOptions {
  SimulationOptions sim;
  MemoryFlags memory;
  bool json = false;
};

CLI::App* RegisterDiagnose(CLI::App& app, DiagnoseOptions* o) {
  auto* cmd =
      app.add_subcommand("diagnose", "run one configuration and explain an out-of-memory failure");
  AddSimulationOptions(cmd, &o->sim);
  AddMemoryOptions(cmd, &o->memory);
  cmd->add_flag("--json", o->json, "print the diagnosis as one JSON object");
  return cmd;
}

int RunDiagnose(const DiagnoseOptions& o) {
  SimulationOptions sim = o.sim;
  FinishSimulationOptions(&sim);
  sim.config.memory = FinishMemoryOptions(o.memory);
  Graph graph = ParseTraceFile(sim.trace, sim.parse);
  Baseline baseline = RunBaseline(graph, sim.config.baseline_runtime);
  Diagnosis d = Diagnose(graph, sim.config, baseline);
  if (o.json)
    std::cout << DiagnosisToJson(d).dump() << "\n";
  else
    std::cout << DiagnosisText(d);
  return d.record.status == Status::kError ? 1 : 0;
}

}  // namespace

Action AddDiagnoseCommand(CLI::App& app) {
  auto o = std::make_shared<DiagnoseOptions>();
  return {RegisterDiagnose(app, o.get()), [o] { return RunDiagnose(*o); }};
}

}  // namespace dtrcheck
