#include "cli/plot_svg.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <sstream>
#include <stdexcept>

#include "analysis/format.h"
#include "io/atomic_file.h"

namespace dtrcheck {

namespace {

std::string Escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string Num(double v) { return Fixed(v, 1); }

// Round-number ticks covering [lo, hi]: steps of 1, 2 or 5 times a power of
// ten, about `target` of them.
struct Ticks {
  double step;
  std::vector<double> values;
  int decimals;
};

Ticks NiceTicks(double lo, double hi, int target) {
  double range = hi - lo;
  if (!(range > 0)) range = std::max(std::abs(hi), 1.0);
  double raw = range / target;
  double power = std::pow(10.0, std::floor(std::log10(raw)));
  double step = power;
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * power >= raw) {
      step = m * power;
      break;
    }
  Ticks t{step, {}, std::max(0, -static_cast<int>(std::floor(std::log10(step) + 1e-9)))};
  for (double v = std::ceil(lo / step - 1e-9) * step; v <= hi + step * 1e-9; v += step)
    t.values.push_back(std::abs(v) < step * 1e-9 ? 0.0 : v);
  return t;
}

struct Frame {
  double left, top, width, height;
  double x0, x1, y0, y1;
  double X(double x) const { return left + (x - x0) / (x1 - x0) * width; }
  double Y(double y) const { return top + height - (y - y0) / (y1 - y0) * height; }
};

}  // namespace

const std::string& SeriesColor(size_t i) {
  static const std::vector<std::string> colors = {"#1f77b4", "#2ca02c", "#9467bd", "#8c564b",
                                                  "#e377c2", "#17becf", "#7f7f7f", "#bcbd22",
                                                  "#000000", "#393b79"};
  return colors[i % colors.size()];
}

const std::string& SeriesDash(size_t i) {
  static const std::vector<std::string> dashes = {"", "7,4", "2,3", "10,3,2,3", "4,4", "12,5"};
  return dashes[i % dashes.size()];
}

