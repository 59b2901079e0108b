// Cost normalization (Twill, Soi et al., OSDI'26, arXiv 2512.18134, section 5.2; TWILL.md
// section 1): exact formulations grow with the cycle counts, and only the ratios between costs
// matter, so the costs are replaced by small integers that keep their ratios as well as possible.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <gaus/core/enum_names.hpp>
#include <gaus/core/expected.hpp>
#include <gaus/core/problem.hpp>
#include <gaus/core/schedule.hpp>
#include <gaus/milp/milp_call.hpp>

namespace gaus::exact {

enum class NormalizationMode {
  kOff,   // solve in raw cycles
  kOn,    // always normalize
  kAuto,  // normalize when the costs are large (NormalizationOptions::largeCostThreshold)
};
inline constexpr auto kNormalizationModeNames = makeEnumNames<NormalizationMode>({
    {NormalizationMode::kOff, "off"},
    {NormalizationMode::kOn, "on"},
    {NormalizationMode::kAuto, "auto"},
});
inline std::string_view toString(NormalizationMode mode) {
  return kNormalizationModeNames.name(mode);
}

struct NormalizationOptions {
  NormalizationMode mode = NormalizationMode::kAuto;
  // U: bound on the sum of the normalized costs (the paper uses 300).
  std::int64_t sumBound = 300;
  // "Large" costs: the largest value of the cost pool exceeds this many cycles. The exact models
  // have a variable or a row per cycle of a window (time-indexed latency MILP, residues of the
  // modulo MILP, residues of the SMT capacity and liveness rows), so their size grows with the
  // costs; up to 64 cycles (every HLS benchmark here: MachSuite's longest op is fp_rdiv at 32
  // cycles) they stay small enough to solve in raw cycles, which keeps those answers exact.
  // Triton's dumps (hundreds to thousands of cycles) are normalized.
  std::int64_t largeCostThreshold = 64;
  // A mapping whose worst relative ratio error exceeds this is reported with a warning.
  double maxRatioError = 0.25;
  double solveSeconds = 10.0;  // for each MILP solve at most, within the call's deadline
  // Branch-and-bound nodes for each MILP solve (0: none). The mapping decides the time
  // unit and so the answer in raw cycles; with only a time limit it depended on the machine's
  // load (Triton's FA: phase 1 proves its optimum at about 1,000 nodes, 9.4-10.5 s here, so a
  // 10 s limit stopped it or not, and the time unit came out 22 or 24). 200 nodes take about
  // 2 s on the loaded development machine, well inside the time limit (docs/exact.md, "Cost
  // normalization").
  std::int64_t nodeLimit = 200;
  // When the paper's mapping zeroes a cost or distorts a ratio beyond maxRatioError, also solve
  // with the sum fixed at U and keep the better mapping (cost_normalization.cpp).
  bool fixedScaleFallback = true;
  // The call of the MILP that normalizes (milp/milp_call.hpp), which hands its block on: the
  // deadline for all the solves together (phase 2 and the fallback are skipped when it has run
  // out, and a phase 1 stopped without a solution keeps its proportional start), the solver and
  // the cancel flag.
  milp::MilpCall call;
};

// The result of the normalization MILP on a pool of costs.
struct CostNormalization {
  std::vector<std::int64_t> values;      // the distinct positive raw costs, increasing
  std::vector<std::int64_t> normalized;  // C' per value, same order
  std::int64_t divisor = 1;              // gcd of the values, divided out before solving
  // F* = max over pairs i < j of |C_i C'_j - C_j C'_i|, with C = values / divisor (of the kept
  // mapping: the fallback's F when fixedScale).
  std::int64_t worstCrossError = 0;
  // max over pairs with both C' > 0 of |(C'_i / C'_j) / (C_i / C_j) - 1|.
  double worstRatioError = 0.0;
  std::int64_t normalizedSum = 0;
  bool provenOptimal = false;  // both solves proven optimal within their limits
  bool fixedScale = false;     // the fallback with the sum fixed at U was kept
  double seconds = 0.0;
  std::vector<std::string> warnings;  // zeroed values, distorted ratios, time limit

  // C' of a raw value of the pool (0 stays 0); nullopt for a value not in the pool.
  std::optional<std::int64_t> map(std::int64_t raw) const;
  // True when some cost maps below its raw value. No C' exceeds its raw cost (the MILP bounds
  // it), so a mapping that shrinks nothing is the identity: solving in its units would change
  // nothing but the time spent, and callers keep the raw costs then.
  bool shrinksSomeCost() const;
  // "1000->4, 1500->6 (F*=0, worst ratio error 0%)".
  std::string describe() const;
};

// Solves the normalization MILP (minimize F, then maximize the sum of C' at F = F*), with every
// C' at most its raw cost: costs whose sum already fits U map to themselves, never up. Duplicates
// and zeros in `costs` are ignored. Fails on a negative cost or when the MILP fails.
Expected<CostNormalization> normalizeCosts(std::span<const std::int64_t> costs,
                                           const NormalizationOptions& options = {});

// The cost pool of a graph: op latencies, reservation block lengths, edge delays, spill costs.
std::vector<std::int64_t> costPool(const Graph& graph);

// True when the largest value of the graph's cost pool exceeds `threshold`.
bool costsAreLarge(const Graph& graph, std::int64_t threshold);

// A problem restated in normalized time units, and how to map its schedules back.
//
// Mapping back: one normalized cycle stands for `timeUnit` raw cycles, timeUnit = max over
// values of ceil(C_i / C'_i). Every normalized cost times timeUnit is at least its raw cost, so
// a normalized schedule scaled by timeUnit is a legal raw schedule: delays and spill costs are
// met, each op's raw reservation lies inside its scaled normalized one (so modulo reservations
// that did not clash still do not), and live intervals scale exactly. Where the paper's C' is 0
// for a nonzero cost, the normalized graph uses 1 (a cost the model may not drop entirely).
struct NormalizedProblem {
  Problem problem;  // graph in normalized units; the machine is shared
  CostNormalization normalization;
  std::int64_t timeUnit = 1;
};

Expected<NormalizedProblem> normalizeProblem(const Problem& problem,
                                             const NormalizationOptions& options = {});

// A schedule of the normalized problem in raw cycles (starts and II times timeUnit).
Schedule toRawSchedule(const NormalizedProblem& normalized, const Schedule& schedule);

// Whether the options ask to normalize this problem: kOn, or kAuto with large costs. A problem
// with a fixed II is never normalized (the II would change); kOn then fails with a message.
Expected<bool> shouldNormalize(const Problem& problem, const NormalizationOptions& options);

}  // namespace gaus::exact
