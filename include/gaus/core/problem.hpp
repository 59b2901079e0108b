// What is asked of a scheduler: a graph, a machine and the kind of problem with its parameters.
// Following CIRCT's scheduling library, the problem owns the data and the input check; schedulers
// are separate free functions. The problem states its objective (ProblemObjective): named by the
// caller, or, when posed, the default of one rule (preferredObjectives, core/problem_kinds.hpp).
// A posed problem carries its facts (core/problem_facts.hpp), computed once for every layer.
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

class ProblemFacts;

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

// What a method is asked to minimize (docs/formats.md "Objectives"): one vocabulary for the
// problem's --objective, the names results report their objective by, and the values of the
// method options that pick one (GauS's and fds's `objective`). Each fits some kinds only
// (objectiveFits). kMethodDefault is a problem whose objective nobody named and posing has not
// resolved yet (a problem built by hand): objectiveOf reads it by the one rule.
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
  // Whether the caller named the objective (--objective, an experiment's problem.objective);
  // otherwise posing resolved it (resolveObjective, methods/registry.hpp), and a method option
  // that picks another one (GauS's -O formulation) is not refused for it.
  bool objectiveNamed = false;
  // The facts of the posed problem (core/problem_facts.hpp), shared by its copies; read through
  // facts().
  std::shared_ptr<const ProblemFacts> posedFacts;

  // Every input error, each naming the op, edge or resource and the number at fault: a resource
  // id beyond the machine, a reservation on a resource of capacity 0, a zero-distance cycle, a
  // loop-carried edge in a modulo problem without positive II, warp requirements the machine
  // cannot meet. Empty when the input is well formed. (Whether the objective fits the kind is
  // the registry's one objective check: objectiveRefusal, methods/registry.hpp.)
  std::vector<std::string> check() const;

  bool isModulo() const { return kind == ProblemKind::kModulo || kind == ProblemKind::kModuloWarp; }

  // The problem's facts: the posed ones when they are of this graph, machine and horizon, else
  // computed for the caller (a problem built by hand, or changed after it was posed).
  std::shared_ptr<const ProblemFacts> facts() const;
};

// `problem` carrying its facts (computed on first use), unless those it carries are its own.
Problem withFacts(Problem problem);

}  // namespace gaus
