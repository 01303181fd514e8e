// dtrcheck fuzz-optimal: the differential fuzzer of the optimum
// (optimal/optimum_fuzz.h; optimal/README.md, "The optimum fuzzer"). Its
// traces are the differential fuzzer's cases (fuzz/lib/diff_case.h:
// generated, shrunk to --max-operators, mutated), its budgets three ratios
// per case; a violation is shrunk with reduce/'s reducer and archived.
// Case I of seed S is a function of (S, I) alone, and the cases counted
// are the finished prefix 0..N-1, whatever --jobs; what a solve proves
// within its time limit can still depend on the machine's load.
#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <map>
#include <mutex>
#include <thread>

#include "cli/build_info.h"
#include "cli/commands.h"
#include "cli/interrupt.h"
#include "cli/number_option.h"
#include "cli/progress.h"
#include "cli/provenance.h"
#include "fuzz/lib/diff_case.h"
#include "optimal/optimum_fuzz.h"
#include "reduce/reducer.h"

namespace dtrcheck {

namespace {

namespace fs = std::filesystem;

struct FuzzOptimalOptions {
  double seconds = 0;  // wall clock; 0 with no --cases: 60
  int64_t cases = -1;
  int64_t only_case = -1;
  uint64_t seed = 1;
  std::string archive = "corpus/optimal-violation";
  int jobs = 1;
  size_t max_operators = 150;
  int max_mutations = 3;
  double solve_seconds = 2;
  double reduce_seconds = 120;
  bool no_reduce = false;
  bool json = false;
  std::string plant;  // testing aid (PlantedDefects)
  std::string replay;
};

double CpuSeconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

// What one case contributed to the campaign's figures.
struct CaseFigures {
  bool refused = false;
  size_t operators = 0, budgets = 0, runs = 0, ok_runs = 0, gaps = 0;
  std::map<std::string, size_t> statuses;    // "optimal: infeasible" -> solves
  std::map<std::string, size_t> violations;  // kind -> budgets showing it
  std::vector<std::string> mutations;
  std::vector<std::string> archived;  // ids
};

DiffCase CaseOf(const FuzzOptimalOptions& o, uint64_t index) {
  DiffCaseOptions c;
  c.max_operators = o.max_operators;
  c.max_mutations = o.max_mutations;
  c.configs = 1;  // unused: every accepted pair runs
  return MakeDiffCase(o.seed, index, c);
}

OptimumFuzzOptions SolveOptionsOf(const FuzzOptimalOptions& o, const std::atomic<bool>* cancel) {
  OptimumFuzzOptions f;
  f.solve_seconds = o.solve_seconds;
  f.plant = o.plant;
  f.cancel = cancel;
  return f;
}

std::string Reproduce(const FuzzOptimalOptions& o, uint64_t index) {
  return "dtrcheck fuzz-optimal --seed " + std::to_string(o.seed) + " --case " +
         std::to_string(index) + " --max-operators " + std::to_string(o.max_operators) +
         " --max-mutations " + std::to_string(o.max_mutations) + " --solve-time " +
         std::to_string(o.solve_seconds) + (o.plant.empty() ? "" : " --plant " + o.plant);
}

CaseFigures RunCase(const FuzzOptimalOptions& o, uint64_t index, const std::atomic<bool>* cancel,
                    Json* detail) {
  const DiffCase c = CaseOf(o, index);
  const OptimumFuzzOptions f = SolveOptionsOf(o, cancel);
  const std::vector<double> ratios = OptimumFuzzRatios(o.seed, index);
  const OptimumCaseResult r = CheckOptimumCase(c.log, c.parse, ratios, f);
  CaseFigures fig;
  fig.refused = !r.refusal.empty();
  fig.operators = r.operators;
  fig.mutations = c.mutations;
  if (detail) {
    *detail = {{"case", index},        {"operators", r.operators}, {"mutations", c.mutations},
               {"refusal", r.refusal}, {"ratios", r.ratios},       {"budgets", Json::array()}};
    for (const OptimumAtBudget& at : r.budgets)
      (*detail)["budgets"].push_back(OptimumAtBudgetToJson(at));
  }
  bool archived = false;
  for (size_t b = 0; b < r.budgets.size(); ++b) {
    const OptimumAtBudget& at = r.budgets[b];
    ++fig.budgets;
    fig.runs += at.runs;
    fig.ok_runs += at.ok_runs;
    fig.gaps += at.gaps.size();
    for (const CheckedSolve& s : at.solves)
      ++fig.statuses[s.name + ": " + OptimalStatusName(s.result.status)];
    const std::vector<OptimumViolation>& violations = at.violations;
    std::map<std::string, bool> kinds;
    for (const OptimumViolation& v : violations) kinds[v.kind] = true;
    for (const auto& [kind, _] : kinds) ++fig.violations[kind];
    // One violation per case is reduced and archived: the others on the
    // same trace are usually the same defect.
    if (archived || violations.empty() || o.archive.empty()) continue;
    archived = true;
    const std::string kind = violations.front().kind;
    TraceShrinker shrink = [&](const TraceLog& start,
                               const std::function<bool(const TraceLog&)>& interesting) {
      ShrinkResult s;
      if (o.no_reduce) {
        s.log = start;
        return s;
      }
      ReduceOptions ro;
      ro.cancel = cancel;
      ReduceResult red = Reduce(start, interesting, ro);
      s.log = std::move(red.log);
      s.tests = red.tests;
      s.minimal = red.minimal;
      return s;
    };
    ReducedViolation red =
        ReduceOptimumViolation(c.log, c.parse, at.budget, kind, f, shrink, o.reduce_seconds);
    OptimumProvenance p;
    p.commit = DTRCHECK_COMMIT;
    p.command = CommandLine();
    p.reproduce = Reproduce(o, index);
    p.found = {{"seed", o.seed},
               {"case", index},
               {"ratio", ratios[b]},
               {"generator",
                {{"shape", c.generator.shape},
                 {"seed", c.generator.seed},
                 {"layers", c.generator.layers},
                 {"width", c.generator.width},
                 {"base_bytes", c.generator.base_bytes}}},
               {"mutations", c.mutations},
               {"violations", OptimumAtBudgetToJson(at)["violations"]}};
    fig.archived.push_back(
        ArchiveOptimumViolation(o.archive, c.log, c.parse, at.budget, kind, red, f, p));
  }
  return fig;
}

int Replay(const FuzzOptimalOptions& o) {
  // A replay that finds nothing to replay checks nothing.
  if (!fs::is_directory(o.replay))
    throw CLI::ValidationError("--replay", o.replay + ": no such directory");
  std::vector<fs::path> entries;
  for (const auto& e : fs::directory_iterator(o.replay))
    if (fs::exists(e.path() / "manifest.json")) entries.push_back(e.path());
  if (entries.empty())
    throw CLI::ValidationError("--replay",
                               o.replay + ": no archived violations (DIR/*/manifest.json)");
  std::sort(entries.begin(), entries.end());
  OptimumFuzzOptions f = SolveOptionsOf(o, nullptr);
  int failed = 0, open = 0;
  for (const auto& e : entries) {
    const OptimumReplay r = ReplayOptimumViolation(e.string(), f);
    std::string verdict;
    if (r.status == "planted") {
      // The planted defect must still be caught, and the code without it clean.
      if (!r.shows)
        verdict = "its planted defect is no longer caught as " + r.kind;
      else if (r.shows_unplanted)
        verdict = "it shows " + r.kind + " without its planted defect";
    } else if (r.status == "open" && !r.shows_unplanted) {
      verdict = "no " + r.kind + " any more; set \"status\": \"fixed\" in its manifest";
    } else if (r.status == "fixed" && r.shows_unplanted) {
      verdict = "a fixed " + r.kind + " is back: " + r.violations.front().detail;
    }
    if (!verdict.empty()) {
      ++failed;
      std::cout << "FAIL " << e.string() << ": " << verdict << "\n";
    } else if (r.status == "open") {
      ++open;
      std::cout << "OPEN " << e.string() << " (" << r.kind << ")\n";
    }
  }
  std::cout << entries.size() - failed - open << " fixed or planted and as archived, " << open
            << " open, " << failed << " failed (" << o.replay << ")\n";
  return failed ? 1 : 0;
}

int RunFuzzOptimal(const FuzzOptimalOptions& options) {
  FuzzOptimalOptions o = options;
  if (!o.replay.empty()) return Replay(o);
  if (o.cases < 0 && o.seconds == 0 && o.only_case < 0) o.seconds = 60;
  InterruptGuard guard;
  const auto t0 = std::chrono::steady_clock::now();
  const double cpu0 = CpuSeconds();
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  if (o.only_case >= 0) {
    Json detail;
    CaseFigures fig = RunCase(o, static_cast<uint64_t>(o.only_case), guard.flag(), &detail);
    detail["archived"] = fig.archived;
    std::cout << detail.dump(2) << "\n";
    if (guard.interrupted()) return kExitInterrupted;
    return fig.violations.empty() ? 0 : 1;
  }
  const uint64_t limit = o.cases >= 0 ? static_cast<uint64_t>(o.cases) : UINT64_MAX;
  std::atomic<uint64_t> next{0};
  std::mutex mutex;
  std::map<uint64_t, CaseFigures> results;
  std::string error;
  ProgressBar bar("fuzz-optimal",
                  o.cases >= 0 ? static_cast<size_t>(o.cases) : static_cast<size_t>(o.seconds));
  auto worker = [&] {
    try {
      for (;;) {
        if (guard.interrupted()) break;
        if (o.seconds > 0 && elapsed() >= o.seconds) break;
        const uint64_t i = next++;
        if (i >= limit) break;
        CaseFigures fig = RunCase(o, i, guard.flag(), nullptr);
        // A case cut by Ctrl-C is not finished: it does not count.
        if (guard.interrupted()) break;
        std::lock_guard<std::mutex> lock(mutex);
        results[i] = std::move(fig);
        bar.Update(o.cases >= 0 ? results.size() : static_cast<size_t>(elapsed()));
      }
    } catch (const std::exception& e) {
      std::lock_guard<std::mutex> lock(mutex);
      if (error.empty()) error = e.what();
    }
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < o.jobs; ++t) threads.emplace_back(worker);
  for (auto& t : threads) t.join();
  bar.Clear();
  const double seconds = elapsed(), cpu = CpuSeconds() - cpu0;
  if (!error.empty()) std::cerr << "dtrcheck fuzz-optimal: " << error << "\n";
  // Only the prefix of consecutive finished cases counts.
  uint64_t done = 0;
  while (results.count(done)) ++done;
  size_t refused = 0, budgets = 0, runs = 0, ok_runs = 0, gaps = 0, max_ops = 0, sum_ops = 0;
  std::map<std::string, size_t> statuses, violations, mutations;
  Json archived = Json::array();
  for (uint64_t i = 0; i < done; ++i) {
    const CaseFigures& f = results.at(i);
    refused += f.refused;
    budgets += f.budgets;
    runs += f.runs;
    ok_runs += f.ok_runs;
    gaps += f.gaps;
    max_ops = std::max(max_ops, f.operators);
    sum_ops += f.operators;
    for (const auto& [k, n] : f.statuses) statuses[k] += n;
    for (const auto& [k, n] : f.violations) violations[k] += n;
    for (const auto& m : f.mutations) ++mutations[m];
    for (const auto& id : f.archived) archived.push_back({{"case", i}, {"id", id}});
  }
  size_t violating = 0;
  for (const auto& [k, n] : violations) violating += n;
  Json summary = {{"seed", o.seed},
                  {"cases", done},
                  {"cases_refused", refused},
                  {"budgets", budgets},
                  {"runs", runs},
                  {"ok_runs", ok_runs},
                  {"documented_gaps", gaps},
                  {"max_operators", max_ops},
                  {"mean_operators", done ? static_cast<double>(sum_ops) / done : 0.0},
                  {"solves", statuses},
                  {"violations", violations},
                  {"archived", archived},
                  {"cases_with_mutation", mutations},
                  {"seconds", seconds},
                  {"cpu_seconds", cpu},
                  {"jobs", o.jobs},
                  {"solve_seconds", o.solve_seconds},
                  {"plant", o.plant.empty() ? Json() : Json(o.plant)},
                  {"archive", o.archive},
                  {"interrupted", guard.interrupted()},
                  {"error", error.empty() ? Json() : Json(error)},
                  {"dtrcheck_commit", DTRCHECK_COMMIT},
                  {"command", CommandLine()}};
  if (o.json) {
    std::cout << summary.dump(2) << "\n";
  } else {
    std::cout << "fuzz-optimal seed " << o.seed << ": " << done << " cases (" << refused
              << " refused), " << budgets << " budgets, " << runs << " runs (" << ok_runs
              << " ok) in " << std::fixed << std::setprecision(0) << seconds << " s, " << cpu
              << " CPU-s, " << o.jobs << " jobs\n";
    std::cout << "solves:";
    for (const auto& [k, n] : statuses) std::cout << " [" << k << "] " << n;
    std::cout << "\nviolations: " << violating;
    for (const auto& [k, n] : violations) std::cout << " " << k << " " << n;
    for (const auto& a : archived)
      std::cout << "\n  case " << a["case"] << ": " << o.archive << "/"
                << a["id"].get<std::string>();
    std::cout << "\n";
  }
  if (guard.interrupted()) return kExitInterrupted;
  return violating == 0 && error.empty() ? 0 : 1;
}

CLI::App* RegisterFuzzOptimal(CLI::App& app, FuzzOptimalOptions* o) {
  auto* cmd = app.add_subcommand(
      "fuzz-optimal",
      "differential fuzzing of the optimum: generated and mutated traces, every accepted "
      "runtime/heuristic pair at three budgets, each ok run a checked schedule; an optimum "
      "above one, a wrong infeasibility, a refused schedule or engines that disagree is "
      "reduced and archived");
  cmd->add_option("--time", o->seconds,
                  "run for this many wall-clock seconds (default 60 without --cases)")
      ->check(FinitePositive(1e9));
  cmd->add_option("--cases", o->cases, "run cases 0..N-1")->check(IntegerRangeOf<int64_t>(0));
  cmd->add_option("--case", o->only_case, "run only this case and print its budgets as JSON")
      ->check(IntegerRangeOf<int64_t>(0));
  cmd->add_option("--seed", o->seed, "campaign seed")->check(IntegerRangeOf<uint64_t>());
  cmd->add_option("--archive", o->archive, "where violations are filed ('' : nowhere)")
      ->capture_default_str();
  cmd->add_option("--jobs,-j", o->jobs, "threads")
      ->check(IntegerRange(1, 256))
      ->capture_default_str();
  cmd->add_option("--max-operators", o->max_operators,
                  "generated traces are shrunk to at most this many operators")
      ->check(IntegerRange(1, 100000))
      ->capture_default_str();
  cmd->add_option("--max-mutations", o->max_mutations, "mutations per trace")
      ->check(IntegerRange(0, 64))
      ->capture_default_str();
  cmd->add_option("--solve-time", o->solve_seconds, "wall-clock seconds per solve")
      ->check(FinitePositive(1e6))
      ->capture_default_str();
  cmd->add_option("--reduce-time", o->reduce_seconds, "seconds per reduction")
      ->check(FinitePositive(1e9))
      ->capture_default_str();
  cmd->add_flag("--no-reduce", o->no_reduce, "archive violations unreduced");
  cmd->add_flag("--json", o->json, "print the summary as one JSON object");
  cmd->add_option("--plant", o->plant,
                  "testing aid: plant a defect in the optimum's answer, which must be caught "
                  "(infeasible: claims infeasible; bound: a bound above its schedule)")
      ->check(CLI::IsMember(PlantedDefects()));
  cmd->add_option("--replay", o->replay,
                  "replay the archive DIR instead of fuzzing (open entries must still show "
                  "their violation, fixed ones must not, planted ones only with their defect)");
  return cmd;
}

}  // namespace

Action AddFuzzOptimalCommand(CLI::App& app) {
  auto o = std::make_shared<FuzzOptimalOptions>();
  return {RegisterFuzzOptimal(app, o.get()), [o] { return RunFuzzOptimal(*o); }};
}

}  // namespace dtrcheck
