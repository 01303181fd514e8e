#include "analysis/bucket.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>

#include "analysis/pathology.h"
#include "sim/score_family.h"
#include "traces/locate.h"

namespace dtrcheck {

namespace {

Int Gcd(Int a, Int b) {
  while (b != 0) {
    Int t = a % b;
    a = b;
    b = t;
  }
  return a;
}

// Joins with ',' (empty list: "-", so that the key's fields stay apart).
std::string JoinOr(const std::vector<std::string>& parts, const char* sep) {
  if (parts.empty()) return "-";
  std::string out;
  for (const auto& p : parts) {
    if (!out.empty()) out += sep;
    out += p;
  }
  return out;
}

std::vector<std::string> FeaturesOf(const Graph& g) {
  bool alias = false, multi = false, mutate = false;
  for (const GOp& op : g.ops) {
    multi |= op.result.size() > 1;
    for (int32_t a : op.alias) alias |= a >= 0;
  }
  // A MUTATE's outputs are named "<name>$" (sim/graph_builder.cc).
  for (const GTensor& t : g.tensors) mutate |= !t.name.empty() && t.name.back() == '$';
  std::vector<std::string> f;
  if (alias) f.push_back("alias");
  if (g.compute > 0) f.push_back("compute");
  if (multi) f.push_back("multi-output");
  if (mutate) f.push_back("mutate");
  return f;  // sorted
}

const char* CommandLetter(CommandKind k) {
  switch (k) {
    case CommandKind::kCompute:
      return "C";
    case CommandKind::kGet:
      return "G";
    case CommandKind::kPin:
      return "P";
    case CommandKind::kRelease:
      return "R";
  }
  return "?";
}

}  // namespace

std::string TraceForm(const Graph& g) {
  Int size_unit = 0, cost_unit = 0;
  for (const GOp& op : g.ops) {
    cost_unit = Gcd(cost_unit, op.cost);
    for (Int s : op.size) size_unit = Gcd(size_unit, s);
  }
  if (size_unit == 0) size_unit = 1;
  if (cost_unit == 0) cost_unit = 1;
  std::ostringstream out;
  for (size_t i = 0; i < g.ops.size(); ++i) {
    const GOp& op = g.ops[i];
    out << "op " << i << " cost " << IntToString(op.cost / cost_unit) << " args";
    for (TensorId a : op.args) out << ' ' << a;
    out << " results";
    for (size_t k = 0; k < op.result.size(); ++k) {
      out << ' ' << op.result[k] << ':' << IntToString(op.size[k] / size_unit);
      if (op.alias[k] >= 0) out << "=arg" << op.alias[k];
    }
    out << '\n';
  }
  for (const Command& c : g.schedule) out << CommandLetter(c.kind) << ' ' << c.target << '\n';
  return out.str();
}

std::string TraceFormDigest(const Graph& graph) { return Sha256OfText(TraceForm(graph)); }

Bucket BucketOf(const Graph& graph, const PropertySpec& spec) {
  if (!spec.lo && spec.property != TraceProperty::kFragmentationOom)
    throw std::invalid_argument("a bucket needs both budgets (lo and hi)");
  Bucket b;
  b.family = ScoreFamily(spec.config.heuristic);
  b.features = FeaturesOf(graph);
  b.trace_form = TraceFormDigest(graph);

  Baseline baseline = RunBaseline(graph, spec.config.baseline_runtime);
  // The pathology predicates of analysis/pathology.h on the two runs, as
  // the fuzzer and the reducer apply them.
  // A fragmentation OOM's two runs are at hi, under bytes then the allocator.
  const bool fragmentation = spec.property == TraceProperty::kFragmentationOom;
  RunConfig bytes = spec.config;
  bytes.memory = MemoryOptions{};
  std::vector<SweepPoint> points(2);
  std::optional<Diagnosis> hi;
  for (size_t i = 0; i < 2; ++i) {
    Diagnosis d =
        fragmentation
            ? Diagnose(graph, WithBudget(i == 0 ? bytes : spec.config, spec.hi), baseline)
            : Diagnose(graph, WithBudget(spec.config, i == 0 ? *spec.lo : spec.hi), baseline);
    points[i].index = i;
    points[i].record = d.record;
    if (i == 1) hi = std::move(d);
  }
  b.failure = StatusName(points[0].status());
  b.failure.append(">").append(StatusName(points[1].status()));
  const bool increasing = points[0].budget() < points[1].budget();
  const bool overhead_defined = baseline.compute > 0;
  if (increasing && !FindInversions(points).empty()) {
    b.labels.push_back("inversion");
    if (hi->PinnedFrontierOom()) b.labels.push_back("pinned-oom");
  }
  if (increasing && overhead_defined) {
    // Only the spec says the budgets are close enough for a cliff.
    Int gap = points[1].budget() - points[0].budget();
    if (spec.property == TraceProperty::kCliff &&
        !FindRegimeCliffs(points, spec.factor, gap).empty())
      b.labels.push_back("cliff");
    if (!FindOverheadRises(points, spec.factor).empty()) b.labels.push_back("overhead-rise");
  }
  if (fragmentation && points[0].status() == Status::kOk && hi->oom && hi->oom->BytesFit())
    b.labels.push_back("fragmentation-oom");
  std::sort(b.labels.begin(), b.labels.end());
  if (hi->oom) b.oom_site = hi->oom->depth > 0 ? "remat" : "model";

  // Appends, not operator+ chains: GCC 12 -Wrestrict misfires on those.
  b.key = JoinOr(b.labels, "+");
  for (const std::string& part :
       {b.failure, b.oom_site.empty() ? std::string("-") : b.oom_site, b.family})
    b.key.append("|").append(part);
  // The memory model is part of the key (only when not bytes: the keys of
  // earlier buckets stay).
  if (spec.config.memory.model != MemoryModel::kBytes)
    b.key.append("|memory ").append(MemoryModelName(spec.config.memory.model));
  b.id = Sha256OfText(b.key).substr(0, 16);
  return b;
}

Json BucketToJson(const Bucket& b) {
  return Json{{"id", b.id},
              {"key", b.key},
              {"labels", b.labels},
              {"failure", b.failure},
              {"oom_site", b.oom_site},
              {"family", b.family},
              {"features", b.features},
              {"trace_form", b.trace_form}};
}

}  // namespace dtrcheck
