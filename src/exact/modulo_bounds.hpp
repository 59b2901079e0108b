// Internal to the exact engine: what is known at a fixed II before a modulo model is built.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <gaus/core/graph.hpp>
#include <gaus/core/machine.hpp>

namespace gaus::exact::detail {

// A reservation that cannot fit at any II this small: a block on a unit of capacity c whose
// units times length exceed c times II (it would overlap itself).
std::optional<std::string> reservationTooLong(const Graph& graph, const Machine& machine,
                                              std::int32_t ii);

// An upper bound on L that loses no schedule: when any modulo schedule exists at `ii`, one
// exists with latency <= this bound (proof in modulo_bounds.cpp). `earliest` holds the ASAP
// starts over every edge at `ii` (core's moduloAsapTimes). It bounds the windows (and the stage
// variables) when no start schedule is found, without which CBC cannot prove an II infeasible:
// unbounded integer stages leave the LP relaxation feasible at every node.
Cycle existenceLatencyBound(const Graph& graph, std::int32_t ii,
                            const std::vector<Cycle>& earliest);

}  // namespace gaus::exact::detail
