// dtrcheck diagnose: one run, observed. For an oom it tells what could not
// be allocated and why nothing could be evicted (the pinned frontier); for
// any run, the largest total of locked bytes.
#include <iostream>
#include <memory>

#include "analysis/pathology.h"
#include "cli/diagnosis_report.h"
#include "cli/memory_option.h"
#include "cli/sweep_commands.h"

namespace dtrcheck {

Action AddDiagnoseCommand(CLI::App& app) {
  auto* cmd =
      app.add_subcommand("diagnose", "run one configuration and explain an out-of-memory failure");
  auto opts = std::make_shared<SimulationOptions>();
  auto json = std::make_shared<bool>(false);
  auto memory = std::make_shared<MemoryFlags>();
  AddSimulationOptions(cmd, opts.get());
  AddMemoryOptions(cmd, memory.get());
  cmd->add_flag("--json", *json, "print the diagnosis as one JSON object");
  return {cmd, [opts, json, memory]() -> int {
            FinishSimulationOptions(opts.get());
            opts->config.memory = FinishMemoryOptions(*memory);
            Graph graph = ParseTraceFile(opts->trace, opts->parse);
            Baseline baseline = RunBaseline(graph, opts->config.baseline_runtime);
            Diagnosis d = Diagnose(graph, opts->config, baseline);
            if (*json)
              std::cout << DiagnosisToJson(d).dump() << "\n";
            else
              std::cout << DiagnosisText(d);
            return d.record.status == Status::kError ? 1 : 0;
          }};
}

}  // namespace dtrcheck
