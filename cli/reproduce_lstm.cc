// reproduce, part 2: the LSTM regime cliff and how its two regimes evict.
#include <cmath>

#include "analysis/eviction_compare.h"
#include "analysis/format.h"
#include "analysis/pathology.h"
#include "analysis/published_findings.h"
#include "cli/reproduce.h"
#include "cli/reproduce_common.h"
#include "cli/sweep_plot.h"
#include "sim/parse.h"

namespace dtrcheck {

ReproduceSection ReproduceLstm(const std::string& trace, const ReproduceSettings& s) {
  ReproduceSection out;
  Graph graph = ParseTraceFile(trace);
  Baseline baseline = RunBaseline(graph, "RuntimeV2EagerOptimized");
  SweepOptions so = s.Sweep("reproduce: lstm sweep");
  auto sweep = RunSweep(graph, LstmConfig(), baseline,
                        RatioBudgets(RatioGrid(kLstmWindowFrom, kLstmWindowTo, "0.001")), so);
  const auto& pts = sweep.points;
  const Int gap = GapFromFractionOfPeak(published::kLstmGapFraction, baseline.peak);
  auto cliffs = FindRegimeCliffs(pts, 2.0, gap);

  std::string& md = out.markdown;
  md +=
      "## LSTM: a regime cliff\n\n"
      "Ratios " +
      std::string(kLstmWindowFrom) + " to " + kLstmWindowTo +
      " step 0.001, DTR on RuntimeV2EagerOptimized, no overhead limit, baseline peak " +
      GroupedInt(baseline.peak) +
      " B. Cliff: overheads at least 2x apart for budgets at most 0.1% of peak (" +
      GroupedInt(gap) + " B) apart.\n\n**Rules** (fixed before the runs): " + kLstmCliffRule +
      "; " + kLstmProfileRule +
      ".\n\n![LSTM window](lstm_window.svg)\n\n| ratio | budget | status | overhead "
      "|\n|---|---|---|---|\n";
  std::vector<RunRecord> records;
  for (const auto& p : pts) {
    records.push_back(p.record);
    md += "| " + Fixed(*p.record.config.ratio, 3) + " | " + GroupedInt(p.budget()) + " | " +
          StatusName(p.status()) + " | " +
          (p.status() == Status::kOk ? Fixed(p.overhead(), 3) + "x" : "-") + " |\n";
  }
  WriteSweepPlot(s.out_dir + "/lstm_window.svg", records, cliffs, "LSTM: DTR, no overhead limit");
  md +=
      "\nThe study gives neither the budgets nor the limit of its LSTM pair. With the limit of "
      "8 used "
      "for ResNet-32, the slow side of every fast/slow pair on this trace thrashes (see "
      "corpus/scan-report/lstm); run to completion, ratios 0.264 and 0.265 have the published "
      "profile.\n";
  md += "\n```\n";
  for (const auto& f : cliffs) md += DescribeFinding(f) + "\n";
  md += cliffs.empty() ? "no cliff in this window\n```\n\n" : "```\n\n";
  // The published pair, found or not, with both overheads.
  const SweepPoint *pub_low = nullptr, *pub_high = nullptr;
  for (const auto& p : pts) {
    if (std::abs(*p.record.config.ratio - kLstmPublishedLow) < 1e-9) pub_low = &p;
    if (std::abs(*p.record.config.ratio - kLstmPublishedHigh) < 1e-9) pub_high = &p;
  }
  auto overhead_of = [](const SweepPoint* p) {
    if (!p) return std::string("not run");
    return p->status() == Status::kOk ? Fixed(p->overhead(), 3) + "x"
                                      : std::string(StatusName(p->status()));
  };
  bool pub_is_cliff = false;
  for (const auto& f : cliffs)
    pub_is_cliff = pub_is_cliff || (std::abs(*f.low.ratio - kLstmPublishedLow) < 1e-9 &&
                                    std::abs(*f.high.ratio - kLstmPublishedHigh) < 1e-9);
  const std::string pair_text = "the published pair (ratios " + ShortestDouble(kLstmPublishedLow) +
                                " / " + ShortestDouble(kLstmPublishedHigh) +
                                ", identified after the fact "
                                "by its profile): " +
                                overhead_of(pub_low) + " / " + overhead_of(pub_high) + ", " +
                                (pub_is_cliff ? "a cliff" : "NOT a cliff");
  std::string band;
  if (!cliffs.empty())
    band = std::to_string(cliffs.size()) + " cliff(s) in a band from ratio " +
           ShortestDouble(*cliffs.front().low.ratio) + " to " +
           ShortestDouble(*cliffs.back().high.ratio);
  md += "Found: " + (cliffs.empty() ? std::string("no cliff") : band) + "; " + pair_text + ".\n\n";
  out.claims.push_back(
      {"LSTM: two budgets 0.1% of peak apart, the slow regime several times the fast",
       !cliffs.empty(),
       (cliffs.empty() ? std::string("no cliff of 2x in the window") : band) + "; " + pair_text});
  if (cliffs.empty() || sweep.cancelled) return out;

  // Every cliff's two ends again, with per-storage statistics.
  RunConfig c = LstmConfig();
  c.stats = true;
  std::vector<BudgetSpec> ends;
  for (const auto& f : cliffs) {
    ends.push_back(BudgetSpec::Ratio(*f.low.ratio));
    ends.push_back(BudgetSpec::Ratio(*f.high.ratio));
  }
  SweepOptions both = s.Sweep("reproduce: lstm cliff ends");
  auto runs = RunSweep(graph, c, baseline, ends, both);
  if (runs.cancelled) return out;  // the profile is not judged on a part of the ends
  md +=
      "Each cliff's fast and slow side, with per-storage statistics (published: evictions per "
      "evicted "
      "storage " +
      std::string(published::kLstmPerStorageFast) + " vs " + published::kLstmPerStorageSlow +
      ", distinct evicted " + GroupedInt(published::kLstmDistinctFast) + " vs " +
      GroupedInt(published::kLstmDistinctSlow) + ", Jaccard " + published::kLstmJaccard +
      "):\n\n"
      "| fast side | slow side | factor | evictions | distinct evicted | evictions per evicted "
      "storage | "
      "direct / collateral remats | Jaccard | matches the published profile "
      "|\n|---|---|---|---|---|---|---|---|---|\n";
  size_t matching = 0;
  std::string closest;
  double closest_distance = 1e300;
  for (size_t i = 0; i < cliffs.size(); ++i) {
    const RunRecord& low = runs.points[2 * i].record;
    const RunRecord& high = runs.points[2 * i + 1].record;
    const bool low_fast = low.Overhead() <= high.Overhead();
    const RunRecord& fast = low_fast ? low : high;
    const RunRecord& slow = low_fast ? high : low;
    EvictionComparison cmp = CompareEvictions(fast, slow);
    auto side = [](const RunRecord& r) {
      return "ratio " + ShortestDouble(*r.config.ratio) + ", " + Fixed(r.Overhead(), 3) + "x";
    };
    const std::string per =
        Fixed(cmp.a.evictions_per_storage, 2) + " vs " + Fixed(cmp.b.evictions_per_storage, 2);
    const std::string distinct =
        GroupedInt(cmp.a.distinct_evicted) + " vs " + GroupedInt(cmp.b.distinct_evicted);
    const bool match = Fixed(cmp.a.evictions_per_storage, 2) == published::kLstmPerStorageFast &&
                       Fixed(cmp.b.evictions_per_storage, 2) == published::kLstmPerStorageSlow &&
                       cmp.a.distinct_evicted == published::kLstmDistinctFast &&
                       cmp.b.distinct_evicted == published::kLstmDistinctSlow &&
                       Fixed(cmp.jaccard, 3) == published::kLstmJaccard;
    matching += match;
    md += "| " + side(fast) + " | " + side(slow) + " | " + Fixed(cliffs[i].factor, 2) + " | " +
          GroupedInt(cmp.a.evictions) + " vs " + GroupedInt(cmp.b.evictions) + " | " + distinct +
          " | " + per + " | " + GroupedInt(cmp.a.direct_remats) + " / " +
          GroupedInt(cmp.a.collateral_remats) + " vs " + GroupedInt(cmp.b.direct_remats) + " / " +
          GroupedInt(cmp.b.collateral_remats) + " | " + Fixed(cmp.jaccard, 3) + " | " +
          (match ? "yes" : "no") + " |\n";
    // How far from the published profile, for the claim's "measured" text.
    double distance = std::abs(cmp.a.evictions_per_storage - 1.33) +
                      std::abs(cmp.b.evictions_per_storage - 8.27) +
                      std::abs(double(cmp.a.distinct_evicted - published::kLstmDistinctFast)) +
                      std::abs(double(cmp.b.distinct_evicted - published::kLstmDistinctSlow));
    if (distance < closest_distance) {
      closest_distance = distance;
      closest = side(fast) + " / " + side(slow) + ": per storage " + per + ", distinct " +
                distinct + ", Jaccard " + Fixed(cmp.jaccard, 3);
    }
  }
  md += "\n";
  out.claims.push_back(
      {"LSTM: the slow regime re-evicts (per evicted storage 1.33 vs 8.27) the same storages "
       "(distinct 5,233 vs 5,236, Jaccard 0.999)",
       matching > 0,
       std::to_string(matching) + " of " + std::to_string(cliffs.size()) +
           " cliffs in the window have the published profile; closest: " + closest});
  return out;
}

}  // namespace dtrcheck
