// dtrcheck replay: recorded parity. Every line of a corpus file holds a
// configuration and the record simrd produced for it (oracle/record_corpus.py);
// this replays each through the C++ simulator and compares field by field.
#include <atomic>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <thread>

#include "cli/commands.h"
#include "io/record.h"
#include "traces/locate.h"

namespace dtrcheck {

namespace {

struct Case {
  std::string where;  // file:line
  std::string trace;  // a public trace name, or the path of trace_file
  Json config;
  Json expected;
};

// A corpus configuration (the oracle's batch keys) as a RunConfig.
RunConfig ConfigFromJson(const Json& c) {
  RunConfig rc;
  if (c.contains("runtime")) rc.runtime = c["runtime"];
  if (c.contains("heuristic")) rc.heuristic = c["heuristic"];
  if (c.contains("baseline_runtime")) rc.baseline_runtime = c["baseline_runtime"];
  if (c.contains("ratio") && !c["ratio"].is_null()) rc.ratio = c["ratio"].get<double>();
  if (c.contains("budget") && !c["budget"].is_null()) rc.budget = Int(c["budget"].get<int64_t>());
  if (c.contains("overhead_limit") && !c["overhead_limit"].is_null())
    rc.overhead_limit = c["overhead_limit"].get<double>();
  if (c.contains("remat_limit") && !c["remat_limit"].is_null())
    rc.remat_limit = Int(c["remat_limit"].get<int64_t>());
  if (c.contains("seed") && !c["seed"].is_null()) rc.seed = Int(c["seed"].get<int64_t>());
  if (c.contains("stats")) rc.stats = c["stats"].get<bool>();
  return rc;
}

// The outcome of one case: empty when it matches simrd.
std::string CheckCase(const Case& c, const Graph& graph, const Baseline& baseline) {
  RunConfig rc = ConfigFromJson(c.config);
  bool simrd_refused = c.expected.contains("error") && !c.expected.contains("status");
  RunRecord rec;
  try {
    rec = Simulate(graph, rc, baseline);
  } catch (const std::invalid_argument& e) {
    if (simrd_refused) return "";
    return std::string("dtrcheck refused a configuration simrd ran: ") + e.what();
  }
  if (simrd_refused)
    return "dtrcheck ran a configuration simrd refused: " + c.expected["error"].dump();
  Json ours = RecordToJson(rec);
  std::string out;
  for (const auto& f : DifferingFields(c.expected, ours, rc.heuristic)) {
    std::string a = c.expected.contains(f) ? c.expected[f].dump() : "(absent)";
    std::string b = ours.contains(f) ? ours[f].dump() : "(absent)";
    if (a.size() > 80) a = a.substr(0, 80) + "...";
    if (b.size() > 80) b = b.substr(0, 80) + "...";
    out += "\n    " + f + ": simrd " + a + ", dtrcheck " + b;
  }
  return out;
}

}  // namespace

Action AddReplayCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand("replay", "replay recorded simrd results and compare every field");
  auto files = std::make_shared<std::vector<std::string>>();
  auto jobs = std::make_shared<unsigned>(std::max(1u, std::thread::hardware_concurrency()));
  cmd->add_option("CORPUS", *files, "JSON-lines files written by oracle/record_corpus.py")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_option("--jobs,-j", *jobs, "threads")->check(CLI::Range(1u, 256u));
  return {
      cmd, [files, jobs]() -> int {
        std::vector<Case> cases;
        for (const auto& file : *files) {
          std::ifstream in(file);
          std::string line;
          long n = 0;
          while (std::getline(in, line)) {
            ++n;
            if (line.empty()) continue;
            Json j;
            try {
              j = Json::parse(line);
            } catch (const Json::parse_error& e) {
              throw TraceError(file, n, std::string("bad JSON: ") + e.what());
            }
            if (!j.contains("trace") || !j.contains("config") || !j.contains("record"))
              throw TraceError(file, n, "expected keys trace, config and record");
            std::string trace = j["trace"];
            if (j.contains("trace_file")) {  // a small trace kept in the repository
              auto dir = std::filesystem::path(file).parent_path();
              trace = (dir / j["trace_file"].get<std::string>()).lexically_normal().string();
              if (Sha256OfFile(trace) != j["trace_sha256"])
                throw TraceError(file, n, "trace_file " + trace + " changed since it was recorded");
            }
            cases.push_back(Case{file + ":" + std::to_string(n), trace, j["config"], j["record"]});
            if (j.contains("trace_sha256") && !j.contains("trace_file")) {
              const PublicTrace* t = FindPublicTrace(cases.back().trace);
              if (t && t->sha256 != j["trace_sha256"])
                throw TraceError(file, n,
                                 "recorded for a trace whose SHA-256 is not the pinned one");
            }
          }
        }
        // Parse each trace and run each baseline once, before the threads start.
        std::map<std::string, Graph> graphs;
        std::map<std::pair<std::string, std::string>, Baseline> baselines;
        for (const auto& c : cases) {
          if (!graphs.count(c.trace)) {
            ParseOptions po;
            const PublicTrace* t = FindPublicTrace(c.trace);
            if (t) po.start = t->has_start;
            graphs.emplace(c.trace, ParseTraceFile(t ? LocatePublicTrace(c.trace) : c.trace, po));
          }
          std::string brt = ConfigFromJson(c.config).baseline_runtime;
          auto key = std::make_pair(c.trace, brt);
          if (!baselines.count(key)) baselines.emplace(key, RunBaseline(graphs.at(c.trace), brt));
        }
        std::vector<std::string> results(cases.size());
        std::atomic<size_t> next{0};
        auto worker = [&] {
          for (size_t i; (i = next.fetch_add(1)) < cases.size();) {
            const Case& c = cases[i];
            auto key = std::make_pair(c.trace, ConfigFromJson(c.config).baseline_runtime);
            results[i] = CheckCase(c, graphs.at(c.trace), baselines.at(key));
          }
        };
        std::vector<std::thread> threads;
        for (unsigned t = 0; t < *jobs; ++t) threads.emplace_back(worker);
        for (auto& t : threads) t.join();
        size_t failed = 0;
        for (size_t i = 0; i < cases.size(); ++i) {
          if (results[i].empty()) continue;
          ++failed;
          std::cout << "FAIL " << cases[i].where << " " << cases[i].trace << " "
                    << cases[i].config.dump() << results[i] << "\n";
        }
        std::cout << (cases.size() - failed) << " passed, " << failed << " failed\n";
        return failed ? 1 : 0;
      }};
}

}  // namespace dtrcheck
