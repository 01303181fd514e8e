// reproduce, part 3: the DTR score's terms ablated with the DTR authors' own
// variants (simrd/heuristic/ablation.py). Each Ab<C><Size><Stale> heuristic
// scores a storage by a compute term C (E: with its evicted neighbourhood,
// as DTR; Eq: equivalence-class estimate; Local: its own compute; none),
// divided by its size and/or staleness when named; AbESizeStale is DTR.
#include <map>

#include "analysis/format.h"
#include "analysis/pathology.h"
#include "cli/reproduce.h"
#include "cli/reproduce_common.h"
#include "cli/sweep_plot.h"
#include "sim/parse.h"

namespace dtrcheck {

namespace {

const std::vector<std::string> kAblations = {
    "AbESizeStale", "AbESize", "AbEStale",         "AbE",         "AbEqSizeStale", "AbEqSize",
    "AbEqStale",    "AbEq",    "AbLocalSizeStale", "AbLocalSize", "AbLocalStale",  "AbLocal",
    "AbSizeStale",  "AbSize",  "AbStale",          "AbRandom"};

// Two readable plots instead of one with 16 lines: the size and staleness
// terms of DTR's score, and the compute term with both kept.
const std::vector<std::string> kTermsPlot = {"AbESizeStale", "AbESize", "AbEStale", "AbE"};
const std::vector<std::string> kComputePlot = {"AbESizeStale", "AbEqSizeStale", "AbLocalSizeStale",
                                               "AbSizeStale"};

std::string AblationOn(const std::string& title, const std::string& slug, const Graph& graph,
                       const Baseline& baseline, const std::vector<BudgetSpec>& budgets,
                       const ReproduceSettings& s) {
  std::map<std::string, std::vector<RunRecord>> by_heuristic;
  std::string md = "### " + title +
                   "\n\n"
                   "| heuristic | ok | oom | thrashed | inversions | cliffs (2x within 0.1% of "
                   "peak) | overhead range (ok) |\n"
                   "|---|---|---|---|---|---|---|\n";
  const Int gap = GapFromFractionOfPeak(0.001, baseline.peak);
  for (const auto& h : kAblations) {
    RunConfig c = StudyConfig();
    c.heuristic = h;
    SweepOptions so = s.Sweep("reproduce: ablation " + h);
    auto sweep = RunSweep(graph, c, baseline, budgets, so);
    std::map<Status, int> counts;
    double lo = 0, hi = 0;
    bool any = false;
    for (const auto& p : sweep.points) {
      counts[p.status()] += 1;
      by_heuristic[h].push_back(p.record);
      if (p.status() != Status::kOk) continue;
      lo = any ? std::min(lo, p.overhead()) : p.overhead();
      hi = any ? std::max(hi, p.overhead()) : p.overhead();
      any = true;
    }
    md += "| " + h + (h == "AbESizeStale" ? " (= DTR)" : "") + " | " +
          std::to_string(counts[Status::kOk]) + " | " + std::to_string(counts[Status::kOom]) +
          " | " + std::to_string(counts[Status::kThrashed]) + " | " +
          std::to_string(FindInversions(sweep.points).size()) + " | " +
          std::to_string(FindRegimeCliffs(sweep.points, 2.0, gap).size()) + " | " +
          (any ? Fixed(lo, 3) + "x - " + Fixed(hi, 3) + "x" : "-") + " |\n";
  }
  for (auto [plot, suffix, what] : {std::tuple{&kTermsPlot, "terms", "size and staleness terms"},
                                    std::tuple{&kComputePlot, "compute", "compute term"}}) {
    std::vector<RunRecord> records;
    for (const auto& h : *plot)
      for (const auto& r : by_heuristic[h]) records.push_back(r);
    std::string file = slug + "_ablation_" + suffix + ".svg";
    WriteSweepPlot(s.out_dir + "/" + file, records, {}, title + ": " + what);
    md += "\n![" + title + ", " + what + "](" + file + ")\n";
  }
  return md + "\n";
}

}  // namespace

ReproduceSection ReproduceAblation(const std::string& resnet, const std::string& lstm,
                                   const ReproduceSettings& s) {
  ReproduceSection out;
  out.markdown =
      "## Ablation of the DTR score\n\n"
      "The DTR authors' ablations (simrd/heuristic/ablation.py): Ab<compute term><Size><Stale>, "
      "where the "
      "compute term is E (the storage and its evicted neighbourhood, as DTR), Eq "
      "(equivalence-class "
      "estimate), Local (its own compute) or none, divided by size and/or staleness when named; "
      "AbESizeStale is DTR itself. Same settings as above (RuntimeV2EagerOptimized, overhead limit "
      "8).\n\n";
  {
    Graph graph = ParseTraceFile(resnet);
    Baseline baseline = RunBaseline(graph, "RuntimeV2EagerOptimized");
    out.markdown += AblationOn("ResNet-32, ratios 0.100 to 0.150", "resnet32", graph, baseline,
                               RatioBudgets(RatioGrid("0.100", "0.150", "0.001")), s);
  }
  if (!lstm.empty()) {
    Graph graph = ParseTraceFile(lstm);
    Baseline baseline = RunBaseline(graph, "RuntimeV2EagerOptimized");
    out.markdown += AblationOn(
        "LSTM, ratios " + std::string(kLstmAblationFrom) + " to " + kLstmAblationTo, "lstm", graph,
        baseline, RatioBudgets(RatioGrid(kLstmAblationFrom, kLstmAblationTo, "0.001")), s);
  }
  return out;
}

}  // namespace dtrcheck
