#include "analysis/archived_finding.h"

#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "analysis/format.h"
#include "analysis/simrd_confirm.h"
#include "io/record.h"
#include "oracle/simrd_client.h"
#include "sim/parse.h"

namespace dtrcheck {

namespace {

namespace fs = std::filesystem;

class Reader {
 public:
  explicit Reader(std::string path) : path_(std::move(path)) {}
  [[noreturn]] void Fail(const std::string& what) const {
    throw std::invalid_argument(path_ + ": " + what);
  }
  const Json& At(const Json& j, const char* key) const {
    if (!j.is_object() || !j.contains(key)) Fail(std::string("missing field \"") + key + "\"");
    return j.at(key);
  }
  std::string String(const Json& j, const char* key) const {
    const Json& v = At(j, key);
    if (!v.is_string()) Fail(std::string("field \"") + key + "\" must be a string");
    return v.get<std::string>();
  }
  double Number(const Json& j, const char* key) const {
    const Json& v = At(j, key);
    if (!v.is_number()) Fail(std::string("field \"") + key + "\" must be a number");
    return v.get<double>();
  }
  Int Integer(const Json& j, const char* key) const {
    const Json& v = At(j, key);
    if (!v.is_number_integer()) Fail(std::string("field \"") + key + "\" must be an integer");
    return v.is_number_unsigned() ? Int(v.get<uint64_t>()) : Int(v.get<int64_t>());
  }
  BudgetSpec Budget(const Json& j) const {
    if (j.contains("ratio")) return BudgetSpec::Ratio(Number(j, "ratio"));
    return BudgetSpec::Bytes(Integer(j, "bytes"));
  }
  ArchivedRun Run(const Json& j) const {
    ArchivedRun r;
    r.status = String(j, "status");
    r.overhead = Number(j, "overhead");
    r.budget = Integer(j, "budget");
    return r;
  }

 private:
  std::string path_;
};

ArchivedRun RunOf(const RunRecord& r) {
  return ArchivedRun{StatusName(r.status), r.Overhead(), r.budget};
}

std::string DescribeRun(const ArchivedRun& r) {
  std::string s = r.status;
  // A reduced trace may have no compute left (every TIME 0): no overhead.
  if (r.status == "ok") s += r.overhead > 0 ? " " + Fixed(r.overhead, 3) + "x" : " (no compute)";
  return s + " at " + IntToString(r.budget);
}

std::string BudgetText(const BudgetSpec& b) {
  return b.ratio ? "ratio " + ShortestDouble(*b.ratio) : IntToString(b.bytes) + " bytes";
}

}  // namespace

ArchivedFinding ReadArchivedFinding(const std::string& manifest_path) {
  Reader r(manifest_path);
  std::ifstream in(manifest_path);
  if (!in) r.Fail("cannot read");
  Json j;
  try {
    j = Json::parse(in);
  } catch (const Json::parse_error& e) {
    r.Fail(std::string("not JSON: ") + e.what());
  }
  ArchivedFinding f;
  f.manifest = manifest_path;
  f.trace = (fs::path(manifest_path).parent_path() / r.String(j, "trace")).string();
  f.id = r.String(j, "id");
  f.kind = r.String(j, "kind");
  try {
    f.spec.property = TracePropertyFromName(r.String(j, "property"));
  } catch (const std::invalid_argument& e) {
    r.Fail(e.what());
  }
  const Json& c = r.At(j, "config");
  f.spec.config.runtime = r.String(c, "runtime");
  f.spec.config.heuristic = r.String(c, "heuristic");
  f.spec.config.baseline_runtime = r.String(c, "baseline_runtime");
  if (c.contains("overhead_limit")) f.spec.config.overhead_limit = r.Number(c, "overhead_limit");
  if (c.contains("remat_limit")) f.spec.config.remat_limit = r.Integer(c, "remat_limit");
  if (c.contains("seed")) f.spec.config.seed = r.Integer(c, "seed");
  if (j.contains("factor")) f.spec.factor = r.Number(j, "factor");
  const Json& budgets = r.At(j, "budgets");
  const Json& expected = r.At(j, "expected");
  if (budgets.contains("lo")) {
    f.spec.lo = r.Budget(budgets.at("lo"));
    f.expected.push_back(r.Run(r.At(expected, "lo")));
  }
  f.spec.hi = r.Budget(r.At(budgets, "hi"));
  f.expected.push_back(r.Run(r.At(expected, "hi")));
  try {
    ValidatePropertySpec(f.spec);
  } catch (const std::invalid_argument& e) {
    r.Fail(e.what());
  }
  return f;
}

ArchiveReplay ReplayInDtrcheck(const ArchivedFinding& f) {
  ArchiveReplay out;
  PropertyCheck check = CheckTraceProperty(ParseTraceFile(f.trace), f.spec);
  out.holds = check.holds;
  out.detail = check.summary;
  for (const auto& r : check.runs) out.got.push_back(RunOf(r));
  return out;
}

ArchiveReplay ReplayInSimrd(const ArchivedFinding& f) {
  ArchiveReplay out;
  if (!FindSimrd()) {
    out.available = false;
    out.detail = "simrd not found (SIMRD_DIR, SIMRD_CACHE or ~/.cache/dtrcheck/simrd)";
    return out;
  }
  std::vector<Json> configs;
  if (f.spec.lo) configs.push_back(ConfigToJson(WithBudget(f.spec.config, *f.spec.lo)));
  configs.push_back(ConfigToJson(WithBudget(f.spec.config, f.spec.hi)));
  std::vector<RunRecord> records;
  try {
    for (const Json& j : RunOracle(f.trace, configs)) {
      if (j.contains("error")) throw std::runtime_error("simrd: " + j.dump());
      records.push_back(RecordFromJson(j));
    }
  } catch (const std::exception& e) {
    out.detail = e.what();
    return out;
  }
  for (const auto& r : records) out.got.push_back(RunOf(r));
  out.holds = PropertyHoldsOnRecords(f.spec, records);
  return out;
}

std::string DescribeReplay(const ArchivedFinding& f, const ArchiveReplay& r,
                           const std::string& who) {
  std::string s = f.kind + " " + fs::path(f.manifest).parent_path().string() + ": ";
  if (!r.available) return s + "not replayed in " + who + ": " + r.detail;
  s += r.holds ? "still holds in " + who : "GONE in " + who + " (" + r.detail + ")";
  std::vector<std::string> names;
  if (f.spec.lo) names.push_back("lo (" + BudgetText(*f.spec.lo) + ")");
  names.push_back("hi (" + BudgetText(f.spec.hi) + ")");
  for (size_t i = 0; i < names.size(); ++i) {
    std::string expected = i < f.expected.size() ? DescribeRun(f.expected[i]) : "?";
    std::string got = i < r.got.size() ? DescribeRun(r.got[i]) : "no run";
    s += "\n  " + names[i] + ": expected " + expected + ", got " + got;
  }
  return s;
}

}  // namespace dtrcheck
