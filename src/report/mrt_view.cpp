// The mrt view: the modulo reservation table of a schedule. Columns are the cycles modulo II,
// rows the units of each resource; a cell names the op holding the unit at that cycle of the
// steady state and the stage it belongs to (floor(start / II)). A schedule without an II is
// drawn as the reservation table of its one iteration (columns = cycles 0..latency-1).
//
// Units are given to ops so that an op keeps one row across the consecutive cycles it holds:
// first fit over the cyclic columns, in order of the cycle the op takes the unit. Where no row
// is free for all of an op's columns (cyclic intervals can need more rows than the per-column
// count), its cycles are placed one by one.

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include <gaus/report/pictures.hpp>

#include "gantt_chart.hpp"
#include "schedule_scene.hpp"

namespace gaus::report {

namespace {

constexpr double kMargin = 12.0;
constexpr double kMaxTableWidth = 2600.0;
constexpr double kMaxColumns = 400.0;

// One op holding one unit of a resource for some cycles of the table.
struct TablePiece {
  OpId op = 0;
  Cycle firstCycle = 0;  // absolute cycle it takes the unit
  std::vector<std::int64_t> columns;
};

// cell[lane][column] = index of the piece holding it, or -1.
struct ResourceTable {
  std::vector<std::vector<std::int64_t>> cell;
  std::int64_t columns = 0;

