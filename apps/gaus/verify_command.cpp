// gaus verify GRAPH SCHEDULE: the independent verifier on a schedule file.

#include <iostream>

#include <fmt/format.h>

#include <gaus/core/problem_kinds.hpp>
#include <gaus/core/verify.hpp>
#include <gaus/report/pictures.hpp>
#include <gaus/report/result_json.hpp>

#include "command.hpp"

namespace gaus::cli {

namespace {

struct VerifyFlags {
  std::string graph;
  std::string schedule;
  InputFlags input;
  std::optional<Cycle> horizon;
  bool stages = false;
  std::size_t maxMessages = 20;
  bool json = false;
};

void runVerify(const VerifyFlags& flags) {
  const Instance instance = loadInstance(flags.graph, flags.input);
  auto schedule = io::readSchedule(flags.schedule, *instance.graph);
  if (!schedule) throw CommandError(schedule.error());
  // The problem kind follows from what the schedule carries, as for the pictures.
  const auto answered = answeredProblem(
      instance, *schedule,
      {flags.stages ? std::optional(ProblemKind::kStages) : std::nullopt, flags.horizon, {}});
  if (!answered) throw CommandError(fmt::format("{}: {}", flags.graph, answered.error()));
  const Problem& problem = *answered;
  const ProblemKind kind = problem.kind;
  VerifyOptions options;
  options.maxMessages = flags.maxMessages;
  const VerificationReport report = verify(problem, *schedule, options);
  if (flags.json) {
    nlohmann::json json = report::verificationToJson(*instance.machine, report);
    json["instance"] = instance.name;
    json["schedule"] = flags.schedule;
    json["kind"] = std::string(toString(kind));
    json["ii"] = schedule->ii ? nlohmann::json(*schedule->ii) : nlohmann::json(nullptr);
    std::cout << json.dump(2) << '\n';
  } else if (report.ok()) {
    std::cout << fmt::format("{}: schedule {} verified ({} problem)\n", instance.name,
                             flags.schedule, toString(kind));
    if (schedule->ii) std::cout << fmt::format("II {}, ", *schedule->ii);
    std::cout << describeMetrics(*instance.machine, report.metrics) << '\n';
    if (report.uncheckedLoopCarriedEdges > 0) {
      std::cout << fmt::format("{}: {}\n", kUncheckedLoopCarriedTitle,
                               report.uncheckedLoopCarriedNote());
    }
    std::cout << "verified: true\n";
  } else {
    std::cout << fmt::format("{}: schedule {} has {} violation(s)\n{}\nverified: false\n",
                             instance.name, flags.schedule, report.totalViolations,
                             report.summary());
  }
  if (!report.ok()) exitCode() = kExitFailure;
}

}  // namespace

void addVerifyCommand(CLI::App& app) {
  auto flags = std::make_shared<VerifyFlags>();
  CLI::App* command =
      app.add_subcommand("verify", "Check a schedule against a graph with the verifier");
  command->add_option("graph", flags->graph, "Input graph")->required();
  command->add_option("schedule", flags->schedule, "Schedule JSON (gaus-schedule-0.1)")->required();
  flags->input.addTo(*command);
  command->add_option("--horizon", flags->horizon, "Also check that every op completes by D");
  command->add_flag("--stages", flags->stages,
                    "Check a stage schedule (--kind stages): D = --horizon stages, s_u <= s_v "
                    "on every edge");
  command->add_option("--max-messages", flags->maxMessages,
                      "Violations listed in full (all are counted)");
  command->add_flag("--json", flags->json, "Print JSON instead of a summary");
  command->callback([flags] { runVerify(*flags); });
}

}  // namespace gaus::cli
