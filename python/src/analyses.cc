// The analyses beyond a sweep, for the Python package: a property on two
// budgets (analysis/reduce_property.h), the reduction of a trace that keeps
// it (reduce/reducer.h), the optimum at a budget (optimal/regret.h), the
// census of sweep records (analysis/census.h) and the pathology fuzzer's
// check of one input (fuzz/lib/fuzz_check.h). Each calls the library the
// CLI command calls; configurations come in and results go out as JSON,
// typed by python/dtrcheck/record.py.
#include "analyses.h"

#include <pybind11/stl.h>

#include <algorithm>
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "analysis/census.h"
#include "analysis/finding_manifest.h"
#include "analysis/pathology.h"
#include "analysis/records_model.h"
#include "analysis/reduce_property.h"
#include "command.h"
#include "fuzz/lib/fuzz_case.h"
#include "fuzz/lib/fuzz_check.h"
#include "io/atomic_file.h"
#include "io/json.h"
#include "io/record.h"
#include "io/trace_graph.h"
#include "io/trace_log.h"
#include "io/trace_writer.h"
#include "optimal/regret.h"
#include "reduce/reducer.h"
#include "reduce/trace_edits.h"
#include "sim/parse.h"
#include "traces/locate.h"

namespace py = pybind11;

namespace dtrcheck::python {

namespace {

// {"ratio": R} or {"bytes": "B"} (bytes as decimal text: any size).
BudgetSpec SpecBudget(const Json& b) {
  if (b.contains("ratio")) return BudgetSpec::Ratio(b["ratio"].get<double>());
  std::optional<Int> v = ParseInt(b["bytes"].get<std::string>());
  if (!v || *v < 0) throw std::invalid_argument("a byte budget must be a non-negative integer");
  return BudgetSpec::Bytes(*v);
}

// {"property", "config", "lo", "hi", "factor", "failure"}, as `dtrcheck
// reduce`'s options: failure is "oom", "thrashed" or "any" (or "same": how
// the trace fails at hi, resolved against `graph`).
PropertySpec SpecFromJson(const Json& j, const Graph& graph) {
  PropertySpec spec;
  spec.property = TracePropertyFromName(j["property"].get<std::string>());
  spec.config = ConfigFromJson(j["config"]);
  if (!j["lo"].is_null()) spec.lo = SpecBudget(j["lo"]);
  spec.hi = SpecBudget(j["hi"]);
  spec.factor = j.value("factor", 2.0);
  ValidatePropertySpec(spec);
  const std::string failure = j.value("failure", "any");
  if (spec.property == TraceProperty::kInversion && failure != "any") {
    if (failure == "oom") spec.failure = Status::kOom;
    if (failure == "thrashed") spec.failure = Status::kThrashed;
    if (failure == "same") {
      PropertyCheck found = CheckTraceProperty(graph, spec);
      if (found.holds) spec.failure = found.runs.back().status;
    }
  }
  return spec;
}

std::string CheckProperty(const std::string& trace, const std::string& spec_json) {
  return Command("reduce", [&] {
    const std::string path = ResolveTraceArgument(trace);
    Graph graph = ParseTraceFile(path);
    PropertySpec spec = SpecFromJson(ParseJson(spec_json), graph);
    return CheckToJson(CheckTraceProperty(graph, spec), spec).dump();
  });
}

// `dtrcheck reduce` without the manifest and simrd's confirmation: the
// reduced trace written to `out`, the property before and after.
std::string ReduceTrace(const std::string& trace, const std::string& spec_json,
                        const std::string& out) {
  return Command("reduce", [&] {
    const std::string path = ResolveTraceArgument(trace);
    RefuseSameFile(path, "trace", out, "out");
    TraceLog original = ReadTraceLogFile(path);
    if (std::string why = CheckBindings(original); !why.empty())
      throw TraceError(path, 0, "not reducible: " + why);
    Graph graph = ParseTraceFile(path);
    PropertySpec spec = SpecFromJson(ParseJson(spec_json), graph);
    PropertyCheck before = CheckTraceProperty(graph, spec);
    if (!before.holds)
      throw std::invalid_argument("the " + std::string(TracePropertyName(spec.property)) +
                                  " property does not hold on " + path + ": " + before.summary);
    const auto started = std::chrono::steady_clock::now();
    ReduceOptions options;
    options.cancel = Interrupt::flag();
    ReduceResult result = Reduce(
        original,
        [&](const TraceLog& log) {
          try {
            return CheckTraceProperty(TraceLogGraph(log, "candidate"), spec).holds;
          } catch (const TraceError&) {
            return false;
          }
        },
        options);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    WriteTraceLogFile(result.log, out);
    PropertyCheck after = CheckTraceProperty(ParseTraceFile(out), spec);
    Json j;
    j["trace"] = out;
    j["before"] = CheckToJson(before, spec);
    j["after"] = CheckToJson(after, spec);
    j["operators"] = {{"before", original.NumOperators()}, {"after", result.log.NumOperators()}};
    j["instructions"] = {{"before", original.instrs.size()}, {"after", result.log.instrs.size()}};
    j["tests"] = result.tests;
    j["rounds"] = result.rounds;
    j["one_minimal"] = result.minimal;
    j["seconds"] = seconds;
    return j.dump();
  });
}

// `dtrcheck optimal --json` at the configuration's budget.
std::string Optimal(const std::string& trace, const std::string& config_json, double time_limit,
                    const std::string& engine) {
  return Command("optimal", [&] {
    const auto started = std::chrono::steady_clock::now();
    const std::string path = ResolveTraceArgument(trace);
    RunConfig config = ConfigFromJson(ParseJson(config_json));
    Graph graph = ParseTraceFile(path);
    Baseline baseline = RunBaseline(graph, config.baseline_runtime);
    if (!config.budget && !config.ratio) throw std::invalid_argument("a budget is required");
    const Int budget =
        config.budget ? *config.budget : BudgetSpec::Ratio(*config.ratio).Resolve(baseline);
    RematProblem problem = MakeRematProblem(graph);
    OptimalOptions options;
    options.time_limit_seconds = time_limit;
    options.cancel = Interrupt::flag();
    options.deadline = started + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                     std::chrono::duration<double>(time_limit * 0.95));
    if (engine == "search") {
      options.engine = OptimalEngine::kSearch;
    } else if (engine == "milp") {
      options.engine = OptimalEngine::kMilp;
    } else if (engine != "both") {
      throw std::invalid_argument("engine must be both, search or milp, not " + engine);
    }
    Regret r = RegretAt(graph, problem, config, baseline, budget, options);
    Json j = RegretToJson(r);
    j["trace"] = path;
    j["ratio"] = config.ratio ? Json(*config.ratio) : Json();
    j["peak"] = Json(baseline.peak);
    j["baseline_compute"] = Json(baseline.compute);
    j["nodes"] = problem.nodes.size();
    j["engine"] = r.optimum.engine;
    j["recomputations"] = r.check.recomputations;
    j["description"] = DescribeOptimum(r);
    return j.dump();
  });
}

Json CensusRowJson(const CensusRow& r) {
  Json j;
  j["policy"] = r.policy;
  j["trace"] = r.trace;
  j["limit"] = r.limit;
  j["points"] = r.points;
  j["ok"] = r.ok;
  j["oom"] = r.oom;
  j["thrashed"] = r.thrashed;
  j["inversions"] = r.inversions;
  j["cliffs"] = r.cliffs;
  j["rises"] = r.rises;
  j["pinned_frontier"] = r.pinned_frontier;
  j["smallest_feasible"] = r.smallest_feasible ? Json(*r.smallest_feasible) : Json();
  j["smallest_feasible_bytes"] =
      r.smallest_feasible_bytes ? Json(*r.smallest_feasible_bytes) : Json();
  j["at_ratios"] = r.at_ratios;
  j["mean_overhead"] = r.mean_overhead;
  j["worst_overhead"] = r.worst_overhead;
  j["hidden_cost"] = r.hidden_cost;
  // The allocator-only columns (analysis/census.h), under a memory model.
  j["allocator"] = r.allocator;
  j["fragmentation_ooms"] = r.fragmentation_ooms;
  j["allocator_inversions"] = r.allocator_inversions;
  j["allocator_cliffs"] = r.allocator_cliffs;
  j["reserved_peak_inversions"] = r.reserved_peak_inversions;
  j["floor_fragmentation"] = r.floor_fragmentation ? Json(*r.floor_fragmentation) : Json();
  return j;
}

// `dtrcheck census`: for each (trace, records), one row per heuristic and
// seed in the records' order, then the per-policy sums; plus the table as
// markdown and csv. memory_json: "" (each input's records their own model)
// or a configuration's memory keys ({"memory": "arena"}, as `census
// --memory`): the records must be runs under that model.
std::string Census(const std::vector<std::pair<std::string, std::vector<std::string>>>& inputs,
                   int jobs, const std::string& memory_json) {
  return Command("census", [&] {
    std::optional<MemoryOptions> wanted;
    if (!memory_json.empty()) wanted = ConfigFromJson(ParseJson(memory_json)).memory;
    std::vector<CensusRow> rows;
    for (const auto& [trace_arg, record_texts] : inputs) {
      const std::string trace = ResolveTraceArgument(trace_arg);
      if (record_texts.empty())
        throw std::invalid_argument("census input \"" + trace_arg + "\": no records");
      const Graph graph = ParseTraceFile(trace);
      std::vector<RunRecord> records;
      for (const std::string& text : record_texts)
        records.push_back(RecordFromJson(ParseJson(text)));
      if (wanted) RefuseRecordsOfOtherModel(trace_arg, records, *wanted);
      for (CensusRow& row : CensusOfRecords(graph, CensusTraceName(trace), records, jobs))
        rows.push_back(row);
    }
    for (const CensusRow& t : CensusTotals(rows)) rows.push_back(t);
    Json j;
    j["rows"] = Json::array();
    for (const CensusRow& r : rows) j["rows"].push_back(CensusRowJson(r));
    j["markdown"] = CensusMarkdown(rows);
    j["csv"] = CensusCsv(rows);
    return j.dump();
  });
}

// The pathology fuzzer's check of one input (`dtrcheck fuzz-decode`): the
// decoded case, its sweep's records and its findings. The pairs the input
// decodes to are those of the registered policies (FuzzCasePairs).
std::string FuzzCheck(const py::bytes& input) {
  std::string bytes = input;
  return Command("fuzz-decode", [&] {
    FuzzCase c = DecodeFuzzCase(bytes);
    FuzzCheckOptions options = FuzzCheckOptionsFromEnv();
    ::dtrcheck::FuzzCheck check = CheckFuzzCase(c, options);
    Json j;
    j["case"] = FuzzCaseToJson(c);
    j["description"] = DescribeFuzzCase(c);
    j["points"] = Json::array();
    for (const SweepPoint& p : check.points) j["points"].push_back(RecordToJson(p.record));
    j["findings"] = Json::array();
    for (const FuzzFinding& f : check.findings) j["findings"].push_back(FuzzFindingToJson(f));
    return j.dump();
  });
}

// The synthetic trace an input decodes to, written to `out` (`dtrcheck gen`
// with the case's generator).
void FuzzCaseTraceFile(const py::bytes& input, const std::string& out) {
  std::string bytes = input;
  Command("fuzz-decode", [&] { WriteTraceLogFile(FuzzCaseTrace(DecodeFuzzCase(bytes)), out); });
}

}  // namespace

