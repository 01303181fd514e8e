#include "analysis/finding_manifest.h"

#include <filesystem>
#include <stdexcept>

#include "io/atomic_file.h"
#include "io/entry_path.h"
#include "io/input_file.h"
#include "sim/heuristic.h"

namespace dtrcheck {

const char kSimrdConfirmed[] = "confirmed";
const char kSimrdNotConfirmed[] = "not confirmed by simrd";
const char kSimrdDisagrees[] = "simrd disagrees";
const char kReplayConfirmed[] =
    "confirmed by replay in dtrcheck (plugin heuristic: no simrd oracle)";

namespace {

// Format 1 called an unconfirmed finding "unavailable".
const char kFormat1NotConfirmed[] = "unavailable";

Json BudgetJson(const BudgetSpec& spec, const Baseline& baseline) {
  Json j;
  if (spec.ratio) j["ratio"] = *spec.ratio;
  j["bytes"] = Json(spec.Resolve(baseline));
  return j;
}

BudgetSpec BudgetFromJson(const JsonFields& j) {
  if (j.Has("ratio")) return BudgetSpec::Ratio(j.Number("ratio"));
  return BudgetSpec::Bytes(j.Integer("bytes"));
}

Json RunJson(const ArchivedRun& r) {
  return {{"status", r.status}, {"overhead", r.overhead}, {"budget", Json(r.budget)}};
}

ArchivedRun RunFromJson(const JsonFields& j) {
  return ArchivedRun{j.String("status"), j.Number("overhead"), j.Integer("budget")};
}

// The names of the runs: lo (when there is one) then hi; a fragmentation
// OOM's are hi under bytes ("bytes") then hi under the allocator.
std::vector<const char*> RunNames(const PropertySpec& spec) {
  if (spec.property == TraceProperty::kFragmentationOom) return {"bytes", "hi"};
  if (spec.lo) return {"lo", "hi"};
  return {"hi"};
}

bool HasFactor(TraceProperty p) {
  return p == TraceProperty::kCliff || p == TraceProperty::kOverheadRise;
}

// {lo, hi}: the runs, named.
Json ExpectedJson(const FindingManifest& m) {
  Json expected;
  auto names = RunNames(m.spec);
  for (size_t i = 0; i < m.expected.size() && i < names.size(); ++i)
    expected[names[i]] = RunJson(m.expected[i]);
  return expected;
}

// A JSON object field kept as it is.
Json ObjectOrNull(const JsonFields& j, const char* key) {
  return j.Has(key) ? j.Object(key).json() : Json(nullptr);
}

}  // namespace

Json CheckToJson(const PropertyCheck& check, const PropertySpec& spec) {
  FindingManifest m;
  m.spec = spec;
  SetCheck(&m, check);
  Json j;
  j["summary"] = m.summary;
  j["holds"] = m.holds;
  j["budgets"] = m.budgets;
  j["expected"] = ExpectedJson(m);
  j["dtrcheck"] = m.dtrcheck;
  if (!m.oom.is_null()) j["oom"] = m.oom;
  return j;
}

void SetCheck(FindingManifest* m, const PropertyCheck& check) {
  const PropertySpec& spec = m->spec;
  m->summary = check.summary;
  m->holds = check.holds;
  m->budgets = Json::object();
  if (spec.lo) m->budgets["lo"] = BudgetJson(*spec.lo, check.baseline);
  m->budgets["hi"] = BudgetJson(spec.hi, check.baseline);
  m->expected.clear();
  m->dtrcheck = Json::array();
  for (const auto& r : check.runs) {
    m->expected.push_back(ArchivedRun{StatusName(r.status), r.Overhead(), r.budget});
    Json run = RecordToJson(r);
    run["overhead"] = r.Overhead();
    m->dtrcheck.push_back(run);
  }
  m->oom = nullptr;
  if (check.diagnosis && check.diagnosis->oom) {
    const OomDetails& o = *check.diagnosis->oom;
    m->oom = {{"tensor", o.tensor_name},
              {"request", Json(o.request)},
              {"resident", Json(o.resident)},
              {"locked_bytes", Json(o.locked_bytes)},
              {"evictable", o.pool_count},
              {"pinned_frontier", o.PinnedFrontier()},
              {"depth", o.depth}};
  }
}

std::string SimrdStatus(const SimrdConfirmation& c) {
  if (c.available && c.confirmed) return kSimrdConfirmed;
  if (c.available && c.error.empty()) return kSimrdDisagrees;
  return kSimrdNotConfirmed;
}

bool ConfirmPluginByReplay(bool holds, FindingManifest* m) {
  const std::string& h = m->spec.config.heuristic;
  if (!IsPluginHeuristic(h)) return false;
  SimrdConfirmation simrd;
  const std::string origin = PluginOrigin(h);
  simrd.error = "heuristic " + h +
                (origin.empty() ? std::string(" is dtrcheck's own (policies/), not simrd's")
                                : " comes from plugin " + origin) +
                ": simrd has no oracle for it; the trace was replayed in dtrcheck";
  m->simrd_status = holds ? kReplayConfirmed : kSimrdNotConfirmed;
  m->simrd = simrd.ToJson();
  return true;
}

Json ManifestToJson(const FindingManifest& m) {
  Json j;
  j["format"] = kManifestFormat;
  if (!m.id.empty()) j["id"] = m.id;
  if (!m.kind.empty()) j["kind"] = m.kind;
  j["property"] = TracePropertyName(m.spec.property);
  if (!m.signature.empty()) j["signature"] = m.signature;
  if (!m.description.empty()) j["description"] = m.description;
  j["summary"] = m.summary;
  j["holds"] = m.holds;
  j["trace"] = m.trace;
  j["trace_sha256"] = m.trace_sha256;
  j["config"] = ConfigToJson(m.spec.config);
  if (HasFactor(m.spec.property)) j["factor"] = m.spec.factor;
  if (m.spec.failure) j["failure"] = StatusName(*m.spec.failure);
  j["budgets"] = m.budgets;
  j["expected"] = ExpectedJson(m);
  j["dtrcheck"] = m.dtrcheck;
  if (!m.oom.is_null()) j["oom"] = m.oom;
  if (!m.bucket.is_null()) j["bucket"] = m.bucket;
  if (!m.optimal.is_null()) j["optimal"] = m.optimal;
  j["simrd_status"] = m.simrd_status;
  j["simrd"] = m.simrd;
  j["operators"] = m.operators;
  j["instructions"] = m.instructions;
  j["reduction"] = m.reduction;
  if (!m.before.is_null()) j["before"] = m.before;
  if (!m.original.is_null()) j["original"] = m.original;
  if (!m.fuzzer.is_null()) j["fuzzer"] = m.fuzzer;
  j["commands"] = m.commands;
  if (!m.archive.empty()) j["archive"] = m.archive;
  return j;
}

FindingManifest ManifestFromJson(const Json& json) {
  JsonFields j(json);
  FindingManifest m;
  const int64_t format = j.Int64("format");
  if (format < 1 || format > kManifestFormat)
    j.Fail("format", "1 to " + std::to_string(kManifestFormat));
  m.id = j.OptionalString("id").value_or("");
  m.kind = j.OptionalString("kind").value_or("");
  try {
    m.spec.property = TracePropertyFromName(j.String("property"));
  } catch (const FieldError&) {
    throw;
  } catch (const std::invalid_argument& e) {
    throw FieldError(std::string("field \"property\": ") + e.what());
  }
  m.signature = j.OptionalString("signature").value_or("");
  m.description = j.OptionalString("description").value_or("");
  m.summary = j.String("summary");
  m.holds = format == 1 ? true : j.Bool("holds");  // format 1: archived means it held
  m.trace = j.String("trace");
  m.trace_sha256 = j.String("trace_sha256");
  CheckSha256Field(m.trace_sha256, "trace_sha256");  // never a switch that turns the check off
  m.spec.config = ConfigFromJson(j.Object("config").json());
  if (m.spec.config.budget || m.spec.config.ratio)
    j.Object("config").Fail("budget", "no budget (budgets are in \"budgets\")");
  if (HasFactor(m.spec.property)) m.spec.factor = j.Number("factor");
  if (j.Has("failure")) {
    const std::string failure = j.String("failure");
    if (failure == StatusName(Status::kOom))
      m.spec.failure = Status::kOom;
    else if (failure == StatusName(Status::kThrashed))
      m.spec.failure = Status::kThrashed;
    else
      j.Fail("failure", "oom or thrashed");
  }
  JsonFields budgets = j.Object("budgets");
  JsonFields expected = j.Object("expected");
  m.budgets = budgets.json();
  if (budgets.Has("lo")) {
    m.spec.lo = BudgetFromJson(budgets.Object("lo"));
    m.expected.push_back(RunFromJson(expected.Object("lo")));
  }
  m.spec.hi = BudgetFromJson(budgets.Object("hi"));
  if (m.spec.property == TraceProperty::kFragmentationOom)
    m.expected.push_back(RunFromJson(expected.Object("bytes")));
  m.expected.push_back(RunFromJson(expected.Object("hi")));
  try {
    ValidatePropertySpec(m.spec);
  } catch (const std::invalid_argument& e) {
    throw FieldError(std::string("field \"budgets\": ") + e.what());
  }
  m.dtrcheck = j.Array("dtrcheck");
  if (m.dtrcheck.size() != m.expected.size())
    j.Fail("dtrcheck", "one record per budget (" + std::to_string(m.expected.size()) + ")");
  m.oom = ObjectOrNull(j, "oom");
  m.bucket = ObjectOrNull(j, "bucket");
  m.optimal = ObjectOrNull(j, "optimal");
  m.simrd_status = j.String("simrd_status");
  if (format == 1 && m.simrd_status == kFormat1NotConfirmed) m.simrd_status = kSimrdNotConfirmed;
  if (m.simrd_status != kSimrdConfirmed && m.simrd_status != kSimrdNotConfirmed &&
      m.simrd_status != kSimrdDisagrees && m.simrd_status != kReplayConfirmed)
    j.Fail("simrd_status", std::string("\"") + kSimrdConfirmed + "\", \"" + kSimrdNotConfirmed +
                               "\", \"" + kSimrdDisagrees + "\" or \"" + kReplayConfirmed + "\"");
  m.simrd = j.Object("simrd").json();
  m.operators = j.Object("operators").json();
  m.instructions = j.Object("instructions").json();
  m.reduction = j.Object("reduction").json();
  m.before = ObjectOrNull(j, "before");
  m.original = ObjectOrNull(j, "original");
  m.fuzzer = ObjectOrNull(j, "fuzzer");
  m.commands = j.Object("commands").json();
  m.archive = j.OptionalString("archive").value_or("");
  return m;
}

std::string ManifestPathFor(const std::string& reduced_trace) {
  std::filesystem::path p(reduced_trace);
  if (p.extension() == ".log") p.replace_extension();
  return p.string() + ".manifest.json";
}

FindingManifest ReadFindingManifest(const std::string& path) {
  const Json j = ReadJsonFile(path);  // bounded, regular files only
  try {
    return ManifestFromJson(j);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(path + ": " + e.what());
  }
}

std::string ManifestFile(const std::string& manifest_path, const std::string& name,
                         const char* field) {
  try {
    return PathInEntry(std::filesystem::path(manifest_path).parent_path().string(), name, field);
  } catch (const FieldError& e) {
    throw std::invalid_argument(manifest_path + ": " + e.what());
  }
}

void WriteFindingManifest(const FindingManifest& m, const std::string& path) {
  WriteFileAtomically(path, ManifestToJson(m).dump(2) + "\n");
}

}  // namespace dtrcheck
