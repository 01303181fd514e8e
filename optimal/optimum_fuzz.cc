#include "optimal/optimum_fuzz.h"

#include <chrono>
#include <cmath>
#include <filesystem>

#include "io/input_file.h"
#include "io/json_fields.h"
#include "io/record.h"
#include "io/staged_entry.h"
#include "io/trace_graph.h"
#include "io/trace_writer.h"
#include "optimal/run_schedule.h"
#include "optimal/schedule.h"
#include "sim/accepted_pairs.h"
#include "sim/log_line.h"
#include "traces/locate.h"
#include "traces/synthetic/rng.h"

namespace dtrcheck {

namespace {

namespace fs = std::filesystem;

double Seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

bool Proven(OptimalStatus s) {
  return s == OptimalStatus::kOptimal || s == OptimalStatus::kInfeasible;
}

// A bound above a cost, beyond rounding: costs are integers, and an LP
// bound is a double that may sit a relative hair above an integral optimum.
bool BoundAbove(double bound, Int cost) {
  const double c = IntToDouble(cost);
  return bound > c + std::max(0.5, 1e-9 * std::fabs(c));
}

void Plant(const std::string& plant, OptimalResult* r) {
  if (plant == "infeasible") {
    r->status = OptimalStatus::kInfeasible;
    r->compute.reset();
    r->steps.clear();
    r->proof = "planted";
  } else if (plant == "bound" && r->compute) {
    r->best_bound = IntToDouble(*r->compute) + 1;
  }
}

CheckedSolve Solve(const RematProblem& p, Int budget, const std::string& name,
                   const OptimalOptions& o) {
  CheckedSolve s;
  s.name = name;
  s.result = SolveOptimal(p, budget, o);
  return s;
}

void CheckSolveSchedule(const Graph& g, const RematProblem& p, Int budget, CheckedSolve* s) {
  if (!s->result.compute) return;
  const ScheduleCheck check = CheckSchedule(g, ToSchedule(p, s->result.steps), budget);
  if (!check.ok)
    s->check_error = check.error;
  else if (check.compute != *s->result.compute)
    s->check_error = "the schedule costs " + IntToString(check.compute) + ", the solve says " +
                     IntToString(*s->result.compute);
}

}  // namespace

const std::vector<std::string>& OptimumViolationKinds() {
  static const std::vector<std::string> kinds = {"model-gap",
                                                 "schedule-rejected",
                                                 "infeasible-where-ok",
                                                 "optimum-above-schedule",
                                                 "bound-above-schedule",
                                                 "engines-disagree"};
  return kinds;
}

const std::vector<std::string>& PlantedDefects() {
  static const std::vector<std::string> plants = {"infeasible", "bound"};
  return plants;
}

OptimumAtBudget CheckOptimumAt(const Graph& g, const RematProblem& p, const Baseline& baseline,
                               Int budget, const OptimumFuzzOptions& options) {
  const auto started = std::chrono::steady_clock::now();
  OptimumAtBudget at;
  at.budget = budget;
  auto violation = [&](const std::string& kind, const std::string& detail) {
    at.violations.push_back({kind, detail});
  };
  auto consider = [&](Int cost, const std::string& source) {
    if (!at.cheapest || cost < *at.cheapest) {
      at.cheapest = cost;
      at.cheapest_source = source;
    }
  };
  // Every accepted pair, without limits: an ok run is a schedule.
  bool ok_within_model = false;
  std::optional<Incumbent> dtr;  // `dtrcheck optimal`'s default warm start
  for (const RuntimeHeuristic& pair : AcceptedPairs()) {
    if (options.cancel && options.cancel->load()) break;
    RunConfig c;
    c.runtime = pair.runtime;
    c.heuristic = pair.heuristic;
    RunAsSchedule run = ScheduleOfRun(g, p, c, baseline, budget);
    ++at.runs;
    if (run.record.status != Status::kOk) continue;
    ++at.ok_runs;
    const bool within = RuntimeWithinModel(pair.runtime);
    ok_within_model |= within;
    if (!run.gap.empty()) {
      if (within)
        violation("model-gap", run.gap);
      else
        at.gaps.push_back(run.gap);
    }
    if (!run.incumbent) continue;
    ++at.checked_runs;
    consider(run.incumbent->compute, run.incumbent->source);
    if (pair.runtime == "RuntimeV2EagerOptimized" && pair.heuristic == "DTR") dtr = run.incumbent;
  }
  // The solves: as `dtrcheck optimal` (RegretAt's default warm start is
  // DTR's run; the configuration is DTR too), then each engine alone.
  OptimalOptions o;
  o.time_limit_seconds = options.solve_seconds;
  o.cancel = options.cancel;
  OptimalOptions warm = o;
  warm.incumbent = dtr;
  at.solves.push_back(Solve(p, budget, "optimal", warm));
  Plant(options.plant, &at.solves.back().result);
  if (options.compare_engines) {
    o.engine = OptimalEngine::kSearch;
    at.solves.push_back(Solve(p, budget, "search", o));
    o.engine = OptimalEngine::kMilp;
    at.solves.push_back(Solve(p, budget, "milp", o));
  }
  for (CheckedSolve& s : at.solves) {
    CheckSolveSchedule(g, p, budget, &s);
    if (!s.check_error.empty())
      violation("schedule-rejected", s.name + "'s schedule: " + s.check_error);
    else if (s.result.compute)
      consider(*s.result.compute, s.name + "'s schedule");
  }
  for (const CheckedSolve& s : at.solves) {
    const OptimalResult& r = s.result;
    if (r.status == OptimalStatus::kInfeasible && (ok_within_model || at.cheapest))
      violation("infeasible-where-ok",
                s.name + " says infeasible (" + r.proof + ") where " +
                    (at.cheapest ? at.cheapest_source + " fits at " + IntToString(*at.cheapest)
                                 : std::string("a run within the model is ok")));
    if (!at.cheapest) continue;
    if (r.status == OptimalStatus::kOptimal && r.compute && *r.compute > *at.cheapest)
      violation("optimum-above-schedule", s.name + " says optimal at " + IntToString(*r.compute) +
                                              " (" + r.proof + "), " + at.cheapest_source +
                                              " costs " + IntToString(*at.cheapest));
    if (r.status != OptimalStatus::kInfeasible && BoundAbove(r.best_bound, *at.cheapest))
      violation("bound-above-schedule", s.name + "'s proven bound " + std::to_string(r.best_bound) +
                                            " exceeds " + at.cheapest_source + "'s cost " +
                                            IntToString(*at.cheapest));
  }
  if (at.solves.size() == 3) {
    const OptimalResult &a = at.solves[1].result, &b = at.solves[2].result;
    if (Proven(a.status) && Proven(b.status) && (a.status != b.status || a.compute != b.compute))
      violation("engines-disagree", std::string("search: ") + OptimalStatusName(a.status) +
                                        (a.compute ? " " + IntToString(*a.compute) : "") + " (" +
                                        a.proof + "); milp: " + OptimalStatusName(b.status) +
                                        (b.compute ? " " + IntToString(*b.compute) : "") + " (" +
                                        b.proof + ")");
  }
  at.seconds = Seconds(started);
  return at;
}

std::vector<double> OptimumFuzzRatios(uint64_t seed, uint64_t index) {
  // A stream of its own, apart from the case's (fuzz/lib/diff_case.h).
  GenRng rng(seed * 0x9e3779b97f4a7c15ULL ^ (index + 0x6f7074696d756dULL));
  rng.Next();
  return {rng.Range(200, 499) / 1000.0, rng.Range(500, 799) / 1000.0,
          rng.Range(800, 1000) / 1000.0};
}

namespace {

// The graph, problem and baseline of a log, or why there are none.
struct Prepared {
  std::optional<Graph> graph;
  RematProblem problem;
  Baseline baseline;
  std::string refusal;
};

Prepared Prepare(const TraceLog& log, const ParseOptions& parse) {
  Prepared out;
  try {
    out.graph = TraceLogGraph(log, "trace.log", parse);
    RunConfig c;
    out.baseline = RunBaseline(*out.graph, c.baseline_runtime);
    out.problem = MakeRematProblem(*out.graph);
  } catch (const std::exception& e) {  // a TraceError, a simrd assertion in the baseline
    out.graph.reset();
    out.refusal = e.what();
  }
  return out;
}

}  // namespace

OptimumCaseResult CheckOptimumCase(const TraceLog& log, const ParseOptions& parse,
                                   const std::vector<double>& ratios,
                                   const OptimumFuzzOptions& options) {
  OptimumCaseResult out;
  out.ratios = ratios;
  out.operators = log.NumOperators();
  Prepared prep = Prepare(log, parse);
  if (!prep.graph) {
    out.refusal = prep.refusal;
    return out;
  }
  for (double ratio : ratios) {
    if (options.cancel && options.cancel->load()) break;
    out.budgets.push_back(CheckOptimumAt(*prep.graph, prep.problem, prep.baseline,
                                         BudgetFromRatio(prep.baseline.peak, ratio), options));
  }
  return out;
}

bool ShowsOptimumViolation(const TraceLog& log, const ParseOptions& parse, Int budget,
                           const std::string& kind, const OptimumFuzzOptions& options,
                           OptimumAtBudget* at) {
  Prepared prep = Prepare(log, parse);
  if (!prep.graph) return false;
  OptimumAtBudget here = CheckOptimumAt(*prep.graph, prep.problem, prep.baseline, budget, options);
  bool shows = false;
  for (const OptimumViolation& v : here.violations) shows |= v.kind == kind;
  if (at) *at = std::move(here);
  return shows;
}

ReducedViolation ReduceOptimumViolation(const TraceLog& log, const ParseOptions& parse, Int budget,
                                        const std::string& kind, const OptimumFuzzOptions& options,
                                        const TraceShrinker& shrink, double max_seconds) {
  const auto started = std::chrono::steady_clock::now();
  ReducedViolation r;
  auto interesting = [&](const TraceLog& candidate) {
    if (Seconds(started) >= max_seconds || (options.cancel && options.cancel->load())) {
      r.time_limited = true;
      return false;
    }
    return ShowsOptimumViolation(candidate, parse, budget, kind, options);
  };
  r.shrink = shrink(log, interesting);
  r.log = r.shrink.log;
  // The reduced trace's answers, for the manifest (the time limit no longer applies).
  ShowsOptimumViolation(r.log, parse, budget, kind, options, &r.at);
  r.seconds = Seconds(started);
  return r;
}

Json OptimumAtBudgetToJson(const OptimumAtBudget& at) {
  Json solves = Json::array();
  for (const CheckedSolve& s : at.solves) {
    Json j = {{"name", s.name},
              {"status", OptimalStatusName(s.result.status)},
              {"proof", s.result.proof},
              {"best_bound", s.result.best_bound},
              {"lp_bound", s.result.lp_bound},
              {"engine", s.result.engine},
              {"seconds", std::round(s.result.seconds * 1000) / 1000}};
    if (s.result.compute) j["compute"] = Json(*s.result.compute);
    if (!s.result.incumbent_source.empty()) j["warm_start"] = s.result.incumbent_source;
    if (!s.check_error.empty()) j["schedule_check"] = "FAILED: " + s.check_error;
    solves.push_back(j);
  }
  Json violations = Json::array();
  for (const OptimumViolation& v : at.violations)
    violations.push_back({{"kind", v.kind}, {"detail", v.detail}});
  Json j = {{"budget", Json(at.budget)},
            {"runs", at.runs},
            {"ok_runs", at.ok_runs},
            {"checked_runs", at.checked_runs},
            {"cheapest", at.cheapest ? Json(*at.cheapest) : Json()},
            {"cheapest_source", at.cheapest_source},
            {"solves", solves},
            {"gaps", at.gaps.size()},
            {"violations", violations}};
  return j;
}

std::string ArchiveOptimumViolation(const std::string& archive, const TraceLog& original,
                                    const ParseOptions& parse, Int budget, const std::string& kind,
                                    const ReducedViolation& r, const OptimumFuzzOptions& options,
                                    const OptimumProvenance& provenance) {
  const std::string text = TraceLogText(r.log);
  const Json parse_json = ParseOptionsToJson(parse);
  const std::string id = Sha256OfText(text + "\n" + parse_json.dump() + "\n" + IntToString(budget) +
                                      "\n" + kind + "\n" + options.plant)
                             .substr(0, 16);
  const fs::path dir = fs::path(archive) / id;
  if (fs::exists(dir)) return id;
  StagedEntry staged(archive, id);
  WriteTraceLogFile(r.log, (staged.staging() / "trace.log").string());
  WriteTraceLogFile(original, (staged.staging() / "original.log").string());
  const std::string entry = (fs::path(archive) / id).string();
  Json manifest = {{"format", 1},
                   {"id", id},
                   {"kind", kind},
                   {"status", options.plant.empty() ? "open" : "planted"},
                   {"plant", options.plant.empty() ? Json() : Json(options.plant)},
                   {"budget", Json(budget)},
                   {"parse", parse_json},
                   {"solve_seconds", options.solve_seconds},
                   {"compare_engines", options.compare_engines},
                   {"trace", "trace.log"},
                   {"trace_sha256", Sha256OfText(text)},
                   {"operators", r.log.NumOperators()},
                   {"instructions", r.log.instrs.size()},
                   {"original",
                    {{"trace", "original.log"},
                     {"trace_sha256", Sha256OfText(TraceLogText(original))},
                     {"operators", original.NumOperators()},
                     {"instructions", original.instrs.size()}}},
                   {"reduction",
                    {{"tests", r.shrink.tests},
                     {"minimal", r.shrink.minimal},
                     {"time_limited", r.time_limited},
                     {"seconds", r.seconds}}},
                   {"found", provenance.found},
                   {"at_budget", OptimumAtBudgetToJson(r.at)},
                   {"dtrcheck_commit", provenance.commit},
                   {"commands",
                    {{"found_by", provenance.command},
                     {"reproduce", provenance.reproduce},
                     {"optimal", "dtrcheck optimal " + entry + "/trace.log --budget " +
                                     IntToString(budget) + " --warm-start all --json"},
                     {"replay", "dtrcheck fuzz-optimal --replay " + archive}}}};
  staged.WriteText("manifest.json", manifest.dump(2) + "\n");
  staged.Publish();
  return id;
}

OptimumReplay ReplayOptimumViolation(const std::string& entry_dir, const OptimumFuzzOptions& base) {
  const fs::path dir(entry_dir);
  const std::string manifest_path = (dir / "manifest.json").string();
  const Json manifest = ReadJsonFile(manifest_path);  // names the file and line when broken
  try {
    JsonFields j(manifest);
    OptimumReplay out;
    out.kind = j.String("kind");
    out.status = j.String("status");
    if (out.status != "open" && out.status != "fixed" && out.status != "planted")
      throw FieldError("status: expected open, fixed or planted, got \"" + out.status + "\"");
    const std::string trace = (dir / j.String("trace")).string();
    if (Sha256OfFile(trace) != j.String("trace_sha256"))
      throw FieldError("trace " + trace + " changed since it was archived");
    const ParseOptions parse = ParseOptionsFromJson(j.Object("parse").json());
    const Int budget = j.Integer("budget");
    OptimumFuzzOptions o = base;
    if (auto s = j.OptionalNumber("solve_seconds")) o.solve_seconds = std::max(o.solve_seconds, *s);
    if (auto c = j.OptionalBool("compare_engines")) o.compare_engines = *c;
    const TraceLog log = ReadTraceLogFile(trace);
    OptimumAtBudget at;
    o.plant.clear();
    out.shows_unplanted = ShowsOptimumViolation(log, parse, budget, out.kind, o, &at);
    out.violations = at.violations;
    out.shows = out.shows_unplanted;
    if (auto plant = j.OptionalString("plant")) {
      o.plant = *plant;
      out.shows = ShowsOptimumViolation(log, parse, budget, out.kind, o);
    }
    return out;
  } catch (const FieldError& e) {
    throw std::invalid_argument(manifest_path + ": " + e.what());
  }
}

}  // namespace dtrcheck
