// gaus schedule GRAPH --method NAME: runs one method of the catalog, verifies the schedule and
// prints the result; gaus methods: lists the methods and their options. The flags and the run
// are shared with `gaus twill`, which is this command with the method fixed.

#include <algorithm>
#include <iostream>
#include <numeric>
#include <unistd.h>

#include <fmt/format.h>

#include <gaus/core/memory_limit.hpp>
#include <gaus/methods/method_catalog.hpp>
#include <gaus/methods/run_method.hpp>
#include <gaus/report/result_json.hpp>

#include "command.hpp"

namespace gaus::cli {

void MethodRunFlags::addTo(CLI::App& command, bool withMethod) {
  command
      .add_option("graph", graph, "Input graph, or a built-in kernel name (FILE#N picks one loop)")
      ->required();
  if (withMethod) {
    command.add_option("-m,--method", method, "Method (gaus methods lists them)")->required();
  }
  input.addTo(command);
  command.add_option("--kind", kind,
                     "Problem: latency, latency-bounded, modulo, modulo-warp or stages (default: "
                     "modulo when the graph has loop-carried edges or --ii is given, "
                     "latency-bounded with --horizon, else latency; stages is never inferred)");
  command.add_option("--ii", ii, "Fixed initiation interval (modulo)");
  command.add_option("--horizon", horizon,
                     "Horizon D: every op completes by D (--kind stages: D stages, 0..D-1)");
  command.add_option(
      "--objective", objective,
      "What to minimize: default (the method's own), latency (latency problems), ii (modulo), "
      "peak_memory (latency-bounded: peak live memory, GauS formulation B) or stage_cost "
      "(latency-bounded or stages: peak stage weight, formulation A). A method that optimizes "
      "refuses an objective it cannot minimize, naming those that can; a heuristic without one "
      "(list, ims, ...) schedules as always and reports the figures (docs/formats.md)");
  command.add_option("--ratio", ratio,
                     "--kind stages: objective = RATIO x peak stage weight + crossings "
                     "(default 100, GS-Schedule's)");
  command.add_option("--time-limit", timeLimit,
                     "Seconds for the whole command, counted from its start (-O time_limit "
                     "gives the method its own budget instead)");
  command.add_option("--memory-limit", memoryLimit,
                     "Refuse a model estimated above this many bytes before building it, e.g. "
                     "8G (-O memory_limit; default 90 % of physical memory)");
  command.add_option("--seed", seed, "Random seed (-O seed)");
  command.add_option("--device", device, "cpu, cuda or auto (-O device)");
  command.add_option("--formulation", formulation,
                     "GauS formulation: A, B, C or L (-O formulation)");
  command.add_option("--warps", warps, "Warps (warp groups) available (-O warps)");
  command.add_option("--max-ii", maxIi, "Largest II tried (-O max_ii)");
  command.add_flag("--explain", explain, "Say what binds II and why ops were split (-O explain)");
  command.add_option("-O,--option", options,
                     "Method option KEY=VALUE (repeatable; beats the flags above)");
  command.add_option("--init", init, "A schedule (JSON) for methods that improve a start");
  command.add_option("-o,--output", output, "Write the verified schedule here (JSON)");
  command.add_flag("--json", json, "Print JSON instead of a summary");
  command.add_flag("--progress", progress, "Show progress lines even when piped");
  command.add_flag("-q,--quiet", quiet, "No progress lines");
}

Settings MethodRunFlags::settings() const {
  // --time-limit is not among them: it is the run's deadline (InstanceRunRequest::deadline).
  Settings settings;
  if (!memoryLimit.empty()) {
    const auto bytes = parseByteSize(memoryLimit);
    if (!bytes) throw CommandError("--memory-limit: " + bytes.error());
    settings["memory_limit"] = *bytes;
  }
  if (seed) settings["seed"] = static_cast<std::int64_t>(*seed);
  if (device) settings["device"] = *device;
  if (formulation) settings["formulation"] = *formulation;
  if (warps) settings["warps"] = std::int64_t{*warps};
  if (maxIi) settings["max_ii"] = std::int64_t{*maxIi};
  if (explain) settings["explain"] = true;
  return settings;
}

MethodOptions MethodRunFlags::methodOptions() const {
  auto parsed = option_text::parseAssignments(options, "-O");
  if (!parsed) throw CommandError(parsed.error());
  return std::move(parsed).value();
}

namespace {

// The flag spelling of a setting, for the note that a method ignores it.
std::string flagOf(const std::string& setting) {
  std::string flag = "--" + setting;
  std::replace(flag.begin(), flag.end(), '_', '-');
  return flag;
}

}  // namespace

MethodRun runMethodCommand(const MethodRunFlags& flags) {
  // --time-limit bounds the command, as a user waits for it: loading the engine (LibTorch takes
  // about 0.75 s), reading the input and posing the problem come out of it (docs/benchmarks.md,
  // "Limits that hold"). -O time_limit gives the method its own budget instead.
  InstanceRunRequest request;
  request.deadline = Deadline(flags.timeLimit);
  MethodRun run;
  run.instance = loadInstance(flags.graph, flags.input);
  request.method = {flags.method, flags.methodOptions(), flags.settings()};
  request.kind = flags.kind;
  request.horizon = flags.horizon;
  request.ii = flags.ii;
  request.ratio = flags.ratio;
  request.objective = flags.objective;
  auto prepared = prepareInstanceRun(methodCatalog(), run.instance, request);
  if (!prepared) throw CommandError(prepared.error());
  if (!flags.quiet) {
    // Said before the run starts, so that a long run does not hide them.
    for (const auto& ignored : prepared->call.ignoredSettings) {
      std::cerr << fmt::format("note: {} does not apply to method {} (ignored)\n", flagOf(ignored),
                               flags.method);
    }
  }
  RunContext context;
  std::optional<Schedule> start;
  if (!flags.init.empty()) {
    auto read = io::readSchedule(flags.init, *run.instance.graph);
    if (!read) throw CommandError(read.error());
    start = std::move(read).value();
    context.initialSchedule = &*start;
  }
  if (!flags.strategy.empty()) {
    auto read = io::readWarpStrategy(flags.strategy, *run.instance.graph, *run.instance.machine);
    if (!read) throw CommandError(read.error());
    run.strategy = std::make_shared<const WarpStrategy>(std::move(read).value());
    context.warpStrategy = run.strategy.get();
  }
  if (!flags.quiet && (flags.progress || isatty(STDERR_FILENO) != 0)) {
    context.progress = [](std::string_view line) { std::cerr << line << '\n'; };
  }
  InstanceRun ran = runPrepared(*prepared, context);
  run.kind = ran.kind;
  run.result = std::move(ran.result);
  run.method = prepared->call.method;
  // Said only when the method ran out of what was left: otherwise the seconds spent loading
  // changed nothing.
  const std::optional<double> methodLimit = ran.methodLimit;
  if (methodLimit && run.result.status == ModelStatus::kTimeout && !flags.quiet &&
      *flags.timeLimit - *methodLimit >= 0.1) {
    std::cerr << fmt::format(
        "note: --time-limit counts from the command's start: {:.2f}s went to loading the "
        "method and the input, {:.2f}s were left for it (-O time_limit=S gives the method S "
        "seconds of its own)\n",
        *flags.timeLimit - *methodLimit, *methodLimit);
  }

  if (!flags.output.empty() && run.result.schedule && run.result.verified()) {
    writeOutput(flags.output, io::formatSchedule(*run.instance.graph, *run.result.schedule));
  }
  const bool failed = run.result.failed() || (run.result.schedule && !run.result.verified()) ||
                      run.result.status == ModelStatus::kInfeasible;
  if (failed) exitCode() = kExitFailure;
  return run;
}

namespace {

// Ops whose start times the summary lists; a large graph's schedule is read from -o or --json.
constexpr std::size_t kShownStarts = 40;

void runSchedule(const MethodRunFlags& flags) {
  const MethodRun run = runMethodCommand(flags);
  if (flags.json) {
    const nlohmann::json json =
        report::methodRunToJson(run.instance, run.result, {flags.method, run.kind, {}, false});
    std::cout << json.dump(2) << '\n';
    return;
  }
  std::cout << fmt::format("method {} ({} problem)\n", flags.method, toString(run.kind))
            << describeResult(run.instance, run.result) << '\n';
  if (run.result.schedule && run.result.verified()) {
    const Graph& graph = *run.instance.graph;
    std::vector<OpId> ops(static_cast<std::size_t>(graph.numOps()));
    std::iota(ops.begin(), ops.end(), OpId{0});
    const bool stages = run.kind == ProblemKind::kStages;
    std::cout << (stages ? "stage per op:\n" : "start times:\n")
              << describeStartTimes(graph, *run.result.schedule, std::move(ops), kShownStarts,
                                    stages);
  }
  if (!flags.output.empty() && run.result.verified()) {
    std::cout << fmt::format("schedule written to {}\n", flags.output);
  }
}

void runMethods(bool json) {
  const MethodRegistry& catalog = methodCatalog();
  if (json) {
    std::cout << report::methodsToJson(catalog).dump(2) << '\n';
    return;
  }
  for (const auto& name : catalog.names()) {
    const MethodInfo& method = *catalog.find(name);
    std::vector<std::string_view> kinds;
    for (ProblemKind kind : method.kinds) kinds.push_back(toString(kind));
    std::cout << fmt::format("{}: {}\n  kinds: {}\n", name, method.summary,
                             option_text::listChoices(kinds, ", "));
    // The figures by name only: `--json` has their units and docs.
    std::vector<std::string_view> figures;
    for (const auto& figure : method.figures) figures.push_back(figure.name);
    if (!figures.empty()) {
      std::cout << fmt::format("  figures: {}\n", option_text::listChoices(figures, ", "));
    }
    for (const auto& option : method.options) {
      const std::string type = option.choices.empty() ? option.type
                                                      : fmt::format("{}: {}", option.type,
                                                                    fmt::join(option.choices, "|"));
      const std::string value =
          option.defaultRule.empty()
              ? option.defaultValue
              : fmt::format("{} ({} here)", option.defaultRule, option.defaultValue);
      std::cout << fmt::format(
          "  -O {}={}  ({}{}) {}\n", option.name, value, type,
          option.range.describe().empty() ? "" : ", " + option.range.describe(),
          option.description);
    }
  }
}

}  // namespace

void addScheduleCommand(CLI::App& app) {
  auto flags = std::make_shared<MethodRunFlags>();
  CLI::App* command = app.add_subcommand(
      "schedule", "Schedule a graph with one method; the result is verified before it is shown");
  flags->addTo(*command, true);
  command->callback([flags] { runSchedule(*flags); });

  auto json = std::make_shared<bool>(false);
  CLI::App* methods =
      app.add_subcommand("methods", "List the methods, their problems, options and figures");
  methods->add_flag("--json", *json, "Print every method's options and figures as JSON");
  methods->callback([json] { runMethods(*json); });
}

}  // namespace gaus::cli
