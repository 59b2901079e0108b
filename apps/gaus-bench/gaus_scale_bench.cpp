// gaus-bench gaus-scale: how GauS's cost grows with |V| on the generated workload of gaus-step
// (1k to 100k ops, average out-degree 3): ms per optimization step, seconds to the first legal
// schedule found by optimization (not the list-scheduling start), and peak resident memory.
// Each size runs in a forked child process, so that its peak RSS (the child's ru_maxrss, read
// by wait4) is its own and not the largest so far. Issue 4's target: 100,000 ops at a horizon
// D >= 2,000 reach a legal schedule with peak RSS <= 4 GB (a dense |V| x D float tensor would
// take 0.8 GB alone; the windowed model is what keeps this small).

#include <iostream>
#include <memory>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <gaus/core/verify.hpp>
#include <gaus/methods/method_catalog.hpp>

#include "bench_main.hpp"
#include "gaus_workload.hpp"
#include "shared_benchmarks.hpp"

namespace gaus::bench {

namespace {

// A figure of gaus's, by the name the method declares it with.
std::optional<double> gausFigure(const Result& result, std::string_view figure) {
  return methodCatalog().find("gaus")->figureValue(result, figure);
}

struct GausScaleFlags {
  // "dag": the speed workload, formulation L; "aig": the and-inverter-graph-like workload with
  // EPFL hyp's profile, formulation B (peak live memory) at D = the critical path.
  std::string workload = "dag";
  std::vector<std::int32_t> sizes = {1000, 3000, 10000, 30000, 100000};
  double timeLimit = 60.0;
  std::uint64_t seed = 1;
  std::int64_t batch = 1;
  std::int32_t largestTarget = 100000;  // the size held to the targets below
  double rssTargetGb = 4.0;
  std::int64_t minHorizon = 2000;
};

// One size, run in the child: the figures as JSON.
nlohmann::json measureSize(std::int32_t ops, const GausScaleFlags& flags) {
  Stopwatch generation;
  const Instance instance = generateGausWorkload(ops, flags.seed);
  const double generationSeconds = generation.seconds();
  const Result list = runCatalogMethod("list", instance, ProblemKind::kLatency);
  requireVerified(list, "list", instance.name);
  const MethodOptions options = {{"batch", std::to_string(flags.batch)},
                                 {"progress_interval", "1000"}};
  Stopwatch wall;
  const Result result =
      runCatalogMethod("gaus", instance, ProblemKind::kLatency, options, flags.timeLimit);
  const double seconds = wall.seconds();
  requireVerified(result, "gaus", instance.name);
  const auto horizons = attemptedHorizons(result);
  nlohmann::json figures = {
      {"ops", instance.graph->numOps()},
      {"edges", instance.graph->numEdges()},
      {"generation_seconds", generationSeconds},
      {"lower_bound", result.bounds.lowerBound.value_or(0.0)},
      {"list_latency", list.verification->metrics.latency},
      {"gaus_latency", result.verification->metrics.latency},
      {"status", std::string(toString(result.status))},
      {"seconds", seconds},
      {"attempts", horizons.size()},
      {"first_horizon", horizons.empty() ? 0 : horizons.front()},
      {"adam_steps", gausFigure(result, "adam_steps").value_or(0.0)},
  };
  for (const std::string_view figure : {"seconds_per_step", "first_legal_seconds"}) {
    if (auto value = gausFigure(result, figure)) figures[std::string(figure)] = *value;
  }
  return figures;
}

// One size of the aig workload, run in the child: formulation B at D = list scheduling's latency
// (the critical path: the gates are unlimited), against list scheduling's peak live memory. The
// run's time is split into its parts: the optimizer's steps, legalization (list scheduling from
// the rounded means, verify and the objective of each candidate), and one verify() of the answer.
nlohmann::json measureAigSize(std::int32_t ops, const GausScaleFlags& flags) {
  Stopwatch generation;
  const Instance instance = generateAigWorkload(ops, flags.seed);
  const double generationSeconds = generation.seconds();
  Stopwatch listClock;
  const Result list = runCatalogMethod("list", instance, ProblemKind::kLatency);
  const double listSeconds = listClock.seconds();
  requireVerified(list, "list", instance.name);
  const Cycle horizon = list.verification->metrics.latency;
  // The list schedule is within its own latency: its peak is list scheduling's at that horizon.
  const double listPeak = list.verification->metrics.peakLiveMemory;
  const Problem problem = instance.problem(ProblemKind::kLatencyBounded, horizon);
  const MethodOptions options = {
      {"formulation", "B"}, {"batch", std::to_string(flags.batch)}, {"progress_interval", "10"}};
  Stopwatch wall;
  const Result result = runCatalogMethod("gaus", instance.name, problem, options, flags.timeLimit);
  const double seconds = wall.seconds();
  requireVerified(result, "gaus", instance.name);
  Stopwatch verifyClock;
  const VerificationReport again = verify(problem, *result.schedule);
  const double verifySeconds = verifyClock.seconds();
  if (!again.ok()) throw std::runtime_error("gaus-scale: the answer no longer verifies");
  nlohmann::json figures = {
      {"ops", instance.graph->numOps()},
      {"edges", instance.graph->numEdges()},
      {"generation_seconds", generationSeconds},
      {"list_seconds", listSeconds},
      {"horizon", horizon},
      {"list_peak_memory", listPeak},
      {"gaus_peak_memory", result.verification->metrics.peakLiveMemory},
      {"status", std::string(toString(result.status))},
      {"seconds", seconds},
      {"verify_seconds", verifySeconds},
      {"adam_steps", gausFigure(result, "adam_steps").value_or(0.0)},
      {"legalizations", result.stats.solverCalls},
  };
  for (const std::string_view figure : {"seconds_per_step", "first_legal_seconds",
                                        "optimization_seconds", "legalization_seconds"}) {
    if (auto value = gausFigure(result, figure)) figures[std::string(figure)] = *value;
  }
  return figures;
}

// Forks, measures one size in the child and returns its figures with the child's peak RSS.
nlohmann::json measureSizeInChild(std::int32_t ops, const GausScaleFlags& flags) {
  int pipeEnds[2];
  if (pipe(pipeEnds) != 0) throw std::runtime_error("gaus-scale: pipe() failed");
  const pid_t child = fork();
  if (child < 0) throw std::runtime_error("gaus-scale: fork() failed");
  if (child == 0) {
    close(pipeEnds[0]);
    std::string text;
    int code = 0;
    try {
      text =
          (flags.workload == "aig" ? measureAigSize(ops, flags) : measureSize(ops, flags)).dump();
    } catch (const std::exception& error) {
      text = nlohmann::json{{"error", error.what()}}.dump();
      code = 1;
    }
    std::size_t written = 0;
    while (written < text.size()) {
      const ssize_t n = write(pipeEnds[1], text.data() + written, text.size() - written);
      if (n <= 0) break;
      written += static_cast<std::size_t>(n);
    }
    close(pipeEnds[1]);
    _exit(code);
  }
  close(pipeEnds[1]);
  std::string text;
  char buffer[4096];
  for (ssize_t n; (n = read(pipeEnds[0], buffer, sizeof buffer)) > 0;) {
    text.append(buffer, static_cast<std::size_t>(n));
  }
  close(pipeEnds[0]);
  int status = 0;
  rusage usage{};
  wait4(child, &status, 0, &usage);
  if (text.empty()) {
    throw std::runtime_error(fmt::format(
        "gaus-scale: the child measuring {} ops ended without figures (status {}); rerun with "
        "--sizes {} to see its error",
        ops, status, ops));
  }
  nlohmann::json figures = nlohmann::json::parse(text);
  if (figures.contains("error")) {
    throw std::runtime_error(
        fmt::format("gaus-scale, {} ops: {}", ops, figures["error"].get<std::string>()));
  }
  figures["peak_rss_bytes"] = static_cast<std::int64_t>(usage.ru_maxrss) * 1024;
  return figures;
}

std::string figureText(const nlohmann::json& figures, const char* key, double scale, int decimals) {
  if (!figures.contains(key)) return "-";
  return fmt::format("{:.{}f}", figures[key].get<double>() * scale, decimals);
}

Report runAigScale(const GausScaleFlags& flags) {
  Report report(
      "GauS formulation B: peak live memory of and-inverter-graph-like circuits as |V| grows");
  for (auto& [key, value] : environmentNotes()) report.note(key, value);
  const RandomGraphOptions shape = aigWorkloadOptions(flags.sizes.back(), flags.seed);
  report.note("graphs",
              fmt::format("generated, seed {}: EPFL hyp's profile (8.65 nodes per level, fan-in "
                          "2, second fan-in at most {} levels up), latency 1, mem 1, unlimited "
                          "gates; {} ops in {} levels at the largest size",
                          flags.seed, shape.maxLayerSpan, shape.ops, shape.layers));
  report.note("run", fmt::format("method gaus, formulation B at D = list scheduling's latency "
                                 "(the critical path), batch {}, float32, CPU, {} s per size, "
                                 "each size in its own process",
                                 flags.batch, flags.timeLimit));
  std::vector<std::vector<std::string>> cells;
  for (const std::int32_t ops : flags.sizes) {
    std::cerr << fmt::format("gaus-scale: {} ops ...\n", ops);
    const nlohmann::json figures = measureSizeInChild(ops, flags);
    const double rssGb = figures["peak_rss_bytes"].get<double>() / 1e9;
    const double listPeak = figures["list_peak_memory"].get<double>();
    const double gausPeak = figures["gaus_peak_memory"].get<double>();
    const double total = figures["seconds"].get<double>() +
                         figures["generation_seconds"].get<double>() +
                         figures["list_seconds"].get<double>();
    cells.push_back({std::to_string(ops), std::to_string(figures["edges"].get<std::int64_t>()),
                     std::to_string(figures["horizon"].get<std::int64_t>()),
                     fmt::format("{}", listPeak), fmt::format("{}", gausPeak),
                     fmt::format("{:.3f}", listPeak > 0 ? gausPeak / listPeak : 1.0),
                     fmt::format("{}", figures["adam_steps"].get<double>()),
                     figureText(figures, "seconds_per_step", 1e3, 1),
                     figureText(figures, "first_legal_seconds", 1.0, 1),
                     figureText(figures, "optimization_seconds", 1.0, 1),
                     fmt::format("{} / {}", figureText(figures, "legalization_seconds", 1.0, 1),
                                 figures["legalizations"].get<std::int64_t>()),
                     figureText(figures, "verify_seconds", 1.0, 2), fmt::format("{:.2f}", rssGb),
                     figures["status"].get<std::string>(), fmt::format("{:.1f}", total)});
    if (ops == flags.sizes.back()) {
      const std::string size = fmt::format("{} ops: ", ops);
      // Better than list scheduling: with mem 1 per value the peaks are whole numbers.
      report.add({size + "list scheduling's peak memory - GauS's", listPeak - gausPeak, "values",
                  std::nullopt, 1.0});
      report.add({size + "wall time (generation, list, GauS with verify)", total, "s", 600.0,
                  std::nullopt});
      report.add({size + "peak RSS", rssGb, "GB", flags.rssTargetGb, std::nullopt});
    }
  }
  report.addTable(
      "Per size: D = the horizon (list scheduling's latency = the critical path); peak = peak "
      "live memory; ms / step = time in Adam steps and multiplier updates / steps; first legal = "
      "seconds until optimization legalized a schedule; steps s = the "
      "optimizer's time; legalize s / n = time in legalization (list scheduling from the "
      "means, verify, objective) and the candidates legalized; verify s = one verify() of the "
      "answer; run s = generation + list + GauS",
      {"ops", "edges", "D", "list peak", "GauS peak", "GauS / list", "Adam steps", "ms / step",
       "first legal s", "steps s", "legalize s / n", "verify s", "peak RSS GB", "status", "run s"},
      std::move(cells));
  return report;
}

Report runGausScale(const GausScaleFlags& flags) {
  if (flags.workload == "aig") return runAigScale(flags);
  Report report("GauS: cost per step, first legal schedule and memory as |V| grows");
  for (auto& [key, value] : environmentNotes()) report.note(key, value);
  report.note("graphs",
              fmt::format("generated, seed {}, average out-degree 3; {}", flags.seed,
                          describeOpTypes(gausWorkloadOptions(1000, flags.seed).opTypes)));
  report.note("run", fmt::format("method gaus with its defaults (formulation L: horizon search "
                                 "from list scheduling's latency), batch {}, float32, CPU, "
                                 "{} s per size, each size in its own process",
                                 flags.batch, flags.timeLimit));
  std::vector<std::vector<std::string>> cells;
  for (const std::int32_t ops : flags.sizes) {
    std::cerr << fmt::format("gaus-scale: {} ops ...\n", ops);
    const nlohmann::json figures = measureSizeInChild(ops, flags);
    const double rssGb = figures["peak_rss_bytes"].get<double>() / 1e9;
    const bool legal = figures.contains("first_legal_seconds");
    cells.push_back({std::to_string(ops), std::to_string(figures["edges"].get<std::int64_t>()),
                     fmt::format("{}", figures["lower_bound"].get<double>()),
                     std::to_string(figures["list_latency"].get<std::int64_t>()),
                     std::to_string(figures["first_horizon"].get<std::int64_t>()),
                     std::to_string(figures["gaus_latency"].get<std::int64_t>()),
                     fmt::format("{}", figures["adam_steps"].get<double>()),
                     figureText(figures, "seconds_per_step", 1e3, 1),
                     figureText(figures, "first_legal_seconds", 1.0, 1),
                     fmt::format("{:.2f}", rssGb), figures["status"].get<std::string>(),
                     fmt::format("{:.1f}", figures["seconds"].get<double>())});
    if (ops == flags.largestTarget) {
      const std::string size = fmt::format("{} ops: ", ops);
      report.add({size + "horizon D of the first attempt", figures["first_horizon"].get<double>(),
                  "cycles", std::nullopt, static_cast<double>(flags.minHorizon)});
      report.add({size + "legal schedule found by optimization", legal ? 1.0 : 0.0, "(1 = yes)",
                  std::nullopt, 1.0});
      report.add({size + "peak RSS", rssGb, "GB", flags.rssTargetGb, std::nullopt});
    }
  }
  report.addTable(
      "Per size: lower bound = max(critical path, ResMII); D = the first attempt's horizon; ms per "
      "step = time in Adam steps and multiplier updates / steps; first legal = seconds until "
      "optimization gave a legal schedule (- : none within the limit); RSS = the process's peak",
      {"ops", "edges", "lower bound", "list", "first D", "GauS", "Adam steps", "ms / step",
       "first legal s", "peak RSS GB", "status", "run s"},
      std::move(cells));
  return report;
}

}  // namespace

void addGausScaleSuite(CLI::App& app, BenchOptions& options) {
  auto flags = std::make_shared<GausScaleFlags>();
  CLI::App* command = app.add_subcommand(
      "gaus-scale",
      "GauS from 1k to 100k ops: ms per step, first legal schedule, peak RSS (one process each)");
  command
      ->add_option("--workload", flags->workload,
                   "dag: the speed workload, formulation L; aig: EPFL hyp's profile, formulation "
                   "B (default sizes 1000 to 214591, hyp's node count)")
      ->check(CLI::IsMember({"dag", "aig"}))
      ->capture_default_str();
  command->add_option("--sizes", flags->sizes, "Op counts, one child process each")
      ->capture_default_str();
  command->add_option("--time-limit", flags->timeLimit, "Seconds of GauS per size")
      ->capture_default_str();
  command->add_option("--seed", flags->seed, "Seed of the generator")->capture_default_str();
  command->add_option("--batch", flags->batch, "GauS batch rows (0: the engine's automatic)")
      ->capture_default_str();
  command
      ->add_option("--rss-target", flags->rssTargetGb,
                   "Peak RSS target (GB) of the 100,000-op size")
      ->capture_default_str();
  command->callback([flags, command, &options] {
    if (flags->workload == "aig") {
      if (command->count("--sizes") == 0) flags->sizes = {1000, 3000, 10000, 30000, 100000, 214591};
      if (command->count("--time-limit") == 0) flags->timeLimit = 300.0;
      if (command->count("--rss-target") == 0) flags->rssTargetGb = 8.0;
    }
    emitReport(runGausScale(*flags), options);
  });
}

}  // namespace gaus::bench
