// The whole graph's peak-memory MILP solved at once (model.hpp with every op moving in its
// ASAP/ALAP window at the horizon): method ilp's answer on latency-bounded problems, and GauS's
// exact bound on problems small enough (docs/gaus.md, "The exact bound on small problems").
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <gaus/core/problem.hpp>
#include <gaus/core/result.hpp>
#include <gaus/core/schedule.hpp>
#include <gaus/milp/milp_call.hpp>

namespace gaus::live_memory {

struct WholeGraphOptions {
  // The calling method's MILP call (milp/milp_call.hpp): its deadline bounds the solve, its
  // solver and cancel flag run it, its limits refuse a model estimated above them before it is
  // built (refusal's message says why), and useStart hands the solver the start given.
  milp::MilpCall call;
  // The refusal's advice, after "use" (what the caller offers instead).
  std::string remedy;
};

struct WholeGraphSolve {
  std::optional<Schedule> schedule;  // the solver's best, when it verifies for the problem
  std::optional<double> bound;       // what the solve proved on the peak (rounded for whole mems)
  ModelStatus status = ModelStatus::kUnknown;  // the solver's, in the project's status model
  CallStatus call = CallStatus::kOk;
  std::string note;                    // why the call failed, or the solver's note
  std::optional<std::string> refused;  // the model was too large: why, and it was not built
  std::int64_t variables = 0;
  std::int64_t rows = 0;
  std::int64_t nodes = 0;  // branch-and-bound nodes
  // The record of the solve, its detail naming the solver that ran ("milp" / "exact" phase as
  // the caller sets it).
  Attempt attempt;
};

// The size the model would have, estimated without building it (milp::ModelSize's nonzeros).
std::int64_t wholeGraphNonzeros(const Problem& problem);

// Solves the whole graph's model of `problem` (latency-bounded, with a horizon) within the call's
// deadline, from `start` (a verified schedule of the problem, or nullptr) as its first
// incumbent, with P at least `floor` (a bound known beforehand). The machine's capacities are
// rows where it limits a resource. The windows are the problem's ASAP and ALAP at the horizon
// (its facts).
WholeGraphSolve solveWholeGraph(const Problem& problem, const Schedule* start, double floor,
                                const WholeGraphOptions& options);

}  // namespace gaus::live_memory
