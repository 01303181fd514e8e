// The simulation entry points of the extension: run, sweep, scan and the
// trace listing. Configurations come in and records go out as the JSON that
// `dtrcheck run --json` prints (io/record.h); the Python package turns them
// into typed objects (python/dtrcheck/record.py), so that a record read
// from Python has every field of the CLI's, exactly (integers of any size).
#include "simulation.h"

#include "command.h"

#include <pybind11/stl.h>

#include <filesystem>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "analysis/finding_json.h"
#include "analysis/scan.h"
#include "analysis/sweep.h"
#include "io/json.h"
#include "io/record.h"
#include "plugins/plugin_heuristic.h"
#include "sim/parse.h"
#include "sim/simulate.h"
#include "traces/captured.h"
#include "traces/locate.h"

namespace py = pybind11;

namespace dtrcheck::python {

namespace {

// The last trace parsed, with its baselines: a notebook runs one trace many
// times. Keyed by the resolved path, the parse options and the file's size
// and modification time.
struct ParsedTrace {
  std::string key;
  std::shared_ptr<const Graph> graph;
  std::map<std::string, Baseline> baselines;
};

std::mutex cache_mutex;
ParsedTrace cache;

struct Loaded {
  std::shared_ptr<const Graph> graph;
  Baseline baseline;
};

Loaded Load(const std::string& trace, const std::string& parse_json, const RunConfig& config) {
  std::string path = ResolveTraceArgument(trace);
  ParseOptions options = ParseOptionsFromJson(ParseJson(parse_json));
  std::error_code ec;
  auto size = std::filesystem::file_size(path, ec);
  auto mtime = std::filesystem::last_write_time(path, ec).time_since_epoch().count();
  std::string key = path + "\n" + ParseOptionsToJson(options).dump() + "\n" + std::to_string(size) +
                    "\n" + std::to_string(mtime);
  std::unique_lock lock(cache_mutex);
  if (cache.key != key) {
    lock.unlock();
    auto graph = std::make_shared<const Graph>(ParseTraceFile(path, options));
    lock.lock();
    cache = ParsedTrace{key, graph, {}};
  }
  Loaded loaded{cache.graph, {}};
  auto it = cache.baselines.find(config.baseline_runtime);
  if (it != cache.baselines.end()) {
    loaded.baseline = it->second;
    return loaded;
  }
  lock.unlock();
  loaded.baseline = RunBaseline(*loaded.graph, config.baseline_runtime);
  lock.lock();
  if (cache.graph == loaded.graph) cache.baselines[config.baseline_runtime] = loaded.baseline;
  return loaded;
}

RunConfig Config(const std::string& config_json) { return ConfigFromJson(ParseJson(config_json)); }

// The budgets of a grid: {"ratios": [...]} or {"bytes": [...]}, or
// {"from", "to", "step"} as decimal text with "in_bytes" true or false.
std::vector<BudgetSpec> Budgets(const std::string& grid_json) {
  Json g = ParseJson(grid_json);
  if (g.contains("ratios")) {
    std::vector<double> ratios;
    for (const auto& r : g["ratios"]) ratios.push_back(r.get<double>());
    return RatioBudgets(ratios);
  }
  if (g.contains("bytes")) {
    std::vector<Int> bytes;
    for (const auto& b : g["bytes"]) bytes.push_back(b.get<Int>());
    return ByteBudgets(bytes);
  }
  std::string from = g["from"], to = g["to"], step = g["step"];
  if (g["in_bytes"].get<bool>()) {
    auto parse = [](const std::string& text, const char* what) {
      std::optional<Int> v = ParseInt(text);
      if (!v) throw std::invalid_argument(std::string(what) + ": not an integer: " + text);
      return *v;
    };
    return ByteBudgets(ByteGrid(parse(from, "start"), parse(to, "stop"), parse(step, "step")));
  }
  return RatioBudgets(RatioGrid(from, to, step));
}

Json FindingJson(const Finding& f) {
  Json j;
  j["kind"] = FindingKindName(f.kind);
  j["low"] = FindingEndToJson(f.low);
  j["high"] = FindingEndToJson(f.high);
  j["factor"] = f.factor;
  j["description"] = DescribeFinding(f);
  return j;
}

Json ScanJson(const ScanResult& r) {
  Json j;
  Json points = Json::array();
  for (const auto& p : r.points) points.push_back(RecordToJson(p.record));
  Json findings = Json::array();
  for (const auto& sf : r.findings) {
    Json f = FindingJson(sf.found);
    if (sf.refined) {
      Json refined = FindingJson(sf.refined->finding);
      refined["low_record"] = RecordToJson(sf.refined->low);
      refined["high_record"] = RecordToJson(sf.refined->high);
      refined["runs"] = sf.refined->runs;
      refined["stop_reason"] = sf.refined->stop_reason;
      f["refined"] = refined;
    }
    if (sf.failure) {
      Json d;
      d["status"] = StatusName(sf.failure->record.status);
      d["pinned_frontier_oom"] = sf.failure->PinnedFrontierOom();
      d["max_locked_bytes"] = Json(sf.failure->max_locked_bytes);
      d["max_locked_clock"] = Json(sf.failure->max_locked_clock);
      f["failure"] = d;
    }
    findings.push_back(f);
  }
  j["points"] = points;
  j["findings"] = findings;
  j["cliff_gap"] = Json(r.cliff_gap);
  return j;
}

ScanSettings Settings(const std::string& settings_json, int jobs) {
  Json s = ParseJson(settings_json);
  ScanSettings settings;
  settings.cliff_factor = s.value("cliff_factor", settings.cliff_factor);
  settings.cliff_fraction = s.value("cliff_delta", settings.cliff_fraction);
  if (s.contains("cliff_delta_bytes") && !s["cliff_delta_bytes"].is_null())
    settings.cliff_bytes = s["cliff_delta_bytes"].get<Int>();
  settings.rise_factor = s.value("rise_factor", settings.rise_factor);
  settings.refine = s.value("refine", false);
  if (s.value("bisect_bytes", false)) {
    settings.refine = true;
    settings.tolerance = 1;
  }
  settings.diagnose = s.value("diagnose", true);
  settings.jobs = jobs;
  settings.cancel = Interrupt::flag();
  return settings;
}

std::string Run(const std::string& trace, const std::string& config_json,
                const std::string& parse_json) {
  return Command("run", [&] {
    RunConfig config = Config(config_json);
    Loaded t = Load(trace, parse_json, config);
    InterruptObserver interrupt;
    return RecordToJson(Simulate(*t.graph, config, t.baseline, &interrupt)).dump();
  });
}

std::vector<std::string> Sweep(const std::string& trace, const std::string& config_json,
                               const std::string& parse_json, const std::string& grid_json,
                               int jobs) {
  return Command("sweep", [&] {
    RunConfig config = Config(config_json);
    std::vector<BudgetSpec> budgets = Budgets(grid_json);
    Loaded t = Load(trace, parse_json, config);
    SweepOptions options;
    options.jobs = jobs;
    options.cancel = Interrupt::flag();
    SweepResult r = RunSweep(*t.graph, config, t.baseline, budgets, options);
    std::vector<std::string> out;
    for (const auto& p : r.points) out.push_back(RecordToJson(p.record).dump());
    return out;
  });
}

std::string Scan(const std::string& trace, const std::string& config_json,
                 const std::string& parse_json, const std::string& grid_json,
                 const std::string& settings_json, int jobs) {
  return Command("scan", [&] {
    RunConfig config = Config(config_json);
    std::vector<BudgetSpec> budgets = Budgets(grid_json);
    ScanSettings settings = Settings(settings_json, jobs);
    Loaded t = Load(trace, parse_json, config);
    return ScanJson(RunScan(*t.graph, config, t.baseline, budgets, settings)).dump();
  });
}

// A trace of either manifest; path empty when the file is not found.
template <class Trace>
Json TraceJson(const Trace& t, const char* kind, const std::string& path, bool verified) {
  Json j;
  j["name"] = t.name;
  j["kind"] = kind;
  j["model"] = t.model;
  j["file"] = t.file;
  j["sha256"] = t.sha256;
  j["path"] = path.empty() ? Json(nullptr) : Json(path);
  j["verified"] = verified;
  return j;
}

std::string Traces() {
  return Command("traces", [] {
    Json list = Json::array();
    for (const auto& t : PublicTraces()) {
      LocatedTrace l = InspectPublicTrace(t.name);
      list.push_back(TraceJson(t, "public", l.path, l.check == TraceCheck::kVerified));
    }
    for (const auto& t : CapturedTraces()) {
      std::string path;
      try {
        path = LocateCapturedTrace(t.name);  // verified, or it throws
      } catch (const TraceLocateError&) {
      }
      list.push_back(TraceJson(t, "captured", path, !path.empty()));
    }
    return list.dump();
  });
}

}  // namespace

void BindSimulation(py::module_& m) {
  m.def("run", &Run, py::arg("trace"), py::arg("config"), py::arg("parse"));
  m.def("sweep", &Sweep, py::arg("trace"), py::arg("config"), py::arg("parse"), py::arg("grid"),
        py::arg("jobs"));
  m.def("scan", &Scan, py::arg("trace"), py::arg("config"), py::arg("parse"), py::arg("grid"),
        py::arg("settings"), py::arg("jobs"));
  m.def("traces", &Traces);
  m.def("load_plugin",
        [](const std::string& path) { Command("run --plugin", [&] { LoadPlugin(path); }); });
  m.def("resolve_trace", [](const std::string& t) {
    return Command("trace-path", [&] { return ResolveTraceArgument(t); });
  });
}

}  // namespace dtrcheck::python
