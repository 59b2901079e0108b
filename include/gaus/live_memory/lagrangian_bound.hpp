// The Lagrangian lower bound on the peak live memory of every schedule within a horizon
// (formulation B), over windows of cycles: docs/exact.md, "B: the Lagrangian bound", and
// src/live_memory/lagrangian_bound.cpp.
//
// For weights lambda_t >= 0 summing to 1 over a window of cycles, every schedule's peak is at
// least sum_t lambda_t live(t), and the least such sum over every schedule is one minimum cut of
// a time-expanded network. The best weights are searched by a cutting-plane method. One cycle's
// weight alone is the per-cycle cut of cut_bound.hpp; weights spread over neighbouring cycles
// see what it cannot: a value that must live a cycle somewhere in the window, but at no cycle in
// particular.
#pragma once

#include <functional>
#include <optional>
#include <span>
#include <vector>

#include <gaus/core/expected.hpp>
#include <gaus/core/graph.hpp>
#include <gaus/core/problem_facts.hpp>
#include <gaus/core/types.hpp>

namespace gaus::live_memory {

struct LagrangianBoundOptions {
  // The widest window (cycles) whose weights are searched together; a horizon up to this wide
  // is one window. Wider windows see more, and their master problem grows with the square.
  Cycle maxWindow = 128;
  // The first windows' width; the best one is then widened by doubling while that raises it.
  Cycle firstWindow = 24;
  // Minimum cuts per window before it is left (the cutting planes usually settle in 10-60).
  int maxCutsPerWindow = 200;
  // Known schedules (legal within the horizon; not owned): their live profiles are the first
  // cutting planes, and a window whose cycles all lie at or below `stopAt` in one of them cannot
  // raise the bound, so it is skipped.
  std::vector<std::span<const Cycle>> schedules;
  // Stop once the bound reaches this (a known schedule's peak: nothing above it is possible).
  std::optional<double> stopAt;
  // Polled between minimum cuts and inside them; true ends the search with the bound so far.
  std::function<bool()> stop;
  // Told the bound so far after each window (progress lines); may be empty.
  std::function<void(const struct LagrangianBound&)> progress;
};

struct LagrangianBound {
  // No schedule within the horizon has a smaller peak (rounded up when every mem is whole); 0
  // when no window was solved.
  double value = 0.0;
  Cycle first = 0;  // the window that gave it
  Cycle last = -1;
  int windows = 0;        // windows searched
  int cuts = 0;           // minimum cuts computed in all
  bool complete = false;  // every candidate window was searched to its end
};

// The bound above, starting no lower than `floor` (a bound known beforehand: a window is
// searched only where it could exceed it). Fails as alapTimes does (a horizon shorter than the
// critical path) or on a cycle of distance-0 edges.
// `facts` as cutBound's.
Expected<LagrangianBound> lagrangianBound(const ProblemFacts& facts, double floor,
                                          const LagrangianBoundOptions& options = {});
Expected<LagrangianBound> lagrangianBound(const Graph& graph, Cycle horizon, double floor,
                                          const LagrangianBoundOptions& options = {});

// The same minimum cuts over the whole horizon are schedules: each places every op, least in
// weighted live memory for its weights. Where the weights move toward the cycles where the
// cut's schedules are high, the least peak among them is often far below what list scheduling
// and local moves reach on deep circuits (docs/benchmarks.md): a start for formulation B's
// improvement step.
struct LagrangianStartOptions {
  // The whole horizon's network is not built above this many nodes (one per op and cycle of its
  // slack, and per cycle of the last reader of a value with several), nor above this many cycles
  // (the master problem's columns).
  std::int64_t maxNodes = 1'500'000;
  Cycle maxCycles = 1024;
  int maxCuts = 60;
  std::function<bool()> stop;
};

struct LagrangianStart {
  std::vector<Cycle> start;  // within the horizon, every distance-0 edge kept
  double peak = 0.0;
  double bound = 0.0;  // what its cuts proved on every schedule's peak (rounded)
  int cuts = 0;
};

// The cuts' schedule of least peak (then fewest cycles at it), or nothing when the network is
// too large or `stop` came before the first cut. Fails as lagrangianBound does.
Expected<std::optional<LagrangianStart>> lagrangianStart(
    const ProblemFacts& facts, const LagrangianStartOptions& options = {});
Expected<std::optional<LagrangianStart>> lagrangianStart(
    const Graph& graph, Cycle horizon, const LagrangianStartOptions& options = {});

}  // namespace gaus::live_memory
