// gaus twill GRAPH|KERNEL: `gaus schedule --method twill` (the same flags, options and registry
// path) with a printer for what a warp-specialized schedule means: I, L and stages, the schedule
// per warp role, the buffers per memory, the attempt log and, with --explain, what binds I and
// why ops were split across warps.

#include <algorithm>
#include <iostream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <gaus/core/analysis.hpp>
#include <gaus/core/warp_roles.hpp>
#include <gaus/report/result_json.hpp>

#include "command.hpp"

namespace gaus::cli {

namespace {

// A figure of twill's, read by the name the method declares it with (the run's method, found
// once by the run): the command loads the exact engine as a plugin and does not include its
// headers.
double figureOr(const MethodRun& run, std::string_view figure, double fallback) {
  return run.method->figureValue(run.result, figure).value_or(fallback);
}

// The steady state per warp role: each op with its start, residue and stage.
std::string describeRoles(const Instance& instance, const Schedule& schedule) {
  const Graph& graph = *instance.graph;
  std::string text;
  const auto roles = warpRoles(graph, *instance.machine, schedule);
  for (std::size_t r = 0; r < roles.size(); ++r) {
    const auto& role = roles[r];
    text += fmt::format("role {} on warps {}: {}{}, {} op{}\n", r, formatWarpSet(role.warps),
                        role.units, role.variableLatency ? " (variable latency)" : "",
                        role.ops.size(), role.ops.size() == 1 ? "" : "s");
    text += describeStartTimes(graph, schedule, role.ops, role.ops.size());
  }
  return text;
}

// "I = 2 (proven minimal)", or with normalized costs "I = 260 cycles (5 units of 52; minimal in
// normalized units)": the optimality claim always says in which units it holds.
std::string describeIi(const MethodRun& run, std::int32_t ii) {
  const Result& result = run.result;
  const auto unit = static_cast<std::int64_t>(figureOr(run, "time_unit", 1));
  if (unit == 1) {
    return fmt::format(
        "I = {}{}", ii,
        result.bounds.iiProvenOptimal ? " (proven minimal)" : " (not proven minimal)");
  }
  const bool proven = figureOr(run, "normalized_ii_proven", 0) > 0;
  return fmt::format(
      "I = {} cycles ({} units of {}; {})", ii, ii / unit, unit,
      proven ? "minimal in normalized units" : "not proven minimal even in normalized units");
}

// " (proven least at this I)" where L is proven minimal at the optimal I, else its bound there
// (" (at least 48 at this I)"), or nothing where the search knows none.
std::string describeLatencyProof(const MethodRun& run) {
  if (run.result.bounds.latencyProvenOptimal) return " (proven least at this I)";
  const double bound = figureOr(run, "latency_lower_bound", 0);
  return bound > 0 ? fmt::format(" (at least {} at this I)", bound) : std::string();
}

// How far the proof of a minimal I reaches (report::iiProofReach, as --json says it).
std::string_view iiProof(const MethodRun& run) {
  return report::iiProofReach(run.result).value_or("none");
}

// The proof in words: "II 26 proven optimal for every schedule length", or "II 26 proven
// optimal within L <= 51 (3 stages) only"; nothing when II is not proven minimal.
std::string describeIiProof(const MethodRun& run, std::int32_t ii) {
  const bool normalized = figureOr(run, "time_unit", 1) != 1;
  const std::string units = normalized ? " (in normalized units)" : "";
  const std::string_view proof = iiProof(run);
  if (proof == "every_length") {
    return fmt::format("II {} proven optimal for every schedule length{}\n", ii, units);
  }
  if (proof == "within_stage_count") {
    return fmt::format("II {} proven optimal within L <= {} ({} stages) only{}\n", ii,
                       figureOr(run, "ii_proof_latency", 0), figureOr(run, "ii_proof_stages", 0),
                       units);
  }
  return {};
}

// "MII 16: ResMII (TC) = 16 >= RecMII (cycle pv0 -> rescale0 -> pv0) = 5": the result's MII (in
// cycles); with normalized costs the search's own MII, in its units, then the raw bounds.
std::string describeMii(const MethodRun& run) {
  const Result& result = run.result;
  if (!result.bounds.mii) return "MII: not reached (the search ended before it)";
  const MiiBound& mii = *result.bounds.mii;
  if (figureOr(run, "time_unit", 1) == 1) return fmt::format("MII {}: {}", mii.value, mii.reason);
  return fmt::format(
      "MII {} in normalized units; raw MII {}: {} (for comparison with the raw I above)",
      figureOr(run, "normalized_mii", 0), mii.value, mii.reason);
}

// Per memory: the buffers x stages of its values against its capacity.
std::string describeBuffers(const Instance& instance, const std::vector<BufferUsage>& buffers) {
  const Graph& graph = *instance.graph;
  const Machine& machine = *instance.machine;
  std::string text;
  for (std::size_t m = 0; m < machine.memories.size(); ++m) {
    std::int64_t total = 0;
    std::string values;
    for (const auto& buffer : buffers) {
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

// "time per phase: milp 2.173 s, smt 0.412 s, minimize 1.563 s, the rest 0.772 s": the
// attempt log summed by phase (the method's figures); the rest is set-up, model building and
// verification.
std::string describePhases(const MethodRun& run) {
  const Result& result = run.result;
  const MethodInfo& twill = *run.method;
  std::string text;
  double phases = 0.0;
  for (const auto& [figure, label] :
       {std::pair{"milp_seconds", "milp"}, std::pair{"smt_seconds", "smt"},
        std::pair{"minimize_seconds", "minimize"}, std::pair{"explain_seconds", "explain"}}) {
    const auto seconds = twill.figureValue(result, figure);
    if (!seconds || (*seconds == 0.0 && std::string_view(label) == "explain")) continue;
    text += fmt::format("{}{} {:.3f} s", text.empty() ? "" : ", ", label, *seconds);
    phases += *seconds;
  }
  if (text.empty()) return text;
  return fmt::format("time per phase: {}, the rest {:.3f} s\n", text,
                     std::max(0.0, result.stats.seconds - phases));
}

std::string describeTwill(const MethodRun& run) {
  const Instance& instance = run.instance;
  const Result& result = run.result;
  std::string text =
      fmt::format("{}: {} ({:.3f} s)\n", instance.name, result.statusText(), result.stats.seconds);
  if (!result.message.empty()) text += result.message + "\n";
  const bool normalized = figureOr(run, "time_unit", 1) != 1;
  for (const auto& [title, note] : result.notes) {
    if (title != "explanation") text += fmt::format("{}: {}\n", title, note);
  }
  const Schedule* schedule = result.schedule ? &*result.schedule : nullptr;
  if (schedule && schedule->ii) {
    text += fmt::format("{}, L = {}{}{}, stages {}\n", describeIi(run, *schedule->ii),
                        figureOr(run, "latency", 0), normalized ? " cycles" : "",
                        describeLatencyProof(run), figureOr(run, "stages", 0));
    text += describeIiProof(run, *schedule->ii);
  }
  text += describeMii(run) + "\n";
  if (const auto first = run.method->figureValue(result, "first_smt_schedule_seconds")) {
    text += fmt::format("first schedule of the SMT model after {:.3f} s\n", *first);
  }
  text += describePhases(run);
  if (schedule && schedule->ii) {
    text += fmt::format("warps used {}{}, cross-warp edges {}{}\n", figureOr(run, "warps_used", 0),
                        figureOr(run, "warps_proven_minimal", 0) > 0 ? " (minimal)" : "",
                        figureOr(run, "cross_warp_edges", 0),
                        figureOr(run, "cross_edges_proven_minimal", 0) > 0 ? " (minimal)" : "");
    text += describeRoles(instance, *schedule);
    text += describeBuffers(instance, bufferUsage(*instance.graph, *schedule));
  }
  text += normalized ? "attempts (II and L in normalized units):\n" : "attempts:\n";
  for (const auto& attempt : result.attempts) text += "  " + attempt.describe() + "\n";
  for (const auto& [title, note] : result.notes) {
    if (title == "explanation") {
      text += normalized ? "explanation (normalized units):\n" : "explanation:\n";
      text += note + "\n";
    }
  }
  if (result.verification) {
    text += result.verification->ok() ? "verified: true\n"
                                      : "verified: false\n" + result.verification->summary() + "\n";
  }
  return text;
}

// The best (II, L) of a run and how far each is proven: what a strategy is judged by.
struct Optimum {
  std::optional<std::int32_t> ii;
  std::optional<double> latency;
  std::string iiProof = "none";  // every_length, within_stage_count or none
  bool latencyProven = false;
  double warps = 0, crossEdges = 0;  // the minimized assignment's, Twill's next objectives
  std::string status;
};

Optimum optimumOf(const MethodRun& run) {
  Optimum optimum;
  optimum.status = run.result.statusText();
  const Schedule* schedule = run.result.schedule ? &*run.result.schedule : nullptr;
  if (schedule == nullptr || !schedule->ii || !run.result.verified()) return optimum;
  optimum.ii = static_cast<std::int32_t>(*schedule->ii);
  optimum.latency = figureOr(run, "latency", 0);
  optimum.iiProof = std::string(iiProof(run));
  optimum.latencyProven = run.result.bounds.latencyProvenOptimal;
  optimum.warps = figureOr(run, "warps_used", 0);
  optimum.crossEdges = figureOr(run, "cross_warp_edges", 0);
  return optimum;
}

std::string describeOptimum(const Optimum& optimum) {
  if (!optimum.ii) return fmt::format("no schedule ({})", optimum.status);
  return fmt::format("I = {} (proof: {}), L = {}{}", *optimum.ii, optimum.iiProof, *optimum.latency,
                     optimum.latencyProven ? " (proven least at this I)" : " (not proven least)");
}

// The strategy's roles as placed, one line each.
std::string describeStrategy(const Graph& graph, const WarpStrategy& strategy) {
  std::string text = fmt::format("strategy {}: {} roles holding {} warps\n", strategy.name,
                                 strategy.roles.size(), strategy.warpsHeld());
  for (const auto& role : strategy.roles) {
    std::vector<std::string> names;
    for (OpId op : role.ops) names.push_back(graph.opName(op));
    text +=
        fmt::format("  {} on warps {}: {}\n", role.name, formatWarpSet(role.warpSet()),
                    names.empty() ? "no op of the loop" : fmt::format("{}", fmt::join(names, " ")));
  }
  return text;
}

// The strategy's best against the free optimum: the gap in II, then in L at that II (a gap in
// L only means something at equal II), each proven when both sides' proofs are.
std::string describeGap(const Optimum& free, const Optimum& given) {
  if (!free.ii) return "gap: unknown (the free search found no schedule)\n";
  if (!given.ii) return "gap: the strategy has no schedule (its status and core above)\n";
  const std::int32_t iiGap = *given.ii - *free.ii;
  const bool iiProven = free.iiProof == "every_length" && given.iiProof == "every_length";
  std::string text = fmt::format("gap: I {:+d}{}", iiGap, iiProven ? " (proven for every L)" : "");
  if (iiGap == 0) {
    const double latencyGap = *given.latency - *free.latency;
    const bool latencyProven = given.latencyProven && free.latencyProven;
    text += fmt::format(", L {:+g}{}", latencyGap, latencyProven ? " (proven: both L least)" : "");
    if (latencyGap == 0 && iiProven && latencyProven) {
      // Optimal in Twill's objective; the warps (and the cross-warp edges) come after it.
      text += fmt::format(
          "; the strategy is optimal in (I, L), with {:+g} warps and {:+g} "
          "cross-warp edges against the free optimum's assignment",
          given.warps - free.warps, given.crossEdges - free.crossEdges);
    }
  }
  return text + "\n";
}

nlohmann::json optimumToJson(const Optimum& optimum) {
  nlohmann::json json = {{"status", optimum.status}};
  if (optimum.ii) {
    json["ii"] = *optimum.ii;
    json["latency"] = *optimum.latency;
    json["ii_proof"] = optimum.iiProof;
    json["latency_proven_optimal"] = optimum.latencyProven;
    json["warps_used"] = optimum.warps;
    json["cross_warp_edges"] = optimum.crossEdges;
  }
  return json;
}

nlohmann::json strategyToJson(const Graph& graph, const WarpStrategy& strategy, const Optimum& free,
                              const Optimum& given) {
  nlohmann::json roles = nlohmann::json::array();
  for (const auto& role : strategy.roles) {
    nlohmann::json ops = nlohmann::json::array();
    for (OpId op : role.ops) ops.push_back(graph.opName(op));
    roles.push_back({{"name", role.name},
                     {"warps", role.warps},
                     {"first_warp", role.firstWarp.value_or(0)},
                     {"ops", ops}});
  }
  nlohmann::json json = {{"name", strategy.name},
                         {"roles", roles},
                         {"under_strategy", optimumToJson(given)},
                         {"free", optimumToJson(free)}};
  if (free.ii && given.ii) {
    json["gap"] = {{"ii", *given.ii - *free.ii}};
    if (*given.ii == *free.ii) json["gap"]["latency"] = *given.latency - *free.latency;
    json["gap"]["warps"] = given.warps - free.warps;
  }
  return json;
}

void runTwill(const MethodRunFlags& flags) {
  std::optional<MethodRun> free;
  if (!flags.strategy.empty()) {
    // The free optimum first, the same flags without the strategy: the yardstick.
    MethodRunFlags freeFlags = flags;
    freeFlags.strategy.clear();
    freeFlags.output.clear();
    free = runMethodCommand(freeFlags);
    exitCode() = kExitOk;  // the strategy's run decides the exit code
  }
  const MethodRun run = runMethodCommand(flags);
  if (flags.json) {
    nlohmann::json json =
        report::methodRunToJson(run.instance, run.result, {flags.method, run.kind, {}, true});
    if (free) {
      json["strategy"] =
          strategyToJson(*run.instance.graph, *run.strategy, optimumOf(*free), optimumOf(run));
    }
    std::cout << json.dump(2) << '\n';
    return;
  }
  if (free) std::cout << describeStrategy(*run.instance.graph, *run.strategy);
  std::cout << describeTwill(run);
  if (free) {
    std::cout << "under the strategy: " << describeOptimum(optimumOf(run)) << '\n'
              << "free optimum:       " << describeOptimum(optimumOf(*free)) << '\n'
              << describeGap(optimumOf(*free), optimumOf(run));
  }
}

}  // namespace

void addTwillCommand(CLI::App& app) {
  auto flags = std::make_shared<MethodRunFlags>();
  flags->method = "twill";
  CLI::App* command = app.add_subcommand(
      "twill",
      "Optimal joint software pipelining and warp specialization of a loop body: gaus schedule "
      "--method twill, printed per warp role");
  flags->addTo(*command, false);
  command->add_option("--strategy", flags->strategy,
                      "A warp strategy (YAML: roles with warps and ops, docs/formats.md): solve "
                      "under it, and judge it against the free optimum (the gap in I and L)");
  command->callback([flags] { runTwill(*flags); });
}

}  // namespace gaus::cli
