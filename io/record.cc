#include "io/record.h"

#include <fstream>
#include <stdexcept>

#include "sim/heuristic.h"

namespace dtrcheck {

namespace {

// The oracle's configuration keys (CONFIG_KEYS in oracle/simrd_oracle.py).
const std::vector<std::string>& ConfigKeys() {
  static const std::vector<std::string> keys = {"runtime",
                                                "heuristic",
                                                "budget",
                                                "ratio",
                                                "baseline_runtime",
                                                "overhead_limit",
                                                "remat_limit",
                                                "seed",
                                                "stats",
                                                "time",
                                                "eviction_log",
                                                "costs_at",
                                                "memory",
                                                "max_split_size_mb"};
  return keys;
}

Status StatusFromName(const JsonFields& j, const char* key) {
  std::string s = j.String(key);
  for (Status st : {Status::kOk, Status::kOom, Status::kThrashed, Status::kError})
    if (s == StatusName(st)) return st;
  j.Fail(key, "ok, oom, thrashed or error");
}

}  // namespace

Json ConfigToJson(const RunConfig& c) {
  Json j;
  j["runtime"] = c.runtime;
  j["heuristic"] = c.heuristic;
  j["baseline_runtime"] = c.baseline_runtime;
  if (c.ratio)
    j["ratio"] = *c.ratio;
  else if (c.budget)
    j["budget"] = Json(*c.budget);
  if (c.overhead_limit)
    j["overhead_limit"] = *c.overhead_limit;
  else if (c.remat_limit_float)
    j["remat_limit"] = *c.remat_limit_float;
  else if (c.remat_limit)
    j["remat_limit"] = Json(*c.remat_limit);
  if (c.seed) j["seed"] = Json(*c.seed);
  if (c.stats) j["stats"] = true;
  // Only under an allocator model, so that default configurations stay as they were.
  if (c.memory.model != MemoryModel::kBytes) j["memory"] = MemoryModelName(c.memory.model);
  if (c.memory.max_split_size_mb) j["max_split_size_mb"] = *c.memory.max_split_size_mb;
  return j;
}

namespace {

// The model (named by model_key) and max_split_size_mb of a configuration
// ("memory") or of a record's "memory" object ("model").
MemoryOptions MemoryOptionsFromJson(const JsonFields& j, const char* model_key) {
  MemoryOptions o;
  if (auto name = j.OptionalString(model_key)) {
    const auto model = MemoryModelFromName(*name);
    if (!model) j.Fail(model_key, "bytes, cuda-caching or arena");
    o.model = *model;
  }
  if (auto mb = j.OptionalInteger("max_split_size_mb")) {
    if (*mb <= 20 || *mb > (Int{1} << 40)) j.Fail("max_split_size_mb", "an integer in 21..2^40");
    if (o.model != MemoryModel::kCudaCaching)
      j.Fail("max_split_size_mb", "no max_split_size_mb outside the cuda-caching model");
    o.max_split_size_mb = static_cast<uint64_t>(*mb);
  }
  return o;
}

}  // namespace

RunConfig ConfigFromJson(const Json& json) {
  JsonFields j(json);
  j.RejectUnknown(ConfigKeys());
  RunConfig c;
  if (auto v = j.OptionalString("runtime")) c.runtime = *v;
  if (auto v = j.OptionalString("heuristic")) c.heuristic = *v;
  if (auto v = j.OptionalString("baseline_runtime")) c.baseline_runtime = *v;
  c.ratio = j.OptionalNumber("ratio");
  c.budget = j.OptionalInteger("budget");
  if (c.ratio && c.budget) j.Fail("budget", "no budget beside a ratio");
  c.overhead_limit = j.OptionalNumber("overhead_limit");
  if (j.Has("remat_limit") && !j.Value("remat_limit").is_number_integer())
    c.remat_limit_float = j.OptionalNumber("remat_limit");
  else
    c.remat_limit = j.OptionalInteger("remat_limit");
  if (c.overhead_limit && (c.remat_limit || c.remat_limit_float))
    j.Fail("remat_limit", "no remat_limit beside an overhead_limit");
  c.seed = j.OptionalInteger("seed");
  c.stats = j.OptionalBool("stats").value_or(false);
  j.OptionalBool("time");
  j.OptionalBool("eviction_log");
  j.OptionalInteger("costs_at");
  c.memory = MemoryOptionsFromJson(j, "memory");
  return c;
}

Json RecordToJson(const RunRecord& r) {
  Json j;
  j["runtime"] = r.config.runtime;
  j["heuristic"] = r.config.heuristic;
  j["ratio"] = r.config.ratio ? Json(*r.config.ratio) : Json(nullptr);
  j["budget"] = Json(r.budget);
  if (r.remat_limit_float)
    j["remat_limit"] = *r.remat_limit_float;
  else if (r.remat_limit_int)
    j["remat_limit"] = Json(*r.remat_limit_int);
  else
    j["remat_limit"] = nullptr;
  j["seed"] = r.seed_used ? Json(*r.seed_used) : Json(nullptr);
  j["status"] = StatusName(r.status);
  if (r.status == Status::kError) j["message"] = r.message;
  j["clock"] = Json(r.clock);
  j["model_compute"] = Json(r.model_compute);
  j["remat_compute"] = Json(r.remat_compute);
  j["max_memory"] = Json(r.max_memory);
  j["model_const_memory"] = Json(r.model_const_memory);
  j["bottleneck_memory"] = Json(r.bottleneck_memory);
  j["heuristic_eval_count"] = Json(r.heuristic_eval_count);
  j["heuristic_access_count"] = Json(r.heuristic_access_count);
  j["memory_usage"] = Json(r.memory_usage);
  j["evictions"] = r.evictions;
  j["distinct_evicted"] = r.distinct_evicted;
  j["eviction_digest"] = r.eviction_digest;
  j["baseline_peak"] = Json(r.baseline.peak);
  j["baseline_compute"] = Json(r.baseline.compute);
  if (r.config.stats) {
    Json rows = Json::array();
    for (const auto& s : r.storage_stats) {
      Json row;
      row["root_id"] = s.root_id;
      row["size"] = Json(s.size);
      row["evict_count"] = s.evict_count;
      row["direct_remat_count"] = s.direct_remat_count;
      row["collateral_remat_count"] = s.collateral_remat_count;
      rows.push_back(row);
    }
    j["storage_stats"] = rows;
  }
  // Only under an allocator model, so that default records stay as they were.
  if (r.memory) {
    const MemoryRecord& m = *r.memory;
    j["memory"] = {{"model", MemoryModelName(m.model)},
                   {"reserved_peak", m.reserved_peak},
                   {"allocated_peak", m.allocated_peak},
                   {"peak_reserved_minus_allocated", m.peak_reserved_minus_allocated},
                   {"peak_largest_free_block", m.peak_largest_free_block},
                   {"evictions_bytes_fit", m.evictions_bytes_fit},
                   {"segments", m.final.segments},
                   {"device_allocations", m.final.device_allocations},
                   {"device_frees", m.final.device_frees},
                   {"alloc_retries", m.final.alloc_retries},
                   {"refusals", m.final.ooms}};
    if (r.config.memory.max_split_size_mb)
      j["memory"]["max_split_size_mb"] = *r.config.memory.max_split_size_mb;
  }
  return j;
}

RunRecord RecordFromJson(const Json& json) {
  JsonFields j(json);
  RunRecord r;
  r.config.runtime = j.String("runtime");
  r.config.heuristic = j.String("heuristic");
  j.Nullable("ratio");  // ratio, remat_limit and seed are always there, null when unset
  r.config.ratio = j.OptionalNumber("ratio");
  r.budget = j.Integer("budget");
  if (!r.config.ratio) r.config.budget = r.budget;
  j.Nullable("remat_limit");
  if (j.Has("remat_limit")) {
    const Json& limit = j.Value("remat_limit");
    if (limit.is_number_integer()) {
      r.remat_limit_int = j.Integer("remat_limit");
      r.config.remat_limit = r.remat_limit_int;
    } else {
      // The record keeps the limit, not the --overhead-limit that produced
      // it; RecordToJson prints only the limit.
      r.remat_limit_float = j.Number("remat_limit");
      r.config.remat_limit_float = r.remat_limit_float;
    }
  }
  j.Nullable("seed");
  r.seed_used = j.OptionalInteger("seed");
  r.config.seed = r.seed_used;
  r.status = StatusFromName(j, "status");
  if (r.status == Status::kError) r.message = j.String("message");
  r.clock = j.Integer("clock");
  r.model_compute = j.Integer("model_compute");
  r.remat_compute = j.Integer("remat_compute");
  r.max_memory = j.Integer("max_memory");
  r.model_const_memory = j.Integer("model_const_memory");
  r.bottleneck_memory = j.Integer("bottleneck_memory");
  r.heuristic_eval_count = j.Integer("heuristic_eval_count");
  r.heuristic_access_count = j.Integer("heuristic_access_count");
  r.memory_usage = j.Integer("memory_usage");
  r.evictions = j.Int64("evictions");
  r.distinct_evicted = j.Int64("distinct_evicted");
  r.eviction_digest = j.String("eviction_digest");
  r.baseline.peak = j.Integer("baseline_peak");
  r.baseline.compute = j.Integer("baseline_compute");
  if (j.Has("storage_stats")) {
    r.config.stats = true;
    const Json& rows = j.Array("storage_stats");
    for (size_t i = 0; i < rows.size(); ++i) {
      JsonFields row(rows[i], "storage_stats[" + std::to_string(i) + "]");
      r.storage_stats.push_back(
          StorageStatRow{row.Int64("root_id"), row.Integer("size"), row.Int64("evict_count"),
                         row.Int64("direct_remat_count"), row.Int64("collateral_remat_count")});
    }
  }
  if (j.Has("memory")) {
    // The allocator's figures, and the model the record ran under: a record
    // read back (sweep --merge/--resume, scan --records) runs again under it.
    const JsonFields m = j.Object("memory");
    r.config.memory = MemoryOptionsFromJson(m, "model");
    if (r.config.memory.model == MemoryModel::kBytes) m.Fail("model", "cuda-caching or arena");
    MemoryRecord rec;
    rec.model = r.config.memory.model;
    const auto u64 = [&m](const char* key) {
      const Int v = m.Integer(key);
      if (v < 0) m.Fail(key, "a count of bytes or events (>= 0)");
      return static_cast<uint64_t>(v);
    };
    rec.reserved_peak = u64("reserved_peak");
    rec.allocated_peak = u64("allocated_peak");
    rec.peak_reserved_minus_allocated = u64("peak_reserved_minus_allocated");
    rec.peak_largest_free_block = u64("peak_largest_free_block");
    rec.evictions_bytes_fit = static_cast<int64_t>(u64("evictions_bytes_fit"));
    rec.final.segments = u64("segments");
    rec.final.device_allocations = u64("device_allocations");
    rec.final.device_frees = u64("device_frees");
    rec.final.alloc_retries = u64("alloc_retries");
    rec.final.ooms = u64("refusals");
    r.memory = rec;
  }
  return r;
}

std::vector<RunRecord> ReadRecordsJsonl(const std::string& path) {
  std::vector<RunRecord> out;
  ReadJsonLines(path, [&](long, Json&& j) { out.push_back(RecordFromJson(j)); });
  return out;
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
  // The allocator's figures (records under an allocator model only; simrd's
  // never have them, nor do ours under bytes).
  if (a.contains("memory") != b.contains("memory") ||
      (a.contains("memory") && a["memory"] != b["memory"]))
    out.push_back("memory");
  return out;
}

Json ParseOptionsToJson(const ParseOptions& parse) {
  Json j = Json::object();
  if (!parse.start) j["no_start"] = true;
  if (parse.out_cond == OutputCondition::kPreallocate) j["preallocate"] = true;
  if (!parse.ignore_undefined_release) j["strict_release"] = true;
  return j;
}

ParseOptions ParseOptionsFromJson(const Json& j) {
  JsonFields f(j, "parse");
  f.RejectUnknown({"no_start", "preallocate", "strict_release"});
  ParseOptions p;
  p.start = !f.OptionalBool("no_start").value_or(false);
  if (f.OptionalBool("preallocate").value_or(false)) p.out_cond = OutputCondition::kPreallocate;
  p.ignore_undefined_release = !f.OptionalBool("strict_release").value_or(false);
  return p;
}

bool IsRefusal(const Json& answer) {
  return answer.is_object() && answer.contains("error") && !answer.contains("status");
}

std::vector<AnswerDifference> CompareAnswers(const Json& simrd, const Json& dtrcheck,
                                             const std::string& heuristic) {
  bool simrd_refused = IsRefusal(simrd), dtrcheck_refused = IsRefusal(dtrcheck);
  if (simrd_refused && dtrcheck_refused) return {};
  if (simrd_refused || dtrcheck_refused) {
    auto side = [](const Json& a) {
      return IsRefusal(a) ? "refused: " + a["error"].dump() : std::string("ran");
    };
    return {{"refusal", side(simrd), side(dtrcheck)}};
  }
  std::vector<AnswerDifference> out;
  for (const auto& f : DifferingFields(simrd, dtrcheck, heuristic))
    out.push_back({f, simrd.contains(f) ? simrd[f].dump() : "(absent)",
                   dtrcheck.contains(f) ? dtrcheck[f].dump() : "(absent)"});
  return out;
}

}  // namespace dtrcheck
