// What is asked of a scheduler: a graph, a machine and the kind of problem with its parameters.
// Following CIRCT's scheduling library, the problem owns the data and the input check; schedulers
// are separate free functions. The problem may state its objective (ProblemObjective); unset,
// each method minimizes its own default for the kind.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <gaus/core/enum_names.hpp>
#include <gaus/core/expected.hpp>
#include <gaus/core/graph.hpp>
#include <gaus/core/machine.hpp>

namespace gaus {

enum class ProblemKind {
  // Minimize latency under resources; one iteration (edges with distance > 0 are ignored).
  kLatency,
  // Horizon D is given; every op completes by D. Methods minimize a secondary objective (peak
  // stage weight, peak memory, communication) under resources.
  kLatencyBounded,
  // Modulo scheduling: find the smallest II (or use the given one) and a schedule that repeats
  // every II cycles, honoring loop-carried edges and the modulo reservation table.
  kModulo,
  // Modulo scheduling plus a warp assignment (Twill): warps, registers, memories, isolation.
  kModuloWarp,
  // GS-Schedule's stage assignment (docs/formats.md "Stage problems"): horizon D stages, an op's
  // start is its stage in 0..D-1, s_u <= s_v on every distance-0 edge (same stage allowed);
  // methods minimize stageRatio x peak stage weight + comm-edge stage crossings.
  kStages,
};

// What a method is asked to minimize (docs/formats.md "Objectives"). kMethodDefault leaves it to
// the method (ilp: latency, II then L, or peak memory on a latency-bounded graph with mems; GauS:
// its formulation's). Each other objective fits some kinds only (objectiveFits).
enum class ProblemObjective {
  kMethodDefault,
  kLatency,     // latency problems
  kIi,          // modulo problems: II first, then L at that II
  kPeakMemory,  // latency-bounded problems: peak live memory (GauS's formulation B)
  kStageCost,   // latency-bounded and stage problems: the peak stage weight (GauS's formulation A)
};

inline constexpr auto kProblemObjectiveNames = makeEnumNames<ProblemObjective>({
    {ProblemObjective::kMethodDefault, "default"},
    {ProblemObjective::kLatency, "latency"},
    {ProblemObjective::kIi, "ii"},
    {ProblemObjective::kPeakMemory, "peak_memory"},
    {ProblemObjective::kStageCost, "stage_cost"},
});
inline std::string_view toString(ProblemObjective objective) {
  return kProblemObjectiveNames.name(objective);
}
// The objective named `text` (--objective; empty: kMethodDefault), or the message that lists the
// names.
Expected<ProblemObjective> parseProblemObjective(std::string_view text);
// Whether `objective` can be asked of a `kind` problem (kMethodDefault always can).
bool objectiveFits(ProblemObjective objective, ProblemKind kind);
// The kinds an objective fits, as "latency-bounded, stages" for a message.
std::string kindsForObjective(ProblemObjective objective);

std::string_view toString(ProblemKind kind);
std::optional<ProblemKind> parseProblemKind(std::string_view text);
std::vector<std::string> problemKindNames();  // every kind as parseProblemKind reads it

struct Problem {
  std::shared_ptr<const Graph> graph;
  std::shared_ptr<const Machine> machine;
  ProblemKind kind = ProblemKind::kLatency;
  std::optional<Cycle> horizon;    // D: every op must complete by D
  std::optional<std::int32_t> ii;  // fixed initiation interval (kModulo / kModuloWarp)
  // kStages: weight of the peak stage weight against one stage boundary crossed by a comm edge
  // (GS-Schedule's ratio 100).
  double stageRatio = 100.0;
  ProblemObjective objective = ProblemObjective::kMethodDefault;

  // Every input error, each naming the op, edge or resource and the number at fault: a resource
  // id beyond the machine, a reservation on a resource of capacity 0, a zero-distance cycle, a
  // loop-carried edge in a modulo problem without positive II, warp requirements the machine
  // cannot meet, an objective the kind has not. Empty when the input is well formed.
  std::vector<std::string> check() const;

  bool isModulo() const { return kind == ProblemKind::kModulo || kind == ProblemKind::kModuloWarp; }
};

}  // namespace gaus
