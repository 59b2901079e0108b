// The convergence picture of a GauS run: three panels over the Adam step, the model objective,
// the total expected violation (log scale) and the best legal objective so far. A dot marks each
// multiplier update (one trace record); a dashed line marks where a new horizon or II attempt
// starts (the record's horizon or II differs from the one before).

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include <gaus/report/pictures.hpp>

#include "chart_support.hpp"

namespace gaus::report {

namespace {

constexpr double kMargin = 12.0;
constexpr double kAxisWidth = 70.0;
constexpr double kPlotWidth = 860.0;
constexpr double kPanelHeight = 150.0;
constexpr double kPanelTitle = 26.0;
constexpr double kPanelGap = 14.0;
constexpr std::size_t kMaxDots = 1200;
constexpr std::size_t kMaxLinePoints = 2000;

struct Panel {
  double top = 0.0;  // of the plot area
  double low = 0.0;
  double high = 1.0;
  bool logarithmic = false;

  double y(double value) const {
    const double v = logarithmic ? std::log10(value) : value;
    const double span = high - low > 0 ? high - low : 1.0;
    return top + kPanelHeight - (v - low) / span * kPanelHeight;
  }
};

std::string attemptLabel(const TracePoint& point) {
  if (point.ii) return fmt::format("II={} D={}", *point.ii, point.horizon);
  return fmt::format("D={}", point.horizon);
}

void drawPanelFrame(SvgDocument& svg, const Panel& panel, double left, std::string_view title,
                    std::string_view colour) {
  svg.rect(left, panel.top - kPanelTitle + 8.0, 12.0, 4.0, "band", colour);
  svg.text(left + 18.0, panel.top - 10.0, title, "axistitle");
  svg.rect(left, panel.top, kPlotWidth, kPanelHeight, "frame");
  if (panel.logarithmic) {
    for (double decade = std::ceil(panel.low); decade <= panel.high + 1e-9; decade += 1.0) {
      const double y =
          panel.top + kPanelHeight - (decade - panel.low) / (panel.high - panel.low) * kPanelHeight;
      svg.line(left, y, left + kPlotWidth, y, "grid");
      svg.text(left - 6.0, y + 4.0, fmt::format("1e{}", static_cast<int>(decade)), "axis",
               TextAnchor::kEnd);
    }
    return;
  }
  for (const double tick : niceTicks(panel.low, panel.high, 4, false)) {
    const double y = panel.y(tick);
    svg.line(left, y, left + kPlotWidth, y, "grid");
    svg.text(left - 6.0, y + 4.0, formatNumber(tick), "axis", TextAnchor::kEnd);
  }
}

Panel linearPanel(double top, double low, double high) {
  if (!(high > low)) {
    const double pad = std::max(std::abs(low) * 0.1, 1.0);
    low -= pad;
    high += pad;
  } else {
    const double pad = (high - low) * 0.06;
    low -= pad;
    high += pad;
  }
  return {top, low, high, false};
}

// The extremes of the three series over the trace.
struct TraceRanges {
  double minObjective = 0.0, maxObjective = 0.0;
  double minPositiveViolation = 0.0, maxViolation = 0.0;
  double minBest = 0.0, maxBest = 0.0;  // infinite without a legal objective
  bool zeroViolation = false;           // some update has no violation
};

TraceRanges traceRanges(const std::vector<TracePoint>& points) {
  TraceRanges ranges;
  ranges.minObjective = std::numeric_limits<double>::infinity();
  ranges.maxObjective = -ranges.minObjective;
  ranges.minPositiveViolation = std::numeric_limits<double>::infinity();
  ranges.maxViolation = 0.0;
  ranges.minBest = std::numeric_limits<double>::infinity();
  ranges.maxBest = -ranges.minBest;
  ranges.zeroViolation = false;
  for (const auto& point : points) {
    ranges.minObjective = std::min(ranges.minObjective, point.objective);
    ranges.maxObjective = std::max(ranges.maxObjective, point.objective);
    if (point.violation > 0) {
      ranges.minPositiveViolation = std::min(ranges.minPositiveViolation, point.violation);
      ranges.maxViolation = std::max(ranges.maxViolation, point.violation);
    } else {
      ranges.zeroViolation = true;
    }
    if (point.best) {
      ranges.minBest = std::min(ranges.minBest, *point.best);
      ranges.maxBest = std::max(ranges.maxBest, *point.best);
    }
  }
  return ranges;
}

// Draws one series of a trace on its panel: lines through the records, dots on the updates
// (every dotStride-th). A best-so-far value holds until the next record improves it, so it is
// drawn as steps, through every change; the other series keep every lineStride-th record.
struct SeriesPlot {
  SvgDocument& svg;
  const std::vector<TracePoint>& points;
  double left;
  double lastStep;
  std::size_t lineStride;
  std::size_t dotStride;

