// dtrcheck sweep: one configuration over a grid of budgets (or several
// heuristics over it, --heuristics), printed in budget order.
//
// Output never depends on --jobs: points are written in grid order as soon
// as every earlier point is written. Ctrl-C stops the runs in progress and
// writes the finished points, still in order, to FILE.partial (never FILE,
// where they would read as the whole sweep); --resume FILE.partial reads
// them back and runs only the rest. -o never names an input (the trace, a
// merged file): refused, whatever the names (io/atomic_file.h). --shard i/n
// runs the points whose index is i modulo n; `--merge a.jsonl b.jsonl ...`
// puts shard outputs back together.
#include <cstdio>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <sstream>

#include "cli/commands.h"
#include "cli/grid_options.h"
#include "cli/interrupt.h"
#include "cli/memory_option.h"
#include "cli/number_option.h"
#include "cli/progress.h"
#include "cli/simulation_options.h"
#include "cli/sweep_io.h"
#include "cli/sweep_plot.h"
#include "io/record.h"
#include "sim/accepted_pairs.h"
#include "sim/heuristic.h"
#include "sim/runtime.h"

namespace dtrcheck {

namespace {

struct SweepCommandOptions {
  SimulationOptions sim;
  MemoryFlags memory;
  GridOptions grid;
  std::string format = "table";
  std::string output, plot, resume, shard, heuristics;
  std::vector<std::string> merge;
  bool stats = false;
};

struct Shard {
  size_t index = 0, count = 1;
};

Shard ParseShard(const std::string& text) {
  Shard s;
  if (text.empty()) return s;
  auto fail = [&text]() -> Shard {
    throw CLI::ValidationError("--shard", "expected i/n with 0 <= i < n, got \"" + text + "\"");
  };
  const auto slash = text.find('/');
  if (slash == std::string::npos) return fail();
  // Each optional tested before it is read, one at a time: GCC's
  // maybe-uninitialized analysis saw through the combined test wrongly
  // once the profile-guided build inlined this function.
  const std::optional<Int> i = ParseInt(text.substr(0, slash));
  if (!i) return fail();
  const std::optional<Int> n = ParseInt(text.substr(slash + 1));
  if (!n) return fail();
  if (*n < 1 || *i < 0 || *i >= *n) return fail();
  // n past size_t would wrap (2^64 to 0: a division by zero).
  if (*n > static_cast<Int>(std::numeric_limits<size_t>::max()))
    throw CLI::ValidationError("--shard", "n must be below 2^64, got \"" + text + "\"");
  s.index = static_cast<size_t>(*i);
  s.count = static_cast<size_t>(*n);
  return s;
}

int RunMerge(const SweepCommandOptions& o) {
  if (!o.sim.trace.empty() || !o.grid.from.empty() || !o.resume.empty() || !o.shard.empty())
    throw CLI::ValidationError("--merge", "takes only jsonl files, --format, --plot and -o");
  for (const auto& input : o.merge) RefuseSameFile(input, "--merge file", o.output, "-o");
  auto records = MergeSweepRecords(o.merge);
  SweepFormat format = ParseSweepFormat(o.format);
  std::map<std::string, int> heuristics;
  for (const auto& r : records) heuristics[r.config.heuristic] = 1;
  const bool with_heuristic = heuristics.size() > 1;
  OutputFile out(o.output);
  out.stream() << SweepHeader(format, with_heuristic);
  // Merged jsonl rows keep the sweep_check their sweep gave them (a shard's
  // check is the whole sweep's: same trace and options), so that the merged
  // file can be resumed.
  const std::map<std::string, std::string> checks =
      format == SweepFormat::kJsonl ? SweepChecks(o.merge) : std::map<std::string, std::string>{};
  for (const auto& r : records) {
    auto it = checks.find(PointIdentity(r).dump());
    if (it == checks.end()) {
      out.stream() << SweepRow(format, r, with_heuristic);
    } else {
      Json j = RecordToJson(r);
      j["sweep_check"] = it->second;
      out.stream() << j.dump() << "\n";
    }
  }
  out.Commit();
  if (!o.plot.empty()) WriteSweepPlot(o.plot, records, {}, SweepPlotTitle("", records));
  return 0;
}

std::vector<std::string> SplitNames(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream ss(text);
  for (std::string item; std::getline(ss, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

// The runtime refuses a heuristic that needs features it lacks; say so
// before any output is written rather than at the first point.
void CheckPair(const std::string& runtime, const std::string& heuristic) {
  auto h = MakeHeuristic(heuristic);
  if (!h || heuristic == "Heuristic") {
    std::string valid;
    for (const auto& n : AllHeuristicNames()) valid += " " + n;
    throw CLI::ValidationError("--heuristics",
                               "unknown heuristic \"" + heuristic + "\"; valid:" + valid);
  }
  if (auto refusal = PairRefusal(*RuntimeKindFromName(runtime), *h))
    throw std::invalid_argument(runtime + " refuses heuristic " + heuristic + ": " + *refusal);
}

int RunSweepCommand(const SweepCommandOptions& options) {
  SweepCommandOptions o = options;  // its simulation options finished below
  if (!o.merge.empty()) return RunMerge(o);
  if (o.sim.trace.empty())
    throw CLI::ValidationError("TRACE", "a trace is required (or --merge FILES)");
  FinishSimulationOptions(&o.sim);
  o.sim.config.memory = FinishMemoryOptions(o.memory);
  RefuseSameFile(o.sim.trace, "trace", o.output, "-o");
  if (o.sim.config.budget || o.sim.config.ratio)
    throw CLI::ValidationError("--budget/--ratio", "a sweep takes --from, --to and --step instead");
  o.sim.config.stats = o.stats;
  const SweepFormat format = ParseSweepFormat(o.format);
  const Shard shard = ParseShard(o.shard);
  const std::vector<BudgetSpec> budgets = GridBudgets(o.grid);
  std::vector<std::string> heuristics = o.heuristics.empty()
                                            ? std::vector<std::string>{o.sim.config.heuristic}
                                            : SplitNames(o.heuristics);
  if (heuristics.empty()) throw CLI::ValidationError("--heuristics", "no heuristic named");
  for (const auto& h : heuristics) CheckPair(o.sim.config.runtime, h);
  const bool with_heuristic = heuristics.size() > 1;

  Graph graph = ParseTraceFile(o.sim.trace, o.sim.parse);
  Baseline baseline = RunBaseline(graph, o.sim.config.baseline_runtime);
  // jsonl rows carry a check that --resume verifies (ReadResumeFile).
  const std::string check_key =
      format == SweepFormat::kJsonl || !o.resume.empty()
          ? SweepCheckKey(o.sim.trace, o.sim.parse, o.sim.config.baseline_runtime)
          : "";

  // Point g is budget g % nb of heuristic g / nb.
  const size_t nb = budgets.size(), total = heuristics.size() * nb;
  auto config_of = [&](size_t h) {
    RunConfig c = o.sim.config;
    c.heuristic = heuristics[h];
    return c;
  };
  std::vector<bool> mine(total);
  for (size_t g = 0; g < total; ++g) mine[g] = g % shard.count == shard.index;
  std::vector<std::optional<RunRecord>> records(total);

  if (!o.resume.empty()) {
    std::map<std::string, size_t> by_identity;
    for (size_t g = 0; g < total; ++g)
      if (mine[g])
        by_identity[ExpectedIdentity(config_of(g / nb), budgets[g % nb], baseline).dump()] = g;
    for (auto& [line, r] : ReadResumeFile(o.resume, check_key)) {
      auto it = by_identity.find(PointIdentity(r).dump());
      if (it == by_identity.end())
        throw std::invalid_argument(
            o.resume + ":" + std::to_string(line) + ": the record " + PointIdentity(r).dump() +
            " is not a point of this sweep (other grid, shard or options?)");
      records[it->second] = std::move(r);
    }
  }

  OutputFile out(o.output);
  const bool to_stdout = o.output.empty() || o.output == "-";
  out.stream() << SweepHeader(format, with_heuristic);
  size_t next = 0;  // the first point not written yet
  auto write_ready = [&](bool final) {
    for (; next < total; ++next) {
      if (mine[next] && records[next]) {
        out.stream() << SweepRow(format, *records[next], with_heuristic, check_key);
      } else if (mine[next] && !final) {
        break;
      }
    }
    out.stream().flush();
  };
  write_ready(false);

  size_t to_run = 0, done = 0;
  for (size_t g = 0; g < total; ++g) to_run += mine[g] && !records[g];
  InterruptGuard interrupt;
  {
    ProgressBar bar("sweep", to_run);
    for (size_t h = 0; h < heuristics.size() && !interrupt.interrupted(); ++h) {
      SweepOptions so;
      so.jobs = EffectiveJobs(o.grid);
      so.cancel = interrupt.flag();
      so.skip.resize(nb);
      for (size_t i = 0; i < nb; ++i)
        so.skip[i] = !mine[h * nb + i] || records[h * nb + i].has_value();
      so.on_point = [&](const SweepPoint& p, size_t, size_t) {
        records[h * nb + p.index] = p.record;
        if (to_stdout) bar.Clear();  // rows and bar may share a terminal
        write_ready(false);
        bar.Update(++done);
      };
      RunSweep(graph, config_of(h), baseline, budgets, so);
    }
  }
  write_ready(true);
  // Read once: a Ctrl-C after the last point must not make a complete
  // output partial half-way through.
  const bool stopped = interrupt.interrupted();
  const std::string partial = stopped ? out.CommitPartial() : "";
  if (!stopped) {
    out.Commit();
    // A finished resume of FILE.partial supersedes it.
    if (!to_stdout && o.resume == PartialPath(o.output)) std::remove(o.resume.c_str());
  }

  if (!o.plot.empty()) {
    std::vector<RunRecord> finished;
    for (size_t g = 0; g < total; ++g)
      if (records[g]) finished.push_back(*records[g]);
    WriteSweepPlot(o.plot, finished, {}, SweepPlotTitle(o.sim.trace, finished));
  }
  if (stopped) {
    size_t written = 0, wanted = 0;
    for (size_t g = 0; g < total; ++g) {
      wanted += mine[g];
      written += mine[g] && records[g];
    }
    std::cerr << "dtrcheck sweep: interrupted; wrote " << written << " of " << wanted << " points"
              << (partial.empty() ? "" : " to " + partial + " (not " + o.output + ": incomplete)")
              << "; rerun with --format jsonl --resume "
              << (partial.empty() ? "FILE" : partial + " -o " + o.output) << " to continue\n";
    return kExitInterrupted;
  }
  return 0;
}

CLI::App* RegisterSweep(CLI::App& app, SweepCommandOptions* o) {
  auto* cmd =
      app.add_subcommand("sweep", "run one configuration over a grid of budgets, in budget order");
  AddSimulationOptions(cmd, &o->sim, /*budget_optional=*/true);
  AddMemoryOptions(cmd, &o->memory);
  cmd->get_option("TRACE")->required(false);
  RemoveBudgetOptions(cmd);
  AddGridOptions(cmd, &o->grid);
  cmd->add_option("--format", o->format, "table, csv or jsonl (one run record per line)")
      ->capture_default_str();
  cmd->add_option("-o,--output", o->output,
                  "write to FILE (atomically; an interrupted sweep to FILE.partial) instead of "
                  "stdout");
  cmd->add_option("--plot", o->plot, "also draw overhead against budget to FILE.svg");
  cmd->add_option(
      "--resume", o->resume,
      "reuse the records of this jsonl file (e.g. an interrupted sweep's output) and run "
      "only the missing points; may be the -o file");
  cmd->add_option("--shard", o->shard, "run only the points whose index is i modulo n (i/n)")
      ->check(NonEmptyNumber());
  cmd->add_option("--heuristics", o->heuristics,
                  "comma-separated heuristics to sweep one after the other (an ablation), instead "
                  "of --heuristic; " +
                      HeuristicNamesHelp());
  cmd->add_flag("--stats", o->stats, "include per-storage statistics in jsonl records");
  cmd->add_option("--merge", o->merge,
                  "merge jsonl sweep files (e.g. shards) into one, in sweep order; no TRACE")
      ->expected(1, -1);
  return cmd;
}

}  // namespace

Action AddSweepCommand(CLI::App& app) {
  auto o = std::make_shared<SweepCommandOptions>();
  return {RegisterSweep(app, o.get()), [o] { return RunSweepCommand(*o); }};
}

}  // namespace dtrcheck
