// The time-indexed MILP of peak live memory (formulation B of GauS) under a horizon, the one
// model of the verifier's live intervals that both engines solve: the exact engine's method ilp
// on latency-bounded problems (every op moves) and the GauS engine's exact windows
// (milp_windows.hpp: the ops of a window move, the others keep their starts). The file
// src/live_memory/model.cpp says what its variables and rows are and why.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include <gaus/core/graph.hpp>
#include <gaus/core/machine.hpp>
#include <gaus/live_memory/neighbourhood.hpp>
#include <gaus/milp/milp_model.hpp>
#include <gaus/milp/time_indexed_rows.hpp>

namespace gaus::live_memory {

struct PeakMemoryModelInput {
  const Graph* graph = nullptr;
  Cycle horizon = 0;
  // Every op's start: the fixed ops keep theirs; the moving ops' are only read by encode's
  // callers (and must lie in their windows there). Distance-0 edges into or out of a moving op
  // from a fixed op must already be kept by the windows.
  std::span<const Cycle> start;
  std::vector<MovingStart> moving;
  // P <= cap: only a placement below it is wanted (the windows' search); unset: none.
  std::optional<double> peakCap;
  // P >= this (a bound known beforehand, live_memory::mandatoryLifetimeBound); 0: none.
  double peakFloor = 0.0;
  // Capacity rows for the machine's limited resources (the fixed ops' use as constants);
  // nullptr: resources are not modelled.
  const Machine* machine = nullptr;
};

class PeakMemoryModel {
 public:
  explicit PeakMemoryModel(const PeakMemoryModelInput& input);

  // The size the constructor would build, counted without building it (for refuseLargeModel).
  static milp::ModelSize estimateSize(const PeakMemoryModelInput& input);

  milp::MilpModel& model() { return model_; }
  const milp::MilpModel& model() const { return model_; }
  // No value's life can change: P is the constants' peak, nothing to solve.
  bool empty() const { return lives_.empty(); }
  // The largest live memory no placement of the moving ops changes (a bound on P).
  double constantPeak() const { return constantPeak_; }
  // A hash of everything the model is built from but the cap: two equal fingerprints are the
  // same model up to P's cap (the windows' search lowers its cap only, so a model it proved
  // hopeless stays hopeless).
  std::uint64_t fingerprint() const { return fingerprint_; }
  // All variable values of a placement (a MIP start): x from `start`, the live statuses, P at
  // the placement's peak (above the cap when the placement is: the solver then rejects it).
  std::vector<double> encode(std::span<const Cycle> start) const;
  // The bound a solve proved on P, never below P's lower bound, rounded up to a whole number
  // when every mem is whole (then so is every peak); nothing when the solve proved none.
  std::optional<double> boundOf(const milp::MilpSolution& solution) const;
  // Every op's start: the moving ops' from the solution, the others as in the input.
  std::vector<Cycle> decode(const milp::MilpSolution& solution) const;

 private:
  struct Live {
    milp::VariableId variable;
    OpId value;
    Cycle t;
  };
  const Graph& graph_;
  std::vector<Cycle> start_;
  milp::MilpModel model_;
  milp::StartGrid grid_;
  std::vector<Live> lives_;
  std::vector<double> rowConstant_;  // per cycle: its row's constant (0 for a cycle without one)
  milp::VariableId peak_ = -1;
  double constantPeak_ = 0.0;
  bool wholeMems_ = true;
  std::uint64_t fingerprint_ = 0;
};

}  // namespace gaus::live_memory
