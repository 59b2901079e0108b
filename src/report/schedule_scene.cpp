// The common start of every schedule view (schedule_scene.hpp).

#include "schedule_scene.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>

namespace gaus::report {

namespace {

constexpr std::int32_t kMinIterations = 2;
constexpr std::int32_t kMaxIterations = 5;

}  // namespace

KindColouring colourOpsByKind(const Graph& graph) {
  KindColouring colouring;
  std::map<std::string, std::int64_t, std::less<>> counts;
  for (OpId op = 0; op < graph.numOps(); ++op) ++counts[std::string(graph.opKind(op))];
  std::vector<std::pair<std::string, std::int64_t>> kinds(counts.begin(), counts.end());
  std::stable_sort(kinds.begin(), kinds.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  const bool everyKindOwn = kinds.size() <= kCategoryColours;
  const std::size_t own = everyKindOwn ? kinds.size() : kCategoryColours - 1;
  std::map<std::string, std::size_t, std::less<>> colourOf;
  for (std::size_t k = 0; k < kinds.size(); ++k) {
    const std::size_t colour = k < own ? k : kCategoryColours - 1;
    colourOf[kinds[k].first] = colour;
    if (k < own) {
      colouring.legend.push_back({kinds[k].first.empty() ? std::string("op") : kinds[k].first,
                                  std::string(categoryColour(colour)),
                                  {}});
    }
  }
  if (!everyKindOwn) {
    colouring.legend.push_back({fmt::format("{} other kinds", kinds.size() - own),
                                std::string(categoryColour(kCategoryColours - 1)),
                                {}});
  }
  colouring.colourOfOp.resize(static_cast<std::size_t>(graph.numOps()));
  for (OpId op = 0; op < graph.numOps(); ++op) {
    colouring.colourOfOp[static_cast<std::size_t>(op)] = colourOf.find(graph.opKind(op))->second;
  }
  return colouring;
}

ScheduleScene makeScheduleScene(const Problem& problem, const Schedule& schedule,
                                const PictureOptions& options) {
  ScheduleScene scene;
  scene.graph = problem.graph.get();
  scene.machine = problem.machine.get();
  scene.schedule = &schedule;
  scene.verification = verify(problem, schedule);
  scene.drawable = scene.verification.count(ConstraintFamily::kShape) == 0;
  if (!scene.drawable) return scene;
  scene.latency = scene.verification.metrics.latency;
  scene.ii = schedule.ii;
  if (scene.ii) {
    scene.stages = std::max<std::int32_t>(scene.verification.metrics.stages.value_or(1), 1);
    scene.iterations =
        options.iterations.value_or(std::clamp(scene.stages + 1, kMinIterations, kMaxIterations));
    scene.iterations = std::max(scene.iterations, 1);
    scene.colourByIteration = true;
    for (std::int32_t k = 0; k < scene.iterations; ++k) {
      scene.legend.push_back({fmt::format("iteration {}", k),
                              std::string(categoryColour(static_cast<std::size_t>(k))),
                              {}});
    }
  } else {
    KindColouring colouring = colourOpsByKind(*scene.graph);
    scene.kindColour = std::move(colouring.colourOfOp);
    scene.legend = std::move(colouring.legend);
  }
  return scene;
}

std::size_t ScheduleScene::colour(OpId op, std::int32_t iteration) const {
  if (colourByIteration) return static_cast<std::size_t>(iteration);
  return kindColour[static_cast<std::size_t>(op)];
}

std::string ScheduleScene::describeInstance(OpId op, std::int32_t iteration) const {
  const std::string_view kind = graph->opKind(op);
  std::string text =
      kind.empty() ? graph->opName(op) : fmt::format("{} ({})", graph->opName(op), kind);
  if (ii) {
    const Cycle start = schedule->start[static_cast<std::size_t>(op)];
    text += fmt::format(", iteration {}, stage {}", iteration, start / *ii);
  }
  return text;
}

std::string ScheduleScene::describeSchedule() const {
  if (ii) {
    return fmt::format("II = {}, latency {} cycles, {} stage{}; {} iterations drawn", *ii, latency,
                       stages, stages == 1 ? "" : "s", iterations);
  }
  return fmt::format("latency {} cycles, {} ops", latency, graph->numOps());
}

std::string undrawablePicture(const ScheduleScene& scene, const std::string& title) {
  const std::vector<std::string> notes = {
      "The schedule cannot be drawn: it does not give one start >= 0 per op of the graph."};
  const double width = 24.0 + headerWidth(title, notes, &scene.verification);
  SvgDocument svg(width, headerHeight(notes, true) + 12.0);
  drawHeader(svg, 12.0, 0.0, title, notes, &scene.verification);
  return svg.finish();
}

std::string defaultTitle(const PictureOptions& options, const Graph& graph, std::string_view view) {
  if (!options.title.empty()) return options.title;
  return fmt::format("{}: {}", graph.name().empty() ? std::string("graph") : graph.name(), view);
}

}  // namespace gaus::report
