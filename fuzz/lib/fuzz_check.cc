#include "fuzz/lib/fuzz_check.h"

#include <cmath>
#include <cstdlib>
#include <stdexcept>

#include "analysis/allocator_pathology.h"
#include "analysis/format.h"
#include "base/sha256.h"
#include "io/trace_graph.h"
#include "sim/accepted_pairs.h"

namespace dtrcheck {

namespace {

double EnvDouble(const char* name, double fallback, double lo, double hi, bool lo_open) {
  const char* text = std::getenv(name);
  if (!text || !*text) return fallback;
  char* end = nullptr;
  double v = std::strtod(text, &end);
  bool in_range = lo_open ? v > lo : v >= lo;
  if (*end != '\0' || !(in_range && v <= hi))
    throw std::invalid_argument(std::string(name) + "=" + text + ": not a number in range");
  return v;
}

// "cudnn_convolution_backward/12" -> "cudnn_convolution_backward": the
// operator, not its position in this particular trace.
std::string OpKind(const std::string& op_name) { return op_name.substr(0, op_name.rfind('/')); }

std::string PairAndShape(const FuzzCase& c) {
  std::string s = c.config.runtime + "|" + c.config.heuristic + "|" + c.trace.shape;
  // Signatures under bytes stay as they were.
  if (c.config.memory.model != MemoryModel::kBytes)
    s += "|memory " + MemoryModelName(c.config.memory.model);
  return s;
}

PropertySpec SpecOf(TraceProperty property, const FuzzCase& c, const Finding& f, double factor) {
  PropertySpec spec;
  spec.property = property;
  spec.config = c.config;
  spec.lo = BudgetSpec::Ratio(*f.low.ratio);
  spec.hi = BudgetSpec::Ratio(*f.high.ratio);
  spec.factor = factor;
  return spec;
}

}  // namespace

FuzzCheckOptions FuzzCheckOptionsFromEnv() {
  FuzzCheckOptions o;
  o.cliff_factor = EnvDouble("DTRCHECK_FUZZ_CLIFF_FACTOR", o.cliff_factor, 1.0, 1e300, false);
  o.cliff_gap = EnvDouble("DTRCHECK_FUZZ_CLIFF_GAP", o.cliff_gap, 0.0, 1.0, true);
  double every =
      EnvDouble("DTRCHECK_FUZZ_CHECK_REGIONS_EVERY", o.check_regions_every, 0.0, 1e6, false);
  if (every != static_cast<int>(every))
    throw std::invalid_argument("DTRCHECK_FUZZ_CHECK_REGIONS_EVERY: not a whole number");
  o.check_regions_every = static_cast<int>(every);
  o.memory = MemoryOptionsFromEnv("DTRCHECK_FUZZ_MEMORY");
  return o;
}

std::string FuzzFinding::Describe() const {
  std::string s = kind + ": ";
  if (kind == "simrd-error") return s + detail;
  // DescribeFinding names the predicate's kind first; ours replaces it.
  std::string runs_text = DescribeFinding(runs);
  s += runs_text.substr(runs_text.find(": ") + 2);
  if (!detail.empty()) s += " [" + detail + "]";
  return s;
}

FuzzCheck CheckFuzzCase(const FuzzCase& fuzz_case, const FuzzCheckOptions& options) {
  FuzzCase c = fuzz_case;
  c.config.memory = options.memory;
  FuzzCheck out;
  Graph graph = TraceLogGraph(FuzzCaseTrace(c), "fuzz-case");
  out.baseline = RunBaseline(graph, c.config.baseline_runtime);
  RunConfig config = c.config;
  if (options.check_regions_every > 0 && c.trace.seed % options.check_regions_every == 0)
    config.region_rebuilds = RegionRebuilds::kUpdateChecked;
  out.points = RunSweep(graph, config, out.baseline, RatioBudgets(c.Ratios())).points;

  for (const SweepPoint& p : out.points) {
    if (p.status() != Status::kError) continue;
    FuzzFinding f;
    f.kind = "simrd-error";
    f.runs.kind = FindingKind::kInversion;
    f.runs.low = f.runs.high =
        FindingEnd{p.index, p.record.config.ratio, p.budget(), p.status(), 0};
    f.detail = p.record.message;
    f.signature = "simrd-error|" + PairAndShape(c) + "|" + p.record.message.substr(0, 80);
    out.findings.push_back(f);
    return out;  // the other runs of an invalid trace mean nothing
  }

  std::vector<FuzzFinding> pinned;
  for (const Finding& inv : FindInversions(out.points)) {
    FuzzFinding f;
    f.kind = "inversion";
    f.runs = inv;
    f.spec = SpecOf(TraceProperty::kInversion, c, inv, options.cliff_factor);
    f.signature = "inversion|" + PairAndShape(c) + "|" + StatusName(inv.low.status) + ">" +
                  StatusName(inv.high.status);
    if (inv.high.status == Status::kOom) {
      Diagnosis d = Diagnose(graph, WithBudget(c.config, f.spec->hi), out.baseline);
      if (d.oom) {
        f.detail = "oom computing " + OpKind(d.oom->op_name);
        f.signature += "|" + OpKind(d.oom->op_name);
      }
      if (d.PinnedFrontierOom()) {
        FuzzFinding p = f;
        p.kind = "pinned-oom";
        p.spec->property = TraceProperty::kPinnedOom;
        p.detail += ", pinned frontier: " + GroupedInt(d.oom->locked_bytes) + " locked + " +
                    GroupedInt(d.oom->request) + " requested > " + GroupedInt(d.oom->budget);
        p.signature = "pinned-oom|" + PairAndShape(c) + "|" + OpKind(d.oom->op_name);
        pinned.push_back(p);
      }
    }
    out.findings.push_back(f);
  }
  out.findings.insert(out.findings.end(), pinned.begin(), pinned.end());

  // Overheads are relative to the baseline compute: without any, no cliff.
  if (out.baseline.compute > 0) {
    Int gap = GapFromFractionOfPeak(options.cliff_gap, out.baseline.peak);
    for (const Finding& cliff : FindRegimeCliffs(out.points, options.cliff_factor, gap)) {
      FuzzFinding f;
      f.kind = "cliff";
      f.runs = cliff;
      f.spec = SpecOf(TraceProperty::kCliff, c, cliff, options.cliff_factor);
      int octave =
          std::isfinite(cliff.factor) ? static_cast<int>(std::floor(std::log2(cliff.factor))) : 99;
      f.signature = "cliff|" + PairAndShape(c) + "|x" + std::to_string(1 << std::min(octave, 30));
      out.findings.push_back(f);
    }
  }

  // A policy that reads addresses has no bytes run to compare with.
  if (c.config.memory.model != MemoryModel::kBytes && !ReadsAddresses(c.config.heuristic)) {
    RunConfig bytes = config;
    bytes.memory = MemoryOptions{};
    const std::vector<SweepPoint> bytes_points =
        RunSweep(graph, bytes, out.baseline, RatioBudgets(c.Ratios())).points;
    for (const Finding& frag : FindFragmentationOoms(out.points, bytes_points)) {
      FuzzFinding f;
      f.kind = "fragmentation-oom";
      f.runs = frag;
      PropertySpec spec;
      spec.property = TraceProperty::kFragmentationOom;
      spec.config = c.config;
      spec.hi = BudgetSpec::Ratio(*frag.high.ratio);
      f.spec = spec;
      Diagnosis d = Diagnose(graph, WithBudget(c.config, spec.hi), out.baseline);
      if (!d.oom || !d.oom->BytesFit()) continue;  // the bytes failed first: not fragmentation
      f.detail = "the allocator refused " + GroupedInt(d.oom->request) + " B computing " +
                 OpKind(d.oom->op_name) + " where the bytes fit";
      f.signature = "fragmentation-oom|" + PairAndShape(c) + "|" + OpKind(d.oom->op_name);
      out.findings.push_back(f);
    }
  }
  return out;
}

std::string SignatureId(const std::string& signature) {
  return Sha256Hex(signature).substr(0, 16);  // the first 8 bytes
}

std::vector<std::string> ReduceArguments(const FuzzFinding& f) {
  if (!f.spec) return {};
  const PropertySpec& s = *f.spec;
  std::vector<std::string> a = {"--property", TracePropertyName(s.property)};
  if (s.lo) a.insert(a.end(), {"--lo", ShortestDouble(*s.lo->ratio)});
  a.insert(a.end(), {"--hi", ShortestDouble(*s.hi.ratio)});
  if (s.property == TraceProperty::kCliff)
    a.insert(a.end(), {"--cliff-factor", ShortestDouble(s.factor)});
  a.insert(a.end(), {"--runtime", s.config.runtime, "--heuristic", s.config.heuristic,
                     "--baseline-runtime", s.config.baseline_runtime});
  if (s.config.overhead_limit)
    a.insert(a.end(), {"--overhead-limit", ShortestDouble(*s.config.overhead_limit)});
  if (s.config.seed) a.insert(a.end(), {"--seed", IntToString(*s.config.seed)});
  if (s.config.memory.model != MemoryModel::kBytes)
    a.insert(a.end(), {"--memory", MemoryModelName(s.config.memory.model)});
  return a;
}

Json FuzzFindingToJson(const FuzzFinding& f) {
  auto end = [&](const FindingEnd& e) {
    Json j;
    if (e.ratio) j["ratio"] = *e.ratio;
    j["budget"] = Json(e.budget);
    j["status"] = StatusName(e.status);
    j["overhead"] = e.overhead;
    return j;
  };
  Json j;
  j["kind"] = f.kind;
  j["signature"] = f.signature;
  j["id"] = SignatureId(f.signature);
  j["description"] = f.Describe();
  if (!f.detail.empty()) j["detail"] = f.detail;
  j["lo"] = end(f.runs.low);
  j["hi"] = end(f.runs.high);
  if (f.kind == "cliff") j["factor"] = f.runs.factor;
  if (f.spec) {
    j["property"] = TracePropertyName(f.spec->property);
    j["reduce_arguments"] = ReduceArguments(f);
  }
  return j;
}

}  // namespace dtrcheck
