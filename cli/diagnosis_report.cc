#include "cli/diagnosis_report.h"

#include "analysis/format.h"

namespace dtrcheck {

namespace {

std::string Bytes(Int b) { return GroupedInt(b) + " bytes"; }
std::string Mb(Int b) { return Fixed(IntToDouble(b) / 1e6, 1) + " MB"; }

std::string TensorText(TensorId id, const std::string& name) {
  return name + " (simrd id " + std::to_string(id) + ")";
}

}  // namespace

Json DiagnosisToJson(const Diagnosis& d) {
  Json j;
  j["record"] = RecordToJson(d.record);
  if (d.oom) {
    const OomDetails& o = *d.oom;
    Json oom;
    oom["tensor"] = o.tensor;
    oom["tensor_name"] = o.tensor_name;
    oom["op"] = o.op_name;
    oom["request"] = Json(o.request);
    oom["last_started"] = o.last_started;
    oom["last_started_name"] = o.last_started_name;
    oom["budget"] = Json(o.budget);
    oom["resident"] = Json(o.resident);
    oom["pool_bytes"] = Json(o.pool_bytes);
    oom["pool_count"] = o.pool_count;
    oom["locked_bytes"] = Json(o.locked_bytes);
    oom["locked_storages"] = o.locked_storages;
    oom["depth"] = o.depth;
    Json chain = Json::array();
    for (size_t i = 0; i < o.chain.size(); ++i)
      chain.push_back({{"id", o.chain[i]}, {"name", o.chain_names[i]}});
    oom["chain"] = chain;
    j["oom"] = oom;
  } else {
    j["oom"] = nullptr;
  }
  j["pinned_frontier_oom"] = d.PinnedFrontierOom();
  j["max_locked_bytes"] = Json(d.max_locked_bytes);
  j["max_locked_clock"] = Json(d.max_locked_clock);
  return j;
}

std::string DiagnosisText(const Diagnosis& d, const std::string& in) {
  const RunRecord& r = d.record;
  std::string s;
  s += in + "status            " + StatusName(r.status) +
       (r.message.empty() ? "" : " (" + r.message + ")") + "\n";
  s += in + "budget            " + Bytes(r.budget);
  if (r.config.ratio)
    s += " (ratio " + ShortestDouble(*r.config.ratio) + " of peak " + GroupedInt(r.baseline.peak) +
         ")";
  s += "\n";
  if (r.status == Status::kOk) s += in + "overhead          " + Fixed(r.Overhead(), 3) + "x\n";
  if (d.oom) {
    const OomDetails& o = *d.oom;
    s += in + "failing allocation for " + TensorText(o.tensor, o.tensor_name) + ", op " +
         o.op_name + "\n";
    s += in + "  request         " + Bytes(o.request) + " (all outputs of the op)\n";
    s += in + "  last started    " + TensorText(o.last_started, o.last_started_name) +
         " (the most recent materialization to begin, simrd's _T_pending)\n";
    s += in + "  resident        " + Bytes(o.resident) + " (memory_usage)\n";
    s += in + "  evictable pool  " + Bytes(o.pool_bytes) + " in " + std::to_string(o.pool_count) +
         " storages" + (o.pool_count == 0 ? " (empty)" : "") + "\n";
    s += in + "  locked          " + Bytes(o.locked_bytes) + " in " +
         std::to_string(o.locked_storages) + " distinct storages (locks and pins)\n";
    s += in + "  locked+request  " + Bytes(o.locked_bytes + o.request) +
         (o.locked_bytes + o.request > o.budget ? " > " : " <= ") + "budget\n";
    s += in + "  pinned frontier " +
         (o.PinnedFrontier() ? "yes: the pool is empty and locked + request exceeds the budget"
                             : "no") +
         "\n";
    s +=
        in + "  recursion depth " + std::to_string(o.depth) + "; pending chain, outermost first:\n";
    std::string line = in + "   ";
    for (size_t i = 0; i < o.chain.size(); ++i) {
      std::string item = " " + o.chain_names[i] + "(" + std::to_string(o.chain[i]) + ")" +
                         (i + 1 < o.chain.size() ? " >" : "");
      if (line.size() + item.size() > 100) {
        s += line + "\n";
        line = in + "   ";
      }
      line += item;
    }
    s += line + "\n";
  }
  s += in + "largest locked    " + Bytes(d.max_locked_bytes) + " (" + Mb(d.max_locked_bytes) +
       ") at clock " + IntToString(d.max_locked_clock) + "\n";
  return s;
}

}  // namespace dtrcheck