void BindAnalyses(py::module_& m) {
  m.def("check_property", &CheckProperty, py::arg("trace"), py::arg("spec"));
  m.def("reduce", &ReduceTrace, py::arg("trace"), py::arg("spec"), py::arg("out"));
  m.def("optimal", &Optimal, py::arg("trace"), py::arg("config"), py::arg("time_limit"),
        py::arg("engine"));
  m.def("census", &Census, py::arg("inputs"), py::arg("jobs"), py::arg("memory"));
  m.def("fuzz_check", &FuzzCheck, py::arg("input"));
  m.def("fuzz_case_trace", &FuzzCaseTraceFile, py::arg("input"), py::arg("out"));
  // The names the C++ code gives, for the package to read rather than spell.
  m.def("finding_kinds", [] {
    std::vector<std::string> out;
    for (FindingKind k :
         {FindingKind::kInversion, FindingKind::kRegimeCliff, FindingKind::kOverheadRise})
      out.push_back(FindingKindName(k));
    return out;
  });
  m.def("property_names", [] { return TracePropertyNames(); });
  m.def("statuses", [] {
    std::vector<std::string> out;
    for (Status s : {Status::kOk, Status::kOom, Status::kThrashed, Status::kError})
      out.push_back(StatusName(s));
    return out;
  });
}

}  // namespace dtrcheck::python
