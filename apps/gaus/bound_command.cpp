// gaus bound GRAPH --horizon D --objective peak_memory: a lower bound on the problem's objective,
// with the whole time limit spent on it, and the argument that gave it.

#include <iostream>
#include <unistd.h>

#include <fmt/format.h>

#include <gaus/core/analysis.hpp>
#include <gaus/core/deadline.hpp>
#include <gaus/live_memory/bound.hpp>

#include "command.hpp"

namespace gaus::cli {

namespace {

struct BoundFlags {
  std::string graph;
  InputFlags input;
  std::optional<Cycle> horizon;
  std::string objective;
  double timeLimit = 60.0;
  std::vector<std::string> known;  // schedules of the problem (--init), to stop at their peak
  bool json = false;
  bool progress = false;
  bool quiet = false;
};

void runBound(const BoundFlags& flags) {
  const std::string objective = flags.objective.empty() ? "peak_memory" : flags.objective;
  if (objective != "peak_memory") {
    throw CommandError(fmt::format(
        "--objective {}: gaus bound searches a bound on peak_memory only (the peak live memory "
        "under --horizon); the latency's and the II's bounds are in `gaus info` and in every "
        "method's result",
        objective));
  }
  if (!flags.horizon) {
    throw CommandError(
        "--objective peak_memory needs --horizon D: the peak live memory is bounded under a "
        "horizon (gaus schedule G --method list prints the list schedule's latency, a D that "
        "fits)");
  }
  const Instance instance = loadInstance(flags.graph, flags.input);
  const Graph& graph = *instance.graph;
  if (!hasLiveMemory(graph)) {
    throw CommandError(
        fmt::format("{}: no op has a mem, so every schedule's peak live memory "
                    "is 0",
                    flags.graph));
  }
  std::vector<Schedule> schedules;
  for (const std::string& path : flags.known) {
    auto schedule = io::readSchedule(path, graph);
    if (!schedule) throw CommandError(schedule.error());
    schedules.push_back(std::move(schedule).value());
  }
  std::vector<const Schedule*> known;
  for (const Schedule& schedule : schedules) known.push_back(&schedule);
  std::function<void(std::string_view)> progress;
  if (!flags.quiet && (flags.progress || isatty(STDERR_FILENO) != 0)) {
    progress = [](std::string_view line) { std::cerr << "gaus: " << line << '\n'; };
  }
  const Deadline deadline = Deadline::zeroMeansNone(flags.timeLimit);
  auto bound = live_memory::peakMemoryBound(graph, *flags.horizon, deadline, nullptr, known, progress);
  if (!bound) throw CommandError(fmt::format("{}: {}", flags.graph, bound.error()));
  if (flags.json) {
    nlohmann::json json;
    json["instance"] = instance.name;
    json["objective"] = objective;
    json["horizon"] = *flags.horizon;
    json["lower_bound"] = bound->value;
    json["argument"] = bound->argument;
    json["arguments"] = {{"min_cut", bound->cut},
                         {"lagrangian", bound->lagrangian ? nlohmann::json(*bound->lagrangian)
                                                          : nlohmann::json(nullptr)}};
    json["complete"] = bound->complete;
    json["seconds"] = deadline.elapsedSeconds();
    json["note"] = bound->note;
    std::cout << json.dump(2) << '\n';
    return;
  }
  std::cout << fmt::format("{}: peak memory at D = {} is at least {} ({}){}\n", instance.name,
                           *flags.horizon, bound->value, bound->argument,
                           bound->complete ? "" : "; the time limit stopped the search");
  std::cout << "bound: " << bound->note << '\n';
}

}  // namespace

void addBoundCommand(CLI::App& app) {
  auto flags = std::make_shared<BoundFlags>();
  CLI::App* command = app.add_subcommand(
      "bound",
      "A lower bound on the peak live memory under a horizon, the whole time limit spent on "
      "it: the per-cycle min cut, then the Lagrangian bound over windows of cycles");
  command->add_option("graph", flags->graph, "Input graph")->required();
  flags->input.addTo(*command);
  command->add_option("--horizon", flags->horizon, "Horizon D: every op completes by D");
  command->add_option("--objective", flags->objective, "What to bound: peak_memory (the default)");
  command->add_option("--time-limit", flags->timeLimit, "Seconds for the search (0: none)")
      ->capture_default_str();
  command->add_option("--init", flags->known,
                      "A schedule of the problem (JSON, repeatable): the search stops at its "
                      "peak and skips windows it keeps low");
  command->add_flag("--json", flags->json, "Print JSON instead of a summary");
  command->add_flag("--progress", flags->progress, "Show progress lines even when piped");
  command->add_flag("-q,--quiet", flags->quiet, "No progress lines");
  command->callback([flags] { runBound(*flags); });
}

}  // namespace gaus::cli