std::string RenderSvg(const LinePlot& plot, int width, int height) {
  // Data ranges.
  double xmin = std::numeric_limits<double>::infinity(), xmax = -xmin, ymin = xmin, ymax = -xmin;
  auto see_x = [&](double x) {
    if (std::isfinite(x)) xmin = std::min(xmin, x), xmax = std::max(xmax, x);
  };
  for (const auto& s : plot.series)
    for (auto [x, y] : s.points) {
      see_x(x);
      if (std::isfinite(y)) ymin = std::min(ymin, y), ymax = std::max(ymax, y);
    }
  for (const auto& b : plot.bands) see_x(b.x0), see_x(b.x1);
  for (const auto& st : plot.strips)
    for (const auto& b : st.bands) see_x(b.x0), see_x(b.x1);
  for (const auto& m : plot.markers) see_x(m.x);
  if (!std::isfinite(xmin)) xmin = 0, xmax = 1;
  if (xmax == xmin) xmin -= 0.5, xmax += 0.5;
  // A little room so that the end points are not drawn on the frame.
  const double xpad = (xmax - xmin) * 0.015;
  xmin -= xpad;
  xmax += xpad;
  if (!std::isfinite(ymin)) ymin = 0, ymax = 1;
  if (plot.y_from_zero) ymin = std::min(0.0, ymin);
  double pad = (ymax - ymin) * 0.06;
  if (pad == 0) pad = std::max(std::abs(ymax) * 0.1, 0.5);
  ymax += pad;
  if (!plot.y_from_zero) ymin -= pad;

  // Legend entries: series, then distinct band labels.
  std::vector<std::pair<std::string, std::string>> band_legend;
  std::set<std::string> seen;
  auto add_band_legend = [&](const PlotBand& b) {
    if (!b.label.empty() && seen.insert(b.label).second) band_legend.emplace_back(b.label, b.color);
  };
  for (const auto& b : plot.bands) add_band_legend(b);
  for (const auto& st : plot.strips)
    for (const auto& b : st.bands) add_band_legend(b);

  size_t longest = 0;
  for (const auto& s : plot.series) longest = std::max(longest, s.label.size());
  for (const auto& [l, c] : band_legend) longest = std::max(longest, l.size());
  for (const auto& m : plot.markers)
    longest = std::max(longest, std::max<size_t>(m.kind.size(), 7));
  size_t strip_label = 0;
  for (const auto& st : plot.strips) strip_label = std::max(strip_label, st.label.size());
  const double legend_w = longest ? 40 + 7.0 * longest : 0;
  const double strip_h = 13;
  const double left = std::max(75.0, 12 + 6.5 * strip_label);
  Frame f{left,
          48,
          width - left - 25 - legend_w,
          height - 48 - 62 - strip_h * plot.strips.size() - (plot.strips.empty() ? 0 : 8),
          xmin,
          xmax,
          ymin,
          ymax};

  std::ostringstream o;
  o << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
    << "\" viewBox=\"0 0 " << width << " " << height
    << "\" font-family=\"DejaVu Sans, Arial, sans-serif\">\n";
  o << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  o << "<defs><clipPath id=\"area\"><rect x=\"" << Num(f.left) << "\" y=\"" << Num(f.top)
    << "\" width=\"" << Num(f.width) << "\" height=\"" << Num(f.height)
    << "\"/></clipPath></defs>\n";
  o << "<text x=\"" << Num(f.left + f.width / 2)
    << "\" y=\"28\" font-size=\"17\" text-anchor=\"middle\">" << Escape(plot.title) << "</text>\n";

  // Bands under everything else.
  o << "<g clip-path=\"url(#area)\">\n";
  for (const auto& b : plot.bands) {
    double a = f.X(b.x0), z = f.X(b.x1);
    o << "<rect x=\"" << Num(a) << "\" y=\"" << Num(f.top) << "\" width=\""
      << Num(std::max(z - a, 1.0)) << "\" height=\"" << Num(f.height) << "\" fill=\"" << b.color
      << "\" fill-opacity=\"0.22\"/>\n";
  }
  o << "</g>\n";

  // Grid and ticks.
  Ticks xt = NiceTicks(xmin, xmax, 8), yt = NiceTicks(ymin, ymax, 6);
  for (double v : yt.values) {
    if (v < ymin || v > ymax) continue;
    double y = f.Y(v);
    o << "<line x1=\"" << Num(f.left) << "\" y1=\"" << Num(y) << "\" x2=\"" << Num(f.left + f.width)
      << "\" y2=\"" << Num(y) << "\" stroke=\"#e4e4e4\"/>\n";
    o << "<text x=\"" << Num(f.left - 6) << "\" y=\"" << Num(y + 4)
      << "\" font-size=\"12\" text-anchor=\"end\">" << Fixed(v, yt.decimals) << "</text>\n";
  }
  for (double v : xt.values) {
    if (v < xmin || v > xmax) continue;
    double x = f.X(v);
    o << "<line x1=\"" << Num(x) << "\" y1=\"" << Num(f.top) << "\" x2=\"" << Num(x) << "\" y2=\""
      << Num(f.top + f.height) << "\" stroke=\"#e4e4e4\"/>\n";
    o << "<text x=\"" << Num(x) << "\" y=\"" << Num(f.top + f.height + 17)
      << "\" font-size=\"12\" text-anchor=\"middle\">" << Fixed(v, xt.decimals) << "</text>\n";
  }
  o << "<rect x=\"" << Num(f.left) << "\" y=\"" << Num(f.top) << "\" width=\"" << Num(f.width)
    << "\" height=\"" << Num(f.height) << "\" fill=\"none\" stroke=\"#333\"/>\n";
  o << "<text x=\"" << Num(f.left + f.width / 2) << "\" y=\"" << Num(f.top + f.height + 38)
    << "\" font-size=\"14\" text-anchor=\"middle\">" << Escape(plot.x_label) << "</text>\n";
  o << "<text transform=\"translate(20," << Num(f.top + f.height / 2)
    << ") rotate(-90)\" font-size=\"13\" text-anchor=\"middle\">" << Escape(plot.y_label)
    << "</text>\n";

  // Series and markers.
  o << "<g clip-path=\"url(#area)\">\n";
  // Labels are written along dashed lines, which need room: with many
  // markers, or two closer than a label is tall, they become triangles.
  bool labelled = plot.markers.size() <= kMaxLabelledMarkers;
  {
    std::vector<double> xs;
    for (const auto& m : plot.markers) xs.push_back(f.X(m.x));
    std::sort(xs.begin(), xs.end());
    for (size_t i = 1; i < xs.size(); ++i)
      labelled = labelled && xs[i] - xs[i - 1] >= kMinLabelGapPx;
  }
  for (const auto& m : plot.markers) {
    double x = f.X(m.x);
    if (!labelled) {
      o << "<path d=\"M" << Num(x - 4) << " " << Num(f.top) << " L" << Num(x + 4) << " "
        << Num(f.top) << " L" << Num(x) << " " << Num(f.top + 8) << " Z\" fill=\"" << m.color
        << "\"/>\n";
      continue;
    }
    o << "<line x1=\"" << Num(x) << "\" y1=\"" << Num(f.top) << "\" x2=\"" << Num(x) << "\" y2=\""
      << Num(f.top + f.height) << "\" stroke=\"" << m.color
      << "\" stroke-dasharray=\"5,4\" stroke-width=\"1.3\"/>\n";
    o << "<text transform=\"translate(" << Num(x - 4) << "," << Num(f.top + 6)
      << ") rotate(-90)\" font-size=\"11\" text-anchor=\"end\" fill=\"" << m.color << "\">"
      << Escape(m.label) << "</text>\n";
  }
  for (const auto& s : plot.series) {
    std::string path;
    bool pen = false;
    for (auto [x, y] : s.points) {
      if (!std::isfinite(y)) {
        pen = false;
        continue;
      }
      path += (pen ? " L" : " M") + Num(f.X(x)) + " " + Num(f.Y(y));
      pen = true;
    }
    if (!path.empty())
      o << "<path d=\"" << path << "\" fill=\"none\" stroke=\"" << s.color
        << "\" stroke-width=\"1.8\""
        << (s.dash.empty() ? "" : " stroke-dasharray=\"" + s.dash + "\"") << "/>\n";
    if (s.points.size() <= 400)
      for (auto [x, y] : s.points)
        if (std::isfinite(y))
          o << "<circle cx=\"" << Num(f.X(x)) << "\" cy=\"" << Num(f.Y(y)) << "\" r=\"2.4\" fill=\""
            << s.color << "\"/>\n";
  }
  o << "</g>\n";

  // Strips under the axis label.
  double sy = f.top + f.height + 50;
  for (const auto& st : plot.strips) {
    o << "<text x=\"" << Num(f.left - 6) << "\" y=\"" << Num(sy + 10)
      << "\" font-size=\"10\" text-anchor=\"end\">" << Escape(st.label) << "</text>\n";
    o << "<rect x=\"" << Num(f.left) << "\" y=\"" << Num(sy + 1) << "\" width=\"" << Num(f.width)
      << "\" height=\"" << Num(strip_h - 3) << "\" fill=\"#f3f3f3\"/>\n";
    for (const auto& b : st.bands) {
      double a = f.X(b.x0), z = f.X(b.x1);
      o << "<rect x=\"" << Num(a) << "\" y=\"" << Num(sy + 1) << "\" width=\""
        << Num(std::max(z - a, 1.0)) << "\" height=\"" << Num(strip_h - 3) << "\" fill=\""
        << b.color << "\"/>\n";
    }
    sy += strip_h;
  }

  // Legend.
  double lx = f.left + f.width + 15, ly = f.top + 8;
  for (const auto& s : plot.series) {
    o << "<line x1=\"" << Num(lx) << "\" y1=\"" << Num(ly) << "\" x2=\"" << Num(lx + 22)
      << "\" y2=\"" << Num(ly) << "\" stroke=\"" << s.color << "\" stroke-width=\"2.5\""
      << (s.dash.empty() ? "" : " stroke-dasharray=\"" + s.dash + "\"") << "/>\n";
    o << "<text x=\"" << Num(lx + 28) << "\" y=\"" << Num(ly + 4) << "\" font-size=\"12\">"
      << Escape(s.label) << "</text>\n";
    ly += 18;
  }
  for (const auto& [label, color] : band_legend) {
    o << "<rect x=\"" << Num(lx) << "\" y=\"" << Num(ly - 6)
      << "\" width=\"22\" height=\"12\" fill=\"" << color << "\" fill-opacity=\""
      << (plot.bands.empty() ? "1" : "0.35") << "\"/>\n";
    o << "<text x=\"" << Num(lx + 28) << "\" y=\"" << Num(ly + 4) << "\" font-size=\"12\">"
      << Escape(label) << "</text>\n";
    ly += 18;
  }
  std::vector<std::pair<std::string, std::string>> kinds;  // legend: marker kinds, by colour
  for (const auto& m : plot.markers)
    if (std::none_of(kinds.begin(), kinds.end(),
                     [&](const auto& k) { return k.second == m.color; }))
      kinds.emplace_back(m.kind.empty() ? "finding" : m.kind, m.color);
  for (const auto& [kind, color] : kinds) {
    if (labelled)
      o << "<line x1=\"" << Num(lx) << "\" y1=\"" << Num(ly) << "\" x2=\"" << Num(lx + 22)
        << "\" y2=\"" << Num(ly) << "\" stroke=\"" << color
        << "\" stroke-dasharray=\"5,4\" stroke-width=\"1.3\"/>\n";
    else
      o << "<path d=\"M" << Num(lx + 7) << " " << Num(ly - 4) << " L" << Num(lx + 15) << " "
        << Num(ly - 4) << " L" << Num(lx + 11) << " " << Num(ly + 4) << " Z\" fill=\"" << color
        << "\"/>\n";
    o << "<text x=\"" << Num(lx + 28) << "\" y=\"" << Num(ly + 4) << "\" font-size=\"12\">"
      << Escape(kind) << "</text>\n";
    ly += 18;
  }
  o << "</svg>\n";
  return o.str();
}

void WriteSvgFile(const std::string& path, const LinePlot& plot) {
  WriteFileAtomically(path, RenderSvg(plot));  // whole or not at all
}

}  // namespace dtrcheck
