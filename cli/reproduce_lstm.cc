// reproduce, part 2: the LSTM regime cliff and how its two regimes evict.
#include "cli/published.h"
#include "cli/reproduce.h"
#include "cli/reproduce_common.h"
#include "cli/sweep_plot.h"
#include "sim/eviction_compare.h"
#include "sim/format.h"
#include "sim/parse.h"
#include "sim/pathology.h"

namespace dtrcheck {

ReproduceSection ReproduceLstm(const std::string& trace, const ReproduceSettings& s) {
  ReproduceSection out;
  Graph graph = ParseTraceFile(trace);
  Baseline baseline = RunBaseline(graph, "RuntimeV2EagerOptimized");
  SweepOptions so;
  so.jobs = s.jobs;
  auto sweep = RunSweep(graph, StudyConfig(), baseline, RatioBudgets(RatioGrid(kLstmWindowFrom, kLstmWindowTo, "0.001")), so);
  const auto& pts = sweep.points;
  const Int gap = GapFromFractionOfPeak(published::kLstmGapFraction, baseline.peak);
  auto cliffs = FindRegimeCliffs(pts, 2.0, gap);

  std::string& md = out.markdown;
  md += "## LSTM: a regime cliff\n\n"
        "Ratios " + std::string(kLstmWindowFrom) + " to " + kLstmWindowTo +
        " step 0.001 (where the corpus scan finds the cliff; background.md does not name the budgets), "
        "DTR on RuntimeV2EagerOptimized, overhead limit 8, baseline peak " + GroupedInt(baseline.peak) +
        " B. Cliff: overheads at least 2x apart for budgets at most 0.1% of peak (" + GroupedInt(gap) +
        " B) apart.\n\n![LSTM window](lstm_window.svg)\n\n| ratio | budget | status | overhead |\n|---|---|---|---|\n";
  std::vector<RunRecord> records;
  for (const auto& p : pts) {
    records.push_back(p.record);
    md += "| " + Fixed(*p.record.config.ratio, 3) + " | " + GroupedInt(p.budget()) + " | " + StatusName(p.status()) +
          " | " + (p.status() == Status::kOk ? Fixed(p.overhead(), 3) + "x" : "-") + " |\n";
  }
  WriteSweepPlot(s.out_dir + "/lstm_window.svg", records, cliffs, "LSTM: DTR, overhead limit 8");
  md += "\n```\n";
  for (const auto& f : cliffs) md += DescribeFinding(f) + "\n";
  md += cliffs.empty() ? "no cliff in this window\n```\n\n" : "```\n\n";
  if (cliffs.empty()) {
    out.claims.push_back({"LSTM: two budgets 0.1% of peak apart, the slow regime several times the fast", false,
                          "no cliff of 2x in the window"});
    return out;
  }
  const Finding* big = &cliffs[0];
  for (const auto& f : cliffs)
    if (f.factor > big->factor) big = &f;
  out.claims.push_back({"LSTM: two budgets 0.1% of peak apart, the slow regime several times the fast", true,
                        DescribeFinding(*big)});

  // Both ends again, with per-storage statistics.
  RunConfig c = StudyConfig();
  c.stats = true;
  SweepOptions two;
  two.jobs = s.jobs;
  auto ends = RunSweep(graph, c, baseline, {BudgetSpec::Ratio(*big->low.ratio), BudgetSpec::Ratio(*big->high.ratio)}, two);
  const RunRecord& low = ends.points[0].record;
  const RunRecord& high = ends.points[1].record;
  const bool low_fast = low.Overhead() <= high.Overhead();
  const RunRecord& fast = low_fast ? low : high;
  const RunRecord& slow = low_fast ? high : low;
  EvictionComparison cmp = CompareEvictions(fast, slow);
  auto side = [](const RunRecord& r) { return "ratio " + ShortestDouble(*r.config.ratio) + ", " + Fixed(r.Overhead(), 3) + "x"; };
  md += "| | fast (" + side(fast) + ") | slow (" + side(slow) + ") | published fast vs slow |\n|---|---|---|---|\n";
  md += "| evictions | " + GroupedInt(cmp.a.evictions) + " | " + GroupedInt(cmp.b.evictions) + " | |\n";
  md += "| distinct evicted storages | " + GroupedInt(cmp.a.distinct_evicted) + " | " + GroupedInt(cmp.b.distinct_evicted) +
        " | " + GroupedInt(published::kLstmDistinctFast) + " vs " + GroupedInt(published::kLstmDistinctSlow) + " |\n";
  md += "| evictions per evicted storage | " + Fixed(cmp.a.evictions_per_storage, 2) + " | " +
        Fixed(cmp.b.evictions_per_storage, 2) + " | " + published::kLstmPerStorageFast + " vs " +
        published::kLstmPerStorageSlow + " |\n";
  md += "| direct / collateral remats | " + GroupedInt(cmp.a.direct_remats) + " / " + GroupedInt(cmp.a.collateral_remats) +
        " | " + GroupedInt(cmp.b.direct_remats) + " / " + GroupedInt(cmp.b.collateral_remats) + " | |\n";
  md += "| Jaccard of the evicted sets | " + Fixed(cmp.jaccard, 3) + " | | " + published::kLstmJaccard + " |\n\n";
  out.claims.push_back({"LSTM: evictions per evicted storage 1.33 (fast) vs 8.27 (slow)",
                        Fixed(cmp.a.evictions_per_storage, 2) == published::kLstmPerStorageFast &&
                            Fixed(cmp.b.evictions_per_storage, 2) == published::kLstmPerStorageSlow,
                        Fixed(cmp.a.evictions_per_storage, 2) + " vs " + Fixed(cmp.b.evictions_per_storage, 2)});
  out.claims.push_back({"LSTM: distinct evicted storages 5,233 vs 5,236",
                        cmp.a.distinct_evicted == published::kLstmDistinctFast &&
                            cmp.b.distinct_evicted == published::kLstmDistinctSlow,
                        GroupedInt(cmp.a.distinct_evicted) + " vs " + GroupedInt(cmp.b.distinct_evicted)});
  out.claims.push_back({"LSTM: Jaccard of the evicted sets 0.999", Fixed(cmp.jaccard, 3) == published::kLstmJaccard,
                        Fixed(cmp.jaccard, 3)});
  return out;
}

}  // namespace dtrcheck
