// What the searches of the formulations share (gaus_run.hpp lists them): the options that pick
// a search's way, the legal start, the candidates' legalization and scoring, and the records of
// attempts. Nothing here depends on which formulation runs, but through its FormulationPart.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <gaus/core/result.hpp>
#include <gaus/core/schedule.hpp>

#include "descending_search.hpp"
#include "gaus_run.hpp"
#include "initialization.hpp"

namespace gaus::differentiable {

// Option release_times: "auto" is on where the horizon is bounded (A and B).
bool useReleaseTimes(const RunSetup& setup);
// Option horizon_search: "auto" bisects gaps wider than 32 cycles (or II steps).
SearchStrategy searchStrategy(const RunSetup& setup, double gap);

bool verified(const Problem& problem, const Schedule& schedule);
// The latest starts at `horizon` (the ASAP times where the horizon is too short for them).
std::vector<Cycle> alapAt(const RunSetup& setup, Cycle horizon);

// The record of where a run starts: its latency when known, and from what.
Attempt startAttempt(ModelStatus status, std::optional<double> latency, std::string detail);
// The record of one attempt at horizon D: feasible when it legalized a schedule within D. A
// failure proves nothing (the optimizer stopped, the problem may still be feasible).
Attempt horizonAttempt(const AttemptOutcome& outcome, Cycle horizon, double seconds);

// The legal schedule a run starts from: the caller's when it verifies, else the heuristic's when
// it verifies (list scheduling may overrun a horizon), else none. Why a start was passed over
// goes to `attempts`.
std::optional<Schedule> startSchedule(const RunSetup& setup, std::vector<Attempt>& attempts);

double latencyOf(const RunSetup& setup, const Schedule& schedule);
// The formulation's objective of a legal schedule (its part's).
double objectiveOf(const RunSetup& setup, const Schedule& schedule);
// A legal schedule as a candidate: verified and scored, or nullopt when it does not verify.
std::optional<Candidate> scoredCandidate(const RunSetup& setup, const Problem& problem,
                                         Schedule schedule);

// Means for the first attempt (option init): the given schedule, the start schedule (squeezed
// into the horizon) or the ASAP/ALAP midpoint. "auto" is the given schedule if any, else the
// midpoint where the horizon is bounded (A and B, GAUS.md) and the start schedule elsewhere (L
// and C: list or iterative modulo scheduling; "What to expect").
StartingPoint firstStartingPoint(const RunSetup& setup, const Schedule* start,
                                 const std::vector<Cycle>& alap);

// The refinement of a legal schedule for the formulation's objective, until `stop` (A and B).
using Refinement =
    std::function<std::optional<Candidate>(const Schedule& legal, const StopRequest& stop)>;

// The means of one batch row legalized by list scheduling into a candidate (acyclic
// formulations), refined by `refine` when given with a horizon. `alap`, given with the horizon
// of A and B: the latest starts at D, which clamp the release times.
std::optional<Candidate> legalizeAcyclicCandidate(
    const RunSetup& setup, const std::vector<double>& mu, std::optional<Cycle> horizon,
    const std::vector<Cycle>* alap, const StopRequest& stop, const Refinement* refine);

}  // namespace gaus::differentiable
