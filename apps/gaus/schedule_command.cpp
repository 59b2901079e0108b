// gaus schedule GRAPH --method NAME: runs one method of the catalog, verifies the schedule and
// prints the result; gaus methods: lists the methods and their options.

#include <algorithm>
#include <iostream>
#include <unistd.h>

#include <fmt/format.h>

#include <gaus/experiment/method_catalog.hpp>

#include "command.hpp"

namespace gaus::cli {

namespace {

struct ScheduleFlags {
  std::string graph;
  std::string method;
  InputFlags input;
  std::string kind;
  std::optional<std::int32_t> ii;
  std::optional<Cycle> horizon;
  std::optional<double> timeLimit;
  std::string device = "auto";
  std::uint64_t seed = 1;
  std::string formulation;
  std::vector<std::string> options;
  std::string output;
  bool json = false;
  bool progress = false;
  bool quiet = false;
};

bool supports(const MethodInfo& method, ProblemKind kind) {
  return std::find(method.kinds.begin(), method.kinds.end(), kind) != method.kinds.end();
}

// The problem kind: --kind when given; otherwise what the other flags imply (--ii: modulo;
// GauS formulations C / A,B: modulo / latency-bounded; --horizon: latency-bounded), falling
// back to the method's first kind.
ProblemKind resolveKind(const ScheduleFlags& flags, const MethodInfo& method) {
  if (!flags.kind.empty()) {
    const auto kind = parseProblemKind(flags.kind);
    if (!kind) {
      throw CommandError(
          fmt::format("--kind '{}': expected latency, latency-bounded, modulo or "
                      "modulo-warp",
                      flags.kind));
    }
    return *kind;
  }
  std::vector<ProblemKind> implied;
  if (flags.ii) implied.push_back(ProblemKind::kModulo);
  if (flags.formulation == "C") implied.push_back(ProblemKind::kModulo);
  if (flags.formulation == "A" || flags.formulation == "B") {
    implied.push_back(ProblemKind::kLatencyBounded);
  }
  if (flags.horizon) implied.push_back(ProblemKind::kLatencyBounded);
  for (ProblemKind kind : implied) {
    if (supports(method, kind)) return kind;
    if (kind == ProblemKind::kModulo && supports(method, ProblemKind::kModuloWarp)) {
      return ProblemKind::kModuloWarp;
    }
  }
  return method.kinds.front();
}

MethodOptions collectOptions(const ScheduleFlags& flags) {
  MethodOptions options;
  for (const auto& setting : flags.options) {
    const auto equals = setting.find('=');
    if (equals == std::string::npos || equals == 0) {
      throw CommandError(fmt::format("-O '{}': expected KEY=VALUE", setting));
    }
    options[setting.substr(0, equals)] = setting.substr(equals + 1);
  }
  if (!flags.formulation.empty()) options["formulation"] = flags.formulation;
  return options;
}

void runSchedule(const ScheduleFlags& flags) {
  const MethodRegistry& catalog = methodCatalog();
  const MethodInfo* method = catalog.find(flags.method);
  if (method == nullptr) {
    std::string known;
    for (const auto& name : catalog.names()) known += (known.empty() ? "" : ", ") + name;
    throw CommandError(fmt::format("unknown method '{}' (known: {})", flags.method, known));
  }
  const Instance instance = loadInstance(flags.graph, flags.input);
  const ProblemKind kind = resolveKind(flags, *method);
  const Problem problem = instance.problem(kind, flags.horizon, flags.ii);

  RunContext context;
  context.timeLimitSeconds = flags.timeLimit;
  context.seed = flags.seed;
  context.device = flags.device;
  const bool showProgress = !flags.quiet && (flags.progress || isatty(STDERR_FILENO) != 0);
  if (showProgress) {
    context.progress = [](std::string_view line) { std::cerr << line << '\n'; };
  }
  const Result result = catalog.run(flags.method, problem, collectOptions(flags), context);

  if (!flags.output.empty() && result.schedule && result.verified()) {
    writeOutput(flags.output, io::formatSchedule(*instance.graph, *result.schedule));
  }
  if (flags.json) {
    nlohmann::json json = resultToJson(instance, result);
    json["method"] = flags.method;
    json["kind"] = std::string(toString(kind));
    std::cout << json.dump(2) << '\n';
  } else {
    std::cout << fmt::format("method {} ({} problem)\n", flags.method, toString(kind))
              << describeResult(instance, result) << '\n';
    if (!flags.output.empty() && result.verified()) {
      std::cout << fmt::format("schedule written to {}\n", flags.output);
    }
  }
  const bool failed = result.status == SolveStatus::kError ||
                      (result.schedule && !result.verified()) ||
                      result.status == SolveStatus::kInfeasible;
  if (failed) exitCode() = kExitFailure;
}

void runMethods() {
  const MethodRegistry& catalog = methodCatalog();
  for (const auto& name : catalog.names()) {
    const MethodInfo& method = *catalog.find(name);
    std::string kinds;
    for (ProblemKind kind : method.kinds) {
      kinds += std::string(kinds.empty() ? "" : ", ") + std::string(toString(kind));
    }
    std::cout << fmt::format("{}: {}\n  problems: {}\n", name, method.summary, kinds);
    for (const auto& option : method.options) {
      std::cout << fmt::format("  -O {}={}  {}\n", option.name, option.defaultValue,
                               option.description);
    }
  }
}

}  // namespace

void addScheduleCommand(CLI::App& app) {
  auto flags = std::make_shared<ScheduleFlags>();
  CLI::App* command = app.add_subcommand(
      "schedule", "Schedule a graph with one method; the result is verified before it is shown");
  command->add_option("graph", flags->graph, "Input graph (FILE#N picks one loop)")->required();
  command->add_option("-m,--method", flags->method, "Method (gaus methods lists them)")->required();
  flags->input.addTo(*command);
  command->add_option("--kind", flags->kind,
                      "Problem: latency, latency-bounded, modulo, modulo-warp (default: implied)");
  command->add_option("--ii", flags->ii, "Fixed initiation interval (modulo)");
  command->add_option("--horizon", flags->horizon, "Horizon D: every op completes by D");
  command->add_option("--time-limit", flags->timeLimit, "Seconds for the whole call");
  command->add_option("--device", flags->device, "cpu, cuda or auto (GauS)")->capture_default_str();
  command->add_option("--seed", flags->seed, "Random seed")->capture_default_str();
  command->add_option("--formulation", flags->formulation, "GauS formulation: A, B, C or L");
  command->add_option("-O,--option", flags->options, "Method option KEY=VALUE (repeatable)");
  command->add_option("-o,--output", flags->output, "Write the verified schedule here (JSON)");
  command->add_flag("--json", flags->json, "Print JSON instead of a summary");
  command->add_flag("--progress", flags->progress, "Show progress lines even when piped");
  command->add_flag("-q,--quiet", flags->quiet, "No progress lines");
  command->callback([flags] { runSchedule(*flags); });

  CLI::App* methods = app.add_subcommand("methods", "List the methods, problems and options");
  methods->callback([] { runMethods(); });
}

}  // namespace gaus::cli
