// dtrcheck fuzz-diff: the differential fuzzer against simrd
// (fuzz/lib/diff_fuzz.h; fuzz/README.md, "Differential fuzzing"). Threads
// each keep one simrd process; cases are numbered from 0 and each is a
// function of (seed, index), so the cases run are always a prefix of one
// sequence and their results are the same for any --jobs.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include "analysis/parallel_for.h"
#include "cli/build_info.h"
#include "cli/commands.h"
#include "cli/interrupt.h"
#include "cli/number_option.h"
#include "cli/progress.h"
#include "cli/provenance.h"
#include "fuzz/lib/diff_fuzz.h"
#include "io/input_file.h"
#include "sim/accepted_pairs.h"

namespace dtrcheck {

namespace {

namespace fs = std::filesystem;

constexpr int kExitNoOracle = 3;

struct FuzzDiffOptions {
  double seconds = 0;
  int64_t cases = -1;
  int64_t only_case = -1;
  uint64_t seed = 1;
  std::string archive = "corpus/parity";
  int jobs = 2;
  DiffCaseOptions cases_options;
  double reduce_seconds = 120;
  bool no_reduce = false;
  bool archive_known = false;
  bool json = false;
  int64_t perturb = -1;
  std::string replay;
};

// What one case contributed to the campaign's figures.
struct CaseResult {
  bool done = false;
  size_t configs = 0;
  std::set<std::string> pairs, statuses, kinds, mutations, parse;
  std::vector<std::string> divergences;  // archive ids
  std::map<std::string, size_t> known;   // known divergences (QUIRKS.md id): not archived
};

std::string StatusOf(const Json& answer) {
  return IsRefusal(answer) ? "refused" : answer["status"].get<std::string>();
}

CaseResult RunOne(OracleServer& server, const FuzzDiffOptions& o, uint64_t index,
                  const std::atomic<bool>* cancel) {
  DiffCase c = MakeDiffCase(o.seed, index, o.cases_options);
  CaseResult r;
  std::vector<DiffOutcome> outcomes = RunDiffCase(server, c, o.perturb);
  r.configs = outcomes.size();
  r.kinds = {};
  for (const auto& k : InstructionKinds(c.log)) r.kinds.insert(k);
  r.mutations.insert(c.mutations.begin(), c.mutations.end());
  if (!c.parse.start) r.parse.insert("--no-start");
  if (c.parse.out_cond == OutputCondition::kPreallocate) r.parse.insert("--preallocate");
  if (!c.parse.ignore_undefined_release) r.parse.insert("--strict-release");
  for (const auto& out : outcomes) {
    const RunConfig& config = c.configs[out.config];
    r.statuses.insert(StatusOf(out.simrd));
    if (!IsRefusal(out.simrd)) r.pairs.insert(config.runtime + "/" + config.heuristic);
  }
  // One divergence per case is reduced and archived: the others on the same
  // trace are usually the same bug.
  for (const auto& out : outcomes) {
    if (out.differences.empty()) continue;
    std::string known = KnownDivergence(out);
    if (!known.empty()) {
      ++r.known[known];
      if (!o.archive_known) continue;
    }
    ReducedDivergence red;
    if (o.no_reduce) {
      red.log = c.log;
      red.outcome = out;
    } else {
      red = ReduceDivergence(server, c.log, c.parse, c.configs[out.config], out, o.reduce_seconds,
                             cancel, o.perturb);
    }
    DiffProvenance p;
    p.dtrcheck_commit = DTRCHECK_COMMIT;
    p.simrd_commit = DTRCHECK_SIMRD_COMMIT;
    p.command = CommandLine();
    p.reproduce = "dtrcheck fuzz-diff --seed " + std::to_string(o.seed) + " --case " +
                  std::to_string(index) + " --configs " + std::to_string(o.cases_options.configs) +
                  " --max-operators " + std::to_string(o.cases_options.max_operators) +
                  " --max-mutations " + std::to_string(o.cases_options.max_mutations) +
                  (o.perturb >= 0 ? " --perturb-eviction " + std::to_string(o.perturb) : "");
    r.divergences.push_back(ArchiveDivergence(o.archive, c, c.log, red, p));
    break;
  }
  return r;
}

// An entry's manifest.json: its status ("open" when it has none). A file
// that is not JSON (truncated, say) is refused naming it and the line.
std::string EntryStatus(const fs::path& manifest) {
  if (!fs::exists(manifest)) return "open";
  // The bounded reader (io/input_file.h): a truncated, special or overlong
  // manifest is exit 2 naming it and its line, not an internal error.
  const Json j = ReadJsonFile(manifest.string());
  if (!j.is_object()) throw std::invalid_argument(manifest.string() + ":1: not a JSON object");
  const auto it = j.find("status");
  if (it == j.end()) return "open";
  if (!it->is_string())
    throw std::invalid_argument(manifest.string() + ": field \"status\": not a string");
  return it->get<std::string>();
}

int Replay(const FuzzDiffOptions& o) {
  // A replay that finds nothing to replay checks nothing: in CI it would
  // pass whatever the archive holds.
  if (!fs::is_directory(o.replay))
    throw CLI::ValidationError("--replay", o.replay + ": no such directory");
  std::vector<fs::path> entries;
  for (const auto& e : fs::directory_iterator(o.replay))
    if (fs::exists(e.path() / "case.jsonl")) entries.push_back(e.path());
  if (entries.empty())
    throw CLI::ValidationError("--replay",
                               o.replay + ": no archived divergences (no DIR/*/case.jsonl)");
  std::sort(entries.begin(), entries.end());
  int failed = 0, open = 0;
  for (const auto& e : entries) {
    const std::string status = EntryStatus(e / "manifest.json");
    auto diffs = ReplayParityEntry(e.string());
    if (status == "open" && !diffs.empty()) {
      ++open;
      std::cout << "OPEN " << e.string() << " (a known divergence; " << diffs.size()
                << " fields differ, first " << diffs[0].field << ")\n";
    } else if (status == "open") {
      ++failed;
      std::cout << "FAIL " << e.string()
                << ": dtrcheck now agrees with simrd; set \"status\": \"fixed\" in its manifest\n";
    } else if (!diffs.empty()) {
      ++failed;
      std::cout << "FAIL " << e.string() << ": a fixed divergence is back:";
      for (const auto& d : diffs) {
        std::string a = d.simrd.substr(0, 80), b = d.dtrcheck.substr(0, 80);
        std::cout << "\n    " << d.field << ": simrd " << a << ", dtrcheck " << b;
      }
      std::cout << "\n";
    }
  }
  std::cout << entries.size() - failed - open << " fixed and identical, " << open << " open, "
            << failed << " failed (" << o.replay << ")\n";
  return failed ? 1 : 0;
}

CLI::App* RegisterFuzzDiff(CLI::App& app, FuzzDiffOptions* o) {
  auto* cmd = app.add_subcommand(
      "fuzz-diff",
      "differential fuzzing against simrd: generated and mutated traces, every accepted "
      "runtime/heuristic pair, random budgets and limits; divergences reduced and archived");
  cmd->add_option("--time", o->seconds, "run for this many seconds (default 60 without --cases)")
      ->check(FinitePositive(1e9));
  cmd->add_option("--cases", o->cases, "run cases 0..N-1 (deterministic)")
      ->check(IntegerRangeOf<int64_t>(0));
  cmd->add_option("--case", o->only_case, "run only this case and print its outcomes")
      ->check(IntegerRangeOf<int64_t>(0));
  cmd->add_option("--seed", o->seed, "campaign seed")->check(IntegerRangeOf<uint64_t>());
  cmd->add_option("--archive", o->archive, "where divergences are filed")->capture_default_str();
  cmd->add_option("--jobs,-j", o->jobs, "threads, each with its own simrd process")
      ->check(IntegerRange(1, 256))
      ->capture_default_str();
  cmd->add_option("--configs", o->cases_options.configs, "configurations per trace")
      ->check(IntegerRange(1, 64))
      ->capture_default_str();
  cmd->add_option("--max-operators", o->cases_options.max_operators,
                  "generated traces are shrunk to at most this many operators")
      ->check(IntegerRange(1, 100000))
      ->capture_default_str();
  cmd->add_option("--max-mutations", o->cases_options.max_mutations, "mutations per trace")
      ->check(IntegerRange(0, 64))
      ->capture_default_str();
  cmd->add_option("--reduce-time", o->reduce_seconds, "seconds per reduction")
      ->check(FinitePositive(1e9))
      ->capture_default_str();
  cmd->add_flag("--no-reduce", o->no_reduce, "archive divergences unreduced");
  cmd->add_flag("--archive-known", o->archive_known,
                "archive the known divergences (QUIRKS.md, Q-SETORDER) too");
  cmd->add_flag("--json", o->json, "print the summary as one JSON object");
  cmd->add_option("--perturb-eviction", o->perturb,
                  "testing aid: make dtrcheck evict another storage at this eviction number "
                  "(an injected divergence)")
      ->check(IntegerRangeOf<int64_t>(0));
  cmd->add_option("--replay", o->replay,
                  "replay the archive DIR in dtrcheck instead of fuzzing (open entries must "
                  "still diverge, fixed ones must agree)");
  return cmd;
}

int RunFuzzDiff(const FuzzDiffOptions& given) {
  if (!given.replay.empty()) return Replay(given);
  FuzzDiffOptions o = given;
  if (o.cases < 0 && o.seconds == 0 && o.only_case < 0) o.seconds = 60;
  InterruptGuard guard;
  auto t0 = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  uint64_t first = o.only_case >= 0 ? static_cast<uint64_t>(o.only_case) : 0;
  uint64_t limit = o.only_case >= 0 ? first + 1
                   : o.cases >= 0   ? static_cast<uint64_t>(o.cases)
                                    : UINT64_MAX;
  std::atomic<uint64_t> next{first};
  std::mutex mutex;
  std::map<uint64_t, CaseResult> results;
  std::string unavailable, oracle_error;
  ProgressBar bar("fuzz-diff",
                  o.cases >= 0 ? static_cast<size_t>(o.cases) : static_cast<size_t>(o.seconds));
  auto worker = [&] {
    try {
      // Out of the terminal's process group: Ctrl-C stops the
      // campaign through the guard, after the case in flight.
      OracleServer server(/*own_process_group=*/true);
      for (;;) {
        if (guard.interrupted()) break;
        if (o.seconds > 0 && elapsed() >= o.seconds) break;
        uint64_t i = next++;
        if (i >= limit) break;
        CaseResult r = RunOne(server, o, i, guard.flag());
        r.done = true;
        std::lock_guard<std::mutex> lock(mutex);
        results[i] = std::move(r);
        bar.Update(o.cases >= 0 ? results.size() : static_cast<size_t>(elapsed()));
      }
      server.Finish();
    } catch (const SimrdUnavailable& e) {
      std::lock_guard<std::mutex> lock(mutex);
      unavailable = e.what();
    } catch (const std::exception& e) {
      std::lock_guard<std::mutex> lock(mutex);
      if (oracle_error.empty()) oracle_error = e.what();
    }
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < o.jobs; ++t) threads.emplace_back(worker);
  for (auto& t : threads) t.join();
  bar.Clear();
  double seconds = elapsed();
  if (!unavailable.empty()) {
    std::cerr << "dtrcheck fuzz-diff: simrd is not available (see oracle/README.md; "
                 "set SIMRD_DIR):\n"
              << unavailable << "\n";
    return kExitNoOracle;
  }
  // An oracle that failed (a crash, a line that is not JSON) ends
  // its thread; what finished is still summarized, and the exit
  // code is 1. After Ctrl-C such an error is only the interruption.
  bool failed = !oracle_error.empty() && !guard.interrupted();
  if (failed) std::cerr << "dtrcheck fuzz-diff: " << oracle_error << "\n";
  // Only the prefix of consecutive finished cases counts: the same
  // cases whatever the threads did.
  uint64_t done = first;
  while (results.count(done)) ++done;
  size_t configs = 0;
  std::map<std::string, size_t> statuses, kinds, mutations, parse, known;
  std::set<std::string> pairs;
  Json divergences = Json::array();
  for (uint64_t i = first; i < done; ++i) {
    const CaseResult& r = results.at(i);
    configs += r.configs;
    for (const auto& s : r.statuses) ++statuses[s];
    for (const auto& k : r.kinds) ++kinds[k];
    for (const auto& m : r.mutations) ++mutations[m];
    for (const auto& p : r.parse) ++parse[p];
    for (const auto& [k, n] : r.known) known[k] += n;
    pairs.insert(r.pairs.begin(), r.pairs.end());
    for (const auto& id : r.divergences) divergences.push_back({{"case", i}, {"id", id}});
  }
  uint64_t cases = done - first;
  Json summary = {{"seed", o.seed},
                  {"cases", cases},
                  {"first_case", first},
                  {"configurations", configs},
                  {"seconds", seconds},
                  {"cases_per_second", seconds > 0 ? cases / seconds : 0.0},
                  {"configurations_per_second", seconds > 0 ? configs / seconds : 0.0},
                  {"jobs", o.jobs},
                  {"pairs_covered", pairs.size()},
                  {"pairs_accepted", AcceptedPairs().size()},
                  {"cases_with_status", statuses},
                  {"cases_with_instruction", kinds},
                  {"cases_with_mutation", mutations},
                  {"cases_with_parse_option", parse},
                  {"divergences", divergences},
                  {"known_divergences", known},
                  {"archive", o.archive},
                  {"interrupted", guard.interrupted()},
                  {"oracle_error", failed ? Json(oracle_error) : Json(nullptr)},
                  {"dtrcheck_commit", DTRCHECK_COMMIT},
                  {"simrd_commit", DTRCHECK_SIMRD_COMMIT},
                  {"command", CommandLine()}};
  if (o.json) {
    std::cout << summary.dump(2) << "\n";
  } else {
    std::cout << "fuzz-diff seed " << o.seed << ": " << cases << " cases (from " << first << "), "
              << configs << " configurations in " << static_cast<int>(seconds) << " s ("
              << std::fixed << std::setprecision(1) << (seconds > 0 ? cases / seconds : 0)
              << " cases/s, " << (seconds > 0 ? configs / seconds : 0) << " configurations/s, "
              << o.jobs << " jobs)\n"
              << "pairs covered: " << pairs.size() << " of " << AcceptedPairs().size()
              << " accepted\n";
    auto line = [](const char* what, const std::map<std::string, size_t>& m) {
      std::cout << what << ":";
      for (const auto& [k, n] : m) std::cout << " " << k << " " << n;
      std::cout << "\n";
    };
    line("cases with status", statuses);
    line("cases with instruction", kinds);
    line("cases with mutation", mutations);
    line("cases with parse option", parse);
    line("known divergences (QUIRKS.md, not archived)", known);
    std::cout << "divergences: " << divergences.size();
    for (const auto& d : divergences)
      std::cout << "\n  case " << d["case"] << ": " << o.archive << "/"
                << d["id"].get<std::string>();
    std::cout << "\n";
  }
  if (guard.interrupted()) return kExitInterrupted;
  return divergences.empty() && !failed ? 0 : 1;
}

}  // namespace

Action AddFuzzDiffCommand(CLI::App& app) {
  auto o = std::make_shared<FuzzDiffOptions>();
  return {RegisterFuzzDiff(app, o.get()), [o] { return RunFuzzDiff(*o); }};
}

}  // namespace dtrcheck
