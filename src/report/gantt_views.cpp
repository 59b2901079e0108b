// The units and warps views: a schedule as a Gantt chart with one row per resource unit, or one
// row group per warp role, for one iteration of an acyclic schedule or a few consecutive
// iterations of a modulo schedule (iteration k starts k * II cycles after iteration 0).

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include <gaus/core/enum_names.hpp>
#include <gaus/report/pictures.hpp>

#include "gantt_chart.hpp"
#include "schedule_scene.hpp"

namespace gaus::report {

namespace {

// Op instances that take part in the picture, in a size the SVG can hold: every op of every
// iteration drawn.
template <typename Visit>
void forEachInstance(const ScheduleScene& scene, Visit&& visit) {
  for (std::int32_t iteration = 0; iteration < scene.iterations; ++iteration) {
    const Cycle offset = scene.ii ? static_cast<Cycle>(iteration) * *scene.ii : 0;
    for (OpId op = 0; op < scene.graph->numOps(); ++op) {
      visit(op, iteration, scene.schedule->start[static_cast<std::size_t>(op)] + offset);
    }
  }
}

GanttChart chartFrame(const ScheduleScene& scene, std::string title) {
  GanttChart chart;
  chart.title = std::move(title);
  chart.verification = &scene.verification;
  chart.end = scene.latency + (scene.ii ? static_cast<Cycle>(scene.iterations - 1) * *scene.ii : 0);
  chart.legend = scene.legend;
  if (scene.ii) {
    chart.modulo = ModuloMarks{*scene.ii, scene.iterations, scene.stages};
    chart.legend.push_back({"every II (stage boundary)", {}, "iiline"});
    if (scene.iterations >= scene.stages) {
      chart.legend.push_back(
          {fmt::format("steady state: {} iterations overlap", scene.stages), "#fff3c4", {}});
    }
  }
  return chart;
}

std::string capacityText(const Resource& resource) {
  if (!resource.capacity) return fmt::format("{}: unlimited units", resource.name);
  return fmt::format("{}: {} unit{}", resource.name, *resource.capacity,
                     *resource.capacity == 1 ? "" : "s");
}

}  // namespace

std::string renderUnits(const Problem& problem, const Schedule& schedule,
                        const PictureOptions& options) {
  const ScheduleScene scene = makeScheduleScene(problem, schedule, options);
  const std::string title = defaultTitle(options, *problem.graph, "units view");
  if (!scene.drawable) return undrawablePicture(scene, title);
  const Graph& graph = *problem.graph;
  const Machine& machine = *problem.machine;

  GanttChart chart = chartFrame(scene, title);
  chart.notes.push_back(scene.describeSchedule() + "; one row per resource unit");
  std::vector<GanttGroup> byResource(machine.resources.size());
  for (ResourceId r = 0; r < machine.numResources(); ++r) {
    const Resource& resource = machine.resources[static_cast<std::size_t>(r)];
    GanttGroup& group = byResource[static_cast<std::size_t>(r)];
    group.name = resource.name;
    group.tooltip = capacityText(resource);
    group.hasCapacity = resource.capacity.has_value();
    group.capacityRows = resource.capacity.value_or(0);
  }
  GanttGroup unreserved;
  unreserved.name = "(no resource)";
  unreserved.tooltip = "ops that reserve no resource unit, from start to start + duration";

  forEachInstance(scene, [&](OpId op, std::int32_t iteration, Cycle start) {
    const std::string what = scene.describeInstance(op, iteration);
    const auto blocks = graph.reservation(op);
    if (blocks.empty()) {
      unreserved.bars.push_back(
          {start, start + graph.duration(op), 1, scene.colour(op, iteration), graph.opName(op),
           fmt::format("{}: start {}, done at {}", what, start, start + graph.duration(op))});
      return;
    }
    for (const ReservationBlock& block : blocks) {
      const Cycle begin = start + block.begin;
      byResource[static_cast<std::size_t>(block.resource)].bars.push_back(
          {begin, begin + block.length, block.units, scene.colour(op, iteration), graph.opName(op),
           fmt::format("{}: start {}; holds {} unit{} of {} in cycles {}-{}", what, start,
                       block.units, block.units == 1 ? "" : "s",
                       machine.resources[static_cast<std::size_t>(block.resource)].name, begin,
                       begin + block.length - 1)});
    }
  });
  for (auto& group : byResource) {
    if (!group.bars.empty()) chart.groups.push_back(std::move(group));
  }
  if (!unreserved.bars.empty()) chart.groups.push_back(std::move(unreserved));
  return drawGanttChart(chart, options);
}

std::string renderWarps(const Problem& problem, const Schedule& schedule,
                        const PictureOptions& options) {
  const ScheduleScene scene = makeScheduleScene(problem, schedule, options);
  const std::string title = defaultTitle(options, *problem.graph, "warps view");
  if (!scene.drawable) return undrawablePicture(scene, title);
  const Graph& graph = *problem.graph;
  const Machine& machine = *problem.machine;

  GanttChart chart = chartFrame(scene, title);
  if (!schedule.warps) {
    chart.notes.push_back(scene.describeSchedule());
    chart.notes.push_back(
        "The schedule assigns no warps: every op is drawn in one row group, concurrent ops on "
        "separate rows.");
    GanttGroup all;
    all.name = "all ops";
    all.numberRows = false;
    forEachInstance(scene, [&](OpId op, std::int32_t iteration, Cycle start) {
      all.bars.push_back(
          {start, start + graph.duration(op), 1, scene.colour(op, iteration), graph.opName(op),
           fmt::format("{}: start {}, done at {}", scene.describeInstance(op, iteration), start,
                       start + graph.duration(op))});
    });
    chart.groups.push_back(std::move(all));
    return drawGanttChart(chart, options);
  }

  chart.notes.push_back(scene.describeSchedule() +
                        "; one row group per warp, ops that overlap on a warp on separate rows");
  const auto& warps = *schedule.warps;
  std::int32_t warpCount = machine.warps;
  for (const WarpSet set : warps) {
    for (std::int32_t w = 0; w < kMaxWarps; ++w) {
      if ((set >> w) & 1U) warpCount = std::max(warpCount, w + 1);
    }
  }
  std::vector<GanttGroup> groups(static_cast<std::size_t>(warpCount));
  forEachInstance(scene, [&](OpId op, std::int32_t iteration, Cycle start) {
    const WarpSet set = warps[static_cast<std::size_t>(op)];
    for (std::int32_t w = 0; w < warpCount; ++w) {
      if (((set >> w) & 1U) == 0) continue;
      groups[static_cast<std::size_t>(w)].bars.push_back(
          {start, start + graph.duration(op), 1, scene.colour(op, iteration), graph.opName(op),
           fmt::format("{}: start {}, done at {}, on warps {}",
                       scene.describeInstance(op, iteration), start, start + graph.duration(op),
                       formatWarpSet(set))});
    }
  });
  for (std::int32_t w = 0; w < warpCount; ++w) {
    GanttGroup& group = groups[static_cast<std::size_t>(w)];
    // The role: the kinds of op the warp runs (op names when the graph has no kinds).
    std::map<std::string, std::int64_t> roles;
    for (OpId op = 0; op < graph.numOps(); ++op) {
      if ((warps[static_cast<std::size_t>(op)] >> w) & 1U) {
        const std::string_view kind = graph.opKind(op);
        ++roles[kind.empty() ? graph.opName(op) : std::string(kind)];
      }
    }
    std::string role;
    for (const auto& [name, count] : roles) role += (role.empty() ? "" : ", ") + name;
    const bool variableLatency = machine.variableLatencyWarp && *machine.variableLatencyWarp == w;
    const std::string warpName = fmt::format("warp {}{}", w, variableLatency ? " (VL)" : "");
    // The row label names the role; a long list of kinds is shortened there and given whole
    // in the tooltip.
    group.name = fmt::format("{}: {}", warpName,
                             role.empty() ? std::string("idle") : fitText(role, 190.0, 11.0));
    group.tooltip = fmt::format(
        "{}{}: {}{}", warpName, variableLatency ? ", the variable-latency warp" : "",
        role.empty() ? "idle" : role, w >= machine.warps ? " (beyond the machine's warps)" : "");
    group.numberRows = false;
    chart.groups.push_back(std::move(group));
  }
  return drawGanttChart(chart, options);
}

std::string renderSchedule(ScheduleView view, const Problem& problem, const Schedule& schedule,
                           const PictureOptions& options) {
  switch (view) {
    case ScheduleView::kUnits:
      return renderUnits(problem, schedule, options);
    case ScheduleView::kWarps:
      return renderWarps(problem, schedule, options);
    case ScheduleView::kMrt:
      return renderMrt(problem, schedule, options);
    case ScheduleView::kGraph:
      return renderGraph(*problem.graph, options);
  }
  return renderUnits(problem, schedule, options);
}

// The views as --view names them.
constexpr auto kScheduleViewNames = makeEnumNames<ScheduleView>({
    {ScheduleView::kUnits, "units"},
    {ScheduleView::kWarps, "warps"},
    {ScheduleView::kMrt, "mrt"},
    {ScheduleView::kGraph, "graph"},
});

std::string_view toString(ScheduleView view) {
  return kScheduleViewNames.name(view);
}

std::optional<ScheduleView> parseScheduleView(std::string_view name) {
  return kScheduleViewNames.parse(name);
}

}  // namespace gaus::report