  void addLane() { cell.emplace_back(static_cast<std::size_t>(columns), -1); }
  bool freeFor(std::size_t lane, const std::vector<std::int64_t>& wanted) const {
    for (const std::int64_t column : wanted) {
      if (cell[lane][static_cast<std::size_t>(column)] != -1) return false;
    }
    return true;
  }
};

ResourceTable placePieces(const std::vector<TablePiece>& pieces, std::int64_t columns) {
  ResourceTable table;
  table.columns = columns;
  std::vector<std::size_t> order(pieces.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&pieces](std::size_t a, std::size_t b) {
    return pieces[a].firstCycle < pieces[b].firstCycle;
  });
  for (const std::size_t p : order) {
    const auto& wanted = pieces[p].columns;
    std::vector<std::int64_t> distinct = wanted;
    std::sort(distinct.begin(), distinct.end());
    const bool repeats = std::adjacent_find(distinct.begin(), distinct.end()) != distinct.end();
    std::optional<std::size_t> lane;
    for (std::size_t l = 0; l < table.cell.size() && !repeats && !lane; ++l) {
      if (table.freeFor(l, wanted)) lane = l;
    }
    if (!repeats && !lane) {
      table.addLane();
      // A new lane is free everywhere unless the piece alone fills it twice (handled below).
      lane = table.cell.size() - 1;
    }
    if (lane) {
      for (const std::int64_t column : wanted) {
        table.cell[*lane][static_cast<std::size_t>(column)] = static_cast<std::int64_t>(p);
      }
      continue;
    }
    for (const std::int64_t column : wanted) {
      std::size_t l = 0;
      while (l < table.cell.size() && table.cell[l][static_cast<std::size_t>(column)] != -1) ++l;
      if (l == table.cell.size()) table.addLane();
      table.cell[l][static_cast<std::size_t>(column)] = static_cast<std::int64_t>(p);
    }
  }
  return table;
}

// The folded bars for the aggregated picture: each piece's columns as bars on [0, columns).
GanttGroup foldedGroup(const Resource& resource, const std::vector<TablePiece>& pieces) {
  GanttGroup group;
  group.name = resource.name;
  group.hasCapacity = resource.capacity.has_value();
  group.capacityRows = resource.capacity.value_or(0);
  for (const auto& piece : pieces) {
    for (const std::int64_t column : piece.columns)
      group.bars.push_back({column, column + 1, 1, 0, {}, {}});
  }
  return group;
}

// Every unit an op holds, one piece per unit and block, with the columns (cycles modulo the
// table's width) it holds it at.
struct ReservedPieces {
  std::vector<std::vector<TablePiece>> ofResource;
  std::int64_t unreserved = 0;  // ops that reserve no resource
  std::int64_t cells = 0;       // unit-cycles held
};

ReservedPieces collectPieces(const Graph& graph, const Machine& machine, const Schedule& schedule,
                             std::int64_t columns) {
  ReservedPieces reserved;
  reserved.ofResource.resize(machine.resources.size());
  for (OpId op = 0; op < graph.numOps(); ++op) {
    const Cycle start = schedule.start[static_cast<std::size_t>(op)];
    const auto blocks = graph.reservation(op);
    if (blocks.empty()) ++reserved.unreserved;
    for (const ReservationBlock& block : blocks) {
      for (std::int32_t unit = 0; unit < block.units; ++unit) {
        TablePiece piece;
        piece.op = op;
        piece.firstCycle = start + block.begin;
        for (std::int32_t c = 0; c < block.length; ++c) {
          piece.columns.push_back((start + block.begin + c) % columns);
        }
        reserved.cells += block.length;
        reserved.ofResource[static_cast<std::size_t>(block.resource)].push_back(std::move(piece));
      }
    }
  }
  return reserved;
}

// Where a lane of a table is drawn.
struct LaneFrame {
  double left = 0.0;  // of column 0
  double top = 0.0;
  double columnWidth = 0.0;
  double rowHeight = 0.0;
};

// The boxes of one lane: runs of consecutive columns held by the same piece become one box,
// coloured by stage (modulo tables) or by the scene's colour of the op.
void drawLaneBoxes(SvgDocument& svg, const ScheduleScene& scene, const Graph& graph,
                   const Schedule& schedule, const Resource& resource,
                   const std::vector<std::int64_t>& laneCells,
                   const std::vector<TablePiece>& pieces, const LaneFrame& at) {
  const auto columns = static_cast<std::int64_t>(laneCells.size());
  for (std::int64_t column = 0; column < columns;) {
    const std::int64_t piece = laneCells[static_cast<std::size_t>(column)];
    std::int64_t end = column + 1;
    while (end < columns && piece != -1 && laneCells[static_cast<std::size_t>(end)] == piece) ++end;
    if (piece != -1) {
      const OpId op = pieces[static_cast<std::size_t>(piece)].op;
      const Cycle start = schedule.start[static_cast<std::size_t>(op)];
      const std::int64_t stage = scene.ii ? start / *scene.ii : 0;
      const std::size_t colour = scene.ii ? static_cast<std::size_t>(stage) : scene.colour(op, 0);
      const double x = at.left + static_cast<double>(column) * at.columnWidth + 1.5;
      const double boxWidth = static_cast<double>(end - column) * at.columnWidth - 3.0;
      svg.beginGroup(fmt::format("{}: start {}, holds {} at cycle{} {}-{}{}",
                                 scene.describeInstance(op, 0), start, resource.name,
                                 end - column == 1 ? "" : "s", column, end - 1,
                                 scene.ii ? " (mod II)" : ""));
      svg.rect(x, at.top + 1.5, boxWidth, at.rowHeight - 3.0, "box", categoryColour(colour));
      const std::string name = fitText(graph.opName(op), boxWidth - 4.0, 11.0);
      if (scene.ii) {
        svg.text(x + boxWidth / 2.0, at.top + 14.0, name, "lbl", TextAnchor::kMiddle);
        svg.text(x + boxWidth / 2.0, at.top + 27.0,
                 fitText(fmt::format("stage {}", stage), boxWidth - 4.0, 9.0), "small",
                 TextAnchor::kMiddle);
      } else {
        svg.text(x + boxWidth / 2.0, at.top + 16.0, name, "lbl", TextAnchor::kMiddle);
      }
      svg.endGroup();
    }
    column = end;
  }
}

// The notes above the table: what its columns are, and the ops it leaves out.
std::vector<std::string> tableNotes(const ScheduleScene& scene, std::int64_t columns,
                                    std::int64_t unreserved) {
  std::vector<std::string> notes;
  if (scene.ii) {
    notes.push_back(fmt::format(
        "II = {}, {} stage{}: columns are cycles modulo II; a cell names the op holding the unit "
        "and its stage (start / II)",
        *scene.ii, scene.stages, scene.stages == 1 ? "" : "s"));
  } else {
    notes.push_back(fmt::format(
        "The schedule has no II: the table shows its one iteration, cycles 0 to {}", columns - 1));
  }
  if (unreserved > 0) {
    notes.push_back(fmt::format("{} op{} reserve no resource and are not in the table", unreserved,
                                unreserved == 1 ? "" : "s"));
  }
  return notes;
}

}  // namespace

