#include "io/record_read.h"

#include <fstream>
#include <stdexcept>

namespace dtrcheck {

namespace {

const Json& Field(const Json& j, const char* name) {
  if (!j.contains(name)) throw std::invalid_argument(std::string("record has no \"") + name + "\"");
  return j[name];
}

Int IntField(const Json& j, const char* name) {
  const Json& v = Field(j, name);
  if (v.is_number_unsigned()) return Int(v.get<uint64_t>());
  if (v.is_number_integer()) return Int(v.get<int64_t>());
  throw std::invalid_argument(std::string("record field \"") + name + "\" is not an integer");
}

int64_t Int64Field(const Json& j, const char* name) {
  const Json& v = Field(j, name);
  if (!v.is_number_integer())
    throw std::invalid_argument(std::string("record field \"") + name + "\" is not an integer");
  return v.get<int64_t>();
}

std::string StringField(const Json& j, const char* name) {
  const Json& v = Field(j, name);
  if (!v.is_string())
    throw std::invalid_argument(std::string("record field \"") + name + "\" is not a string");
  return v.get<std::string>();
}

Status StatusFromName(const std::string& s) {
  for (Status st : {Status::kOk, Status::kOom, Status::kThrashed, Status::kError})
    if (s == StatusName(st)) return st;
  throw std::invalid_argument("record has an unknown status \"" + s + "\"");
}

}  // namespace

RunRecord RecordFromJson(const Json& j) {
  if (!j.is_object()) throw std::invalid_argument("a record must be a JSON object");
  RunRecord r;
  r.config.runtime = StringField(j, "runtime");
  r.config.heuristic = StringField(j, "heuristic");
  const Json& ratio = Field(j, "ratio");
  if (!ratio.is_null()) {
    if (!ratio.is_number()) throw std::invalid_argument("record field \"ratio\" is not a number");
    r.config.ratio = ratio.get<double>();
  }
  r.budget = IntField(j, "budget");
  if (!r.config.ratio) r.config.budget = r.budget;
  const Json& limit = Field(j, "remat_limit");
  if (limit.is_number_integer()) {
    r.remat_limit_int = IntField(j, "remat_limit");
    r.config.remat_limit = r.remat_limit_int;
  } else if (limit.is_number_float()) {
    // The record keeps the limit, not the --overhead-limit that produced
    // it; RecordToJson prints only the limit.
    r.remat_limit_float = limit.get<double>();
  } else if (!limit.is_null()) {
    throw std::invalid_argument("record field \"remat_limit\" is not a number");
  }
  if (!Field(j, "seed").is_null()) {
    r.seed_used = IntField(j, "seed");
    r.config.seed = r.seed_used;
  }
  r.status = StatusFromName(StringField(j, "status"));
  if (r.status == Status::kError) r.message = StringField(j, "message");
  r.clock = IntField(j, "clock");
  r.model_compute = IntField(j, "model_compute");
  r.remat_compute = IntField(j, "remat_compute");
  r.max_memory = IntField(j, "max_memory");
  r.model_const_memory = IntField(j, "model_const_memory");
  r.bottleneck_memory = IntField(j, "bottleneck_memory");
  r.heuristic_eval_count = IntField(j, "heuristic_eval_count");
  r.heuristic_access_count = IntField(j, "heuristic_access_count");
  r.memory_usage = IntField(j, "memory_usage");
  r.evictions = Int64Field(j, "evictions");
  r.distinct_evicted = Int64Field(j, "distinct_evicted");
  r.eviction_digest = StringField(j, "eviction_digest");
  r.baseline.peak = IntField(j, "baseline_peak");
  r.baseline.compute = IntField(j, "baseline_compute");
  if (j.contains("storage_stats")) {
    r.config.stats = true;
    const Json& rows = j["storage_stats"];
    if (!rows.is_array())
      throw std::invalid_argument("record field \"storage_stats\" is not an array");
    for (const Json& row : rows)
      r.storage_stats.push_back(StorageStatRow{
          Int64Field(row, "root_id"), IntField(row, "size"), Int64Field(row, "evict_count"),
          Int64Field(row, "direct_remat_count"), Int64Field(row, "collateral_remat_count")});
  }
  return r;
}

std::vector<RunRecord> ReadRecordsJsonl(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument(path + ": cannot read");
  std::vector<RunRecord> out;
  std::string line;
  for (long n = 1; std::getline(in, line); ++n) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    try {
      out.push_back(RecordFromJson(Json::parse(line)));
    } catch (const Json::exception& e) {
      throw std::invalid_argument(path + ":" + std::to_string(n) + ": not JSON: " + e.what());
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(path + ":" + std::to_string(n) + ": " + e.what());
    }
  }
  return out;
}

}  // namespace dtrcheck
