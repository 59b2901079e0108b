// The graph view: the dependence graph laid out by level, top to bottom. An op's level is its
// ASAP time with unit delays (the longest chain of distance-0 edges from a source), so every
// edge of one iteration points down and an edge of delay 0 still goes from one row to the
// next. Within a level, ops are ordered by the barycentre of their neighbours (a few sweeps down
// and up, after Sugiyama et al. 1981) and pulled towards their predecessors. Edges carry their
// delay; loop-carried edges (distance > 0) are dashed, drawn round the right of their ops and
// carry the distance too.
//
// The layout is computed here rather than by Graphviz's dot (docs/pictures.md says why):
// levels must be the ASAP levels, the picture must share its style and size limits with the
// others, and gaus keeps no run-time dependency for pictures. `gaus convert G g.dot` gives dot's
// own layout for those who want it.

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <numeric>

#include <fmt/format.h>

#include <gaus/core/analysis.hpp>
#include <gaus/report/pictures.hpp>

#include "chart_support.hpp"
#include "schedule_scene.hpp"

namespace gaus::report {

namespace {

constexpr double kMargin = 12.0;
constexpr double kNodeHeight = 24.0;
constexpr double kLevelGap = 72.0;
constexpr double kNodeGap = 36.0;
constexpr double kCarriedBulge = 46.0;
constexpr std::int64_t kMaxLabelledEdges = 160;
constexpr std::int64_t kMaxLevelBars = 400;

std::vector<std::int64_t> unitLevels(const Graph& graph, const std::vector<OpId>& order) {
  std::vector<std::int64_t> level(static_cast<std::size_t>(graph.numOps()), 0);
  for (const OpId op : order) {
    for (const EdgeId e : graph.outEdges(op)) {
      if (graph.edgeDistance(e) != 0) continue;
      auto& target = level[static_cast<std::size_t>(graph.edgeTarget(e))];
      target = std::max(target, level[static_cast<std::size_t>(op)] + 1);
    }
  }
  return level;
}

std::string failedPicture(const std::string& title, const std::string& why) {
  const std::vector<std::string> notes = {why};
  SvgDocument svg(24.0 + headerWidth(title, notes), headerHeight(notes, false) + 12.0);
  drawHeader(svg, 12.0, 0.0, title, notes);
  return svg.finish();
}

// Ops per level as stacked bars by kind, for graphs too large to draw op by op.
std::string drawLevelHistogram(const Graph& graph, const std::vector<std::int64_t>& level,
                               const std::string& title, const PictureOptions& options) {
  const KindColouring colouring = colourOpsByKind(graph);
  const std::int64_t levels = *std::max_element(level.begin(), level.end()) + 1;
  const std::int64_t perBar = (levels + kMaxLevelBars - 1) / kMaxLevelBars;
  const std::int64_t bars = (levels + perBar - 1) / perBar;
  std::vector<std::vector<std::int64_t>> count(static_cast<std::size_t>(bars),
                                               std::vector<std::int64_t>(kCategoryColours, 0));
  std::vector<std::int64_t> perLevel(static_cast<std::size_t>(levels), 0);
  for (OpId op = 0; op < graph.numOps(); ++op) {
    const auto l = static_cast<std::size_t>(level[static_cast<std::size_t>(op)]);
    ++perLevel[l];
    ++count[l / static_cast<std::size_t>(perBar)]
           [colouring.colourOfOp[static_cast<std::size_t>(op)]];
  }
  std::int64_t tallest = 1;
  for (const auto& bar : count)
    tallest = std::max(tallest, std::accumulate(bar.begin(), bar.end(), std::int64_t{0}));
  std::int64_t carried = 0;
  for (EdgeId e = 0; e < graph.numEdges(); ++e) carried += graph.edgeDistance(e) > 0 ? 1 : 0;

  std::vector<std::string> notes = {
      fmt::format("{} ops, {} edges ({} loop-carried), {} levels, widest level {} ops",
                  graph.numOps(), graph.numEdges(), carried, levels,
                  *std::max_element(perLevel.begin(), perLevel.end())),
      fmt::format("Aggregated: more than {} ops are too many to draw one by one; bars show the ops "
                  "per level{}, coloured by kind.",
                  options.maxGraphOps,
                  perBar > 1 ? fmt::format(" ({} levels per bar)", perBar) : std::string())};
  constexpr double kPlotHeight = 260.0;
  constexpr double kAxis = 54.0;
  const double plotWidth = std::clamp(static_cast<double>(bars) * 6.0, 480.0, 1400.0);
  const double left = kMargin + kAxis;
  const double width =
      std::max(left + plotWidth + kMargin + 10, 2 * kMargin + headerWidth(title, notes));
  SvgDocument svg(width, 0.0);
  const double top = drawHeader(svg, kMargin, 0.0, title, notes) + 10.0;
  const double bottom = top + kPlotHeight;
  const double barWidth = plotWidth / static_cast<double>(bars);
  for (const double tick : niceTicks(0.0, static_cast<double>(tallest), 5, true)) {
    const double y = bottom - tick / static_cast<double>(tallest) * kPlotHeight;
    svg.line(left, y, left + plotWidth, y, "grid");
    svg.text(left - 6.0, y + 4.0, formatNumber(tick), "axis", TextAnchor::kEnd);
  }
  for (std::int64_t b = 0; b < bars; ++b) {
    double stacked = 0.0;
    const auto& bar = count[static_cast<std::size_t>(b)];
    const std::int64_t total = std::accumulate(bar.begin(), bar.end(), std::int64_t{0});
    const std::string tooltip = perBar == 1
                                    ? fmt::format("level {}: {} ops", b, total)
                                    : fmt::format("levels {}-{}: {} ops", b * perBar,
                                                  std::min(levels, (b + 1) * perBar) - 1, total);
    for (std::size_t colour = 0; colour < kCategoryColours; ++colour) {
      if (bar[colour] == 0) continue;
      const double h =
          static_cast<double>(bar[colour]) / static_cast<double>(tallest) * kPlotHeight;
      svg.rect(left + static_cast<double>(b) * barWidth, bottom - stacked - h,
               std::max(barWidth - 0.5, 0.8), h, "band", categoryColour(colour), tooltip);
      stacked += h;
    }
  }
  svg.line(left, bottom, left + plotWidth, bottom, "tick");
  for (const double tick : niceTicks(0.0, static_cast<double>(levels - 1),
                                     std::max(2, static_cast<int>(plotWidth / 90.0)), true)) {
    const double x = left + (tick / static_cast<double>(perBar) + 0.5) * barWidth;
    svg.line(x, bottom, x, bottom + 4.0, "tick");
    svg.text(x, bottom + 15.0, formatNumber(tick), "axis", TextAnchor::kMiddle);
  }
  svg.text(left + plotWidth / 2.0, bottom + 30.0, "level (ASAP with unit delays)", "axistitle",
           TextAnchor::kMiddle);
  svg.text(kMargin, top - 2.0, "ops", "axistitle");
  const double legendTop = bottom + 42.0;
  const double legendHeight =
      drawLegend(svg, kMargin, legendTop, width - 2 * kMargin, colouring.legend);
  svg.setHeight(legendTop + legendHeight + kMargin);
  return svg.finish();
}

struct NodeBox {
  double x = 0.0;  // centre
  double y = 0.0;  // top
  double width = 0.0;
};

// Orders each level by the barycentre of the neighbours in the level above (down sweeps) or
// below (up sweeps).
std::vector<std::vector<OpId>> orderLevels(const Graph& graph,
                                           const std::vector<std::int64_t>& level,
                                           std::int64_t levels) {
  std::vector<std::vector<OpId>> rows(static_cast<std::size_t>(levels));
  for (OpId op = 0; op < graph.numOps(); ++op)
    rows[static_cast<std::size_t>(level[static_cast<std::size_t>(op)])].push_back(op);
  std::vector<double> position(static_cast<std::size_t>(graph.numOps()), 0.0);
  const auto number = [&](const std::vector<OpId>& row) {
    for (std::size_t i = 0; i < row.size(); ++i)
      position[static_cast<std::size_t>(row[i])] = static_cast<double>(i);
  };
  for (const auto& row : rows) number(row);
  const auto sweep = [&](std::size_t l, bool down) {
    std::vector<std::pair<double, OpId>> keyed;
    for (const OpId op : rows[l]) {
      double sum = 0.0;
      int count = 0;
      const auto edges = down ? graph.inEdges(op) : graph.outEdges(op);
      for (const EdgeId e : edges) {
        if (graph.edgeDistance(e) != 0) continue;
        sum += position[static_cast<std::size_t>(down ? graph.edgeSource(e) : graph.edgeTarget(e))];
        ++count;
      }
      keyed.emplace_back(count > 0 ? sum / count : position[static_cast<std::size_t>(op)], op);
    }
    std::stable_sort(keyed.begin(), keyed.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    for (std::size_t i = 0; i < keyed.size(); ++i) rows[l][i] = keyed[i].second;
    number(rows[l]);
  };
  for (int pass = 0; pass < 4; ++pass) {
    for (std::size_t l = 1; l < rows.size(); ++l) sweep(l, true);
    for (std::size_t l = rows.size(); l-- > 1;) sweep(l - 1, false);
  }
  return rows;
}

// A point of a cubic Bezier curve.
std::pair<double, double> bezierPoint(const std::array<double, 8>& c, double t) {
  const double u = 1.0 - t;
  const double a = u * u * u;
  const double b = 3 * u * u * t;
  const double d = 3 * u * t * t;
  const double e = t * t * t;
  return {a * c[0] + b * c[2] + d * c[4] + e * c[6], a * c[1] + b * c[3] + d * c[5] + e * c[7]};
}

std::string curvePath(const std::array<double, 8>& c) {
  return fmt::format("M{} {} C{} {} {} {} {} {}", formatCoordinate(c[0]), formatCoordinate(c[1]),
                     formatCoordinate(c[2]), formatCoordinate(c[3]), formatCoordinate(c[4]),
                     formatCoordinate(c[5]), formatCoordinate(c[6]), formatCoordinate(c[7]));
}

// An arrowhead at the curve's end, pointing along its last tangent.
std::string arrowPath(const std::array<double, 8>& c) {
  double dx = c[6] - c[4];
  double dy = c[7] - c[5];
  const double length = std::max(std::hypot(dx, dy), 1e-9);
  dx /= length;
  dy /= length;
  const double size = 7.0;
  const double baseX = c[6] - dx * size;
  const double baseY = c[7] - dy * size;
  return fmt::format(
      "M{} {} L{} {} L{} {} Z", formatCoordinate(c[6]), formatCoordinate(c[7]),
      formatCoordinate(baseX - dy * size * 0.45), formatCoordinate(baseY + dx * size * 0.45),
      formatCoordinate(baseX + dy * size * 0.45), formatCoordinate(baseY - dx * size * 0.45));
}

struct LabelBox {
  double left, top, right, bottom;
  bool overlaps(const LabelBox& o) const {
    return left < o.right && o.left < right && top < o.bottom && o.top < bottom;
  }
};

// Node sizes, then x positions: each level packed in its order, ops pulled towards the mean of
// their predecessors without overlapping. The y positions are the caller's.
std::vector<NodeBox> placeNodes(const Graph& graph, const std::vector<std::vector<OpId>>& rows) {
  std::vector<NodeBox> box(static_cast<std::size_t>(graph.numOps()));
  for (OpId op = 0; op < graph.numOps(); ++op) {
    box[static_cast<std::size_t>(op)].width =
        std::max(34.0, estimateTextWidth(graph.opName(op), 11.0) + 16.0);
  }
  for (const auto& row : rows) {
    double x = 0.0;
    for (const OpId op : row) {
      auto& node = box[static_cast<std::size_t>(op)];
      node.x = x + node.width / 2.0;
      x += node.width + kNodeGap;
    }
  }
  for (int pass = 0; pass < 3; ++pass) {
    for (std::size_t l = 1; l < rows.size(); ++l) {
      std::vector<double> desired;
      for (const OpId op : rows[l]) {
        double sum = 0.0;
        int count = 0;
        for (const EdgeId e : graph.inEdges(op)) {
          if (graph.edgeDistance(e) != 0) continue;
          sum += box[static_cast<std::size_t>(graph.edgeSource(e))].x;
          ++count;
        }
        desired.push_back(count > 0 ? sum / count : box[static_cast<std::size_t>(op)].x);
      }
      // Left to right, no overlap; then the row is shifted so that it sits on its desired
      // positions on average.
      double previousRight = -1e18;
      double shift = 0.0;
      for (std::size_t i = 0; i < rows[l].size(); ++i) {
        auto& node = box[static_cast<std::size_t>(rows[l][i])];
        node.x = std::max(desired[i], previousRight + kNodeGap + node.width / 2.0);
        previousRight = node.x + node.width / 2.0;
        shift += desired[i] - node.x;
      }
      shift /= static_cast<double>(rows[l].size());
      for (const OpId op : rows[l]) box[static_cast<std::size_t>(op)].x += shift;
    }
  }
  return box;
}

// Edges, parallel ones merged (their labels would lie on each other), each label at the first
// of its candidate places that overlaps no node and no label placed before.
void drawEdges(SvgDocument& svg, const Graph& graph, const std::vector<NodeBox>& box,
               bool labelEdges) {
  std::map<std::pair<OpId, OpId>, std::vector<EdgeId>> merged;
  for (EdgeId e = 0; e < graph.numEdges(); ++e)
    merged[{graph.edgeSource(e), graph.edgeTarget(e)}].push_back(e);
  std::vector<LabelBox> placedLabels;
  for (OpId op = 0; op < graph.numOps(); ++op) {
    const auto& node = box[static_cast<std::size_t>(op)];
    placedLabels.push_back(
        {node.x - node.width / 2.0, node.y, node.x + node.width / 2.0, node.y + kNodeHeight});
  }
  for (const auto& [ends, edges] : merged) {
    const auto& from = box[static_cast<std::size_t>(ends.first)];
    const auto& to = box[static_cast<std::size_t>(ends.second)];
    std::string label;
    bool loopCarried = false;
    for (const EdgeId e : edges) {
      const std::string one =
          graph.edgeDistance(e) > 0
              ? fmt::format("d={} \u03b4={}", graph.edgeDelay(e), graph.edgeDistance(e))
              : fmt::format("d={}", graph.edgeDelay(e));
      if (label.find(one) == std::string::npos) label += (label.empty() ? "" : "; ") + one;
      loopCarried = loopCarried || graph.edgeDistance(e) > 0;
    }
    if (edges.size() > 1) label += fmt::format(" (\u00d7{})", edges.size());
    std::array<double, 8> curve{};
    if (!loopCarried) {
      const double y1 = from.y + kNodeHeight;
      const double y2 = to.y;
      const double bend = (y2 - y1) / 2.0;
      curve = {from.x, y1, from.x, y1 + bend, to.x, y2 - bend, to.x, y2};
    } else if (ends.first == ends.second) {
      const double x = from.x + from.width / 2.0;
      curve = {x,        from.y + 5.0,
               x + 26.0, from.y - 8.0,
               x + 26.0, from.y + kNodeHeight + 8.0,
               x,        from.y + kNodeHeight - 5.0};
    } else {
      // Round the right side: out of the source's right edge, back into the target's.
      const double x1 = from.x + from.width / 2.0;
      const double x2 = to.x + to.width / 2.0;
      const double y1 = from.y + kNodeHeight / 2.0;
      const double y2 = to.y + kNodeHeight / 2.0;
      const double out = std::max(x1, x2) + kCarriedBulge;
      curve = {x1, y1, out, y1, out, y2, x2 + 1.0, y2};
    }
    const std::string tooltip =
        fmt::format("{} -> {}: {}{}", graph.opName(ends.first), graph.opName(ends.second), label,
                    loopCarried ? " (loop-carried)" : "");
    svg.path(curvePath(curve), loopCarried ? "carried" : "edge", {}, tooltip);
    svg.path(arrowPath(curve), loopCarried ? "arrowcarried" : "arrow");
    if (!labelEdges) continue;
    const double labelWidth = estimateTextWidth(label, 10.0);
    // Candidate places for the label's centre: along the curve, or beside a self-loop.
    std::vector<std::pair<double, double>> candidates;
    if (ends.first == ends.second) {
      const double right = from.x + from.width / 2.0 + 24.0;
      candidates = {{right + labelWidth / 2.0 + 4.0, from.y + kNodeHeight / 2.0 + 3.0},
                    {right - 12.0, from.y - 6.0},
                    {right - 12.0, from.y + kNodeHeight + 12.0}};
    } else {
      for (const double t : {0.5, 0.35, 0.65, 0.25, 0.75})
        candidates.push_back(bezierPoint(curve, t));
    }
    for (const auto& [x, y] : candidates) {
      const LabelBox candidate{x - labelWidth / 2.0 - 2, y - 9.0, x + labelWidth / 2.0 + 2,
                               y + 3.0};
      if (std::any_of(placedLabels.begin(), placedLabels.end(),
                      [&](const LabelBox& placed) { return placed.overlaps(candidate); })) {
        continue;
      }
      placedLabels.push_back(candidate);
      svg.text(x, y, label, loopCarried ? "elblcarried" : "elbl", TextAnchor::kMiddle, tooltip);
      break;
    }
  }
}

}  // namespace

std::string renderGraph(const Graph& graph, const PictureOptions& options) {
  const std::string title = defaultTitle(options, graph, "dependence graph");
  if (graph.numOps() == 0) return failedPicture(title, "The graph has no ops.");
  const auto order = topologicalOrder(graph);
  if (!order)
    return failedPicture(title, fmt::format("Cannot lay out the graph: {}", order.error()));
  const std::vector<std::int64_t> level = unitLevels(graph, *order);
  if (graph.numOps() > options.maxGraphOps) {
    return drawLevelHistogram(graph, level, title, options);
  }
  const std::int64_t levels = *std::max_element(level.begin(), level.end()) + 1;
  const auto rows = orderLevels(graph, level, levels);
  const KindColouring colouring = colourOpsByKind(graph);
  const std::vector<Cycle> asap = asapTimes(graph, *order);

  std::vector<NodeBox> box = placeNodes(graph, rows);
  double minLeft = 1e18;
  double maxRight = -1e18;
  for (const auto& node : box) {
    minLeft = std::min(minLeft, node.x - node.width / 2.0);
    maxRight = std::max(maxRight, node.x + node.width / 2.0);
  }

  std::int64_t carried = 0;
  for (EdgeId e = 0; e < graph.numEdges(); ++e) carried += graph.edgeDistance(e) > 0 ? 1 : 0;
  const bool labelEdges = graph.numEdges() <= kMaxLabelledEdges;
  std::vector<std::string> notes = {fmt::format(
      "{} ops, {} edges ({} loop-carried), {} levels; edge labels: d = delay in cycles, "
      "\u03b4 = iteration distance{}",
      graph.numOps(), graph.numEdges(), carried, levels,
      labelEdges ? "" : " (in tooltips: too many edges to label)")};
  const double headerBottom = headerHeight(notes, false);
  const double levelLabel = 56.0;
  const double left = kMargin + levelLabel - minLeft;
  const double plotRight = left + maxRight + (carried > 0 ? kCarriedBulge + 30.0 : 20.0);
  const double width = std::max(plotRight + kMargin, 2 * kMargin + headerWidth(title, notes));
  SvgDocument svg(width, 0.0);
  drawHeader(svg, kMargin, 0.0, title, notes);
  const double top = headerBottom + 14.0;
  for (OpId op = 0; op < graph.numOps(); ++op) {
    auto& node = box[static_cast<std::size_t>(op)];
    node.x += left;
    node.y = top + static_cast<double>(level[static_cast<std::size_t>(op)]) * kLevelGap;
  }
  for (std::int64_t l = 0; l < levels; ++l) {
    svg.text(kMargin, top + static_cast<double>(l) * kLevelGap + 16.0, fmt::format("level {}", l),
             "axis");
  }

  drawEdges(svg, graph, box, labelEdges);

  for (OpId op = 0; op < graph.numOps(); ++op) {
    const auto& node = box[static_cast<std::size_t>(op)];
    const std::string_view kind = graph.opKind(op);
    svg.beginGroup(fmt::format("{}{}: latency {}, ASAP start {}, level {}", graph.opName(op),
                               kind.empty() ? std::string() : fmt::format(" ({})", kind),
                               graph.latency(op), asap[static_cast<std::size_t>(op)],
                               level[static_cast<std::size_t>(op)]));
    svg.rect(node.x - node.width / 2.0, node.y, node.width, kNodeHeight, "node",
             categoryColour(colouring.colourOfOp[static_cast<std::size_t>(op)]));
    svg.text(node.x, node.y + 16.0, graph.opName(op), "lbl", TextAnchor::kMiddle);
    svg.endGroup();
  }

  std::vector<LegendEntry> legend = colouring.legend;
  legend.push_back({"edge (d = delay)", {}, "edge"});
  if (carried > 0) legend.push_back({"loop-carried edge (\u03b4 = distance)", {}, "carried"});
  const double legendTop = top + static_cast<double>(levels - 1) * kLevelGap + kNodeHeight + 24.0;
  const double legendHeight = drawLegend(svg, kMargin, legendTop, width - 2 * kMargin, legend);
  svg.setHeight(legendTop + legendHeight + kMargin);
  std::string picture = svg.finish();
  if (picture.size() <= options.maxBytes) return picture;
  return drawLevelHistogram(graph, level, title, options);
}

}  // namespace gaus::report
