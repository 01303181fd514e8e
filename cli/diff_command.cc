// dtrcheck diff: one configuration through simrd (the oracle) and through
// dtrcheck; on a divergence, the first differing eviction with both sides'
// costs for both candidates, and the record fields that differ.
#include <iostream>
#include <map>

#include "cli/commands.h"
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

}  // namespace

Action AddDiffCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "diff", "run simrd and dtrcheck on one configuration and show where they diverge");
  auto opts = std::make_shared<SimulationOptions>();
  auto perturb = std::make_shared<int64_t>(-1);
  AddSimulationOptions(cmd, opts.get());
  cmd->add_option("--perturb-eviction", *perturb,
                  "testing aid: make dtrcheck evict another storage at this eviction number");
  return {cmd, [opts, perturb]() -> int {
            FinishSimulationOptions(opts.get());
            opts->config.stats = true;
            opts->config.perturb_eviction = *perturb;
            Graph graph = ParseTraceFile(opts->trace, opts->parse);
            std::optional<OracleBatch> oracle;
            std::optional<Json> simrd;
            try {
              oracle.emplace(opts->trace, opts->parse);
              simrd = AskSimrd(*oracle, opts->config, std::nullopt);
            } catch (const SimrdUnavailable& e) {
              std::cerr << "dtrcheck diff: simrd is not available (see oracle/README.md; set "
                           "SIMRD_DIR):\n"
                        << e.what() << "\n";
              return kExitNoOracle;
            }
            if (simrd->contains("error") && !simrd->contains("status")) {
              std::cerr << "dtrcheck diff: simrd refused the configuration: " << (*simrd)["error"]
                        << "\n";
              return kExitBadInput;
            }
            Baseline baseline = RunBaseline(graph, opts->config.baseline_runtime);
            Recorder ours;
            Json mine = RecordToJson(Simulate(graph, opts->config, baseline, &ours));

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
            std::vector<std::string> fields = DifferingFields(*simrd, mine, opts->config.heuristic);
            if (!streams_differ && fields.empty()) {
              std::cout << "identical: " << log.size() << " evictions, status "
                        << mine["status"].get<std::string>() << ", clock " << mine["clock"] << "\n";
              return 0;
            }
            if (streams_differ) {
              std::cout << "first divergent eviction: #" << first << "\n";
              if (first < n) {
                // Costs of every candidate at that choice, on both sides.
                Json at = AskSimrd(*oracle, opts->config, first);
                std::map<TensorId, double> simrd_costs;
                bool simrd_has_costs = at.contains("costs_at");
                if (simrd_has_costs)
                  for (const auto& c : at["costs_at"]["costs"])
                    simrd_costs[c[0].get<TensorId>()] = std::stod(c[1].get<std::string>());
                Recorder again;
                again.costs_at = static_cast<int64_t>(first);
                Simulate(graph, opts->config, baseline, &again);
                TensorId s_root = log[first][1], d_root = ours.evictions[first].second;
                std::cout << "  simrd    evicted storage " << s_root << " at clock "
                          << log[first][0].dump() << "\n"
                          << "  dtrcheck evicted storage " << d_root << " at clock "
                          << IntToString(ours.evictions[first].first) << "\n";
                for (TensorId r : {s_root, d_root}) {
                  std::cout << "  cost of storage " << r << ": simrd "
                            << (simrd_has_costs ? CostOf(simrd_costs, r) : "n/a") << ", dtrcheck "
                            << CostOf(again.costs, r) << "\n";
                }
              } else {
                std::cout << "  one stream is a prefix of the other: simrd " << log.size()
                          << " evictions, dtrcheck " << ours.evictions.size() << "\n";
              }
            }
            for (const auto& f : fields) {
              std::string a = simrd->contains(f) ? (*simrd)[f].dump() : "(absent)";
              std::string b = mine.contains(f) ? mine[f].dump() : "(absent)";
              if (a.size() > 100) a = a.substr(0, 100) + "...";
              if (b.size() > 100) b = b.substr(0, 100) + "...";
              std::cout << "field " << f << ": simrd " << a << ", dtrcheck " << b << "\n";
            }
            return 1;
          }};
}

}  // namespace dtrcheck
