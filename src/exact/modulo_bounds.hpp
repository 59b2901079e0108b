// Internal to the exact engine: what is known at a fixed II before a modulo model is built.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <gaus/core/analysis.hpp>
#include <gaus/core/graph.hpp>
#include <gaus/core/machine.hpp>
#include <gaus/exact/twill.hpp>

namespace gaus::exact::detail {

// A reservation that cannot fit at any II this small: a block on a unit of capacity c whose
// units times length exceed c times II (it would overlap itself).
std::optional<std::string> reservationTooLong(const Graph& graph, const Machine& machine,
                                              std::int32_t ii);

// An upper bound on L that loses no schedule: when any modulo schedule exists at `ii`, one
// exists with latency <= this bound (proof in modulo_bounds.cpp). `earliest` holds the ASAP
// starts over every edge at `ii` (core's moduloAsapTimes). It bounds the windows (and the stage
// variables) when no start schedule is found, without which the MILP solver cannot prove an II
// infeasible: unbounded integer stages leave the LP relaxation feasible at every node.
Cycle existenceLatencyBound(const Graph& graph, std::int32_t ii,
                            const std::vector<Cycle>& earliest);

// Bounds of modulo-warp schedules (Twill) that hold for every schedule length L; the argument
// is in docs/exact.md, "II proofs for every L", and at each definition.

// The warp-aware RecMII: RecMII of the graph in which every edge whose ends can never share a
// warp set (core warpSetsAlwaysDiffer) needs its cross-warp delay (core crossWarpDelay). Every
// schedule pays those delays, at any L, so no II below it has a schedule. Only when the
// dependence, spill-delay, warp-uniqueness and variable-latency families are all on (the rules
// it reads are theirs); else the plain RecMII.
RecMii computeWarpAwareRecMii(const Graph& graph, const Machine& machine,
                              const TwillFamilySet& families);

// An L that suffices at `ii`: when a modulo-warp schedule meeting the families on exists at
// `ii`, one exists with latency at most this bound, so refuting every L up to it refutes the
// II. Nothing when a family that depends on lifetimes could bind (register-limit with a limit
// and a value holding registers, memory with a value holding a footprint): moving an op earlier
// can lengthen its value's lifetime, and the argument moves ops earlier.
std::optional<Cycle> warpLatencyBound(const Graph& graph, const Machine& machine, std::int32_t ii,
                                      const TwillFamilySet& families);

// The graph without what makes lifetimes matter: no op holds registers or a memory footprint.
// Only the register-limit and memory families read those, and they only remove schedules, so
// every schedule of the graph is one of this relaxation, and warpLatencyBound has an L for it:
// refuting the relaxation at that L refutes the graph's II for every L, registers or not.
Graph withoutLifetimeCosts(const Graph& graph);

}  // namespace gaus::exact::detail