  double x(double step) const { return left + step / lastStep * kPlotWidth; }

  template <class Value>
  void draw(const Panel& panel, Value value, std::string_view colour, std::string_view name,
            bool steps) const {
    std::string line;
    // The value of the last point in `line` (a plain pair: GCC 12 misjudges an optional here).
    bool hasPrevious = false;
    double previous = 0.0;
    for (std::size_t i = 0; i < points.size(); ++i) {
      const std::optional<double> v = value(points[i]);
      if (!v) {
        if (!line.empty()) svg.polyline(line, "series", colour);
        line.clear();
        hasPrevious = false;
        continue;
      }
      const bool kept = steps ? (!hasPrevious || previous != *v || i + 1 == points.size())
                              : (i % lineStride == 0 || i + 1 == points.size());
      if (!kept) continue;
      const std::string px = formatCoordinate(x(static_cast<double>(points[i].step)));
      if (steps && hasPrevious) {
        line += fmt::format("{},{} ", px, formatCoordinate(panel.y(previous)));
      }
      line += fmt::format("{},{} ", px, formatCoordinate(panel.y(*v)));
      hasPrevious = true;
      previous = *v;
    }
    if (!line.empty()) svg.polyline(line, "series", colour);
    for (std::size_t i = 0; i < points.size(); i += dotStride) {
      const auto v = value(points[i]);
      if (!v) continue;
      svg.circle(x(static_cast<double>(points[i].step)), panel.y(*v), 2.6, "dot", colour,
                 fmt::format("step {}: {} {}", points[i].step, name, formatNumber(*v)));
    }
  }
};

// Attempt lines across the three panels, labels on two alternating rows (a label that would
// run into the previous one of its row is left out).
template <class StepX>
void drawAttemptLines(SvgDocument& svg, const std::vector<TracePoint>& points,
                      const std::vector<std::size_t>& attemptStarts, StepX x, double labelsTop,
                      double bottom) {
  double lastLabelEnd[2] = {-1e18, -1e18};
  for (std::size_t a = 0; a < attemptStarts.size(); ++a) {
    const TracePoint& point = points[attemptStarts[a]];
    // The attempt starts after the previous record: its first update ends at point.step.
    const double step =
        attemptStarts[a] == 0 ? 0.0 : static_cast<double>(points[attemptStarts[a] - 1].step);
    const double lineX = x(step);
    svg.line(lineX, labelsTop + 4.0, lineX, bottom, "attempt");
    const std::string label = attemptLabel(point);
    const double labelWidth = estimateTextWidth(label, 10.0);
    const int row = static_cast<int>(a % 2);
    if (lineX + 3.0 > lastLabelEnd[row] + 4.0) {
      svg.text(lineX + 3.0, labelsTop + 12.0 + row * 13.0, label, "axis", TextAnchor::kStart,
               fmt::format("attempt {}: {} from step {}", a + 1, label,
                           static_cast<std::int64_t>(step)));
      lastLabelEnd[row] = lineX + 3.0 + labelWidth;
    }
  }
}

}  // namespace

std::string renderConvergence(const ConvergenceTrace& trace, const PictureOptions& options) {
  const std::string title =
      options.title.empty() ? fmt::format("GauS convergence: {}", trace.name) : options.title;
  const auto& points = trace.points;
  const double lastStep =
      static_cast<double>(std::max<std::int64_t>(points.empty() ? 1 : points.back().step, 1));

  // Attempts: where the horizon or II changes.
  std::vector<std::size_t> attemptStarts;
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (i == 0 || points[i].horizon != points[i - 1].horizon || points[i].ii != points[i - 1].ii) {
      attemptStarts.push_back(i);
    }
  }
  const TraceRanges ranges = traceRanges(points);
  const double minObjective = ranges.minObjective, maxObjective = ranges.maxObjective;
  const double minPositiveViolation = ranges.minPositiveViolation;
  const double maxViolation = ranges.maxViolation;
  const double minBest = ranges.minBest, maxBest = ranges.maxBest;
  const bool zeroViolation = ranges.zeroViolation;
  const bool anyPositive = std::isfinite(minPositiveViolation);
  // Zero violation has no logarithm: it is drawn on the floor, a decade below the least
  // positive value.
  const double floorViolation = anyPositive ? minPositiveViolation / 10.0 : 1e-12;
  const double violationLow = std::floor(std::log10(floorViolation));
  const double violationHigh =
      std::max(std::ceil(std::log10(anyPositive ? maxViolation : 1e-11)), violationLow + 1.0);

