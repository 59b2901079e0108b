// gaus twill GRAPH|KERNEL: joint software pipelining and warp specialization (the exact engine).
// Prints I, L, stages, the schedule per warp, the role of each warp, the attempt log and, with
// --explain, what binds I and why ops were split across warps.

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <unistd.h>

#include <fmt/format.h>

#include <gaus/core/analysis.hpp>
#include <gaus/exact/twill.hpp>

#include "command.hpp"

namespace gaus::cli {

namespace {

struct TwillFlags {
  std::string input;
  InputFlags inputFlags;
  std::optional<std::int32_t> warps;
  std::optional<std::int32_t> maxIi;
  std::optional<std::int32_t> ii;
  std::optional<double> timeLimit;
  std::optional<double> smtTimeLimit;
  std::string normalize = "auto";
  std::string memoryModel;
  std::vector<std::string> without;
  bool explain = false;
  bool json = false;
  bool progress = false;
  bool quiet = false;
  std::string output;
};

// A kernel name ("toy_fa") resolves to configs/kernels/toy_fa.yaml when no such file exists;
// a name that is neither is reported in one line with the built-in kernels.
std::string resolveInput(const std::string& input) {
  const auto hash = input.find('#');
  const std::string path = input.substr(0, hash);
  if (std::filesystem::exists(path)) return input;
  if (const auto kernel = io::findKernelFile(path)) {
    return kernel->string() + (hash == std::string::npos ? "" : input.substr(hash));
  }
  std::string known;
  for (const auto& name : io::builtInKernelNames()) known += (known.empty() ? "" : ", ") + name;
  throw CommandError(fmt::format(
      "{}: no such file, and no built-in kernel of that name (expected a graph file or one of: "
      "{})",
      path, known.empty() ? std::string("none found in configs/kernels") : known));
}

exact::TwillOptions twillOptions(const TwillFlags& flags) {
  exact::TwillOptions options;
  options.warps = flags.warps;
  options.maxIi = flags.maxIi;
  options.totalTimeLimitSeconds = flags.timeLimit;
  if (flags.smtTimeLimit) options.smtTimeLimitSeconds = *flags.smtTimeLimit;
  options.explain = flags.explain;
  if (!flags.memoryModel.empty()) {
    const auto model = exact::parseMemoryModel(flags.memoryModel);
    if (!model) {
      throw CommandError(
          fmt::format("--memory-model '{}': expected buffers or cycles", flags.memoryModel));
    }
    options.memoryModel = *model;
  }
  const auto normalization = exact::parseNormalizationMode(flags.normalize);
  if (!normalization) {
    throw CommandError(fmt::format("--normalize '{}': expected auto, on or off", flags.normalize));
  }
  options.normalization.mode = *normalization;
  for (const auto& name : flags.without) {
    const auto family = exact::parseTwillFamily(name);
    if (!family) {
      std::string known;
      for (auto f : exact::kAllTwillFamilies) {
        known += std::string(known.empty() ? "" : ", ") + std::string(exact::toString(f));
      }
      throw CommandError(fmt::format("--without '{}': expected one of {}", name, known));
    }
    options.families = options.families.without(*family);
  }
  return options;
}

// The steady state per warp role: each op with its start, residue and stage.
std::string describeSchedule(const Graph& graph, const exact::TwillSolution& solution) {
  const Schedule& schedule = *solution.schedule;
  const std::int32_t ii = *solution.ii;
  std::string text;
  for (std::size_t r = 0; r < solution.roles.size(); ++r) {
    const auto& role = solution.roles[r];
    text += fmt::format("role {} on warps {}: {}{}, {} op{}\n", r, formatWarpSet(role.warps),
                        role.units.empty() ? "no units" : role.units,
                        role.variableLatency ? " (variable latency)" : "", role.ops.size(),
                        role.ops.size() == 1 ? "" : "s");
    std::vector<OpId> ops = role.ops;
    std::sort(ops.begin(), ops.end(), [&](OpId a, OpId b) {
      return schedule.start[a] != schedule.start[b] ? schedule.start[a] < schedule.start[b] : a < b;
    });
    for (OpId op : ops) {
      const Cycle start = schedule.start[op];
      text += fmt::format("  {:<24} t={:<8} residue {:<6} stage {}\n", graph.opName(op), start,
                          start % ii, start / ii);
    }
  }
  return text;
}

nlohmann::json familiesToJson(const std::vector<exact::TwillFamily>& families) {
  nlohmann::json names = nlohmann::json::array();
  for (auto family : families) names.push_back(std::string(exact::toString(family)));
  return names;
}

// What binds I, why each smaller I failed, and for each pair of roles whether they could share
// a warp set and which constraint families forbid it.
nlohmann::json explanationToJson(const exact::TwillSolution& solution) {
  const exact::TwillExplanation& explanation = solution.explanation;
  nlohmann::json json;
  json["ii_binding"] = explanation.iiBinding;
  json["ii_failures"] = nlohmann::json::array();
  for (const auto& [ii, reason] : explanation.iiFailures) {
    json["ii_failures"].push_back({{"ii", ii}, {"reason", reason}});
  }
  json["splits"] = nlohmann::json::array();
  for (const auto& split : explanation.splits) {
    json["splits"].push_back({{"roles", {split.firstRole, split.secondRole}},
                              {"merged", std::string(exact::toString(split.mergedVerdict))},
                              {"families", familiesToJson(split.blocking)}});
  }
  json["text"] = explanation.text;
  return json;
}

nlohmann::json solutionToJson(const Instance& instance, const exact::TwillSolution& solution) {
  const Graph& graph = *instance.graph;
  nlohmann::json json;
  json["instance"] = instance.name;
  json["status"] = std::string(toString(solution.status));
  if (!solution.message.empty()) json["message"] = solution.message;
  const auto optionalJson = [](const auto& value) {
    return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
  };
  json["ii"] = optionalJson(solution.ii);
  json["latency"] = optionalJson(solution.latency);
  json["stages"] = optionalJson(solution.stages);
  json["time_unit"] = solution.timeUnit;
  json["mii"] = {{"mii", solution.mii},
                 {"res_mii", solution.resMii},
                 {"rec_mii", solution.recMii},
                 {"reason", solution.miiReason}};
  json["ii_proven_minimal"] = solution.iiProvenMinimal;
  json["warps_used"] = solution.warpsUsed;
  json["warps_proven_minimal"] = solution.warpsProvenMinimal;
  json["cross_warp_edges"] = solution.crossWarpEdges;
  json["cross_edges_proven_minimal"] = solution.crossEdgesProvenMinimal;
  json["roles"] = nlohmann::json::array();
  for (const auto& role : solution.roles) {
    nlohmann::json ops = nlohmann::json::array();
    for (OpId op : role.ops) ops.push_back(graph.opName(op));
    nlohmann::json warps = nlohmann::json::array();
    for (int w = 0; w < kMaxWarps; ++w) {
      if ((role.warps >> w) & 1U) warps.push_back(w);
    }
    json["roles"].push_back({{"warps", warps},
                             {"units", role.units},
                             {"variable_latency", role.variableLatency},
                             {"ops", ops}});
  }
  if (solution.schedule) {
    nlohmann::json start = nlohmann::json::object();
    for (OpId op = 0; op < graph.numOps(); ++op)
      start[graph.opName(op)] = solution.schedule->start[op];
    json["start"] = start;
  }
  json["buffers"] = nlohmann::json::array();
  for (const auto& buffer : solution.buffers) {
    json["buffers"].push_back({{"op", graph.opName(buffer.op)},
                               {"memory", instance.machine->memories[buffer.memory].name},
                               {"amount", buffer.amount},
                               {"buffers", buffer.buffers}});
  }
  json["attempts"] = nlohmann::json::array();
  for (const auto& attempt : solution.attempts) json["attempts"].push_back(attempt.describe());
  if (solution.normalization && solution.timeUnit != 1) {
    json["normalization"] = {{"time_unit", solution.timeUnit},
                             {"mapping", solution.normalization->describe()},
                             {"worst_ratio_error", solution.normalization->worstRatioError},
                             {"proven_optimal", solution.normalization->provenOptimal}};
  }
  if (!solution.explanation.text.empty()) json["explanation"] = explanationToJson(solution);
  json["seconds"] = solution.seconds;
  nlohmann::json options = nlohmann::json::object();
  for (const auto& [name, value] : solution.options) options[name] = value;
  json["options"] = options;
  json["verified"] = solution.verification && solution.verification->ok();
  if (solution.verification) {
    json["verification"] = verificationToJson(*instance.machine, *solution.verification);
  }
  return json;
}

// "I = 2 (proven minimal)", or with normalized costs "I = 260 cycles (5 units of 52; minimal in
// normalized units)": the optimality claim always says in which units it holds.
std::string describeIi(const exact::TwillSolution& solution) {
  const std::int64_t unit = solution.timeUnit;
  if (unit == 1) {
    return fmt::format("I = {}{}", *solution.ii,
                       solution.iiProvenMinimal ? " (proven minimal)" : " (not proven minimal)");
  }
  return fmt::format("I = {} cycles ({} units of {}; {})", *solution.ii, *solution.ii / unit, unit,
                     solution.iiProvenMinimal ? "minimal in normalized units"
                                              : "not proven minimal even in normalized units");
}

// "MII 16 = ResMII (unit TC); RecMII 5", in the units the search used.
std::string describeMii(const Instance& instance, const exact::TwillSolution& solution) {
  std::string text = fmt::format("MII {} = max(ResMII {}, RecMII {}): {}", solution.mii,
                                 solution.resMii, solution.recMii, solution.miiReason);
  if (solution.timeUnit != 1) {
    // The raw bounds, for comparison with the raw I above.
    const Graph& graph = *instance.graph;
    text += fmt::format(" (normalized units); raw ResMII {}, RecMII {} cycles",
                        computeResMii(graph, *instance.machine).value, computeRecMii(graph).value);
  }
  return text;
}

// Per memory: the buffers x stages of its values against its capacity.
std::string describeBuffers(const Instance& instance, const exact::TwillSolution& solution) {
  const Graph& graph = *instance.graph;
  const Machine& machine = *instance.machine;
  std::string text;
  for (std::size_t m = 0; m < machine.memories.size(); ++m) {
    std::int64_t total = 0;
    std::string values;
    for (const auto& buffer : solution.buffers) {
      if (static_cast<std::size_t>(buffer.memory) != m) continue;
      total += buffer.total();
      values += fmt::format("{}{} {} x {}", values.empty() ? "" : ", ", graph.opName(buffer.op),
                            buffer.buffers, buffer.amount);
    }
    if (values.empty()) continue;
    text += fmt::format("memory {}: {} of {} ({})\n", machine.memories[m].name, total,
                        machine.memories[m].capacity, values);
  }
  return text;
}

std::string describeSolution(const Instance& instance, const exact::TwillSolution& solution) {
  const Graph& graph = *instance.graph;
  std::string text = fmt::format("{}: {} ({:.3f} s)\n", instance.name, toString(solution.status),
                                 solution.seconds);
  if (!solution.message.empty()) text += solution.message + "\n";
  const bool normalized = solution.normalization && solution.timeUnit != 1;
  if (normalized) {
    text += fmt::format("costs normalized: 1 unit = {} cycles; {}\n", solution.timeUnit,
                        solution.normalization->describe());
  }
  if (solution.ii) {
    text += fmt::format("{}, L = {}{}, stages {}\n", describeIi(solution),
                        solution.latency ? std::to_string(*solution.latency) : "-",
                        normalized ? " cycles" : "",
                        solution.stages ? std::to_string(*solution.stages) : "-");
  }
  text += describeMii(instance, solution) + "\n";
  if (solution.ii) {
    text += fmt::format("warps used {}{}, cross-warp edges {}{}\n", solution.warpsUsed,
                        solution.warpsProvenMinimal ? " (minimal)" : "", solution.crossWarpEdges,
                        solution.crossEdgesProvenMinimal ? " (minimal)" : "");
  }
  if (solution.schedule && solution.ii) text += describeSchedule(graph, solution);
  text += describeBuffers(instance, solution);
  text += normalized ? "attempts (II and L in normalized units):\n" : "attempts:\n";
  for (const auto& attempt : solution.attempts) text += "  " + attempt.describe() + "\n";
  if (!solution.explanation.text.empty()) {
    text += normalized ? "explanation (normalized units):\n" : "explanation:\n";
    text += solution.explanation.text + "\n";
  }
  if (solution.verification) {
    text += solution.verification->ok()
                ? "verified: true\n"
                : "verified: false\n" + solution.verification->summary() + "\n";
  }
  return text;
}

void runTwill(const TwillFlags& flags) {
  const Instance instance = loadInstance(resolveInput(flags.input), flags.inputFlags);
  const Problem problem = instance.problem(ProblemKind::kModuloWarp, std::nullopt, flags.ii);
  if (const auto errors = problem.check(); !errors.empty()) {
    throw CommandError(fmt::format("{}: {}", instance.sourcePath, errors.front()));
  }
  exact::TwillOptions options = twillOptions(flags);
  // One line per (II, L) attempt on stderr, as gaus schedule shows progress.
  if (!flags.quiet && (flags.progress || isatty(STDERR_FILENO) != 0)) {
    options.progress = [](std::string_view line) { std::cerr << line << '\n'; };
  }
  const exact::TwillSolution solution = exact::solveTwill(problem, options);
  if (!flags.output.empty() && solution.schedule && solution.verification &&
      solution.verification->ok()) {
    writeOutput(flags.output, io::formatSchedule(*instance.graph, *solution.schedule));
  }
  if (flags.json) {
    std::cout << solutionToJson(instance, solution).dump(2) << '\n';
  } else {
    std::cout << describeSolution(instance, solution);
  }
  const bool verified = solution.verification && solution.verification->ok();
  if (solution.status == SolveStatus::kError || solution.status == SolveStatus::kInfeasible ||
      (solution.schedule && !verified)) {
    exitCode() = kExitFailure;
  }
}

}  // namespace

void addTwillCommand(CLI::App& app) {
  auto flags = std::make_shared<TwillFlags>();
  CLI::App* command = app.add_subcommand(
      "twill", "Optimal joint software pipelining and warp specialization of a loop body (Z3)");
  command
      ->add_option("graph", flags->input,
                   "Loop body: a graph file, or a built-in kernel name (configs/kernels)")
      ->required();
  flags->inputFlags.addTo(*command);
  command->add_option("--warps", flags->warps, "Warps (warp groups) available");
  command->add_option("--max-ii", flags->maxIi, "Largest II tried");
  command->add_option("--ii", flags->ii, "Solve at this II only");
  command->add_option("--time-limit", flags->timeLimit, "Seconds for the whole search");
  command->add_option("--smt-time-limit", flags->smtTimeLimit, "Seconds per (I, L) check");
  command->add_option("--normalize", flags->normalize, "Cost normalization: auto, on, off")
      ->capture_default_str();
  command->add_option("--memory-model", flags->memoryModel,
                      "buffers (each value a ring of buffers x stages) or cycles");
  command->add_option("--without", flags->without,
                      "Switch a constraint family off (ablation; repeatable)");
  command->add_flag("--explain", flags->explain, "Say what binds I and why ops were split");
  command->add_option("-o,--output", flags->output, "Write the verified schedule here (JSON)");
  command->add_flag("--json", flags->json, "Print JSON instead of a summary");
  command->add_flag("--progress", flags->progress,
                    "Show a line per (I, L) attempt on stderr even when piped");
  command->add_flag("-q,--quiet", flags->quiet, "No progress lines");
  command->callback([flags] { runTwill(*flags); });
}

}  // namespace gaus::cli
