// A small SVG line-plot writer (no dependencies): series of (x, y) points,
// shaded vertical bands (e.g. budgets that ran out of memory), labelled
// vertical markers (findings), status strips under the x axis (one row per
// series, for ablations), axes with round-number ticks, and a legend.
#ifndef DTRCHECK_CLI_PLOT_SVG_H_
#define DTRCHECK_CLI_PLOT_SVG_H_

#include <string>
#include <utility>
#include <vector>

namespace dtrcheck {

struct PlotSeries {
  std::string label;
  std::string color;  // any SVG colour
  std::string dash;   // SVG stroke-dasharray, "" for a solid line
  // A NaN y breaks the line (e.g. an oom budget between two ok ones).
  std::vector<std::pair<double, double>> points;
};

struct PlotBand {
  double x0 = 0, x1 = 0;
  std::string color;
  std::string label;  // legend entry; bands with the same label share one
};

// A vertical dashed line with its label written beside it; beyond
// kMaxLabelledMarkers markers, only a small triangle on the top edge each
// (labels would overprint one another), and the legend names the kinds.
struct PlotMarker {
  double x = 0;
  std::string label;
  std::string color;
  std::string kind;  // legend entry, shared by markers of one colour
};
constexpr size_t kMaxLabelledMarkers = 12;
// Labelled markers closer than this (in pixels) would overwrite each other's labels.
constexpr double kMinLabelGapPx = 14;

// A row under the plot: the bands of one series (e.g. its oom budgets).
struct PlotStrip {
  std::string label;
  std::vector<PlotBand> bands;
};

struct LinePlot {
  std::string title, x_label, y_label;
  std::vector<PlotSeries> series;
  std::vector<PlotBand> bands;
  std::vector<PlotMarker> markers;
  std::vector<PlotStrip> strips;
  bool y_from_zero = false;  // else the y range fits the data
};

std::string RenderSvg(const LinePlot& plot, int width = 960, int height = 540);
// Throws std::invalid_argument if the file cannot be written.
void WriteSvgFile(const std::string& path, const LinePlot& plot);

// Colours that stay apart for up to 10 series, and from the red and orange
// that sweep plots use for oom and thrashed budgets.
const std::string& SeriesColor(size_t i);
// Dash patterns, so that series drawn on top of each other stay visible.
const std::string& SeriesDash(size_t i);

}  // namespace dtrcheck

#endif  // DTRCHECK_CLI_PLOT_SVG_H_