  std::vector<std::string> notes;
  notes.push_back(fmt::format(
      "{} multiplier updates (dots) over {} Adam steps, {:.2f} s; {} horizon/II attempt{} "
      "(dashed lines)",
      points.size(), points.empty() ? 0 : points.back().step,
      points.empty() ? 0.0 : points.back().elapsedSeconds, attemptStarts.size(),
      attemptStarts.size() == 1 ? "" : "s"));
  if (zeroViolation) notes.push_back("A violation of 0 is drawn on the lowest grid line.");
  if (trace.truncatedLine) {
    notes.push_back(
        fmt::format("Line {} was cut short (the run stopped while writing it) and is left out.",
                    *trace.truncatedLine));
  }
  const std::size_t stride = std::max<std::size_t>(1, (points.size() + kMaxDots - 1) / kMaxDots);
  if (stride > 1) notes.push_back(fmt::format("Every {}th update is dotted.", stride));

  const double left = kMargin + kAxisWidth;
  const double width =
      std::max(left + kPlotWidth + kMargin + 10.0, 2 * kMargin + headerWidth(title, notes));
  SvgDocument svg(width, 0.0);
  const double headerBottom = drawHeader(svg, kMargin, 0.0, title, notes);
  const double labelsTop = headerBottom + 4.0;  // two rows of attempt labels
  double top = labelsTop + 30.0 + kPanelTitle;
  const Panel objective = linearPanel(top, minObjective, maxObjective);
  top += kPanelHeight + kPanelGap + kPanelTitle;
  const Panel violation{top, violationLow, violationHigh, true};
  top += kPanelHeight + kPanelGap + kPanelTitle;
  const Panel best =
      std::isfinite(minBest) ? linearPanel(top, minBest, maxBest) : linearPanel(top, 0.0, 1.0);
  const double bottom = top + kPanelHeight;

  const auto x = [&](double step) { return left + step / lastStep * kPlotWidth; };
  drawPanelFrame(svg, objective, left, "model objective (normalized, best batch row)",
                 seriesColour(0));
  drawPanelFrame(svg, violation, left, "total expected violation (log scale)", seriesColour(4));
  drawPanelFrame(svg, best, left, "best legal objective (verified schedules so far)",
                 seriesColour(2));

  drawAttemptLines(svg, points, attemptStarts, x, labelsTop, bottom);

  // The series: lines through the records, dots on the updates. A best-so-far value holds
  // until the next record improves it, so it is drawn as steps, through every change. Long
  // runs keep every lineStride-th record in the other lines: the plot is 860 pixels wide, and
  // the file stays small.
  const std::size_t lineStride =
      std::max<std::size_t>(1, (points.size() + kMaxLinePoints - 1) / kMaxLinePoints);
  const SeriesPlot plot{svg, points, left, lastStep, lineStride, stride};
  plot.draw(
      objective, [](const TracePoint& p) { return std::optional<double>(p.objective); },
      seriesColour(0), "objective", false);
  plot.draw(
      violation,
      [floorViolation](const TracePoint& p) {
        return std::optional<double>(p.violation > 0 ? p.violation : floorViolation);
      },
      seriesColour(4), "violation", false);
  plot.draw(
      best, [](const TracePoint& p) { return p.best; }, seriesColour(2), "best legal objective",
      true);
  if (!std::isfinite(minBest)) {
    svg.text(left + kPlotWidth / 2.0, best.top + kPanelHeight / 2.0,
             "no legal schedule in this trace", "note", TextAnchor::kMiddle);
  }

  for (const double tick : niceTicks(0.0, lastStep, 8, true)) {
    svg.line(x(tick), bottom, x(tick), bottom + 4.0, "tick");
    svg.text(x(tick), bottom + 15.0, formatNumber(tick), "axis", TextAnchor::kMiddle);
  }
  svg.text(left + kPlotWidth / 2.0, bottom + 30.0, "Adam step", "axistitle", TextAnchor::kMiddle);
  const std::vector<LegendEntry> legend = {{"multiplier update", std::string(seriesColour(0)), {}},
                                           {"new horizon / II attempt", {}, "attempt"}};
  const double legendTop = bottom + 40.0;
  const double legendHeight = drawLegend(svg, kMargin, legendTop, width - 2 * kMargin, legend);
  svg.setHeight(legendTop + legendHeight + kMargin);
  return svg.finish();
}

}  // namespace gaus::report
