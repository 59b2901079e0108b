// The facts of a posed problem, settled once: what every layer of a method call reads about the
// problem instead of working it out again (the topological order, ASAP and ALAP at the horizon,
// the critical path, the MII with its reason, whether a limited resource is in use, whether the
// ops have live memory). Each is computed on first use, once, and read-only from then on; the
// posed problem carries them (Problem::facts), and its copies share them, so that the input
// check, the method and its helpers read one order and one MII
// (tests/unit/experiment/test_run_path.cpp counts them).
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include <gaus/core/analysis.hpp>
#include <gaus/core/expected.hpp>
#include <gaus/core/graph.hpp>
#include <gaus/core/machine.hpp>
#include <gaus/core/problem.hpp>

namespace gaus {

class ProblemFacts {
 public:
  ProblemFacts(std::shared_ptr<const Graph> graph, std::shared_ptr<const Machine> machine,
               std::optional<Cycle> horizon);
  ProblemFacts(const ProblemFacts&) = delete;
  ProblemFacts& operator=(const ProblemFacts&) = delete;

  // Whether these are the facts of `problem`: its graph, machine and horizon.
  bool describe(const Problem& problem) const;
  const Graph& graph() const { return *graph_; }
  std::optional<Cycle> horizon() const { return horizon_; }

  // topologicalOrder (first ready first), or the zero-distance cycle that prevents one.
  const Expected<std::vector<OpId>>& order() const;
  // asapTimes over the order; empty when there is none.
  const std::vector<Cycle>& asap() const;
  Cycle criticalPath() const;  // criticalPathLength of asap(); 0 without an order
  // alapTimes at the horizon; the error when there is no order, no horizon, or the horizon is
  // shorter than the critical path.
  const Expected<std::vector<Cycle>>& alap() const;
  const ResMii& resMii() const;
  const RecMii& recMii() const;
  const MiiBound& mii() const;  // max(ResMII, RecMII) and what binds it
  bool usesLimitedResource() const;
  bool hasLiveMemory() const;

 private:
  std::shared_ptr<const Graph> graph_;
  std::shared_ptr<const Machine> machine_;
  std::optional<Cycle> horizon_;

  mutable std::once_flag orderOnce_, alapOnce_, resMiiOnce_, recMiiOnce_, miiOnce_, flagsOnce_;
  mutable std::optional<Expected<std::vector<OpId>>> order_;
  mutable std::vector<Cycle> asap_;
  mutable Cycle criticalPath_ = 0;
  mutable std::optional<Expected<std::vector<Cycle>>> alap_;
  mutable ResMii resMii_;
  mutable RecMii recMii_;
  mutable MiiBound mii_;
  mutable bool usesLimitedResource_ = false;
  mutable bool hasLiveMemory_ = false;
};

// The facts of a graph alone at a horizon, on a machine without resources, for a caller that
// holds no posed problem (a bound asked of a bare graph, a test). The graph is borrowed: it must
// outlive them.
std::shared_ptr<const ProblemFacts> graphFacts(const Graph& graph, std::optional<Cycle> horizon);

}  // namespace gaus
