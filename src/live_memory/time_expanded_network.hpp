// The time-expanded network of formulation B over a window of cycles: for Lagrange weights
// lambda_t >= 0 on the window's cycles, one minimum cut gives the least weighted sum
// sum_t lambda_t live(t) over every schedule whose starts lie in given ranges, and a schedule
// (on the window) that attains it. The Lagrangian bound (lagrangian_bound.hpp) and the windows
// that lower a schedule's peak (cut_windows.hpp) are built on it. The argument:
//
// Let y(v, t) = [s_v <= t] (op v has started by cycle t). A schedule is a choice of y with
// - y(v, t) <= y(v, t + 1) (an op that has started stays started),
// - y(r, t) <= y(p, t - d) for every distance-0 edge p -> r of delay d (s_r >= s_p + d),
// - y(v, t) = 0 before v's earliest start and 1 from its latest.
// The verifier's live interval (core's liveInterval) makes v's value live at t exactly when v
// has started and some distance-0 reader has not: live(t) = sum_v mem_v (y(v, t) - y(L_v, t)),
// with L_v the last of v's readers to start (y(L_v, t) = 1 when every reader has started). For
// a value with one reader r, y(L_v, t) is y(r, t); for several, L_v is a variable of its own with
// y(L_v, t) <= y(r, t) for each reader, which a minimization lifts to the least of them since
// its weight is negative. A reader that is a direct predecessor of another reader never starts
// last, and is left out.
//
// Every constraint is an implication y(i) = 1 => y(j) = 1 between two variables, and the
// objective sum_t lambda_t live(t) is linear in y: a minimum-weight closure, which is a minimum
// cut (Picard, "Maximal closure of a graph and applications to combinatorial problems",
// Management Science 22(11), 1976) with an infinite arc i -> j per implication, an arc to the
// sink for a positive weight (paid when y = 1) and one from the source for a negative weight
// (paid when y = 0). This is the Lagrangian relaxation of the time-indexed model with its
// capacity rows dualized, solved by a minimum cut, as in Möhring, Schulz, Stork and Uetz,
// "Solving Project Scheduling Problems by Minimum Cut Computations", Management Science 49(3),
// 2003; their time-indexed costs per job become here the weights of the live intervals.
//
// A window [first, last] of cycles keeps the variables of those cycles only: an edge whose
// delay reaches before `first` becomes y(r, t) <= y(p, first) (p started before t - d < first,
// so by `first`), which every schedule satisfies, so the window's minimum is a lower bound of
// the whole graph's (a relaxation); with the ranges of a schedule's neighbourhood (every op
// outside the window fixed) it is exact.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include <gaus/core/graph.hpp>

#include "max_flow.hpp"

namespace gaus::live_memory {

// The starts an op may take: [earliest, latest] (equal for a fixed op).
struct StartRange {
  Cycle earliest = 0;
  Cycle latest = 0;
};

class TimeExpandedNetwork {
 public:
  // The network of the cycles [first, last] for starts within `ranges` (one per op, consistent
  // with the distance-0 edges: earliest(r) >= earliest(p) + delay, latest likewise).
  TimeExpandedNetwork(const Graph& graph, std::span<const StartRange> ranges, Cycle first,
                      Cycle last);

  Cycle first() const { return first_; }
  Cycle last() const { return last_; }
  std::int32_t cycles() const { return static_cast<std::int32_t>(last_ - first_ + 1); }
  std::int64_t numNodes() const { return flow_.numNodes(); }

  struct Cut {
    // sum_t weights[t] live(t) >= bound for every schedule within the ranges (the flow's lower
    // bound plus the weights of the variables the ranges fix).
    double bound = 0.0;
    // The live memory per cycle of the window of the schedule the cut gives (the window's
    // variables as the cut sets them); sum_t weights[t] profile[t] equals `bound` when the
    // search finished, up to rounding.
    std::vector<double> profile;
    bool complete = true;  // false when `stop` ended the max-flow early
  };
  // The least weighted live memory over the window, weights[k] for cycle first + k.
  Cut solve(std::span<const double> weights, const std::function<bool()>& stop = {});

  // Every op's start in the schedule of the last cut, where the window decides it: the first
  // cycle of the window at which it has started; ops that have not started by `last` keep their
  // range's latest start. Meaningful where the ranges are a window's neighbourhood (every op that
  // may start outside the window fixed there).
  std::vector<Cycle> starts() const;

 private:
  // A variable: an op (y(v, t) = [s_v <= t]) or the last reader of a value with several.
  struct Variable {
    Cycle earliest = 0;           // y = 0 before
    Cycle latest = 0;             // y = 1 from here on
    MaxFlow::Node firstNode = 0;  // the node of cycle max(earliest, first_), if it has one
  };
  // +mem at the value's op, -mem at its last reader: live(t) = sum of mem y over the terms.
  struct Term {
    std::int32_t variable = 0;
    double mem = 0.0;
  };

  // 0 or 1 where the ranges fix y(x, t), -1 where it is a node.
  int fixedValue(std::int32_t x, Cycle t) const;
  MaxFlow::Node node(std::int32_t x, Cycle t) const;
  bool hasStarted(std::int32_t x, Cycle t) const;  // after a cut
  void addImplication(std::int32_t from, Cycle t, std::int32_t to, Cycle tTo);

  const Graph& graph_;
  Cycle first_;
  Cycle last_;
  std::vector<Variable> variables_;  // the ops, then the last readers
  std::vector<Term> terms_;
  // Nodes the ranges force (they never do when consistent with the edges).
  static constexpr std::int8_t kFree = 0;
  static constexpr std::int8_t kForcedStarted = 1;
  static constexpr std::int8_t kForcedWaiting = 2;
  std::vector<std::int8_t> forced_;
  MaxFlow flow_;
};

}  // namespace gaus::live_memory
