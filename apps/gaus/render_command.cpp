// gaus render: pictures as SVG (docs/pictures.md).
//   gaus render GRAPH SCHEDULE --view units|warps|mrt -o x.svg
//   gaus render GRAPH [SCHEDULE] --view graph -o g.svg
//   gaus render --trace TRACE -o convergence.svg

#include <iostream>

#include <fmt/format.h>

#include <gaus/core/problem_kinds.hpp>
#include <gaus/core/verify.hpp>
#include <gaus/report/pictures.hpp>

#include "command.hpp"

namespace gaus::cli {

namespace {

struct RenderFlags {
  std::string graph;
  std::string schedule;
  std::string trace;
  std::string view = "units";
  std::string output;
  InputFlags input;
  std::optional<Cycle> horizon;
  std::optional<std::int32_t> iterations;
  std::string title;
  std::int64_t maxBoxes = report::PictureOptions{}.maxBoxes;
  std::int64_t maxGraphOps = report::PictureOptions{}.maxGraphOps;
  std::size_t maxBytes = report::PictureOptions{}.maxBytes;
  bool json = false;
};

void announce(const RenderFlags& flags, std::string_view what, const std::string& svg,
              std::optional<bool> verified) {
  if (flags.output == "-") return;  // the picture went to stdout
  if (flags.json) {
    nlohmann::json json;
    json["output"] = flags.output;
    json["picture"] = what;
    json["bytes"] = svg.size();
    json["verified"] = verified ? nlohmann::json(*verified) : nlohmann::json(nullptr);
    std::cout << json.dump(2) << '\n';
    return;
  }
  std::cout << fmt::format("wrote {} ({}, {} bytes){}\n", flags.output, what, svg.size(),
                           verified ? fmt::format("; verified: {}", *verified) : std::string());
  if (verified && !*verified) {
    std::cerr << "gaus: warning: the schedule fails verification; the picture says so\n";
  }
}

void runRender(const RenderFlags& flags) {
  report::PictureOptions options;
  options.iterations = flags.iterations;
  options.title = flags.title;
  options.maxBoxes = flags.maxBoxes;
  options.maxGraphOps = flags.maxGraphOps;
  options.maxBytes = flags.maxBytes;

  if (!flags.trace.empty()) {
    if (!flags.graph.empty()) {
      throw CommandError("render --trace draws a trace file alone: leave out GRAPH and SCHEDULE");
    }
    auto trace = report::readConvergenceTrace(flags.trace);
    if (!trace) throw CommandError(trace.error());
    const std::string svg = report::renderConvergence(*trace, options);
    writeOutput(flags.output, svg);
    announce(flags, "convergence", svg, std::nullopt);
    return;
  }
  if (flags.graph.empty())
    throw CommandError("render needs GRAPH (and SCHEDULE), or --trace TRACE");
  const auto view = report::parseScheduleView(flags.view);
  if (!view) {
    throw CommandError(fmt::format("--view '{}': expected units, warps, mrt or graph", flags.view));
  }
  const Instance instance = loadInstance(flags.graph, flags.input);
  if (*view == report::ScheduleView::kGraph) {
    const std::string svg = report::renderGraph(*instance.graph, options);
    writeOutput(flags.output, svg);
    announce(flags, "graph view", svg, std::nullopt);
    return;
  }
  if (flags.schedule.empty()) {
    throw CommandError(
        fmt::format("render --view {} needs a SCHEDULE file after GRAPH (from "
                    "gaus schedule -o or gaus twill -o)",
                    flags.view));
  }
  auto schedule = io::readSchedule(flags.schedule, *instance.graph);
  if (!schedule) throw CommandError(schedule.error());
  const auto answered = answeredProblem(instance, *schedule, {{}, flags.horizon, {}});
  if (!answered) throw CommandError(fmt::format("{}: {}", flags.graph, answered.error()));
  const Problem& problem = *answered;
  const std::string svg = report::renderSchedule(*view, problem, *schedule, options);
  writeOutput(flags.output, svg);
  announce(flags, fmt::format("{} view", flags.view), svg, verify(problem, *schedule).ok());
}

}  // namespace

void addRenderCommand(CLI::App& app) {
  auto flags = std::make_shared<RenderFlags>();
  CLI::App* command = app.add_subcommand(
      "render", "Draw a schedule, a graph or a GauS trace as SVG (docs/pictures.md)");
  command->add_option("graph", flags->graph, "Input graph");
  command->add_option("schedule", flags->schedule,
                      "Schedule JSON (from gaus schedule -o or gaus twill -o)");
  command->add_option("--view", flags->view, "units, warps, mrt or graph")->capture_default_str();
  command->add_option("--trace", flags->trace,
                      "Draw the convergence of a GauS trace file (-O trace=) instead");
  command->add_option("-o,--output", flags->output, "SVG file to write (- for stdout)")->required();
  flags->input.addTo(*command);
  command->add_option("--horizon", flags->horizon,
                      "Check the schedule against horizon D too (latency-bounded problem)");
  command->add_option("--iterations", flags->iterations,
                      "Iterations of a modulo schedule to draw (default: stages + 1, 2 to 5)");
  command->add_option("--title", flags->title, "Title above the picture");
  command
      ->add_option("--max-boxes", flags->maxBoxes,
                   "Above this many boxes the Gantt views draw utilization bands")
      ->capture_default_str();
  command
      ->add_option("--max-graph-ops", flags->maxGraphOps,
                   "Above this many ops the graph view draws ops per level")
      ->capture_default_str();
  command->add_option("--max-bytes", flags->maxBytes, "Size limit of the SVG file")
      ->capture_default_str();
  command->add_flag("--json", flags->json, "Print JSON instead of a summary");
  command->callback([flags] { runRender(*flags); });
}

}  // namespace gaus::cli
