#include "sim/simulate.h"
#include "sim/plugin_heuristic.h"

#include <stdexcept>

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

RunRecord Simulate(const Graph& graph, const RunConfig& config, const Baseline& baseline,
                   RuntimeObserver* observer) {
  RunRecord rec;
  rec.config = config;
  rec.baseline = baseline;
  RuntimeOptions options;
  options.kind = KindOrThrow(config.runtime);
  options.region_rebuilds = config.region_rebuilds;
  if (IsRandomHeuristic(config.heuristic) || config.seed) rec.seed_used = config.seed.value_or(0);
  auto heuristic = MakeHeuristic(config.heuristic, rec.seed_used.value_or(0));
  if (!heuristic || config.heuristic == "Heuristic")
    throw std::invalid_argument("unknown heuristic \"" + config.heuristic +
                                "\"; valid: " + JoinNames(AllHeuristicNames()));
  if (config.budget) {
    rec.budget = *config.budget;
  } else if (config.ratio) {
    rec.budget = BudgetFromRatio(baseline.peak, *config.ratio);
  } else {
    throw std::invalid_argument("a budget or a ratio is required");
  }
  options.budget = rec.budget;
  if (config.overhead_limit) {
    rec.remat_limit_float = IntToDouble(baseline.compute) * (*config.overhead_limit - 1.0);
    options.remat_limit = rec.remat_limit_float;
  } else if (config.remat_limit_float) {
    rec.remat_limit_float = *config.remat_limit_float;
    options.remat_limit = rec.remat_limit_float;
  } else if (config.remat_limit) {
    rec.remat_limit_int = *config.remat_limit;
    options.remat_limit_int = rec.remat_limit_int;
  }
  options.stats = config.stats;
  options.perturb_eviction = config.perturb_eviction;

  Runtime rt(graph, options, *heuristic, observer);
  if (observer) observer->OnStart(rt);
  try {
    rt.RunSchedule();
    rec.status = Status::kOk;
  } catch (const OutOfMemory&) {
    rec.status = Status::kOom;
  } catch (const RematExceeded&) {
    rec.status = Status::kThrashed;
  } catch (const SimrdAssertion& e) {
    rec.status = Status::kError;
    rec.message = e.what();
  }
  if (observer) observer->OnFinish(rt);
  const Summary& s = rt.summary();
  rec.clock = rt.clock();
  rec.model_compute = s.model_compute;
  rec.remat_compute = s.remat_compute;
  rec.max_memory = s.max_memory;
  rec.model_const_memory = s.model_const_memory;
  rec.bottleneck_memory = s.bottleneck_memory;
  rec.heuristic_eval_count = s.heuristic_eval_count;
  rec.heuristic_access_count = s.heuristic_access_count;
  rec.memory_usage = rt.memory_usage();
  rec.evictions = rt.digest().count();
  rec.distinct_evicted = rt.distinct_evicted();
  rec.eviction_digest = rt.digest().HexDigest();
  if (config.stats) {
    for (const Storage& st : rt.storages()) {
      const StorageStats& x = st.stats;
      if (x.evict_count || x.direct_remat_count || x.collateral_remat_count)
        rec.storage_stats.push_back(StorageStatRow{st.root_id, st.size, x.evict_count,
                                                   x.direct_remat_count, x.collateral_remat_count});
    }
  }
  return rec;
}

}  // namespace dtrcheck
