// dtrcheck scan: sweep a grid of budgets, report the pathologies found
// (feasibility inversions, regime cliffs, overhead rises),
// optionally refined by bisection, with the failed end of each inversion
// diagnosed.
#include <algorithm>
#include <iostream>
#include <memory>

#include "analysis/format.h"
#include "cli/commands.h"
#include "cli/grid_options.h"
#include "cli/interrupt.h"
#include "cli/memory_option.h"
#include "cli/number_option.h"
#include "cli/progress.h"
#include "cli/scan_report.h"
#include "cli/simulation_options.h"
#include "cli/sweep_io.h"
#include "io/record.h"

namespace dtrcheck {

namespace {

struct ScanCommandOptions {
  SimulationOptions sim;
  MemoryFlags memory;
  GridOptions grid;
  double cliff_factor = 2.0, cliff_delta = 0.001, rise_factor = 1.5;
  std::string cliff_delta_bytes;
  bool refine = false, bisect_bytes = false, json = false;
  std::string report, records;
  const CLI::Option* cliff_delta_option = nullptr;  // count() > 0: given on the command line
};

// A cliff is two budgets at most the window apart; a grid step wider than the
// window puts no two grid points that close, and the scan would silently find
// no cliff at all. The default window is widened to the step (and the user
// told); a window the user chose is kept, with a warning.
void FitCliffWindowToStep(const ScanCommandOptions& o, ScanSettings* s) {
  if (o.grid.step.empty() || !o.records.empty()) return;
  const double step = std::stod(o.grid.step);
  const bool ratio_window = !s->cliff_bytes;
  if (o.grid.bytes == ratio_window) return;  // different units: no comparison without the peak
  const double window = ratio_window ? s->cliff_fraction : static_cast<double>(*s->cliff_bytes);
  if (step <= window * (1 + 1e-9)) return;
  const std::string option = ratio_window ? "--cliff-delta" : "--cliff-delta-bytes";
  std::cerr << "dtrcheck scan: warning: the grid step " << o.grid.step
            << " is wider than the cliff window (" << option << " " << ShortestDouble(window)
            << "), so no two grid points could form a cliff; ";
  if (ratio_window && o.cliff_delta_option->count() == 0) {
    s->cliff_fraction = step;
    std::cerr << "widened the window to the step, " << o.grid.step << " (pass " << option
              << " to choose it)\n";
  } else {
    std::cerr << "keeping " << option << " as given: this scan will report no cliff\n";
  }
}

// A sweep's jsonl records as sweep points, after checking that they are runs
// of this command's configuration on this trace.
std::vector<SweepPoint> PointsFromRecords(const ScanCommandOptions& o, const Baseline& baseline) {
  RefusePartialResult(o.records);
  std::vector<SweepPoint> points;
  for (auto& r : ReadRecordsJsonl(o.records)) {
    BudgetSpec spec =
        r.config.ratio ? BudgetSpec::Ratio(*r.config.ratio) : BudgetSpec::Bytes(r.budget);
    if (PointIdentity(r) != ExpectedIdentity(o.sim.config, spec, baseline))
      throw std::invalid_argument(o.records + ": the record " + PointIdentity(r).dump() +
                                  " is not a run of this trace and configuration");
    points.push_back(SweepPoint{points.size(), std::move(r)});
  }
  std::stable_sort(points.begin(), points.end(), [](const SweepPoint& a, const SweepPoint& b) {
    return a.budget() < b.budget();
  });
  for (size_t i = 0; i < points.size(); ++i) points[i].index = i;
  return points;
}

// "ratio 0.1 to 1 (the records of FILE)", for the report header.
std::string RecordsGridText(const ScanResult& r, const std::string& file) {
  if (r.points.empty()) return "no records (" + file + ")";
  const RunRecord& a = r.points.front().record;
  const RunRecord& b = r.points.back().record;
  std::string range =
      a.config.ratio && b.config.ratio
          ? "ratio " + ShortestDouble(*a.config.ratio) + " to " + ShortestDouble(*b.config.ratio)
          : "bytes " + IntToString(a.budget) + " to " + IntToString(b.budget);
  return range + " (the records of " + file + ")";
}

int RunScanCommand(const ScanCommandOptions& options) {
  ScanCommandOptions o = options;  // its simulation options finished below
  FinishSimulationOptions(&o.sim);
  o.sim.config.memory = FinishMemoryOptions(o.memory);
  if (o.sim.config.budget || o.sim.config.ratio)
    throw CLI::ValidationError("--budget/--ratio", "a scan takes --from, --to and --step instead");
  if (!o.records.empty() && !o.grid.from.empty())
    throw CLI::ValidationError("--records",
                               "takes the budgets from the file; no --from/--to/--step");
  std::vector<BudgetSpec> budgets;
  if (o.records.empty()) budgets = GridBudgets(o.grid);
  ScanSettings s;
  s.cliff_factor = o.cliff_factor;
  s.cliff_fraction = o.cliff_delta;
  if (!o.cliff_delta_bytes.empty())
    s.cliff_bytes = ParseIntOption(o.cliff_delta_bytes, "--cliff-delta-bytes", true);
  FitCliffWindowToStep(o, &s);
  s.rise_factor = o.rise_factor;
  s.refine = o.refine || o.bisect_bytes;
  s.tolerance = o.bisect_bytes ? 1 : 0;
  s.jobs = EffectiveJobs(o.grid);

  Graph graph = ParseTraceFile(o.sim.trace, o.sim.parse);
  Baseline baseline = RunBaseline(graph, o.sim.config.baseline_runtime);
  InterruptGuard interrupt;
  s.cancel = interrupt.flag();
  std::unique_ptr<ProgressBar> bar;
  std::string stage;
  s.on_progress = [&](const char* st, size_t done, size_t total) {
    if (stage != st) {
      stage = st;
      bar = std::make_unique<ProgressBar>(std::string("scan: ") + st, total);
    }
    bar->Update(done);
  };
  ScanResult result = o.records.empty() ? RunScan(graph, o.sim.config, baseline, budgets, s)
                                        : AnalyzeSweep(graph, o.sim.config, baseline,
                                                       PointsFromRecords(o, baseline), s);
  bar.reset();

  ScanContext ctx{o.sim.trace, o.sim.config, baseline,
                  o.records.empty() ? (o.grid.bytes ? "bytes " : "ratio ") + o.grid.from + " to " +
                                          o.grid.to + " step " + o.grid.step
                                    : RecordsGridText(result, o.records),
                  s};
  if (o.json)
    std::cout << ScanToJson(ctx, result).dump() << "\n";
  else
    std::cout << ScanText(ctx, result);
  if (!o.report.empty()) WriteScanReport(o.report, ctx, result);
  if (result.cancelled) {
    std::cerr << "dtrcheck scan: interrupted; the findings above are of the finished runs only\n";
    return kExitInterrupted;
  }
  return 0;
}

CLI::App* RegisterScan(CLI::App& app, ScanCommandOptions* o) {
  auto* cmd = app.add_subcommand(
      "scan", "sweep budgets and report inversions, regime cliffs and overhead rises");
  AddSimulationOptions(cmd, &o->sim, /*budget_optional=*/true);
  AddMemoryOptions(cmd, &o->memory);
  RemoveBudgetOptions(cmd);
  AddGridOptions(cmd, &o->grid);
  cmd->add_option("--cliff-factor", o->cliff_factor,
                  "regime cliff: overheads at least K times apart")
      ->check(FiniteRange(1.0, 1e9))
      ->capture_default_str();
  auto* frac = cmd->add_option("--cliff-delta", o->cliff_delta,
                               "... for budgets at most D (a fraction of peak) apart")
                   ->check(FiniteRange(0.0, 1e6))
                   ->capture_default_str();
  auto* bytes =
      cmd->add_option("--cliff-delta-bytes", o->cliff_delta_bytes, "... or at most N bytes apart")
          ->check(IntegerText(/*non_negative=*/true));
  bytes->excludes(frac);
  o->cliff_delta_option = frac;
  cmd->add_option("--rise-factor", o->rise_factor,
                  "overhead rise: a bigger budget's overhead above F times a smaller one's")
      ->check(FiniteRange(1.0, 1e9))
      ->capture_default_str();
  cmd->add_flag("--refine", o->refine, "bisect each finding's budget interval (to 1/128 of it)");
  cmd->add_flag("--bisect-bytes", o->bisect_bytes,
                "bisect down to adjacent budgets (1 byte); implies --refine");
  cmd->add_flag("--json", o->json, "print one JSON object");
  cmd->add_option("--records", o->records,
                  "analyse these sweep records (jsonl, e.g. a report's points.jsonl) instead of "
                  "running a grid");
  cmd->add_option("--report", o->report,
                  "also write points.jsonl, scan.json, report.md and overhead.svg to DIR");
  return cmd;
}

}  // namespace

Action AddScanCommand(CLI::App& app) {
  auto o = std::make_shared<ScanCommandOptions>();
  return {RegisterScan(app, o.get()), [o] { return RunScanCommand(*o); }};
}

}  // namespace dtrcheck
