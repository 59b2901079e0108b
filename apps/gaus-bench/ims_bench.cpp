// gaus-bench ims: iterative modulo scheduling of a generated loop body (default 2,000 ops, 20
// loop-carried edges of distance 1 or 2): time, the II found against MII = max(ResMII, RecMII),
// and the search effort (II attempts, evictions).
//
// The default shape puts both bounds close: edges span at most 50 ops, so the back edges close
// recurrences of a few hundred cycles (RecMII), while four HLS-like types on few units give a
// ResMII of the same order. IMS then has to trade the two, which a loop bound by one of them
// alone does not show.

#include <memory>

#include <fmt/format.h>

#include <gaus/core/random_graph.hpp>
#include <gaus/core/verify.hpp>
#include <gaus/heuristic/heuristic_figures.hpp>
#include <gaus/heuristic/iterative_modulo_scheduler.hpp>

#include "bench_main.hpp"

namespace gaus::bench {

namespace {

struct ImsBenchFlags {
  std::int32_t ops = 2000;
  std::int32_t backEdges = 20;
  std::uint64_t seed = 1;
};

RandomGraphOptions imsLoopOptions(const ImsBenchFlags& flags) {
  RandomGraphOptions options;
  options.ops = flags.ops;
  options.averageDegree = 2.0;
  options.maxIdSpan = 50;
  options.opTypes = {{"ALU", 1, 2, 1, 8, 3.0},
                     {"MUL", 2, 4, 1, 4, 1.0},
                     {"MEM", 2, 3, 1, 3, 1.0},
                     {"DIV", 8, 16, 4, 1, 0.1}};
  options.backEdges = flags.backEdges;
  options.maxDistance = 2;
  options.seed = flags.seed;
  return options;
}

double reported(const Result& result, const gaus::Figure& figure) {
  if (const auto value = result.figures.get(figure)) return *value;
  throw std::runtime_error(fmt::format("the IMS result has no figure '{}'", figure.name));
}

Report runImsBench(const ImsBenchFlags& flags) {
  Report report("Iterative modulo scheduling of a generated loop body");
  for (auto& [key, value] : environmentNotes()) report.note(key, value);
  const RandomGraphOptions options = imsLoopOptions(flags);
  auto generated = generateRandomGraph(options);
  if (!generated) throw std::runtime_error(generated.error());
  const Problem problem = toInstance(std::move(generated).value()).problem(ProblemKind::kModulo);
  report.note("graph", fmt::format("{} ops, {} edges, {} of them loop-carried with distance "
                                   "1-{} (average degree {}, edges span at most {} ops, seed {})",
                                   problem.graph->numOps(), problem.graph->numEdges(),
                                   flags.backEdges, options.maxDistance, options.averageDegree,
                                   options.maxIdSpan, flags.seed));
  report.note("op types", describeOpTypes(options.opTypes));

  Stopwatch clock;
  const Result result = heuristic::iterativeModuloSchedule(problem);
  const double seconds = clock.seconds();
  if (!result.schedule || !result.schedule->ii) {
    throw std::runtime_error("IMS returned no schedule: " + result.message);
  }
  const VerificationReport verification = verify(problem, *result.schedule);
  if (!verification.ok()) {
    throw std::runtime_error("the IMS schedule failed verification: " + verification.summary());
  }
  const double ii = *result.schedule->ii;
  if (!result.bounds.mii) throw std::runtime_error("IMS reported no MII");
  const MiiBound& bound = *result.bounds.mii;
  const auto mii = static_cast<double>(bound.value);
  report.add({"IMS time", seconds, "s", std::nullopt, std::nullopt});
  report.add({"II", ii, "cycles", std::nullopt, std::nullopt});
  report.add({"MII = max(ResMII, RecMII)", mii, "cycles", std::nullopt, std::nullopt});
  report.add({"  ResMII", static_cast<double>(bound.resMii), "cycles", std::nullopt, std::nullopt});
  report.add({"  RecMII", static_cast<double>(bound.recMii), "cycles", std::nullopt, std::nullopt});
  report.add({"II / MII", ii / mii, "", std::nullopt, std::nullopt});
  report.add({"II attempts", reported(result, heuristic::figures::kAttempts), "", std::nullopt,
              std::nullopt});
  report.add({"evictions", reported(result, heuristic::figures::kEvictions), "", std::nullopt,
              std::nullopt});
  report.add({"schedule length", reported(result, heuristic::figures::kLatency), "cycles",
              std::nullopt, std::nullopt});
  report.add(
      {"stages", reported(result, heuristic::figures::kStages), "", std::nullopt, std::nullopt});
  report.note("II bound", bound.reason);
  report.note("verified", "yes");
  return report;
}

}  // namespace

void addImsSuite(CLI::App& app, BenchOptions& options) {
  auto flags = std::make_shared<ImsBenchFlags>();
  CLI::App* command = app.add_subcommand(
      "ims", "Iterative modulo scheduling of a generated loop body: time, II and MII");
  command->add_option("--ops", flags->ops, "Ops")->capture_default_str();
  command->add_option("--back-edges", flags->backEdges, "Loop-carried edges")
      ->capture_default_str();
  command->add_option("--seed", flags->seed, "Seed")->capture_default_str();
  command->callback([flags, &options] { emitReport(runImsBench(*flags), options); });
}

}  // namespace gaus::bench
