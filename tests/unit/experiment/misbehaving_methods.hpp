// Methods that exist only in the experiment tests (never in the catalog): one that sleeps and
// then returns the ASAP schedule (slow but correct, for interrupts and parallel runs), and
// four that misbehave the ways the runner must survive: abort, allocate without bound, throw,
// hang past their time limit. Each is made with makeMethod and an option table like every method,
// so the runner treats them as it treats any other.
#pragma once

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <thread>
#include <vector>

#include <gaus/core/analysis.hpp>
#include <gaus/methods/method_catalog.hpp>
#include <gaus/methods/registry.hpp>

namespace gaus::test {

struct MisbehavingOptions {
  double seconds = 0.2;             // "sleepy": how long it sleeps
  std::optional<double> timeLimit;  // declared so that the runner's settings reach it
  std::uint64_t seed = 1;           // declared so that runs are made per seed
};

inline const OptionTable<MisbehavingOptions>& misbehavingOptionTable() {
  static const OptionTable<MisbehavingOptions> table = [] {
    OptionTable<MisbehavingOptions> made("misbehaving");
    made.add("seconds", &MisbehavingOptions::seconds, "seconds to sleep", NumericRange::atLeast(0))
        .add("time_limit", &MisbehavingOptions::timeLimit, "ignored (the hang method's point)",
             NumericRange::above(0))
        .add("seed", &MisbehavingOptions::seed, "ignored");
    return made;
  }();
  return table;
}

// The ASAP schedule: legal on a graph without limited resources.
inline Result asapResult(const Problem& problem) {
  Result result;
  const auto order = topologicalOrder(*problem.graph);
  if (!order) return errorResult(order.error());
  Schedule schedule;
  schedule.start = asapTimes(*problem.graph, *order);
  result.objectiveName = "latency";
  result.objective = static_cast<double>(criticalPathLength(*problem.graph, schedule.start));
  result.status = ModelStatus::kFeasible;
  result.schedule = std::move(schedule);
  return result;
}

inline void addMisbehavingMethods(MethodRegistry& registry) {
  const std::vector<ProblemKind> kinds = {ProblemKind::kLatency, ProblemKind::kLatencyBounded};
  registry.add(makeMethod<MisbehavingOptions>(
      "sleepy", "sleeps, then returns the ASAP schedule", kinds, misbehavingOptionTable(),
      [](const Problem& problem, const MisbehavingOptions& options, const RunContext&) {
        std::this_thread::sleep_for(std::chrono::duration<double>(options.seconds));
        return asapResult(problem);
      }));
  registry.add(makeMethod<MisbehavingOptions>("abort", "calls std::abort", kinds,
                                              misbehavingOptionTable(),
                                              [](const Problem&, const MisbehavingOptions&,
                                                 const RunContext&) -> Result { std::abort(); }));
  registry.add(makeMethod<MisbehavingOptions>(
      "allocate", "allocates 64 MB blocks, touching every page, until an allocation fails", kinds,
      misbehavingOptionTable(),
      [](const Problem& problem, const MisbehavingOptions&, const RunContext&) {
        std::vector<std::vector<char>> blocks;
        for (;;) blocks.emplace_back(std::size_t{64} << 20, 'x');
        return asapResult(problem);  // never reached
      }));
  registry.add(makeMethod<MisbehavingOptions>(
      "throw", "throws an exception whose message reports ENOMEM, as LibTorch's allocator does",
      kinds, misbehavingOptionTable(),
      [](const Problem&, const MisbehavingOptions&, const RunContext&) -> Result {
        throw std::runtime_error(std::string("can't allocate memory: ") + std::strerror(ENOMEM) +
                                 "\nframe #0: a backtrace line");
      }));
  registry.add(makeMethod<MisbehavingOptions>(
      "hang", "sleeps forever, ignoring its time limit", kinds, misbehavingOptionTable(),
      [](const Problem& problem, const MisbehavingOptions&, const RunContext&) {
        for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
        return asapResult(problem);  // never reached
      }));
}

// The catalog's list method and the misbehaving ones: the registry the runner tests run with.
inline const MethodRegistry& testRegistry() {
  static const MethodRegistry registry = [] {
    MethodRegistry made;
    made.add(*methodCatalog().find("list"));
    addMisbehavingMethods(made);
    return made;
  }();
  return registry;
}

}  // namespace gaus::test
