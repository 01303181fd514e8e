#include "sim/simulate.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <stdexcept>

#include "base/leave_to_exit.h"
#include "sim/heuristic.h"
#include "sim/runtime.h"

namespace dtrcheck {

const char* StatusName(Status s) {
  switch (s) {
    case Status::kOk:
      return "ok";
    case Status::kOom:
      return "oom";
    case Status::kThrashed:
      return "thrashed";
    case Status::kError:
      return "error";
  }
  return "?";
}

double RunRecord::Overhead() const {
  if (baseline.compute == 0) return 0;
  return TrueDivide(model_compute + remat_compute, baseline.compute);
}

namespace {

std::string JoinNames(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

RuntimeKind KindOrThrow(const std::string& name) {
  auto kind = RuntimeKindFromName(name);
  if (!kind)
    throw std::invalid_argument("unknown runtime \"" + name +
                                "\"; valid: " + JoinNames(RuntimeNames()));
  return *kind;
}

}  // namespace

Baseline RunBaseline(const Graph& graph, const std::string& runtime) {
  RuntimeOptions options;
  options.kind = KindOrThrow(runtime);
  auto heuristic = MakeHeuristic("Heuristic");
  Runtime rt(graph, options, *heuristic);
  rt.RunSchedule();
  return Baseline{rt.summary().max_memory, rt.summary().model_compute};
}

Int BudgetFromRatio(Int peak, double ratio) { return TruncToInt(IntToDouble(peak) * ratio); }

RunRecord RecordBeforeRun(const RunConfig& config, const Baseline& baseline) {
  RunRecord rec;
  rec.config = config;
  rec.baseline = baseline;
  if (IsRandomHeuristic(config.heuristic) || config.seed) rec.seed_used = config.seed.value_or(0);
  if (config.budget) {
    rec.budget = *config.budget;
  } else if (config.ratio) {
    rec.budget = BudgetFromRatio(baseline.peak, *config.ratio);
  } else {
    throw std::invalid_argument("a budget or a ratio is required");
  }
  if (config.overhead_limit) {
    rec.remat_limit_float = IntToDouble(baseline.compute) * (*config.overhead_limit - 1.0);
  } else if (config.remat_limit_float) {
    rec.remat_limit_float = *config.remat_limit_float;
  } else if (config.remat_limit) {
    rec.remat_limit_int = *config.remat_limit;
  }
  return rec;
}

namespace {

// What Simulate derives from a configuration before running it: the
// runtime's options and the record's fields that do not come from the run.
struct Prepared {
  RuntimeOptions options;
  RunRecord rec;
};

Prepared Prepare(const RunConfig& config, const Baseline& baseline) {
  Prepared p;
  p.rec = RecordBeforeRun(config, baseline);
  RuntimeOptions& options = p.options;
  options.kind = KindOrThrow(config.runtime);
  options.region_rebuilds = config.region_rebuilds;
  options.budget = p.rec.budget;
  options.remat_limit = p.rec.remat_limit_float;
  options.remat_limit_int = p.rec.remat_limit_int;
  options.stats = config.stats;
  options.perturb_eviction = config.perturb_eviction;
  options.memory = config.memory;
  return p;
}

// The configuration's heuristic, new (Python's random seeded afresh).
std::unique_ptr<Heuristic> NewHeuristic(const RunConfig& config, const RunRecord& rec) {
  auto heuristic = MakeHeuristic(config.heuristic, rec.seed_used.value_or(0));
  if (!heuristic || config.heuristic == "Heuristic")
    throw std::invalid_argument("unknown heuristic \"" + config.heuristic +
                                "\"; valid: " + JoinNames(AllHeuristicNames()));
  return heuristic;
}

// Runs rt's schedule up to command `end`. False if the run stopped on the
// way (out of memory, thrashed, a simrd assertion), with that in rec.
bool RunUntil(Runtime& rt, size_t end, RunRecord* rec) {
  try {
    rt.RunScheduleUntil(end);
    return true;
  } catch (const OutOfMemory&) {
    rec->status = Status::kOom;
  } catch (const RematExceeded&) {
    rec->status = Status::kThrashed;
  } catch (const SimrdAssertion& e) {
    rec->status = Status::kError;
    rec->message = e.what();
  }
  return false;
}

// Runs the rest of rt's schedule; the outcome goes into rec's status.
void RunRest(Runtime& rt, const Graph& graph, RunRecord* rec) {
  if (RunUntil(rt, graph.schedule.size(), rec)) rec->status = Status::kOk;
}

// The record's fields that come from the finished run. `digest` is
// rt.digest().HexDigest(), which can be taken only once.
void FillRecord(Runtime& rt, const std::string& digest, RunRecord* rec) {
  const Summary& s = rt.summary();
  rec->clock = rt.clock();
  rec->model_compute = s.model_compute;
  rec->remat_compute = s.remat_compute;
  rec->max_memory = s.max_memory;
  rec->model_const_memory = s.model_const_memory;
  rec->bottleneck_memory = s.bottleneck_memory;
  rec->heuristic_eval_count = s.heuristic_eval_count;
  rec->heuristic_access_count = s.heuristic_access_count;
  rec->memory_usage = rt.memory_usage();
  rec->evictions = rt.digest().count();
  rec->distinct_evicted = rt.distinct_evicted();
  rec->eviction_digest = digest;
  if (const PlacedMemory* placed = rt.placed_memory()) rec->memory = placed->Record();
  rec->storage_stats.clear();
  if (rec->config.stats) {
    const std::vector<StorageStats>& stats = rt.storage_stats();
    for (size_t i = 0; i < stats.size(); ++i) {
      const Storage& st = rt.storages()[i];
      const StorageStats& x = stats[i];
      if (x.evict_count || x.direct_remat_count || x.collateral_remat_count)
        rec->storage_stats.push_back(StorageStatRow{
            st.root_id, st.size, x.evict_count, x.direct_remat_count, x.collateral_remat_count});
    }
  }
}

// The configuration with its budget left out: what the runs of a shared
// prefix must agree on.
RunConfig WithoutBudget(RunConfig c) {
  c.budget.reset();
  c.ratio.reset();
  return c;
}

bool SameConfig(const RunConfig& a, const RunConfig& b) {
  return a.runtime == b.runtime && a.heuristic == b.heuristic &&
         a.baseline_runtime == b.baseline_runtime && a.overhead_limit == b.overhead_limit &&
         a.remat_limit == b.remat_limit && a.remat_limit_float == b.remat_limit_float &&
         a.seed == b.seed && a.stats == b.stats && a.perturb_eviction == b.perturb_eviction &&
         a.region_rebuilds == b.region_rebuilds && a.memory == b.memory;
}

}  // namespace

RunRecord Simulate(const Graph& graph, const RunConfig& config, const Baseline& baseline,
                   RuntimeObserver* observer, Teardown teardown) {
  Prepared p = Prepare(config, baseline);
  auto heuristic = NewHeuristic(config, p.rec);
  auto rt = std::make_unique<Runtime>(graph, p.options, *heuristic, observer);
  if (observer) observer->OnStart(*rt);
  RunRest(*rt, graph, &p.rec);
  if (observer) observer->OnFinish(*rt);
  FillRecord(*rt, rt->digest().HexDigest(), &p.rec);
  if (teardown == Teardown::kLeaveToExit) LeaveToExit(std::move(rt));
  return std::move(p.rec);
}

// The runs under budgets b_1 <= ... <= b_n make the same choices as the
// unbounded run until its demand (Runtime::max_demand) first exceeds b_i,
// in some command d_i: b_i's run is the unbounded run up to d_i, then its
// own. So: a probe finds each d_i (an unbounded run with simrd's base
// Heuristic, whose memory is the same as any heuristic's when nothing is
// evicted for room, and which keeps no regions: a small fraction of a run);
// then one unbounded run of the configuration goes from d_1 to d_2 to ...,
// and at each d_i a copy of it continues under b_i to the end. A budget the
// probe never exceeds gets the unbounded run's own record.
void SimulateBudgets(const Graph& graph, const std::vector<RunConfig>& configs,
                     const Baseline& baseline,
                     const std::function<void(size_t, RunRecord&&)>& on_record,
                     RuntimeObserver* observer) {
  if (configs.empty()) return;
  std::vector<Prepared> prepared;
  prepared.reserve(configs.size());
  const RunConfig shared = WithoutBudget(configs[0]);
  for (const RunConfig& c : configs) {
    if (!SameConfig(c, shared))
      throw std::invalid_argument("SimulateBudgets: configurations differ in more than the budget");
    prepared.push_back(Prepare(c, baseline));
  }
  std::vector<size_t> order(configs.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return prepared[a].rec.budget < prepared[b].rec.budget;
  });
  const Int largest = prepared[order.back()].rec.budget;

