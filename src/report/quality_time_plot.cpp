// The report's quality-versus-time scatter: one dot per verified run, its wall seconds (log
// scale) against the ratio of its objective to the best known value of its problem, coloured by
// method label. Lower and further left is better. Each dot's tooltip names its run; runs of one
// method that land on the same spot (heuristics at 1 ms and ratio 1, typically) are one dot
// with their count beside it and every run in its tooltip, so that none hides behind another.

#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "chart_support.hpp"
#include "report_tables.hpp"

namespace gaus::report {

namespace {

constexpr double kMargin = 12.0;
constexpr double kAxis = 56.0;
constexpr double kPlotWidth = 720.0;
constexpr double kPlotHeight = 300.0;
constexpr double kLeastSeconds = 1e-3;  // runs reported as 0 s are drawn here

struct Point {
  double seconds = 0.0;
  double ratio = 1.0;
  std::size_t method = 0;
  std::string tooltip;
};

// Runs listed in the tooltip of a dot that stands for several.
constexpr std::size_t kRunsPerTooltip = 12;

// A dot on the plot: the points of one method within a dot's radius of each other.
struct Dot {
  double x = 0.0;
  double y = 0.0;
  std::size_t method = 0;
  std::vector<const Point*> points;
};

}  // namespace

std::string renderQualityTimePlot(const ResultsFile& results, const ReportSummary& summary) {
  std::map<std::string, std::size_t> methodIndex;
  for (std::size_t m = 0; m < summary.methods.size(); ++m)
    methodIndex[summary.methods[m].label] = m;
  std::vector<Point> points;
  for (const auto& record : results.records) {
    const ProblemSummary* problem = findProblem(summary, record);
    if (!problem || !problem->bestKnown || !countsForQuality(record, *problem) || !record.seconds)
      continue;
    const auto ratio = ratioTo(record.objective->value, *problem->bestKnown);
    if (!ratio) continue;
    const double seconds = std::max(*record.seconds, kLeastSeconds);
    points.push_back({seconds, *ratio, methodIndex[record.label],
                      fmt::format("{} ({}, {}): {} = {}, ratio {:.4g}, {:.3g} s", record.runId,
                                  record.label, record.graph.id, record.objective->name,
                                  formatNumber(record.objective->value), *ratio, *record.seconds)});
  }

  // The page's heading names the plot; the picture starts with its note.
  const std::string title;
  const std::vector<std::string> notes = {
      fmt::format("{} verified runs: ratio to the best known value of their problem (1 = best "
                  "known) against wall seconds, log scale; runs under {} s are drawn at {} s",
                  points.size(), kLeastSeconds, kLeastSeconds),
      "hover a dot for its run (graph, method, value, seconds); a number beside a dot counts the "
      "runs of that method on the same spot"};
  const double left = kMargin + kAxis;
  const double width =
      std::max(left + kPlotWidth + kMargin + 10.0, 2 * kMargin + headerWidth(title, notes));
  SvgDocument svg(width, 0.0);
  const double top = drawHeader(svg, kMargin, 0.0, title, notes) + 8.0;
  const double bottom = top + kPlotHeight;
  if (points.empty()) {
    svg.rect(left, top, kPlotWidth, kPlotHeight, "frame");
    svg.text(left + kPlotWidth / 2.0, top + kPlotHeight / 2.0,
             "no verified run with an objective and seconds", "note", TextAnchor::kMiddle);
    svg.setHeight(bottom + kMargin);
    return svg.finishInline();
  }

  double leastSeconds = points.front().seconds;
  double mostSeconds = leastSeconds;
  double worstRatio = 1.0;
  double bestRatio = 1.0;
  for (const auto& point : points) {
    leastSeconds = std::min(leastSeconds, point.seconds);
    mostSeconds = std::max(mostSeconds, point.seconds);
    worstRatio = std::max(worstRatio, point.ratio);
    bestRatio = std::min(bestRatio, point.ratio);
  }
  const double lowDecade = std::floor(std::log10(leastSeconds));
  const double highDecade = std::max(std::ceil(std::log10(mostSeconds)), lowDecade + 1.0);
  const double pad = std::max((worstRatio - bestRatio) * 0.08, 0.02);
  const double lowRatio = bestRatio - pad;
  const double highRatio = worstRatio + pad;
  const auto x = [&](double seconds) {
    return left + (std::log10(seconds) - lowDecade) / (highDecade - lowDecade) * kPlotWidth;
  };
  const auto y = [&](double ratio) {
    return bottom - (ratio - lowRatio) / (highRatio - lowRatio) * kPlotHeight;
  };

  svg.rect(left, top, kPlotWidth, kPlotHeight, "frame");
  for (double decade = lowDecade; decade <= highDecade + 1e-9; decade += 1.0) {
    const double seconds = std::pow(10.0, decade);
    svg.line(x(seconds), top, x(seconds), bottom, "grid");
    svg.text(x(seconds), bottom + 15.0, formatNumber(seconds), "axis", TextAnchor::kMiddle);
  }
  for (const double tick : niceTicks(lowRatio, highRatio, 5, false)) {
    svg.line(left, y(tick), left + kPlotWidth, y(tick), "grid");
    svg.text(left - 6.0, y(tick) + 4.0, fmt::format("{:.3g}", tick), "axis", TextAnchor::kEnd);
  }
  svg.line(left, y(1.0), left + kPlotWidth, y(1.0), "iiline");
  svg.text(left + kPlotWidth / 2.0, bottom + 30.0, "wall seconds (log scale)", "axistitle",
           TextAnchor::kMiddle);
  svg.text(kMargin, top - 4.0, "ratio to best known", "axistitle");
  constexpr double kRadius = 4.0;
  std::vector<Dot> dots;
  for (const auto& point : points) {
    const double px = x(point.seconds);
    const double py = y(point.ratio);
    const auto same = std::find_if(dots.begin(), dots.end(), [&](const Dot& dot) {
      return dot.method == point.method && std::abs(dot.x - px) < kRadius / 2 &&
             std::abs(dot.y - py) < kRadius / 2;
    });
    if (same != dots.end()) {
      same->points.push_back(&point);
    } else {
      dots.push_back({px, py, point.method, {&point}});
    }
  }
  for (const Dot& dot : dots) {
    std::string tooltip = dot.points.size() == 1 ? dot.points.front()->tooltip
                                                 : fmt::format("{} runs here:", dot.points.size());
    for (std::size_t i = 0; dot.points.size() > 1 && i < dot.points.size(); ++i) {
      if (i == kRunsPerTooltip) {
        tooltip += fmt::format("\n... and {} more", dot.points.size() - kRunsPerTooltip);
        break;
      }
      tooltip += "\n" + dot.points[i]->tooltip;
    }
    svg.circle(dot.x, dot.y, kRadius, "pt", seriesColour(dot.method), tooltip);
    if (dot.points.size() > 1) {
      svg.text(dot.x + kRadius + 2.0, dot.y - kRadius, fmt::format("{}", dot.points.size()),
               "axis");
    }
  }
  std::vector<LegendEntry> legend;
  for (std::size_t m = 0; m < summary.methods.size(); ++m) {
    legend.push_back({summary.methods[m].label, std::string(seriesColour(m)), {}});
  }
  legend.push_back({"best known (ratio 1)", {}, "iiline"});
  const double legendTop = bottom + 40.0;
  const double legendHeight = drawLegend(svg, kMargin, legendTop, width - 2 * kMargin, legend);
  svg.setHeight(legendTop + legendHeight + kMargin);
  return svg.finishInline();
}

}  // namespace gaus::report
