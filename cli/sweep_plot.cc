#include "cli/sweep_plot.h"

#include <cmath>
#include <filesystem>
#include <limits>
#include <map>

#include "analysis/format.h"

namespace dtrcheck {

namespace {

const char* kOomColor = "#d62728";
const char* kThrashedColor = "#ff9f1c";
const char* kErrorColor = "#555555";

// Shaded ranges for maximal stretches of failed runs: each point covers the
// budgets half-way to its neighbours.
std::vector<PlotBand> StatusBands(const std::vector<double>& xs, const std::vector<Status>& st) {
  std::vector<PlotBand> out;
  const size_t n = xs.size();
  auto left = [&](size_t i) {
    return i > 0 ? (xs[i - 1] + xs[i]) / 2 : xs[i] - (n > 1 ? (xs[1] - xs[0]) / 2 : 0.5);
  };
  auto right = [&](size_t i) {
    return i + 1 < n ? (xs[i] + xs[i + 1]) / 2
                     : xs[i] + (n > 1 ? (xs[n - 1] - xs[n - 2]) / 2 : 0.5);
  };
  for (size_t i = 0; i < n;) {
    if (st[i] == Status::kOk) {
      ++i;
      continue;
    }
    size_t j = i;
    while (j + 1 < n && st[j + 1] == st[i]) ++j;
    const char* color = st[i] == Status::kOom        ? kOomColor
                        : st[i] == Status::kThrashed ? kThrashedColor
                                                     : kErrorColor;
    out.push_back(PlotBand{left(i), right(j), color, std::string(StatusName(st[i]))});
    i = j + 1;
  }
  return out;
}

}  // namespace

std::string LimitText(const RunConfig& c) {
  if (c.overhead_limit) return "overhead limit " + ShortestDouble(*c.overhead_limit);
  if (c.remat_limit) return "remat limit " + IntToString(*c.remat_limit);
  return "no remat limit";
}

std::string SweepPlotTitle(const std::string& trace, const std::vector<RunRecord>& records) {
  std::string heuristics;
  for (const auto& r : records)
    if (heuristics.find(r.config.heuristic) == std::string::npos)  // (names are distinct words)
      heuristics.append(heuristics.empty() ? "" : ", ").append(r.config.heuristic);
  std::string title = trace.empty() ? "" : std::filesystem::path(trace).filename().string() + ": ";
  if (records.empty()) return title + "no runs";
  return title + heuristics + " on " + records[0].config.runtime + ", " +
         LimitText(records[0].config);
}

LinePlot SweepPlot(const std::vector<RunRecord>& records, const std::vector<Finding>& findings,
                   const std::string& title) {
  bool by_ratio = !records.empty();
  for (const auto& r : records) by_ratio = by_ratio && r.config.ratio.has_value();
  auto x_of = [&](std::optional<double> ratio, Int budget) {
    return by_ratio && ratio ? *ratio : IntToDouble(budget) / 1e6;
  };

  std::vector<std::string> order;
  std::map<std::string, std::vector<const RunRecord*>> groups;
  for (const auto& r : records) {
    if (!groups.count(r.config.heuristic)) order.push_back(r.config.heuristic);
    groups[r.config.heuristic].push_back(&r);
  }

  LinePlot plot;
  plot.title = title;
  if (plot.title.empty() && !records.empty())
    plot.title = "Overhead against budget (" + records[0].config.runtime + ")";
  plot.x_label = by_ratio ? "budget (fraction of the baseline peak)" : "budget (MB)";
  plot.y_label = "overhead (x baseline compute)";
  for (size_t h = 0; h < order.size(); ++h) {
    PlotSeries s{order[h], SeriesColor(h), SeriesDash(h), {}};
    std::vector<double> xs;
    std::vector<Status> st;
    const RunRecord* previous = nullptr;
    for (const RunRecord* r : groups[order[h]]) {
      double x = x_of(r->config.ratio, r->budget);
      // A break between the two ends of a cliff.
      for (const auto& f : findings)
        if (previous && f.kind == FindingKind::kRegimeCliff && f.low.budget == previous->budget &&
            f.high.budget == r->budget)
          s.points.emplace_back((s.points.back().first + x) / 2,
                                std::numeric_limits<double>::quiet_NaN());
      previous = r;
      s.points.emplace_back(
          x, r->status == Status::kOk ? r->Overhead() : std::numeric_limits<double>::quiet_NaN());
      xs.push_back(x);
      st.push_back(r->status);
    }
    auto bands = StatusBands(xs, st);
    if (order.size() == 1) {
      plot.bands = bands;
    } else {
      plot.strips.push_back(PlotStrip{order[h], bands});
    }
    plot.series.push_back(std::move(s));
  }
  for (const auto& f : findings) {
    double x = (x_of(f.low.ratio, f.low.budget) + x_of(f.high.ratio, f.high.budget)) / 2;
    std::string label = FindingKindName(f.kind);
    if (f.kind == FindingKind::kInversion || f.kind == FindingKind::kAllocatorInversion ||
        f.kind == FindingKind::kFragmentationOom)
      label += " " + std::string(StatusName(f.low.status)) + "->" + StatusName(f.high.status);
    else
      label += " " + Fixed(f.low.overhead, 2) + "x->" + Fixed(f.high.overhead, 2) + "x";
    const char* color = f.kind == FindingKind::kInversion     ? "#b00000"
                        : f.kind == FindingKind::kRegimeCliff ? "#6a3d9a"
                                                              : "#33691e";
    plot.markers.push_back(PlotMarker{x, label, color, FindingKindName(f.kind)});
  }
  return plot;
}

void WriteSweepPlot(const std::string& path, const std::vector<RunRecord>& records,
                    const std::vector<Finding>& findings, const std::string& title) {
  WriteSvgFile(path, SweepPlot(records, findings, title));
}

}  // namespace dtrcheck
