// gaus-bench list: list scheduling of a generated DAG (default 1,000,000 ops, ~3,000,000 edges,
// four op types on limited units): the time of one listSchedule call and the peak resident
// memory while it runs, then the schedule's latency against its lower bounds and verify(), and
// what one GauS candidate costs on the same graph (the prepared scheduler, one schedule in the
// order of per-op keys, its verdict). `--id-span 0` lets edges join any two ops, so that the op
// ids follow no order, as in `gaus generate`'s graphs.
//
// The graph is generated in this process before the measurement. The peak-RSS mark is reset
// after generation (bench_support.hpp resetPeakRss), so the target figure covers the graph
// resident in memory plus everything the scheduler allocates, not the generator's scratch.

#include <memory>

#include <fmt/format.h>

#include <gaus/core/analysis.hpp>
#include <gaus/core/random_graph.hpp>
#include <gaus/core/verify.hpp>
#include <gaus/heuristic/list_scheduler.hpp>

#include "bench_main.hpp"

namespace gaus::bench {

namespace {

struct ListBenchFlags {
  std::int32_t ops = 1000000;
  double degree = 3.0;
  std::int32_t idSpan = 2000;
  std::uint64_t seed = 1;
};

// Local edges (as in the foundation suite) and HLS-like types: single-cycle ALUs, pipelined
// multipliers, memory ports busy two cycles, and a rare unpipelined divider.
RandomGraphOptions listGraphOptions(const ListBenchFlags& flags) {
  RandomGraphOptions options;
  options.ops = flags.ops;
  options.averageDegree = flags.degree;
  options.maxIdSpan = flags.idSpan;
  options.opTypes = {{"ALU", 1, 1, 1, 64, 3.0},
                     {"MUL", 2, 4, 1, 20, 1.0},
                     {"MEM", 1, 3, 2, 40, 1.0},
                     {"DIV", 8, 12, 4, 4, 0.05}};
  options.seed = flags.seed;
  return options;
}

Report runListBench(const ListBenchFlags& flags) {
  Report report("List scheduling of a generated DAG");
  for (auto& [key, value] : environmentNotes()) report.note(key, value);
  const RandomGraphOptions options = listGraphOptions(flags);

  Stopwatch generateClock;
  auto generated = generateRandomGraph(options);
  if (!generated) throw std::runtime_error(generated.error());
  const Problem problem = toInstance(std::move(generated).value()).problem(ProblemKind::kLatency);
  const Graph& graph = *problem.graph;
  report.note("graph",
              fmt::format("{} ops, {} edges (generated in {:.2f} s: average degree {}, "
                          "edges span {}, seed {})",
                          graph.numOps(), graph.numEdges(), generateClock.seconds(), flags.degree,
                          options.maxIdSpan > 0 ? fmt::format("at most {} ops", options.maxIdSpan)
                                                : std::string("any distance"),
                          flags.seed));
  report.note("op types", describeOpTypes(options.opTypes));

  const bool peakWasReset = resetPeakRss();
  Stopwatch scheduleClock;
  auto schedule = heuristic::listSchedule(problem);
  const double scheduleSeconds = scheduleClock.seconds();
  if (!schedule) throw std::runtime_error(schedule.error());
  const auto schedulingPeak = peakRssSinceResetBytes();
  report.add({"list schedule (priority height)", scheduleSeconds, "s", 5.0, std::nullopt});
  if (peakWasReset && schedulingPeak) {
    report.add({"peak RSS while scheduling (graph + scheduler)",
                static_cast<double>(*schedulingPeak) / 1e9, "GB", 2.0, std::nullopt});
    report.add({"peak RSS of the run (generation included)",
                static_cast<double>(peakRssBytes()) / 1e9, "GB", std::nullopt, std::nullopt});
  } else {
    report.note("peak RSS", "the peak-RSS mark could not be reset: the figure includes generation");
    report.add({"peak RSS of the run (generation included)",
                static_cast<double>(peakRssBytes()) / 1e9, "GB", 2.0, std::nullopt});
  }

  Stopwatch verifyClock;
  const VerificationReport verification = verify(problem, *schedule);
  const double verifySeconds = verifyClock.seconds();
  if (!verification.ok()) {
    throw std::runtime_error("the list schedule failed verification: " + verification.summary());
  }
  report.add({"verify the schedule", verifySeconds, "s", std::nullopt, std::nullopt});

  // What a GauS candidate costs on this graph (issue 28's target: 10 s at 10M ops): the prepared
  // scheduler (checks, heights, ASAP once per run) and one schedule in the order of per-op keys
  // with ALAP ties, as the legalization of rounded means does. The keys are the list schedule's
  // starts: means near a legal schedule, what the optimizer offers after its first steps.
  Stopwatch prepareClock;
  auto prepared = heuristic::ListScheduler::prepare(problem);
  if (!prepared) throw std::runtime_error(prepared.error());
  report.add({"prepare the scheduler (once per GauS run)", prepareClock.seconds(), "s",
              std::nullopt, std::nullopt});
  heuristic::ListSchedulerOptions candidateOptions;
  candidateOptions.priority = heuristic::ListPriority::kCustom;
  candidateOptions.tieBreak = heuristic::ListPriority::kAlap;
  candidateOptions.customKey.assign(schedule->start.begin(), schedule->start.end());
  Stopwatch candidateClock;
  auto candidate = prepared->schedule(candidateOptions);
  const double candidateSeconds = candidateClock.seconds();
  if (!candidate) throw std::runtime_error(candidate.error());
  report.add({"one candidate's list schedule (keys = starts, ALAP ties)", candidateSeconds, "s",
              std::nullopt, std::nullopt});
  VerifyOptions verdictOnly;
  verdictOnly.maxMessages = 0;
  verdictOnly.metrics = false;
  Stopwatch verdictClock;
  if (!verify(problem, *candidate, verdictOnly).ok()) {
    throw std::runtime_error("the candidate's list schedule failed verification");
  }
  const double verdictSeconds = verdictClock.seconds();
  report.add(
      {"its verdict (verify without metrics)", verdictSeconds, "s", std::nullopt, std::nullopt});
  report.add({"one candidate in all (schedule + verdict; 10 s at 10M ops)",
              candidateSeconds + verdictSeconds, "s", std::nullopt, std::nullopt});

  const auto order = topologicalOrder(graph);
  if (!order) throw std::runtime_error(order.error());
  const Cycle criticalPath = criticalPathLength(graph, asapTimes(graph, *order));
  const ResMii resourceBound = computeResMii(graph, *problem.machine);
  const Cycle lowerBound = std::max<Cycle>(criticalPath, resourceBound.value);
  const Cycle latency = verification.metrics.latency;
  report.note(
      "schedule",
      fmt::format(
          "latency {} cycles; lower bound {} (critical path {}, "
          "resource bound {} on {}); latency / bound {:.3f}",
          latency, lowerBound, criticalPath, resourceBound.value,
          resourceBound.binding ? problem.machine->resources[*resourceBound.binding].name : "none",
          static_cast<double>(latency) / static_cast<double>(std::max<Cycle>(lowerBound, 1))));
  return report;
}

}  // namespace

void addListSuite(CLI::App& app, BenchOptions& options) {
  auto flags = std::make_shared<ListBenchFlags>();
  CLI::App* command = app.add_subcommand(
      "list", "List scheduling of a generated DAG on limited units: time and peak RSS");
  command->add_option("--ops", flags->ops, "Ops")->capture_default_str();
  command->add_option("--degree", flags->degree, "Average out-degree")->capture_default_str();
  command
      ->add_option("--id-span", flags->idSpan,
                   "Positions an edge may span in the hidden order (0 = any: no locality)")
      ->capture_default_str();
  command->add_option("--seed", flags->seed, "Seed")->capture_default_str();
  command->callback([flags, &options] { emitReport(runListBench(*flags), options); });
}

}  // namespace gaus::bench