  RuntimeOptions unbounded = prepared[0].options;
  unbounded.budget.reset();
  // The probe: demand after each command, until it exceeds every budget or
  // the probe stops (a remat limit or a simrd assertion; the run of the
  // configuration stops there too, or earlier).
  std::vector<Int> demand_after;
  {
    auto base = MakeHeuristic("Heuristic");
    Runtime probe(graph, unbounded, *base, observer);
    const size_t commands = graph.schedule.size();
    demand_after.reserve(commands);
    RunRecord ignored;
    bool going = true;
    while (going && probe.next_command() < commands && probe.max_demand() <= largest) {
      going = RunUntil(probe, probe.next_command() + 1, &ignored);
      demand_after.push_back(probe.max_demand());
    }
  }

  auto heuristic = NewHeuristic(shared, prepared[0].rec);
  Runtime run(graph, unbounded, *heuristic, observer);
  RunRecord end;                // the unbounded run's outcome, once it has one
  end.config = shared;          // FillRecord reads config.stats
  bool run_stopped = false;     // it stopped early: every later budget shares its end
  size_t next = 0;              // position in `order`
  std::optional<Runtime> fork;  // one, refilled for each budget (Runtime::ForkFrom)
  std::unique_ptr<Heuristic> own;
  for (; next < order.size(); ++next) {
    Prepared& p = prepared[order[next]];
    const auto diverges = std::upper_bound(demand_after.begin(), demand_after.end(), p.rec.budget);
    if (diverges == demand_after.end()) break;  // never: the unbounded run's record
    const size_t at = static_cast<size_t>(diverges - demand_after.begin());
    if (!RunUntil(run, at, &end)) {
      run_stopped = true;
      break;
    }
    // The new heuristic replaces the last fork's, which no run consults again.
    own = NewHeuristic(shared, p.rec);
    if (fork)
      fork->ForkFrom(run, *own, p.options.budget);
    else
      fork.emplace(run, *own, p.options.budget);
    RunRest(*fork, graph, &p.rec);
    FillRecord(*fork, fork->digest().HexDigest(), &p.rec);
    on_record(order[next], std::move(p.rec));
  }
  if (next == order.size()) return;
  // The rest never exceed the demand of the unbounded run (or of its part
  // before it stopped): their runs are that run.
  if (!run_stopped) RunRest(run, graph, &end);
  FillRecord(run, run.digest().HexDigest(), &end);
  for (; next < order.size(); ++next) {
    Prepared& p = prepared[order[next]];
    RunRecord rec = end;
    rec.config = p.rec.config;
    rec.seed_used = p.rec.seed_used;
    rec.budget = p.rec.budget;
    rec.remat_limit_float = p.rec.remat_limit_float;
    rec.remat_limit_int = p.rec.remat_limit_int;
    rec.baseline = p.rec.baseline;
    on_record(order[next], std::move(rec));
  }
}

}  // namespace dtrcheck
