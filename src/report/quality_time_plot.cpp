// The report's quality-versus-time scatter: one dot per verified run, its wall seconds (log
// scale) against the ratio of its objective to the best known value of its problem, coloured by
// method label. Lower and further left is better.

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
                  points.size(), kLeastSeconds, kLeastSeconds)};
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
  for (const auto& point : points) {
    svg.circle(x(point.seconds), y(point.ratio), 4.0, "pt", seriesColour(point.method),
               point.tooltip);
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
