// Deterministic random and-inverter graphs with a given profile (inputs, AND gates, depth,
// outputs, components), as the AIGER reader maps a circuit: an op per primary input (kind PI)
// and per AND gate (kind AND), latency 1, mem 1, each on an unlimited resource named after its
// kind, an edge per fan-in. The structure follows distributions fitted to the shared EPFL
// circuits (docs/random_graphs.md, "Circuits": each parameter with the figure it was fitted to).
#pragma once

#include <cstdint>
#include <optional>

#include <gaus/core/enum_names.hpp>
#include <gaus/core/expected.hpp>
#include <gaus/core/random_graph.hpp>

namespace gaus {

// Which shared EPFL circuits the defaults are the medians of: all eleven, the four arithmetic
// ones (adder, bar, max, sin) or the seven random-control ones (cavlc, ctrl, dec, i2c,
// int2float, priority, router), the suite's own two folders.
enum class CircuitFamily { kEpfl, kArithmetic, kControl };
inline constexpr auto kCircuitFamilyNames = makeEnumNames<CircuitFamily>({
    {CircuitFamily::kEpfl, "epfl"},
    {CircuitFamily::kArithmetic, "arithmetic"},
    {CircuitFamily::kControl, "control"},
});

// The structure of a generated circuit. Levels: inputs at 0, a gate one above its deeper
// fan-in. Every figure is a median over the family's circuits (the table of the docs).
struct CircuitParameters {
  // AND gates on level 1 (both fan-ins inputs) per input.
  double level1PerInput = 1.56;
  // Widths of levels 2..depth: proportional to exp(-widthDecay x + noise), x in [0, 1] from the
  // second level to the last; the noise is Gaussian in log width, standard deviation
  // widthNoise, correlation widthCorrelation from one level to the next.
  double widthDecay = 1.78;
  double widthNoise = 0.47;
  double widthCorrelation = 0.46;
  // The fraction of gates past level 1 whose second (shallower) fan-in is a primary input.
  double inputReads = 0.48;
  // Of the other second fan-ins, the fraction on the first fan-in's level; the rest are d levels
  // below the gate with d - 1 log-uniform in [1, level - 2].
  double sameLevelFanin = 0.21;
  // The fraction of outputs (gates no gate reads) on the last level, and the mean of level / depth
  // over the others.
  double outputsOnLastLevel = 0.14;
  double innerOutputDepth = 0.70;
  // Gates per level on a longest path (zero slack at D = depth + 1), as a chain of first
  // fan-ins whose second fan-ins lie two or more levels up; the last level reads it. The other
  // gates all have slack.
  std::int32_t criticalGates = 1;
  // The other gates that are read: the mean of height / (depth - level), height the gates on
  // the longest path from the gate to an output (1 would be critical: no slack at D).
  double heightFraction = 0.54;
};

CircuitParameters circuitFamilyParameters(CircuitFamily family);

struct RandomCircuitOptions {
  std::int32_t inputs = 32;
  std::int32_t ands = 1000;
  std::int32_t depth = 50;  // AIG levels: the longest path has depth + 1 nodes
  // Gates no gate reads; unset: as many as inputs (the suite's median outputs / inputs is 0.95),
  // within what the depth and the components allow.
  std::optional<std::int32_t> outputs;
  std::int32_t components = 1;  // weakly connected components
  // The mean number of gates of each component beyond the first (small cones, as in control
  // logic; the first holds the rest and the full depth). Not fitted: the shared circuits have
  // one component, apart from i2c's eleven inputs no gate reads.
  double componentGates = 8.0;
  CircuitParameters parameters;
  std::uint64_t seed = 1;
};

// Exactly `inputs` inputs, `ands` gates with two distinct fan-ins each (2 * ands edges), depth
// `depth` and `components` weakly connected components; every input is read by a gate, and the
// gates no gate reads number `outputs`, or a few more where no reader could be found for a
// value (the result's graph says how many). Fails with the reason for a profile that cannot
// exist (depth above the gates, more components than input pairs, ...). The same options give
// the same graph on every machine.
Expected<RandomInstance> generateRandomCircuit(const RandomCircuitOptions& options);

}  // namespace gaus
