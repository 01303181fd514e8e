// dtrcheck replay: recorded parity. Every line of a corpus file holds a
// configuration and the record simrd produced for it (oracle/record_corpus.py);
// this replays each through the C++ simulator and compares field by field.
#include <filesystem>
#include <iostream>
#include <map>
#include <mutex>

#include "analysis/parallel_for.h"
#include "cli/commands.h"
#include "cli/number_option.h"
#include "cli/progress.h"
#include "io/record.h"
#include "traces/locate.h"

namespace dtrcheck {

namespace {

struct Case {
  std::string where;  // file:line
  std::string trace;  // a public or captured trace name, or the path of trace_file
  Json config;        // as recorded, for messages
  RunConfig run;      // the same, read (io/record.h)
  Json expected;
  std::optional<ParseOptions> parse;  // "parse", when the line gives it
  // Graphs and baselines are shared by cases with the same key.
  std::string GraphKey() const {
    return trace + (parse ? " " + ParseOptionsToJson(*parse).dump() : "");
  }
};

// One line of a corpus: {"trace", "trace_sha256", "trace_file"?, "config",
// "record", "command", "parse"?} (oracle/record_corpus.py; "parse", the
// parse options as io/record.h writes them, in the differential fuzzer's
// archive). Throws FieldError.
Case ReadCase(const std::string& file, const Json& line) {
  JsonFields j(line);
  Case c;
  c.trace = j.String("trace");
  if (j.Has("trace_file")) {  // a small trace kept in the repository
    auto dir = std::filesystem::path(file).parent_path();
    c.trace = (dir / j.String("trace_file")).lexically_normal().string();
    if (Sha256OfFile(c.trace) != j.String("trace_sha256"))
      throw FieldError("trace_file " + c.trace + " changed since it was recorded");
  } else if (j.Has("trace_sha256")) {
    const std::string* pinned = PinnedTraceSha256(c.trace);
    if (pinned && *pinned != j.String("trace_sha256"))
      throw FieldError("recorded for a trace whose SHA-256 is not the pinned one");
  }
  c.config = j.Object("config").json();
  c.run = ConfigFromJson(c.config);
  c.expected = j.Object("record").json();
  if (j.Has("parse")) c.parse = ParseOptionsFromJson(j.Object("parse").json());
  return c;
}

// The outcome of one case: empty when it matches simrd.
std::string CheckCase(const Case& c, const Graph& graph, const Baseline& baseline) {
  const RunConfig& rc = c.run;
  Json ours;
  std::optional<RunRecord> rec;
  try {
    rec = Simulate(graph, rc, baseline);
  } catch (const std::invalid_argument& e) {
    ours = {{"error", e.what()}};
  }
  if (rec) ours = RecordToJson(*rec);
  std::string out;
  for (const auto& d : CompareAnswers(c.expected, ours, rc.heuristic)) {
    if (d.field == "refusal") {
      if (IsRefusal(ours))
        return "dtrcheck refused a configuration simrd ran: " + ours["error"].get<std::string>();
      return "dtrcheck ran a configuration simrd refused: " + c.expected["error"].dump();
    }
    std::string a = d.simrd, b = d.dtrcheck;
    if (a.size() > 80) a = a.substr(0, 80) + "...";
    if (b.size() > 80) b = b.substr(0, 80) + "...";
    out += "\n    " + d.field + ": simrd " + a + ", dtrcheck " + b;
  }
  return out;
}

struct ReplayOptions {
  std::vector<std::string> files;
  int jobs = DefaultJobs();
  bool json = false;
};

CLI::App* RegisterReplay(CLI::App& app, ReplayOptions* o) {
  auto* cmd = app.add_subcommand("replay", "replay recorded simrd results and compare every field");
  cmd->add_option("CORPUS", o->files, "JSON-lines files written by oracle/record_corpus.py")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_option("--jobs,-j", o->jobs, "threads")->check(IntegerRange(1, 256));
  cmd->add_flag("--json", o->json, "print one JSON object: {passed, failed, failures: [...]}");
  return cmd;
}

int RunReplay(const ReplayOptions& o) {
  std::vector<Case> cases;
  // The one bounded reader of JSON lines (io/json.h): a special
  // file, an endless line or a failed allocation is an error,
  // never an end of file that passes nothing.
  for (const auto& file : o.files)
    ReadJsonLines(file, [&](long n, Json&& line) {
      cases.push_back(ReadCase(file, line));
      cases.back().where = file + ":" + std::to_string(n);
    });
  // Parse each trace and run each baseline once, before the threads start.
  std::map<std::string, Graph> graphs;
  std::map<std::pair<std::string, std::string>, Baseline> baselines;
  for (const auto& c : cases) {
    std::string key = c.GraphKey();
    if (!graphs.count(key)) {
      ParseOptions po;
      const PublicTrace* t = FindPublicTrace(c.trace);
      if (t) po.start = t->has_start;
      if (c.parse) po = *c.parse;
      bool named = t || PinnedTraceSha256(c.trace);  // public or captured
      graphs.emplace(key, ParseTraceFile(named ? LocateNamedTrace(c.trace) : c.trace, po));
    }
    auto bkey = std::make_pair(key, c.run.baseline_runtime);
    if (!baselines.count(bkey)) baselines.emplace(bkey, RunBaseline(graphs.at(key), bkey.second));
  }
  std::vector<std::string> results(cases.size());
  {
    ProgressBar bar("replay", cases.size());  // drawn on a terminal only
    std::mutex bar_mutex;
    size_t done = 0;
    ParallelFor(cases.size(), o.jobs, [&](size_t i) {
      const Case& c = cases[i];
      auto key = std::make_pair(c.GraphKey(), c.run.baseline_runtime);
      results[i] = CheckCase(c, graphs.at(key.first), baselines.at(key));
      std::lock_guard<std::mutex> lock(bar_mutex);
      bar.Update(++done);
    });
  }
  size_t failed = 0;
  Json failures = Json::array();
  for (size_t i = 0; i < cases.size(); ++i) {
    if (results[i].empty()) continue;
    ++failed;
    if (o.json)
      failures.push_back({{"where", cases[i].where},
                          {"trace", cases[i].trace},
                          {"config", cases[i].config},
                          {"differences", results[i]}});
    else
      std::cout << "FAIL " << cases[i].where << " " << cases[i].trace << " "
                << cases[i].config.dump() << results[i] << "\n";
  }
  if (o.json)
    std::cout << Json{{"passed", cases.size() - failed}, {"failed", failed}, {"failures", failures}}
                     .dump(2)
              << "\n";
  else
    std::cout << (cases.size() - failed) << " passed, " << failed << " failed\n";
  return failed ? 1 : 0;
}

}  // namespace

Action AddReplayCommand(CLI::App& app) {
  auto o = std::make_shared<ReplayOptions>();
  return {RegisterReplay(app, o.get()), [o] { return RunReplay(*o); }};
}

}  // namespace dtrcheck
