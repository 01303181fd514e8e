// dtrcheck reduce: shrink a trace to a 1-minimal one on which a pathology
// (inversion, cliff, pinned-oom, overhead) still holds (reduce/reducer.h).
//
// Writes OUT.log and OUT.manifest.json (analysis/finding_manifest.h, the
// format `dtrcheck archive add` files: property, budgets, the dtrcheck
// records before and after, simrd's records of the reduced trace when the
// oracle is available, operator counts, the command line). Ctrl-C stops the
// reduction and writes the best trace so far.
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <sstream>

#include "analysis/finding_manifest.h"
#include "analysis/format.h"
#include "analysis/reduce_property.h"
#include "analysis/simrd_confirm.h"
#include "cli/commands.h"
#include "cli/interrupt.h"
#include "cli/memory_option.h"
#include "cli/number_option.h"
#include "cli/renamed_option.h"
#include "cli/simulation_options.h"
#include "cli/trace_argument.h"
#include "io/atomic_file.h"
#include "io/trace_graph.h"
#include "io/trace_writer.h"
#include "reduce/reducer.h"
#include "reduce/trace_edits.h"
#include "sim/heuristic.h"
#include "traces/locate.h"

namespace dtrcheck {

namespace {

struct ReduceCommandOptions {
  std::string trace, out, property;
  SimulationOptions sim;  // runtime, heuristic, limits, seed (validated as for run)
  MemoryFlags memory;
  std::optional<double> lo, hi;
  std::string lo_bytes, hi_bytes;
  double cliff_factor = 2.0;     // cliff: overheads differ by at least this factor
  double rise_factor = 2.0;      // overhead-rise: hi's overhead above this times lo's
  std::string failure = "same";  // inversion: oom, thrashed, same or any
  bool no_oracle = false;
  bool json = false;  // the manifest on stdout
};

std::string CommandLine(const ReduceCommandOptions& a) {
  std::ostringstream s;
  s << "dtrcheck reduce " << a.trace << " --property "
    << TracePropertyName(TracePropertyFromName(a.property));
  if (a.lo) s << " --lo " << ShortestDouble(*a.lo);
  if (a.hi) s << " --hi " << ShortestDouble(*a.hi);
  if (!a.lo_bytes.empty()) s << " --lo-bytes " << a.lo_bytes;
  if (!a.hi_bytes.empty()) s << " --hi-bytes " << a.hi_bytes;
  const TraceProperty property = TracePropertyFromName(a.property);
  if (property == TraceProperty::kCliff) s << " --cliff-factor " << ShortestDouble(a.cliff_factor);
  if (property == TraceProperty::kOverheadRise)
    s << " --rise-factor " << ShortestDouble(a.rise_factor);
  if (property == TraceProperty::kInversion && a.failure != "same") s << " --failure " << a.failure;
  const RunConfig& c = a.sim.config;
  s << " --runtime " << c.runtime << " --heuristic " << c.heuristic << " --baseline-runtime "
    << c.baseline_runtime;
  if (c.overhead_limit) s << " --overhead-limit " << ShortestDouble(*c.overhead_limit);
  if (c.remat_limit) s << " --remat-limit " << IntToString(*c.remat_limit);
  if (c.seed) s << " --seed " << IntToString(*c.seed);
  if (c.memory.model != MemoryModel::kBytes) s << " --memory " << MemoryModelName(c.memory.model);
  if (c.memory.max_split_size_mb) s << " --max-split-size-mb " << *c.memory.max_split_size_mb;
  if (a.no_oracle) s << " --no-oracle";
  if (IsPluginHeuristic(c.heuristic) && !PluginOrigin(c.heuristic).empty())
    s << " --plugin " << PluginOrigin(c.heuristic);
  s << " -o " << a.out;
  return s.str();
}

// The property on a candidate: valid bindings, parses, runs without simrd
// assertions, and the pathology holds.
bool Interesting(const TraceLog& log, const PropertySpec& spec) {
  try {
    Graph g = TraceLogGraph(log, "candidate");
    return CheckTraceProperty(g, spec).holds;
  } catch (const TraceError&) {
    return false;
  }
}

int ReduceTrace(ReduceCommandOptions args) {
  FinishSimulationOptions(&args.sim);
  args.sim.config.memory = FinishMemoryOptions(args.memory);
  PropertySpec spec;
  spec.property = TracePropertyFromName(args.property);
  spec.config = args.sim.config;
  spec.factor =
      spec.property == TraceProperty::kOverheadRise ? args.rise_factor : args.cliff_factor;
  if (args.hi) {
    if (!args.lo_bytes.empty() || !args.hi_bytes.empty())
      throw std::invalid_argument(
          "give budgets either as ratios (--lo/--hi) or as bytes (--lo-bytes/--hi-bytes)");
    spec.hi = BudgetSpec::Ratio(*args.hi);
    if (args.lo) spec.lo = BudgetSpec::Ratio(*args.lo);
  } else if (!args.hi_bytes.empty()) {
    if (args.lo)
      throw std::invalid_argument(
          "give budgets either as ratios (--lo/--hi) or as bytes (--lo-bytes/--hi-bytes)");
    spec.hi = BudgetSpec::Bytes(ParseIntOption(args.hi_bytes, "--hi-bytes", true));
    if (!args.lo_bytes.empty()) {
      spec.lo = BudgetSpec::Bytes(ParseIntOption(args.lo_bytes, "--lo-bytes", true));
    }
  } else {
    throw std::invalid_argument(
        "a budget is required: --hi R (and --lo R) or --hi-bytes B (and --lo-bytes B)");
  }
  ValidatePropertySpec(spec);

  // Fail now, not after the reduction, if OUT or its manifest is the input
  // (whatever the names) or cannot be written (their temporaries are made
  // and removed: io/atomic_file.h).
  std::string manifest_path = ManifestPathFor(args.out);
  RefuseSameFile(args.trace, "trace", args.out, "-o");
  RefuseSameFile(args.trace, "trace", manifest_path, "the manifest");
  { AtomicFile probe_trace(args.out), probe_manifest(manifest_path); }

  const std::string& path = args.trace;  // resolved by TraceArgument()
  TraceLog original = ReadTraceLogFile(path);
  if (std::string why = CheckBindings(original); !why.empty())
    throw TraceError(path, 0, "not reducible: " + why);
  Graph graph = ParseTraceFile(path);
  if (spec.property == TraceProperty::kInversion && args.failure != "any") {
    if (args.failure == "oom") spec.failure = Status::kOom;
    if (args.failure == "thrashed") spec.failure = Status::kThrashed;
    if (args.failure == "same") {  // how the original fails at hi
      PropertyCheck found = CheckTraceProperty(graph, spec);
      if (found.holds) spec.failure = found.runs.back().status;
    }
  }
  PropertyCheck before = CheckTraceProperty(graph, spec);
  if (!before.holds) {
    std::cerr << "dtrcheck reduce: the " << args.property << " property does not hold on " << path
              << ": " << before.summary << "\n";
    return 1;
  }

  const bool tty = isatty(STDERR_FILENO);
  auto started = std::chrono::steady_clock::now();
  InterruptGuard interrupt;
  ReduceOptions options;
  options.cancel = interrupt.flag();
  options.on_progress = [&](const ReduceProgress& p) {
    if (!tty) return;
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    std::fprintf(
        stderr,
        "\r\033[Kreduce: round %zu %-8s %6zu tests  %6zu instructions  %5zu operators  %.0fs",
        p.round, p.pass, p.tests, p.instructions, p.operators, seconds);
    std::fflush(stderr);
  };
  ReduceResult result = Reduce(
      original, [&](const TraceLog& log) { return Interesting(log, spec); }, options);
  if (tty) std::fprintf(stderr, "\r\033[K");
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();

  WriteTraceLogFile(result.log, args.out);
  PropertyCheck after = CheckTraceProperty(ParseTraceFile(args.out), spec);

  FindingManifest manifest;
  manifest.spec = spec;
  SetCheck(&manifest, after);
  manifest.trace = std::filesystem::path(args.out).filename().string();
  manifest.trace_sha256 = Sha256OfFile(args.out);
  manifest.operators = {{"before", original.NumOperators()}, {"after", result.log.NumOperators()}};
  manifest.instructions = {{"before", original.instrs.size()}, {"after", result.log.instrs.size()}};
  manifest.reduction = {{"tests", result.tests},
                        {"rounds", result.rounds},
                        {"one_minimal", result.minimal},
                        {"interrupted", result.cancelled},
                        {"seconds", std::round(seconds * 10) / 10}};
  manifest.before = {{"trace", path}, {"sha256", Sha256OfFile(path)}};
  manifest.before.update(CheckToJson(before, spec));
  manifest.commands = {{"reduce", CommandLine(args)}};
  // Written once without simrd's verdict, so that OUT and its manifest exist
  // even if simrd (slow on big traces) is stopped with a second Ctrl-C.
  SimrdConfirmation simrd;
  simrd.error = args.no_oracle ? "--no-oracle" : "not asked yet";
  manifest.simrd_status = SimrdStatus(simrd);
  manifest.simrd = simrd.ToJson();
  WriteFindingManifest(manifest, manifest_path);
  if (ConfirmPluginByReplay(after.holds, &manifest)) {  // `after` replayed the written trace
    WriteFindingManifest(manifest, manifest_path);
  } else if (!args.no_oracle) {
    simrd = ConfirmWithSimrd(args.out, spec, after);
    manifest.simrd_status = SimrdStatus(simrd);
    manifest.simrd = simrd.ToJson();
    WriteFindingManifest(manifest, manifest_path);
  }

  std::cerr << "reduce: " << original.NumOperators() << " -> " << result.log.NumOperators()
            << " operators (" << original.instrs.size() << " -> " << result.log.instrs.size()
            << " instructions), " << result.tests << " tests in " << Fixed(seconds, 1) << " s"
            << (result.minimal ? ", 1-minimal" : "") << (result.cancelled ? ", interrupted" : "")
            << "\n"
            << "reduce: after: " << after.summary << "\n";
  if (simrd.available)
    std::cerr << "reduce: simrd " << (simrd.confirmed ? "confirms" : "does NOT confirm")
              << " the reduced trace" << (simrd.error.empty() ? "" : ": " + simrd.error) << "\n";
  std::cerr << "reduce: wrote " << args.out << " and " << manifest_path << "\n";
  if (args.json) std::cout << ManifestToJson(manifest).dump(2) << "\n";
  if (result.cancelled) return kExitInterrupted;
  if (!after.holds) return 1;
  return 0;
}

// The reduction; an output that cannot be written is exit 1, bad input
// (thrown) exit 2.
int RunReduceCommand(const ReduceCommandOptions& o) {
  try {
    return ReduceTrace(o);
  } catch (const TraceError&) {
    throw;  // bad input: main reports it, exit 2
  } catch (const CLI::Error&) {
    throw;
  } catch (const std::runtime_error& e) {  // e.g. an output that cannot be written
    std::cerr << "dtrcheck reduce: " << e.what() << "\n";
    return 1;
  }
}

CLI::App* RegisterReduce(CLI::App& app, ReduceCommandOptions* args) {
  auto* cmd =
      app.add_subcommand("reduce", "shrink a trace to a 1-minimal one that keeps a pathology");
  cmd->add_option("TRACE", args->trace, TraceArgumentHelp())
      ->required()
      ->transform(TraceArgument());
  cmd->add_option("--property", args->property,
                  "inversion | cliff | pinned-oom | overhead-rise | fragmentation-oom")
      ->required()
      ->check(
          [](const std::string& name) -> std::string {
            try {
              TracePropertyFromName(name);
              return "";
            } catch (const std::invalid_argument& e) {
              return e.what();
            }
          },
          "PROPERTY");
  cmd->add_option("--lo", args->lo, "smaller budget, as a ratio of the trace's own baseline peak")
      ->check(FiniteRange(0.0, 1e6));
  cmd->add_option("--hi", args->hi,
                  "larger budget (pinned-oom, fragmentation-oom: the failing one), as a ratio "
                  "of the peak")
      ->check(FiniteRange(0.0, 1e6));
  cmd->add_option("--lo-bytes", args->lo_bytes, "smaller budget in bytes")
      ->check(IntegerText(/*non_negative=*/true));
  cmd->add_option("--hi-bytes", args->hi_bytes, "larger budget in bytes")
      ->check(IntegerText(/*non_negative=*/true));
  cmd->add_option("--cliff-factor", args->cliff_factor, "cliff: overheads differ by >= F")
      ->capture_default_str()
      ->check(FiniteRange(1.0, 1e300));
  cmd->add_option("--rise-factor", args->rise_factor,
                  "overhead-rise: the overhead at hi above F x the overhead at lo")
      ->capture_default_str()
      ->check(FiniteRange(1.0, 1e300));
  AddRenamedOption<double>(cmd, "--factor", "--cliff-factor and --rise-factor", [args](double f) {
    args->cliff_factor = args->rise_factor = f;
  })->check(FiniteRange(1.0, 1e300));
  cmd->add_option("--failure", args->failure,
                  "inversion: how hi must fail in every candidate: same (as in TRACE), oom, "
                  "thrashed, or any")
      ->capture_default_str()
      ->check(CLI::IsMember({"same", "oom", "thrashed", "any"}));
  cmd->add_option("--runtime", args->sim.config.runtime, "simrd runtime class")
      ->capture_default_str();
  cmd->add_option("--heuristic", args->sim.config.heuristic, "heuristic, " + HeuristicNamesHelp())
      ->capture_default_str();
  cmd->add_option("--baseline-runtime", args->sim.config.baseline_runtime,
                  "runtime of the unbounded baseline run")
      ->capture_default_str();
  auto* ol = cmd->add_option("--overhead-limit", args->sim.config.overhead_limit,
                             "thrash when remat_compute > baseline_compute * (X - 1)")
                 ->check(FiniteRange(1.0, 1e300));
  auto* rl =
      cmd->add_option("--remat-limit", args->sim.remat_limit_text, "thrash when remat_compute > N")
          ->check(IntegerText(/*non_negative=*/true));
  ol->excludes(rl);
  cmd->add_option("--seed", args->sim.seed_text, "random.seed(S) for RandomStorage and AbRandom")
      ->check(IntegerText(/*non_negative=*/false));
  AddMemoryOptions(cmd, &args->memory);
  cmd->add_flag("--no-oracle", args->no_oracle, "do not confirm the reduced trace with simrd");
  cmd->add_flag("--json", args->json, "print the manifest (as written) on stdout");
  cmd->add_option("-o,--output", args->out,
                  "the reduced log (OUT.manifest.json is written beside it)")
      ->required();
  return cmd;
}

}  // namespace

Action AddReduceCommand(CLI::App& app) {
  auto o = std::make_shared<ReduceCommandOptions>();
  return {RegisterReduce(app, o.get()), [o] { return RunReduceCommand(*o); }};
}

}  // namespace dtrcheck
