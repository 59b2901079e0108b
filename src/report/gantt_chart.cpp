// The Gantt chart of the units and warps views (gantt_chart.hpp): the detailed chart with one
// box per bar, and the aggregated one with utilization bands per group.

#include "gantt_chart.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include <fmt/format.h>

namespace gaus::report {

namespace {

constexpr double kMargin = 12.0;
constexpr double kRowHeight = 22.0;
constexpr double kBoxHeight = 16.0;
constexpr double kGroupGap = 8.0;
constexpr double kLabelFont = 11.0;
constexpr double kSmallFont = 9.0;
constexpr double kMinPlotWidth = 560.0;
constexpr double kMaxPlotWidth = 1500.0;
constexpr double kMaxCyclePixels = 120.0;
constexpr double kMinBoxPixels = 2.5;
constexpr double kBottomAxis = 36.0;
// Bytes one utilization band takes in the SVG, tooltip included (measured on real output,
// rounded up), for keeping aggregated pictures under the size limit.
constexpr double kBandBytes = 170.0;
constexpr std::int64_t kMaxBuckets = 480;
// Above this many rows a group shows only the rows its bars use (a resource of capacity 1000).
constexpr std::int32_t kMaxIdleRows = 32;

std::int64_t boxCount(const GanttChart& chart) {
  std::int64_t boxes = 0;
  for (const auto& group : chart.groups) {
    for (const auto& bar : group.bars) boxes += std::max(1, bar.units);
  }
  return boxes;
}

// The most units the group's bars hold at one cycle.
std::int64_t peakConcurrency(const GanttGroup& group) {
  std::vector<std::pair<Cycle, std::int64_t>> events;
  events.reserve(group.bars.size() * 2);
  for (const auto& bar : group.bars) {
    events.emplace_back(bar.begin, bar.units);
    events.emplace_back(std::max(bar.end, bar.begin + 1), -bar.units);
  }
  // Ends (negative) before starts at the same cycle: [0, 2) and [2, 4) never overlap.
  std::sort(events.begin(), events.end());
  std::int64_t current = 0;
  std::int64_t peak = 0;
  for (const auto& [time, change] : events) {
    current += change;
    peak = std::max(peak, current);
  }
  return peak;
}

std::string windowLabel(std::int64_t k) {
  if (k == 0) return "0";
  if (k == 1) return "II";
  return fmt::format("{}\u00b7II", k);
}

struct PlotFrame {
  double left = 0.0;  // x of cycle 0
  double pixelsPerCycle = 1.0;
  double x(double cycle) const { return left + cycle * pixelsPerCycle; }
};

// Pixels per cycle: wide enough that most labels fit in their boxes, within the width limits.
double chooseScale(const GanttChart& chart, double span) {
  std::vector<double> needs;
  for (const auto& group : chart.groups) {
    for (const auto& bar : group.bars) {
      if (bar.end <= bar.begin || bar.label.empty()) continue;
      needs.push_back((estimateTextWidth(bar.label, kLabelFont) + 8.0) /
                      static_cast<double>(bar.end - bar.begin));
    }
  }
  double need = kMinPlotWidth / span;
  if (!needs.empty()) {
    // The 80th percentile: one long name should not stretch the whole chart.
    const auto quantile = needs.begin() + static_cast<std::ptrdiff_t>(needs.size() * 4 / 5);
    std::nth_element(needs.begin(), quantile, needs.end());
    need = std::max(need, *quantile);
  }
  return std::clamp(
      need, kMinPlotWidth / span,
      std::max(kMinPlotWidth / span, std::min(kMaxPlotWidth / span, kMaxCyclePixels)));
}

void drawTimeAxis(SvgDocument& svg, const PlotFrame& frame, double span, double top, double bottom,
                  std::string_view title) {
  const double plotWidth = span * frame.pixelsPerCycle;
  const auto ticks = niceTicks(0.0, span, std::max(2, static_cast<int>(plotWidth / 90.0)), true);
  for (const double tick : ticks) {
    const double x = frame.x(tick);
    svg.line(x, top, x, bottom, "grid");
    svg.line(x, bottom, x, bottom + 4.0, "tick");
    svg.text(x, bottom + 15.0, formatNumber(tick), "axis", TextAnchor::kMiddle);
  }
  svg.line(frame.x(0), bottom, frame.x(span), bottom, "tick");
  svg.text(frame.x(span / 2.0), bottom + 30.0, title, "axistitle", TextAnchor::kMiddle);
}

std::string rowLabel(const GanttGroup& group, std::int32_t row, std::int32_t rowsShown) {
  if (!group.numberRows) return row == 0 ? group.name : std::string();
  if (rowsShown == 1 && group.capacityRows <= 1) return group.name;
  return fmt::format("{} {}", group.name, row);
}

// The II windows of a modulo chart (a line and a label at each, labels thinned where they
// would collide) and the stages of iteration 0 in a band above the rows.
void drawModuloMarks(SvgDocument& svg, const PlotFrame& frame, const ModuloMarks& marks, Cycle end,
                     double headerBottom, double rowsBottom) {
  // Window labels at every II line, thinned where they would collide.
  const double windowPixels = marks.ii * frame.pixelsPerCycle;
  const auto every = static_cast<std::int64_t>(
      std::ceil((estimateTextWidth("10\u00b7II", 10.0) + 8.0) / std::max(windowPixels, 1.0)));
  for (std::int64_t k = 0; k * marks.ii <= end; ++k) {
    const double x = frame.x(static_cast<double>(k * marks.ii));
    svg.line(x, headerBottom + 2.0, x, rowsBottom, "iiline");
    if (k % every == 0) svg.text(x + 3.0, headerBottom + 11.0, windowLabel(k), "axis");
  }
  // The stages of iteration 0.
  const double bandTop = headerBottom + 16.0;
  svg.text(kMargin, bandTop + 12.0, "iteration 0", "rowlbl");
  for (std::int32_t stage = 0; stage < marks.stages; ++stage) {
    const double x = frame.x(static_cast<double>(stage) * marks.ii);
    svg.rect(x, bandTop, windowPixels, 16.0, "box", categoryColour(0),
             fmt::format("stage {} of iteration 0: cycles {} to {}", stage, stage * marks.ii,
                         (stage + 1) * marks.ii - 1));
    const std::string text = fitText(fmt::format("stage {}", stage), windowPixels - 4.0, 10.0);
    if (!text.empty())
      svg.text(x + windowPixels / 2.0, bandTop + 12.0, text, "axis", TextAnchor::kMiddle);
  }
}

// Where a bar's box is drawn.
struct BarBox {
  double x = 0.0;
  double top = 0.0;
  double width = 0.0;
};

// One bar's box with its tooltip and its label.
void drawBar(SvgDocument& svg, const GanttBar& bar, const BarBox& box, double nextBox) {
  svg.beginGroup(bar.tooltip);
  svg.rect(box.x, box.top, box.width, kBoxHeight, "box", categoryColour(bar.colour));
  // The label: inside the box; else from the box's left edge on into the free space up
  // to the next box; else smaller inside; else shortened.
  const double textWidth = estimateTextWidth(bar.label, kLabelFont);
  if (textWidth <= box.width - 4.0) {
    svg.text(box.x + box.width / 2.0, box.top + 12.0, bar.label, "lbl", TextAnchor::kMiddle);
  } else if (textWidth + 6.0 <= nextBox - box.x) {
    svg.text(box.x + 3.0, box.top + 12.0, bar.label, "lbl");
  } else if (estimateTextWidth(bar.label, kSmallFont) <= box.width - 3.0) {
    svg.text(box.x + box.width / 2.0, box.top + 11.5, bar.label, "small", TextAnchor::kMiddle);
  } else if (const std::string text = fitText(bar.label, box.width - 3.0, kSmallFont);
             !text.empty()) {
    svg.text(box.x + box.width / 2.0, box.top + 11.5, text, "small", TextAnchor::kMiddle);
  }
  svg.endGroup();
}

std::string drawDetailed(const GanttChart& chart) {
  std::vector<RowAssignment> assignments;
  std::vector<std::int32_t> rowsShown;
  for (const auto& group : chart.groups) {
    assignments.push_back(assignRows(group.bars));
    std::int32_t shown = std::max(assignments.back().rowsUsed, 1);
    if (group.capacityRows <= kMaxIdleRows) shown = std::max(shown, group.capacityRows);
    rowsShown.push_back(shown);
  }

  double labelColumn = 70.0;
  for (std::size_t g = 0; g < chart.groups.size(); ++g) {
    for (std::int32_t row = 0; row < rowsShown[g]; ++row) {
      labelColumn = std::max(
          labelColumn,
          estimateTextWidth(rowLabel(chart.groups[g], row, rowsShown[g]), kLabelFont) + 20.0);
    }
  }
  if (chart.modulo) labelColumn = std::max(labelColumn, estimateTextWidth("iteration 0", 11) + 20);

  const double span = static_cast<double>(std::max<Cycle>(chart.end, 1));
  PlotFrame frame;
  frame.left = kMargin + labelColumn;
  frame.pixelsPerCycle = chooseScale(chart, span);
  const double plotWidth = span * frame.pixelsPerCycle;

  const bool withVerdict = chart.verification != nullptr;
  const double headerBottom = headerHeight(chart.notes, withVerdict);
  const double topArea = chart.modulo ? 40.0 : 8.0;
  double rowsHeight = 0.0;
  for (std::size_t g = 0; g < chart.groups.size(); ++g) {
    rowsHeight += rowsShown[g] * kRowHeight + (g + 1 < chart.groups.size() ? kGroupGap : 0.0);
  }
  const double width =
      std::max(frame.left + plotWidth + kMargin + 16.0,
               2 * kMargin + headerWidth(chart.title, chart.notes, chart.verification));
  SvgDocument svg(width, 0.0);
  drawHeader(svg, kMargin, 0.0, chart.title, chart.notes, chart.verification);

  const double rowsTop = headerBottom + topArea;
  const double rowsBottom = rowsTop + rowsHeight;

  // Row backgrounds first, so that grid lines and boxes lie on top.
  double y = rowsTop;
  for (std::size_t g = 0; g < chart.groups.size(); ++g) {
    svg.rect(frame.x(0), y, plotWidth, rowsShown[g] * kRowHeight, g % 2 == 0 ? "lane" : "lanealt");
    y += rowsShown[g] * kRowHeight + kGroupGap;
  }
  if (chart.modulo && chart.modulo->iterations >= chart.modulo->stages) {
    const double from = static_cast<double>(chart.modulo->stages - 1) * chart.modulo->ii;
    svg.rect(frame.x(from), rowsTop, chart.modulo->ii * frame.pixelsPerCycle, rowsHeight, "steady");
  }
  drawTimeAxis(svg, frame, span, rowsTop, rowsBottom, chart.axisTitle);

  if (chart.modulo) drawModuloMarks(svg, frame, *chart.modulo, chart.end, headerBottom, rowsBottom);

  y = rowsTop;
  for (std::size_t g = 0; g < chart.groups.size(); ++g) {
    const GanttGroup& group = chart.groups[g];
    for (std::int32_t row = 0; row < rowsShown[g]; ++row) {
      const bool over = group.hasCapacity && row >= group.capacityRows;
      const std::string label = rowLabel(group, row, rowsShown[g]);
      if (!label.empty() || over) {
        const std::string tooltip =
            over ? fmt::format("{}: more units in use than the capacity of {}", group.name,
                               group.capacityRows)
                 : group.tooltip;
        svg.text(kMargin, y + row * kRowHeight + 15.0,
                 over ? fmt::format("{} {} (over)", group.name, row) : label,
                 over ? "over" : (group.numberRows ? "rowlbl" : "rowgroup"), TextAnchor::kStart,
                 tooltip);
      }
    }
    const RowAssignment& assignment = assignments[g];
    // Where the next box of each row begins after each bar: a label too long for its box goes
    // to the right of it when the gap up to the next box can hold it.
    std::vector<std::vector<std::pair<Cycle, std::size_t>>> byRow(
        static_cast<std::size_t>(rowsShown[g]));
    for (std::size_t b = 0; b < group.bars.size(); ++b) {
      for (const std::int32_t row : assignment.rowsOfBar[b]) {
        byRow[static_cast<std::size_t>(row)].emplace_back(group.bars[b].begin, b);
      }
    }
    for (std::size_t row = 0; row < byRow.size(); ++row) {
      auto& bars = byRow[row];
      std::sort(bars.begin(), bars.end());
      const double top =
          y + static_cast<double>(row) * kRowHeight + (kRowHeight - kBoxHeight) / 2.0;
      for (std::size_t i = 0; i < bars.size(); ++i) {
        const GanttBar& bar = group.bars[bars[i].second];
        const double length = static_cast<double>(bar.end - bar.begin) * frame.pixelsPerCycle;
        const double boxWidth = std::max(length, kMinBoxPixels);
        const double x = length > 0 ? frame.x(static_cast<double>(bar.begin))
                                    : frame.x(static_cast<double>(bar.begin)) - boxWidth / 2.0;
        const double nextBox = i + 1 < bars.size() ? frame.x(static_cast<double>(bars[i + 1].first))
                                                   : frame.x(span) + kMargin;
        drawBar(svg, bar, {x, top, boxWidth}, nextBox);
      }
    }
    y += rowsShown[g] * kRowHeight + kGroupGap;
  }

  const double legendTop = rowsBottom + kBottomAxis + 8.0;
  const double legendHeight =
      drawLegend(svg, kMargin, legendTop, width - 2 * kMargin, chart.legend);
  svg.setHeight(legendTop + legendHeight + kMargin);
  return svg.finish();
}

}  // namespace

std::string drawUtilizationBands(const GanttChart& chart, const PictureOptions& options,
                                 const std::string& reason) {
  const Cycle span = std::max<Cycle>(chart.end, 1);
  const double groups = static_cast<double>(std::max<std::size_t>(chart.groups.size(), 1));
  const auto byteLimitedBuckets = static_cast<std::int64_t>(std::max(
      1.0, (static_cast<double>(options.maxBytes) * 0.8 - 20000.0) / (groups * kBandBytes)));
  const std::int64_t wantedBuckets = std::min({span, kMaxBuckets, byteLimitedBuckets});
  const Cycle bucketCycles = (span + wantedBuckets - 1) / wantedBuckets;
  const std::int64_t buckets = (span + bucketCycles - 1) / bucketCycles;

  std::vector<std::string> notes = chart.notes;
  notes.push_back(reason);
  notes.push_back(
      fmt::format("Each band shows the share of the row's units in use, per {} cycle{}.",
                  bucketCycles, bucketCycles == 1 ? "" : "s"));

  double labelColumn = 90.0;
  std::vector<std::string> labels;
  std::vector<double> capacity;
  for (const auto& group : chart.groups) {
    const std::int64_t peak = peakConcurrency(group);
    const bool fixed = group.hasCapacity && group.capacityRows > 0;
    capacity.push_back(
        static_cast<double>(fixed ? group.capacityRows : std::max<std::int64_t>(peak, 1)));
    labels.push_back(fixed ? fmt::format("{} ({} unit{})", group.name, group.capacityRows,
                                         group.capacityRows == 1 ? "" : "s")
                           : fmt::format("{} (peak {})", group.name, peak));
    labelColumn = std::max(labelColumn, estimateTextWidth(labels.back(), kLabelFont) + 20.0);
  }

  const double plotWidth = std::clamp(static_cast<double>(buckets) * 3.0, kMinPlotWidth, 1400.0);
  PlotFrame frame;
  frame.left = kMargin + labelColumn;
  frame.pixelsPerCycle = plotWidth / static_cast<double>(buckets * bucketCycles);
  const double width = std::max(frame.left + plotWidth + kMargin + 16.0,
                                2 * kMargin + headerWidth(chart.title, notes, chart.verification));
  SvgDocument svg(width, 0.0);
  const double rowsTop = drawHeader(svg, kMargin, 0.0, chart.title, notes, chart.verification) + 8;
  constexpr double kBandHeight = 26.0;
  const double rowsBottom = rowsTop + groups * (kBandHeight + 4.0);
  drawTimeAxis(svg, frame, static_cast<double>(buckets * bucketCycles), rowsTop, rowsBottom,
               chart.axisTitle);

  std::vector<double> busy(static_cast<std::size_t>(buckets));
  double y = rowsTop;
  for (std::size_t g = 0; g < chart.groups.size(); ++g) {
    std::fill(busy.begin(), busy.end(), 0.0);
    for (const auto& bar : chart.groups[g].bars) {
      const Cycle end = std::max(bar.end, bar.begin + 1);
      for (Cycle bucket = bar.begin / bucketCycles; bucket * bucketCycles < end && bucket < buckets;
           ++bucket) {
        const Cycle from = std::max(bar.begin, bucket * bucketCycles);
        const Cycle to = std::min(end, (bucket + 1) * bucketCycles);
        busy[static_cast<std::size_t>(bucket)] += static_cast<double>((to - from) * bar.units);
      }
    }
    svg.rect(frame.x(0), y, plotWidth, kBandHeight, "lane");
    for (std::int64_t bucket = 0; bucket < buckets; ++bucket) {
      const double used = busy[static_cast<std::size_t>(bucket)];
      if (used <= 0.0) continue;
      const double fraction = used / (capacity[g] * static_cast<double>(bucketCycles));
      svg.rect(
          frame.x(static_cast<double>(bucket * bucketCycles)), y,
          static_cast<double>(bucketCycles) * frame.pixelsPerCycle, kBandHeight, "band",
          utilizationColour(fraction),
          fmt::format("{}: {:.0f}% in use, cycles {}-{}", chart.groups[g].name, 100.0 * fraction,
                      bucket * bucketCycles, (bucket + 1) * bucketCycles - 1));
    }
    svg.text(kMargin, y + 17.0, labels[g], "rowlbl", TextAnchor::kStart, chart.groups[g].tooltip);
    y += kBandHeight + 4.0;
  }

  std::vector<LegendEntry> legend;
  for (const double fraction : {0.1, 0.25, 0.5, 0.75, 1.0}) {
    legend.push_back(
        {fmt::format("{:.0f}% in use", 100.0 * fraction), utilizationColour(fraction), {}});
  }
  const double legendTop = rowsBottom + kBottomAxis + 8.0;
  const double legendHeight = drawLegend(svg, kMargin, legendTop, width - 2 * kMargin, legend);
  svg.setHeight(legendTop + legendHeight + kMargin);
  return svg.finish();
}

RowAssignment assignRows(const std::vector<GanttBar>& bars) {
  std::vector<std::size_t> order(bars.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&bars](std::size_t a, std::size_t b) { return bars[a].begin < bars[b].begin; });
  RowAssignment assignment;
  assignment.rowsOfBar.resize(bars.size());
  std::vector<Cycle> freeAt;  // per row: the cycle from which it is free
  for (const std::size_t b : order) {
    const GanttBar& bar = bars[b];
    const Cycle end = std::max(bar.end, bar.begin + 1);
    auto& rows = assignment.rowsOfBar[b];
    for (std::size_t row = 0;
         row < freeAt.size() && static_cast<std::int32_t>(rows.size()) < bar.units; ++row) {
      if (freeAt[row] <= bar.begin) {
        rows.push_back(static_cast<std::int32_t>(row));
        freeAt[row] = end;
      }
    }
    while (static_cast<std::int32_t>(rows.size()) < bar.units) {
      rows.push_back(static_cast<std::int32_t>(freeAt.size()));
      freeAt.push_back(end);
    }
  }
  assignment.rowsUsed = static_cast<std::int32_t>(freeAt.size());
  return assignment;
}

std::string drawGanttChart(const GanttChart& chart, const PictureOptions& options) {
  const std::int64_t boxes = boxCount(chart);
  if (boxes <= options.maxBoxes) {
    std::string detailed = drawDetailed(chart);
    if (detailed.size() <= options.maxBytes) return detailed;
  }
  return drawUtilizationBands(
      chart, options,
      fmt::format("Aggregated: {} boxes are too many to draw one by one (limit {}, or {} bytes).",
                  boxes, options.maxBoxes, options.maxBytes));
}

}  // namespace gaus::report
