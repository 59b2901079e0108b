// The first half of generateRandomCircuit (random_circuit.cpp): the profile checked, split into
// components, and each component's level widths and outputs per level, before any fan-in is
// drawn. Private to core.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <gaus/core/random_circuit.hpp>

#include "random_stream.hpp"

namespace gaus::detail {

// One weakly connected component: its counts, then its shape.
struct ComponentPlan {
  std::int32_t inputs = 2;
  std::int32_t gates = 1;
  std::int32_t depth = 1;
  std::int32_t outputs = 1;
  // gates per level: width[0] = inputs, width[l] for levels 1..depth
  std::vector<std::int32_t> width;
  // of those, the outputs (gates no gate reads): all of the last level, none of level 0
  std::vector<std::int32_t> outputsAt;
};

// The outputs asked for, or the default (as many as inputs, within the bounds below).
std::int32_t circuitOutputs(const RandomCircuitOptions& options);

// Why the profile cannot exist (the bound and what to change), or nothing.
std::optional<std::string> checkCircuitProfile(const RandomCircuitOptions& options,
                                               std::int32_t outputs);

// Component 0 has the full depth and what the others leave; components 1.. are small cones of
// about options.componentGates gates each, with the profile's ratios of inputs and outputs to
// gates. Counts only (width and outputsAt empty). Needs a profile that checkCircuitProfile
// accepts.
std::vector<ComponentPlan> planComponents(const RandomCircuitOptions& options, std::int32_t outputs,
                                          RandomStream& random);

// Fills plan.width and plan.outputsAt (see CircuitParameters for the distributions).
void shapeComponent(const CircuitParameters& parameters, ComponentPlan& plan, RandomStream& random);

}  // namespace gaus::detail
