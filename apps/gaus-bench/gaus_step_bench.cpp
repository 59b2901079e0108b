// gaus-bench gaus-step: the time of one GauS optimization step (an Adam step of the augmented
// Lagrangian, the multiplier update's evaluation spread over its K steps) on a 10,000-op /
// ~30,000-edge generated DAG, float32, one batch row, CPU. Issue 4's target: <= 50 ms at a
// horizon D >= 500. The figure is the engine's own (`seconds_per_step`: time inside Adam steps
// and multiplier updates divided by the steps), from a run of formulation L with a fixed step
// budget; the horizon is the first attempt's, list scheduling's latency - 1 (linear search).

#include <memory>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <gaus/methods/method_catalog.hpp>

#include "bench_main.hpp"
#include "gaus_workload.hpp"
#include "shared_benchmarks.hpp"

namespace gaus::bench {

namespace {

struct GausStepFlags {
  std::int32_t ops = 10000;
  std::uint64_t seed = 1;
  std::int64_t steps = 300;
  std::string kernels = "auto";
  std::int64_t threads = 0;
  double targetMs = 50.0;
  std::int64_t minHorizon = 500;
};

Report runGausStep(const GausStepFlags& flags) {
  Report report("GauS: time per optimization step");
  for (auto& [key, value] : environmentNotes()) report.note(key, value);
  const Instance instance = generateGausWorkload(flags.ops, flags.seed);
  const Graph& graph = *instance.graph;
  report.note("graph",
              fmt::format("generated, seed {}: {} ops, {} edges; {}", flags.seed, graph.numOps(),
                          graph.numEdges(),
                          describeOpTypes(gausWorkloadOptions(flags.ops, flags.seed).opTypes)));
  const Result list = runCatalogMethod("list", instance, ProblemKind::kLatency);
  requireVerified(list, "list", instance.name);

  const MethodOptions options = {
      {"formulation", "L"},         {"batch", "1"},
      {"dtype", "float32"},         {"device", "cpu"},
      {"kernels", flags.kernels},   {"threads", std::to_string(flags.threads)},
      {"horizon_search", "linear"}, {"max_steps", std::to_string(flags.steps)},
      {"progress_interval", "1000"}};
  report.note("run", fmt::format("method gaus, formulation L, batch 1, float32, CPU, kernels {}, "
                                 "threads {} (0: LibTorch's default), {} Adam steps in all",
                                 flags.kernels, flags.threads, flags.steps));
  Stopwatch wall;
  const Result result = runCatalogMethod("gaus", instance, ProblemKind::kLatency, options, 3600.0);
  const double seconds = wall.seconds();
  requireVerified(result, "gaus", instance.name);
  const auto horizons = attemptedHorizons(result);
  const auto perStep = methodCatalog().find("gaus")->figureValue(result, "seconds_per_step");
  const auto steps = methodCatalog().find("gaus")->figureValue(result, "adam_steps");
  if (horizons.empty() || !perStep || !steps) {
    throw std::runtime_error(
        fmt::format("gaus on {} reported no attempt or no step figures ({}: {})", instance.name,
                    result.statusText(), result.message));
  }
  report.add("list scheduling latency", static_cast<double>(list.verification->metrics.latency),
             "cycles");
  report.add({"horizon D of the timed steps (first attempt)", static_cast<double>(horizons.front()),
              "cycles", std::nullopt, static_cast<double>(flags.minHorizon)});
  report.add("Adam steps", *steps);
  report.add({"time per step", *perStep * 1e3, "ms", flags.targetMs, std::nullopt});
  report.add("run wall time (steps, legalization, start)", seconds, "s");
  report.add("GauS latency after the steps",
             static_cast<double>(result.verification->metrics.latency), "cycles");
  report.add("peak RSS", static_cast<double>(peakRssBytes()) / 1e9, "GB");
  report.note("status", fmt::format("{}: {}", toString(result.status), result.message));
  return report;
}

}  // namespace

void addGausStepSuite(CLI::App& app, BenchOptions& options) {
  auto flags = std::make_shared<GausStepFlags>();
  CLI::App* command = app.add_subcommand(
      "gaus-step", "GauS: ms per ALM/Adam step on a 10,000-op random DAG (target <= 50 ms)");
  command->add_option("--ops", flags->ops, "Ops of the generated DAG")->capture_default_str();
  command->add_option("--seed", flags->seed, "Seed of the generator")->capture_default_str();
  command->add_option("--steps", flags->steps, "Adam steps timed (max_steps)")
      ->capture_default_str();
  command->add_option("--kernels", flags->kernels, "fused, torch or auto")->capture_default_str();
  command->add_option("--threads", flags->threads, "CPU threads (0: LibTorch's default)")
      ->capture_default_str();
  command->add_option("--target-ms", flags->targetMs, "Target per step")->capture_default_str();
  command->callback([flags, &options] { emitReport(runGausStep(*flags), options); });
}

}  // namespace gaus::bench
