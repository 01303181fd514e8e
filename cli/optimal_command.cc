// dtrcheck optimal: the minimum-compute schedule of a trace under a budget
// (optimal/, Checkmate's program solved by CBC), checked by the independent
// schedule checker, with its overhead as dtrcheck's records compute theirs.
#include <fstream>
#include <iostream>
#include <sstream>

#include "cli/commands.h"
#include "io/record.h"
#include "optimal/trace_optimum.h"
#include "traces/locate.h"

namespace dtrcheck {

namespace {

struct OptimalCommandOptions {
  std::string trace, budget_text, schedule;
  std::optional<double> ratio;
  std::string baseline_runtime = "RuntimeV2EagerOptimized";
  double time_limit = 60;
  bool json = false;
  ParseOptions parse;
};

std::string Fixed(double v, int digits) {
  std::ostringstream out;
  out.setf(std::ios::fixed);
  out.precision(digits);
  out << v;
  return out.str();
}

}  // namespace

Action AddOptimalCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "optimal",
      "the minimum total compute of the trace under a budget (any result freed and recomputed "
      "at will, operators in log order; optimal/README.md), solved exactly by CBC");
  auto o = std::make_shared<OptimalCommandOptions>();
  cmd->add_option("TRACE", o->trace, "simrd execution log (JSON lines)")
      ->required()
      ->check(CLI::ExistingFile);
  auto* group = cmd->add_option_group("budget");
  group->add_option("--budget", o->budget_text, "memory budget in bytes");
  group
      ->add_option("--ratio", o->ratio,
                   "budget = int(peak * R), peak from an unbounded baseline run (as run's)")
      ->check(CLI::Range(0.0, 1e6));
  group->require_option(1);
  cmd->add_option("--baseline-runtime", o->baseline_runtime,
                  "runtime of the unbounded baseline run (peak for --ratio, compute for the "
                  "overhead)")
      ->capture_default_str();
  cmd->add_option("--time-limit", o->time_limit,
                  "seconds for the solver; past it the answer is \"not proven\" or a schedule "
                  "not proven optimal")
      ->check(CLI::Range(0.0, 1e9))
      ->capture_default_str();
  cmd->add_flag("--json", o->json, "print the result as one JSON object");
  cmd->add_option("--schedule", o->schedule,
                  "write the schedule (compute NAME / free NAME, one a line) to FILE");
  cmd->add_flag(
      "--no-start", [o](int64_t) { o->parse.start = false; },
      "the log has no START annotation; replay it from the first line");
  return {cmd, [o]() -> int {
            Graph graph = ParseTraceFile(o->trace, o->parse);
            Baseline baseline = RunBaseline(graph, o->baseline_runtime);
            Int budget = 0;
            if (o->ratio) {
              budget = BudgetFromRatio(baseline.peak, *o->ratio);
            } else {
              auto b = ParseInt(o->budget_text);
              if (!b || *b < 0)
                throw CLI::ValidationError(
                    "--budget", "expected a non-negative integer, got \"" + o->budget_text + "\"");
              budget = *b;
            }
            RematProblem problem = MakeRematProblem(graph);
            OptimalOptions options;
            options.time_limit_seconds = o->time_limit;
            TraceOptimum opt = SolveTraceOptimum(graph, problem, budget, baseline.compute, options);
            if (!o->schedule.empty() && opt.result.compute) {
              std::ofstream out(o->schedule);
              out << ScheduleText(graph, opt.schedule,
                                  "dtrcheck optimal " + o->trace + " --budget " +
                                      IntToString(budget) + "\ntrace sha256 " +
                                      Sha256OfFile(o->trace) + "\nstatus " +
                                      OptimalStatusName(opt.result.status) + ", compute " +
                                      IntToString(*opt.result.compute));
              if (!out) throw std::runtime_error("cannot write " + o->schedule);
            }
            if (o->json) {
              Json j = TraceOptimumToJson(opt);
              if (o->ratio) j["ratio"] = *o->ratio;
              j["peak"] = IntJson(baseline.peak);
              j["trace"] = o->trace;
              j["trace_sha256"] = Sha256OfFile(o->trace);
              std::cout << j.dump() << "\n";
            } else {
              std::cout << "status      " << OptimalStatusName(opt.result.status) << "\n"
                        << "budget      " << IntToString(budget) << " bytes";
              if (o->ratio)
                std::cout << " (ratio " << *o->ratio << " of peak " << IntToString(baseline.peak)
                          << ")";
              std::cout << "\nnodes       " << opt.nodes << " operators (constants excluded)\n";
              if (opt.result.compute)
                std::cout << "compute     " << IntToString(*opt.result.compute)
                          << " (model compute " << IntToString(baseline.compute) << ")\n"
                          << "overhead    " << Fixed(*opt.Overhead(), 4)
                          << "x (total compute over baseline compute)\n"
                          << "checked     "
                          << (opt.check.ok ? "ok (independent replay)" : opt.check.error) << ", "
                          << opt.check.recomputations << " recomputations\n";
              std::cout << "lp bound    " << Fixed(opt.result.lp_bound, 1) << " ("
                        << Fixed(opt.LpOverhead(), 4) << "x)\n"
                        << "best bound  " << Fixed(opt.result.best_bound, 1) << "\n"
                        << "program     " << opt.result.variables << " variables, "
                        << opt.result.constraints << " constraints\n"
                        << "solve time  " << Fixed(opt.result.seconds, 3) << " s\n";
            }
            if (opt.result.compute && !opt.check.ok) return 1;
            return 0;
          }};
}

}  // namespace dtrcheck
