#include "io/record.h"

#include <stdexcept>

#include "sim/heuristic.h"

namespace dtrcheck {

Json IntJson(Int v) {
  if (v >= Int(INT64_MIN) && v <= Int(INT64_MAX)) return Json(static_cast<int64_t>(v));
  if (v > 0 && v <= Int(UINT64_MAX)) return Json(static_cast<uint64_t>(v));
  throw std::overflow_error("value " + IntToString(v) + " does not fit a 64-bit JSON integer");
}

Json RecordToJson(const RunRecord& r) {
  Json j;
  j["runtime"] = r.config.runtime;
  j["heuristic"] = r.config.heuristic;
  j["ratio"] = r.config.ratio ? Json(*r.config.ratio) : Json(nullptr);
  j["budget"] = IntJson(r.budget);
  if (r.remat_limit_float)
    j["remat_limit"] = *r.remat_limit_float;
  else if (r.remat_limit_int)
    j["remat_limit"] = IntJson(*r.remat_limit_int);
  else
    j["remat_limit"] = nullptr;
  j["seed"] = r.seed_used ? IntJson(*r.seed_used) : Json(nullptr);
  j["status"] = StatusName(r.status);
  if (r.status == Status::kError) j["message"] = r.message;
  j["clock"] = IntJson(r.clock);
  j["model_compute"] = IntJson(r.model_compute);
  j["remat_compute"] = IntJson(r.remat_compute);
  j["max_memory"] = IntJson(r.max_memory);
  j["model_const_memory"] = IntJson(r.model_const_memory);
  j["bottleneck_memory"] = IntJson(r.bottleneck_memory);
  j["heuristic_eval_count"] = IntJson(r.heuristic_eval_count);
  j["heuristic_access_count"] = IntJson(r.heuristic_access_count);
  j["memory_usage"] = IntJson(r.memory_usage);
  j["evictions"] = r.evictions;
  j["distinct_evicted"] = r.distinct_evicted;
  j["eviction_digest"] = r.eviction_digest;
  j["baseline_peak"] = IntJson(r.baseline.peak);
  j["baseline_compute"] = IntJson(r.baseline.compute);
  if (r.config.stats) {
    Json rows = Json::array();
    for (const auto& s : r.storage_stats) {
      Json row;
      row["root_id"] = s.root_id;
      row["size"] = IntJson(s.size);
      row["evict_count"] = s.evict_count;
      row["direct_remat_count"] = s.direct_remat_count;
      row["collateral_remat_count"] = s.collateral_remat_count;
      rows.push_back(row);
    }
    j["storage_stats"] = rows;
  }
  return j;
}

std::vector<std::string> ParityFields(const std::string& heuristic) {
  std::vector<std::string> f = {"status",
                                "budget",
                                "remat_limit",
                                "clock",
                                "model_compute",
                                "remat_compute",
                                "max_memory",
                                "model_const_memory",
                                "bottleneck_memory",
                                "heuristic_eval_count",
                                "heuristic_access_count",
                                "memory_usage",
                                "evictions",
                                "distinct_evicted",
                                "eviction_digest",
                                "baseline_peak",
                                "baseline_compute",
                                "storage_stats"};
  if (IsEqClassHeuristic(heuristic)) std::erase(f, std::string("heuristic_access_count"));
  return f;
}

std::vector<std::string> DifferingFields(const Json& a, const Json& b,
                                         const std::string& heuristic) {
  std::vector<std::string> out;
  for (const auto& f : ParityFields(heuristic)) {
    bool in_a = a.contains(f), in_b = b.contains(f);
    if (f == "storage_stats" && (!in_a || !in_b)) continue;  // only when both carry them
    if (in_a != in_b || (in_a && a[f] != b[f])) out.push_back(f);
  }
  return out;
}

}  // namespace dtrcheck