std::string renderMrt(const Problem& problem, const Schedule& schedule,
                      const PictureOptions& options) {
  const ScheduleScene scene = makeScheduleScene(problem, schedule, options);
  const std::string title = defaultTitle(options, *problem.graph, "modulo reservation table");
  if (!scene.drawable) return undrawablePicture(scene, title);
  const Graph& graph = *problem.graph;
  const Machine& machine = *problem.machine;
  const std::int64_t columns = scene.ii ? *scene.ii : std::max<Cycle>(scene.latency, 1);

  const ReservedPieces reserved = collectPieces(graph, machine, schedule, columns);
  const std::vector<std::vector<TablePiece>>& piecesOf = reserved.ofResource;
  const std::int64_t unreserved = reserved.unreserved;
  const std::int64_t cells = reserved.cells;

  const std::vector<std::string> notes = tableNotes(scene, columns, unreserved);

  // Wide enough for "stage N" under the op's name in modulo tables.
  double columnWidth = scene.ii ? 52.0 : 40.0;
  for (OpId op = 0; op < graph.numOps(); ++op) {
    columnWidth = std::max(columnWidth, estimateTextWidth(graph.opName(op), 11.0) + 10.0);
  }
  columnWidth = std::min(columnWidth, 90.0);
  const bool tooWide = static_cast<double>(columns) * columnWidth > kMaxTableWidth ||
                       static_cast<double>(columns) > kMaxColumns;
  // The aggregated picture: each resource's cells folded into utilization bands.
  const auto aggregated = [&](const std::string& reason) {
    GanttChart chart;
    chart.title = title;
    chart.notes = notes;
    chart.verification = &scene.verification;
    chart.end = columns;
    chart.axisTitle = scene.ii ? "cycle modulo II" : "cycle";
    for (ResourceId r = 0; r < machine.numResources(); ++r) {
      if (!piecesOf[static_cast<std::size_t>(r)].empty()) {
        chart.groups.push_back(foldedGroup(machine.resources[static_cast<std::size_t>(r)],
                                           piecesOf[static_cast<std::size_t>(r)]));
      }
    }
    return drawUtilizationBands(chart, options, reason);
  };
  if (tooWide || cells > options.maxBoxes) {
    return aggregated(
        fmt::format("Aggregated: {} columns by {} occupied cells are too many to name one by one.",
                    columns, cells));
  }

  // Tables and their row labels.
  std::vector<ResourceTable> tables;
  std::vector<ResourceId> shownResources;
  double labelColumn = 70.0;
  for (ResourceId r = 0; r < machine.numResources(); ++r) {
    const auto& pieces = piecesOf[static_cast<std::size_t>(r)];
    if (pieces.empty()) continue;
    ResourceTable table = placePieces(pieces, columns);
    const std::int32_t capacity =
        machine.resources[static_cast<std::size_t>(r)].capacity.value_or(0);
    while (static_cast<std::int32_t>(table.cell.size()) < std::min(capacity, 32)) table.addLane();
    labelColumn = std::max(
        labelColumn,
        estimateTextWidth(machine.resources[static_cast<std::size_t>(r)].name, 11.0) + 50.0);
    tables.push_back(std::move(table));
    shownResources.push_back(r);
  }

  const double rowHeight = scene.ii ? 34.0 : 24.0;
  const double left = kMargin + labelColumn;
  const double tableWidth = static_cast<double>(columns) * columnWidth;
  const double width = std::max(left + tableWidth + kMargin,
                                2 * kMargin + headerWidth(title, notes, &scene.verification));
  SvgDocument svg(width, 0.0);
  double y = drawHeader(svg, kMargin, 0.0, title, notes, &scene.verification);

  // Column numbers.
  const auto every = static_cast<std::int64_t>(std::ceil(28.0 / columnWidth));
  for (std::int64_t column = 0; column < columns; column += every) {
    svg.text(left + (static_cast<double>(column) + 0.5) * columnWidth, y + 12.0,
             fmt::format("{}", column), "axis", TextAnchor::kMiddle);
  }
  y += 18.0;

  std::vector<LegendEntry> legend;
  if (scene.ii) {
    for (std::int32_t stage = 0; stage < scene.stages; ++stage) {
      legend.push_back({fmt::format("stage {}", stage),
                        std::string(categoryColour(static_cast<std::size_t>(stage))),
                        {}});
    }
  } else {
    legend = scene.legend;
  }

  for (std::size_t t = 0; t < tables.size(); ++t) {
    const Resource& resource = machine.resources[static_cast<std::size_t>(shownResources[t])];
    const ResourceTable& table = tables[t];
    const auto& pieces = piecesOf[static_cast<std::size_t>(shownResources[t])];
    for (std::size_t lane = 0; lane < table.cell.size(); ++lane) {
      const double top = y + static_cast<double>(lane) * rowHeight;
      const bool over = resource.capacity && static_cast<std::int32_t>(lane) >= *resource.capacity;
      const std::string label =
          table.cell.size() == 1 ? resource.name : fmt::format("{} {}", resource.name, lane);
      svg.text(kMargin, top + rowHeight / 2.0 + 4.0, over ? label + " (over)" : label,
               over ? "over" : "rowlbl", TextAnchor::kStart,
               over ? fmt::format("more units of {} in use than its capacity {}", resource.name,
                                  *resource.capacity)
                    : std::string());
      for (std::int64_t column = 0; column < columns; ++column) {
        svg.rect(left + static_cast<double>(column) * columnWidth, top, columnWidth, rowHeight,
                 "cell");
      }
      drawLaneBoxes(svg, scene, graph, schedule, resource, table.cell[lane], pieces,
                    {left, top, columnWidth, rowHeight});
    }
    y += static_cast<double>(table.cell.size()) * rowHeight + 8.0;
  }
  y += 6.0;
  const double legendHeight = drawLegend(svg, kMargin, y, width - 2 * kMargin, legend);
  svg.setHeight(y + legendHeight + kMargin);
  std::string picture = svg.finish();
  if (picture.size() <= options.maxBytes) return picture;
  return aggregated(fmt::format("Aggregated: the table would exceed {} bytes.", options.maxBytes));
}

}  // namespace gaus::report
