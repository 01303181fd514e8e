#include "fuzz/lib/diff_fuzz.h"

#include <chrono>
#include <filesystem>
#include <sstream>

#include "io/json.h"
#include "io/staged_entry.h"
#include "io/trace_graph.h"
#include "io/trace_writer.h"
#include "traces/locate.h"

namespace dtrcheck {

namespace fs = std::filesystem;

namespace {

Json Refusal(const std::string& message) { return {{"error", message}}; }

// The log name simrd is told in errors (it reads the text of a request).
constexpr char kLogName[] = "<log>";

}  // namespace

DtrcheckSide::DtrcheckSide(const TraceLog& log, const ParseOptions& parse) {
  try {
    graph_ = TraceLogGraph(log, kLogName, parse);
  } catch (const TraceError& e) {
    parse_error_ = e.what();
  }
}

Json DtrcheckSide::Answer(const RunConfig& config, int64_t perturb_eviction) {
  if (!graph_) return Refusal("trace parse failed: " + parse_error_);
  const std::string& b = config.baseline_runtime;
  if (!baselines_.count(b) && !baseline_errors_.count(b)) {
    try {
      baselines_.emplace(b, RunBaseline(*graph_, b));
    } catch (const std::invalid_argument& e) {
      baseline_errors_.emplace(b, Refusal(e.what()));
    }
  }
  if (baseline_errors_.count(b)) return baseline_errors_.at(b);
  RunConfig run = config;
  run.perturb_eviction = perturb_eviction;
  try {
    return RecordToJson(Simulate(*graph_, run, baselines_.at(b)));
  } catch (const std::invalid_argument& e) {  // a refused pair
    return Refusal(e.what());
  }
}

std::vector<DiffOutcome> RunDiffCase(OracleServer& simrd, const DiffCase& c,
                                     int64_t perturb_eviction) {
  std::string text = TraceLogText(c.log);
  DtrcheckSide ours(c.log, c.parse);
  std::vector<DiffOutcome> out;
  for (size_t i = 0; i < c.configs.size(); ++i) {
    DiffOutcome o;
    o.config = i;
    o.simrd = simrd.RunLog(text, c.parse, ConfigToJson(c.configs[i]));
    o.dtrcheck = ours.Answer(c.configs[i], perturb_eviction);
    o.differences = CompareAnswers(o.simrd, o.dtrcheck, c.configs[i].heuristic);
    out.push_back(std::move(o));
  }
  return out;
}

std::string DivergenceKind(const std::vector<AnswerDifference>& d) {
  if (d.empty()) return "";
  return d.front().field == "refusal" ? "refusal" : "record";
}

std::string KnownDivergence(const DiffOutcome& o) {
  if (o.differences.size() != 1 || o.differences[0].field != "heuristic_access_count") return "";
  if (IsRefusal(o.simrd) || IsRefusal(o.dtrcheck)) return "";
  bool errors = o.simrd.value("status", "") == "error" && o.dtrcheck.value("status", "") == "error";
  return errors ? "Q-SETORDER" : "";
}

ReducedDivergence ReduceDivergence(OracleServer& simrd, const TraceLog& log,
                                   const ParseOptions& parse, const RunConfig& config,
                                   const DiffOutcome& found, double max_seconds,
                                   const std::atomic<bool>* cancel, int64_t perturb_eviction) {
  auto t0 = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  std::atomic<bool> stop{false};
  std::string kind = DivergenceKind(found.differences);
  Json asked = ConfigToJson(config);
  auto check = [&](const TraceLog& candidate, DiffOutcome* into) {
    DiffOutcome o;
    o.config = found.config;
    o.simrd = simrd.RunLog(TraceLogText(candidate), parse, asked);
    o.dtrcheck = DtrcheckSide(candidate, parse).Answer(config, perturb_eviction);
    o.differences = CompareAnswers(o.simrd, o.dtrcheck, config.heuristic);
    bool same = DivergenceKind(o.differences) == kind;
    if (same && into) *into = std::move(o);
    return same;
  };
  ReduceOptions options;
  options.cancel = &stop;
  options.on_progress = [&](const ReduceProgress&) {
    if (elapsed() > max_seconds || (cancel && cancel->load())) stop = true;
  };
  ReducedDivergence r;
  r.reduction = Reduce(
      log,
      [&](const TraceLog& t) {
        if (elapsed() > max_seconds || (cancel && cancel->load())) stop = true;
        return !stop && check(t, nullptr);
      },
      options);
  r.log = r.reduction.log;
  if (!check(r.log, &r.outcome)) {  // cannot happen unless simrd is not deterministic
    r.log = log;
    r.outcome = found;
  }
  r.seconds = elapsed();
  return r;
}

std::string ArchiveDivergence(const std::string& archive, const DiffCase& c,
                              const TraceLog& original, const ReducedDivergence& r,
                              const DiffProvenance& provenance) {
  const RunConfig& config = c.configs[r.outcome.config];
  std::string text = TraceLogText(r.log);
  Json parse = ParseOptionsToJson(c.parse);
  Json asked = ConfigToJson(config);
  std::string id = Sha256OfText(text + "\n" + parse.dump() + "\n" + asked.dump()).substr(0, 16);
  fs::path dir = fs::path(archive) / id;
  if (fs::exists(dir)) return id;
  StagedEntry staged(archive, id);
  const fs::path& tmp = staged.staging();
  std::string sha = Sha256OfText(text);
  WriteTraceLogFile(r.log, (tmp / "trace.log").string());
  WriteTraceLogFile(original, (tmp / "original.log").string());
  Json differences = Json::array();
  for (const auto& d : r.outcome.differences)
    differences.push_back({{"field", d.field}, {"simrd", d.simrd}, {"dtrcheck", d.dtrcheck}});
  std::string oracle_command =
      "python3 oracle/simrd_oracle.py batch " + fs::path(archive).string() + "/" + id +
      "/trace.log" + (c.parse.start ? "" : " --no-start") +
      (c.parse.out_cond == OutputCondition::kPreallocate ? " --preallocate" : "") +
      (c.parse.ignore_undefined_release ? "" : " --strict-release") + " <<< '" + asked.dump() + "'";
  Json line = {{"trace", "parity/" + id},  {"trace_file", "trace.log"}, {"trace_sha256", sha},
               {"parse", parse},           {"config", asked},           {"record", r.outcome.simrd},
               {"command", oracle_command}};
  staged.WriteText("case.jsonl", line.dump() + "\n");
  Json generator = {{"shape", c.generator.shape},
                    {"seed", c.generator.seed},
                    {"layers", c.generator.layers},
                    {"width", c.generator.width},
                    {"base_bytes", c.generator.base_bytes}};
  Json manifest = {
      {"format", 1},
      {"id", id},
      {"kind", DivergenceKind(r.outcome.differences)},
      {"status", "open"},
      {"known",
       KnownDivergence(r.outcome).empty() ? Json(nullptr) : Json(KnownDivergence(r.outcome))},
      {"found", {{"seed", c.seed}, {"case", c.index}, {"configuration", r.outcome.config}}},
      {"generator", generator},
      {"mutations", c.mutations},
      {"parse", parse},
      {"config", asked},
      {"trace", "trace.log"},
      {"trace_sha256", sha},
      {"original",
       {{"trace", "original.log"},
        {"trace_sha256", Sha256OfText(TraceLogText(original))},
        {"operators", original.NumOperators()},
        {"instructions", original.instrs.size()}}},
      {"operators", r.log.NumOperators()},
      {"instructions", r.log.instrs.size()},
      {"reduction",
       {{"tests", r.reduction.tests},
        {"rounds", r.reduction.rounds},
        {"minimal", r.reduction.minimal},
        {"cancelled", r.reduction.cancelled},
        {"seconds", r.seconds}}},
      {"differences", differences},
      {"simrd", r.outcome.simrd},
      {"dtrcheck", r.outcome.dtrcheck},
      {"dtrcheck_commit", provenance.dtrcheck_commit},
      {"simrd_commit", provenance.simrd_commit},
      {"commands",
       {{"found_by", provenance.command},
        {"reproduce", provenance.reproduce},
        {"diff", "dtrcheck diff " + (fs::path(archive) / id / "trace.log").string() + " " +
                     RunArguments(c.parse, config)},
        {"simrd", oracle_command},
        {"replay", "dtrcheck fuzz-diff --replay " + fs::path(archive).string()}}}};
  staged.WriteText("manifest.json", manifest.dump(2) + "\n");
  staged.Publish();
  return id;
}

std::vector<AnswerDifference> ReplayParityEntry(const std::string& entry_dir) {
  fs::path dir(entry_dir);
  // The one bounded reader of JSON Lines (io/json.h): a case.jsonl that is
  // /dev/zero, a FIFO or a line past its cap is refused by name, and a
  // failed read is an error, never an empty case.
  const std::string file = (dir / "case.jsonl").string();
  Json line;
  bool read = false;
  ReadJsonLines(file, [&](long n, Json&& j) {
    if (read)
      throw std::invalid_argument("one case per file, found a second on line " + std::to_string(n));
    line = std::move(j);
    read = true;
  });
  if (!read) throw std::invalid_argument(file + ": empty, expected one case");
  try {
    JsonFields j(line);
    std::string trace = (dir / j.String("trace_file")).string();
    if (Sha256OfFile(trace) != j.String("trace_sha256"))
      throw FieldError("trace_file " + trace + " changed since it was archived");
    ParseOptions parse = ParseOptionsFromJson(j.Object("parse").json());
    RunConfig config = ConfigFromJson(j.Object("config").json());
    Json simrd = j.Object("record").json();
    TraceLog log = ReadTraceLogFile(trace);
    return CompareAnswers(simrd, DtrcheckSide(log, parse).Answer(config), config.heuristic);
  } catch (const FieldError& e) {
    throw std::invalid_argument(file + ":1: " + e.what());
  }
}

}  // namespace dtrcheck
