// dtrcheck compare: how two budgets of one configuration evict, side by
// side (e.g. the two sides of a regime cliff): evictions, re-evictions, the
// overlap of the evicted sets, rematerializations, the most evicted storages.
#include <iostream>
#include <map>
#include <memory>

#include "analysis/eviction_compare.h"
#include "analysis/format.h"
#include "analysis/sweep.h"
#include "cli/commands.h"
#include "cli/grid_options.h"
#include "cli/memory_option.h"
#include "cli/simulation_options.h"
#include "io/record.h"

namespace dtrcheck {

namespace {

struct CompareOptions {
  SimulationOptions sim;
  MemoryFlags memory;
  std::vector<std::string> at;
  bool bytes = false, json = false;
};

BudgetSpec ParseAt(const std::string& text, bool bytes) {
  try {
    if (bytes) {
      auto v = ParseInt(text);
      if (!v || *v < 0) throw std::invalid_argument("expected a number of bytes");
      return BudgetSpec::Bytes(*v);
    }
    return BudgetSpec::Ratio(RatioGrid(text, text, "1")[0]);
  } catch (const std::invalid_argument& e) {
    throw CLI::ValidationError("--at", "\"" + text + "\": " + e.what());
  }
}

std::string Pad(std::string s, size_t w) {
  if (s.size() < w) s.resize(w, ' ');
  return s;
}

Json ProfileJson(const EvictionProfile& p, const Graph& g) {
  Json j;
  j["evictions"] = p.evictions;
  j["distinct_evicted"] = p.distinct_evicted;
  j["evictions_per_storage"] = p.evictions_per_storage;
  j["direct_remats"] = p.direct_remats;
  j["collateral_remats"] = p.collateral_remats;
  Json top = Json::array();
  for (const auto& r : p.most_evicted)
    top.push_back({{"root_id", r.root_id},
                   {"name", g.tensors[r.root_id].name},
                   {"size", Json(r.size)},
                   {"evict_count", r.evict_count}});
  j["most_evicted"] = top;
  return j;
}

std::string Label(const RunRecord& r) {
  return r.config.ratio ? "ratio " + ShortestDouble(*r.config.ratio)
                        : "budget " + IntToString(r.budget);
}

void PrintText(const RunRecord& a, const RunRecord& b, const EvictionComparison& c,
               const Graph& g) {
  const size_t w1 = 26, w2 = 22;
  auto row = [&](const std::string& name, const std::string& x, const std::string& y) {
    std::cout << Pad(name, w1) << Pad(x, w2) << y << "\n";
  };
  row("", "A: " + Label(a), "B: " + Label(b));
  row("budget", GroupedInt(a.budget), GroupedInt(b.budget));
  row("status", StatusName(a.status), StatusName(b.status));
  row("overhead", Fixed(a.Overhead(), 3) + "x", Fixed(b.Overhead(), 3) + "x");
  row("evictions", GroupedInt(c.a.evictions), GroupedInt(c.b.evictions));
  row("distinct evicted", GroupedInt(c.a.distinct_evicted), GroupedInt(c.b.distinct_evicted));
  row("evictions per storage", Fixed(c.a.evictions_per_storage, 2),
      Fixed(c.b.evictions_per_storage, 2));
  row("direct remats", GroupedInt(c.a.direct_remats), GroupedInt(c.b.direct_remats));
  row("collateral remats", GroupedInt(c.a.collateral_remats), GroupedInt(c.b.collateral_remats));
  std::cout << "evicted sets: Jaccard " << Fixed(c.jaccard, 3) << " (" << GroupedInt(c.common)
            << " storages evicted in both, " << GroupedInt(c.either) << " in either)\n";
  std::map<int64_t, int64_t> count_a, count_b;
  for (const auto& r : a.storage_stats) count_a[r.root_id] = r.evict_count;
  for (const auto& r : b.storage_stats) count_b[r.root_id] = r.evict_count;
  auto top = [&](const char* which, const RunRecord& r, const EvictionProfile& p) {
    std::cout << "most re-evicted in " << which << " (" << Label(r) << "):\n"
              << "  " << Pad("root id", 9) << Pad("name", 12) << Pad("size", 16)
              << Pad("evictions A", 13) << "evictions B\n";
    for (const auto& s : p.most_evicted)
      std::cout << "  " << Pad(std::to_string(s.root_id), 9) << Pad(g.tensors[s.root_id].name, 12)
                << Pad(GroupedInt(s.size), 16) << Pad(std::to_string(count_a[s.root_id]), 13)
                << count_b[s.root_id] << "\n";
  };
  top("A", a, c.a);
  top("B", b, c.b);
}

int RunCompare(const CompareOptions& options) {
  CompareOptions o = options;  // its simulation options finished below
  FinishSimulationOptions(&o.sim);
  o.sim.config.memory = FinishMemoryOptions(o.memory);
  if (o.sim.config.budget || o.sim.config.ratio)
    throw CLI::ValidationError("--budget/--ratio", "compare takes two --at budgets instead");
  if (o.at.size() != 2)
    throw CLI::ValidationError("--at", "give exactly two budgets: --at A --at B");
  std::vector<BudgetSpec> budgets = {ParseAt(o.at[0], o.bytes), ParseAt(o.at[1], o.bytes)};
  o.sim.config.stats = true;
  Graph graph = ParseTraceFile(o.sim.trace, o.sim.parse);
  Baseline baseline = RunBaseline(graph, o.sim.config.baseline_runtime);
  SweepOptions so;
  so.jobs = 2;
  auto result = RunSweep(graph, o.sim.config, baseline, budgets, so);
  const RunRecord& a = result.points[0].record;
  const RunRecord& b = result.points[1].record;
  EvictionComparison c = CompareEvictions(a, b);
  if (o.json) {
    Json j;
    for (auto [key, rec, prof] : {std::tuple{"a", &a, &c.a}, std::tuple{"b", &b, &c.b}}) {
      RunRecord summary = *rec;
      summary.config.stats = false;  // the statistics are summarised below
      Json side = RecordToJson(summary);
      side["overhead"] = rec->Overhead();
      side["profile"] = ProfileJson(*prof, graph);
      j[key] = side;
    }
    j["jaccard"] = c.jaccard;
    j["common_evicted"] = c.common;
    j["either_evicted"] = c.either;
    std::cout << j.dump() << "\n";
  } else {
    PrintText(a, b, c, graph);
  }
  return 0;
}

CLI::App* RegisterCompare(CLI::App& app, CompareOptions* o) {
  auto* cmd =
      app.add_subcommand("compare", "compare how two budgets evict (e.g. across a regime cliff)");
  AddSimulationOptions(cmd, &o->sim, /*budget_optional=*/true);
  AddMemoryOptions(cmd, &o->memory);
  RemoveBudgetOptions(cmd);
  cmd->add_option("--at", o->at,
                  "a budget: a ratio of the baseline peak (bytes with --bytes); give two")
      ->required()
      ->take_all();
  cmd->add_flag("--bytes", o->bytes, "--at values are budgets in bytes");
  cmd->add_flag("--json", o->json, "print one JSON object");
  return cmd;
}

}  // namespace

Action AddCompareCommand(CLI::App& app) {
  auto o = std::make_shared<CompareOptions>();
  return {RegisterCompare(app, o.get()), [o] { return RunCompare(*o); }};
}

}  // namespace dtrcheck
