// An input as read from a file: a graph, the machine it refers to, optionally a schedule, and
// reference figures the source format carries (a dump's min II, a benchmark's baseline latency).
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <gaus/core/expected.hpp>
#include <gaus/core/graph.hpp>
#include <gaus/core/machine.hpp>
#include <gaus/core/problem.hpp>
#include <gaus/core/schedule.hpp>

namespace gaus {

struct Instance {
  std::string name;        // "hal", "case3_FA/loop0"
  std::string sourcePath;  // the file it came from
  std::shared_ptr<const Graph> graph;
  std::shared_ptr<const Machine> machine;
  std::optional<Schedule> schedule;
  // Figures recorded in the source, by name: "res_mii", "rec_mii", "min_ii", "heuristic_ii",
  // "trip_count", ... Readers document the names they fill in docs/formats.md.
  std::map<std::string, double, std::less<>> reference;
  // What the reader chose that the input did not say, one sentence each ("resource model
  // graph2_RM.xml, the base graph's: ..."); the command line prints them.
  std::vector<std::string> notes;

  Problem problem(ProblemKind kind, std::optional<Cycle> horizon = std::nullopt,
                  std::optional<std::int32_t> ii = std::nullopt) const;
};

// The instance with its ops' reservations rebound to `machine` by resource name (and
// footprints by memory name). Fails naming the first resource or memory the machine lacks.
Expected<Instance> rebindMachine(const Instance& instance, const Machine& machine);

}  // namespace gaus
