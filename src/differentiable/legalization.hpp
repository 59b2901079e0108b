// Legalization (GAUS.md "Legalization"): every candidate leaves the engine as an exact, legal
// schedule or not at all. Both cases are the heuristic module's list schedulers with priority
// round(mu_i), ties by smaller ALAP, then id:
// - Acyclic: listSchedule; optionally no op starts before round(mu_i) (release times).
// - Modulo: moduloListSchedule at II (a modulo reservation table, loop-carried edges repaired by
//   repeated passes; modulo_list_scheduler.hpp says how it adds to the spec). No schedule there,
//   or one past the horizon, means this II is infeasible for this start.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include <gaus/core/expected.hpp>
#include <gaus/core/problem.hpp>
#include <gaus/core/schedule.hpp>
#include <gaus/heuristic/list_scheduler.hpp>

namespace gaus::differentiable {

// round(mu_i), clamped at 0: the list priority and, optionally, release time of every op.
std::vector<Cycle> roundedStarts(const std::vector<double>& mu);

// A list schedule of the prepared problem (edges of distance 0) taking ready ops in increasing
// `priority` (ties: smaller ALAP, then id), none before its `releaseTime` when that is given.
// Fails only on invalid input; the caller compares the latency with any horizon.
Expected<Schedule> legalizeAcyclic(const heuristic::ListScheduler& scheduler,
                                   const std::vector<double>& priority,
                                   const std::vector<Cycle>* releaseTime);

// A modulo schedule at `ii` in the order of `key` (ties: `alap`, then id), or nullopt when the
// passes find none.
std::optional<Schedule> legalizeModulo(const Problem& problem, std::int32_t ii,
                                       const std::vector<Cycle>& key,
                                       const std::vector<Cycle>& alap, bool useReleaseTimes);

}  // namespace gaus::differentiable
