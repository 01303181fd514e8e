// dtrcheck diff: one configuration through simrd (the oracle) and through
// dtrcheck; on a divergence, the first differing eviction with both sides'
// costs for both candidates, and the record fields that differ.
#include <iostream>
#include <map>

#include "cli/commands.h"
#include "cli/number_option.h"
#include "cli/progress.h"
#include "cli/simulation_options.h"
#include "io/record.h"
#include "oracle/simrd_client.h"

namespace dtrcheck {

namespace {

constexpr int kExitNoOracle = 3;

// simrd's record of the configuration with its eviction log and statistics,
// and, given `costs_at`, every candidate's cost before that eviction.
Json AskSimrd(OracleBatch& oracle, const RunConfig& config, std::optional<size_t> costs_at) {
  Json c = ConfigToJson(config);
  c["stats"] = true;
  c["eviction_log"] = true;
  if (costs_at) c["costs_at"] = *costs_at;
  return oracle.Run(c);
}

// dtrcheck's side: the eviction stream, and the candidates' costs before
// eviction number `costs_at` (when >= 0).
struct Recorder : RuntimeObserver {
  int64_t costs_at = -1;
  std::vector<std::pair<Int, TensorId>> evictions;
  std::map<TensorId, double> costs;
  void OnEvict(Int clock, TensorId root) override { evictions.emplace_back(clock, root); }
  void OnEvaluate(int64_t eviction, TensorId root, double cost) override {
    if (eviction == costs_at) costs[root] = cost;
  }
};

std::string CostOf(const std::map<TensorId, double>& costs, TensorId root) {
  auto it = costs.find(root);
  return it == costs.end() ? "not evaluated" : Json(it->second).dump();
}

// An error of diff's own, in main's style (text, or JSON with --json).
int DiffError(bool json, const std::string& message, int code) {
  if (json)
    std::cerr << Json{{"error", message}, {"command", "diff"}}.dump() << "\n";
  else
    std::cerr << "dtrcheck diff: " << message << "\n";
  return code;
}

// The text form of diff's verdict (--json prints `v` itself).
void PrintDiff(const Json& v) {
  if (v["verdict"] == "identical") {
    std::cout << "identical: " << v["evictions"]["simrd"] << " evictions, status "
              << v["status"].get<std::string>() << ", clock " << v["clock"] << "\n";
    return;
  }
  if (v.contains("first_divergent_eviction")) {
    const Json& d = v["first_divergent_eviction"];
    std::cout << "first divergent eviction: #" << d["index"] << "\n";
    if (d.contains("simrd")) {
      std::cout << "  simrd    evicted storage " << d["simrd"]["storage"] << " at clock "
                << d["simrd"]["clock"].get<std::string>() << "\n"
                << "  dtrcheck evicted storage " << d["dtrcheck"]["storage"] << " at clock "
                << d["dtrcheck"]["clock"].get<std::string>() << "\n";
      for (const auto& c : d["costs"])
        std::cout << "  cost of storage " << c["storage"] << ": simrd "
                  << c["simrd"].get<std::string>() << ", dtrcheck "
                  << c["dtrcheck"].get<std::string>() << "\n";
    } else {
      std::cout << "  one stream is a prefix of the other: simrd " << v["evictions"]["simrd"]
                << " evictions, dtrcheck " << v["evictions"]["dtrcheck"] << "\n";
    }
  }
  for (const auto& f : v["fields"]) {
    std::string a = f["simrd"], b = f["dtrcheck"];
    if (a.size() > 100) a = a.substr(0, 100) + "...";
    if (b.size() > 100) b = b.substr(0, 100) + "...";
    std::cout << "field " << f["field"].get<std::string>() << ": simrd " << a << ", dtrcheck " << b
              << "\n";
  }
}

struct DiffOptions {
  SimulationOptions sim;
  int64_t perturb = -1;
  bool json = false;
};

CLI::App* RegisterDiff(CLI::App& app, DiffOptions* o) {
  auto* cmd = app.add_subcommand(
      "diff", "run simrd and dtrcheck on one configuration and show where they diverge");
  AddSimulationOptions(cmd, &o->sim);
  cmd->add_option("--perturb-eviction", o->perturb,
                  "testing aid: make dtrcheck evict another storage at this eviction number")
      ->check(IntegerRangeOf<int64_t>(0));
  cmd->add_flag("--json", o->json, "print the verdict as one JSON object");
  return cmd;
}

int RunDiff(const DiffOptions& o) {
  SimulationOptions sim = o.sim;
  FinishSimulationOptions(&sim);
  sim.config.stats = true;
  sim.config.perturb_eviction = o.perturb;
  Graph graph = ParseTraceFile(sim.trace, sim.parse);
  std::optional<OracleBatch> oracle;
  std::optional<Json> simrd;
  try {
    ElapsedTicker ticker("dtrcheck diff: simrd is replaying the trace");
    oracle.emplace(sim.trace, sim.parse);
    simrd = AskSimrd(*oracle, sim.config, std::nullopt);
  } catch (const SimrdUnavailable& e) {
    return DiffError(o.json,
                     std::string("simrd is not available (see oracle/README.md; set "
                                 "SIMRD_DIR):\n") +
                         e.what(),
                     kExitNoOracle);
  }
  if (simrd->contains("error") && !simrd->contains("status"))
    return DiffError(o.json, "simrd refused the configuration: " + (*simrd)["error"].dump(),
                     kExitBadInput);
  Baseline baseline = RunBaseline(graph, sim.config.baseline_runtime);
  Recorder ours;
  Json mine = RecordToJson(Simulate(graph, sim.config, baseline, &ours));

  const Json& log = (*simrd)["eviction_log"];
  size_t n = std::min(log.size(), ours.evictions.size());
  size_t first = n;
  for (size_t i = 0; i < n; ++i) {
    if (log[i][0].dump() != IntToString(ours.evictions[i].first) ||
        log[i][1] != ours.evictions[i].second) {
      first = i;
      break;
    }
  }
  bool streams_differ = first < n || log.size() != ours.evictions.size();
  std::vector<AnswerDifference> fields = CompareAnswers(*simrd, mine, sim.config.heuristic);
  Json v = {{"verdict", !streams_differ && fields.empty() ? "identical" : "divergent"},
            {"status", mine["status"]},
            {"clock", mine["clock"]},
            {"evictions", {{"simrd", log.size()}, {"dtrcheck", ours.evictions.size()}}},
            {"fields", Json::array()}};
  if (streams_differ) {
    Json d = {{"index", first}};
    if (first < n) {
      // Costs of every candidate at that choice, on both sides.
      Json at;
      {
        ElapsedTicker ticker("dtrcheck diff: simrd is replaying up to the divergence");
        at = AskSimrd(*oracle, sim.config, first);
      }
      std::map<TensorId, double> simrd_costs;
      bool simrd_has_costs = at.contains("costs_at");
      if (simrd_has_costs)
        for (const auto& c : at["costs_at"]["costs"])
          simrd_costs[c[0].get<TensorId>()] = std::stod(c[1].get<std::string>());
      Recorder again;
      again.costs_at = static_cast<int64_t>(first);
      Simulate(graph, sim.config, baseline, &again);
      TensorId s_root = log[first][1], d_root = ours.evictions[first].second;
      d["simrd"] = {{"storage", s_root}, {"clock", log[first][0].dump()}};
      d["dtrcheck"] = {{"storage", d_root}, {"clock", IntToString(ours.evictions[first].first)}};
      d["costs"] = Json::array();
      for (TensorId r : {s_root, d_root})
        d["costs"].push_back({{"storage", r},
                              {"simrd", simrd_has_costs ? CostOf(simrd_costs, r) : "n/a"},
                              {"dtrcheck", CostOf(again.costs, r)}});
    }
    v["first_divergent_eviction"] = d;
  }
  for (const auto& f : fields)
    v["fields"].push_back({{"field", f.field}, {"simrd", f.simrd}, {"dtrcheck", f.dtrcheck}});
  if (o.json)
    std::cout << v.dump(2) << "\n";
  else
    PrintDiff(v);
  return v["verdict"] == "identical" ? 0 : 1;
}

}  // namespace

Action AddDiffCommand(CLI::App& app) {
  auto o = std::make_shared<DiffOptions>();
  return {RegisterDiff(app, o.get()), [o] { return RunDiff(*o); }};
}

}  // namespace dtrcheck
