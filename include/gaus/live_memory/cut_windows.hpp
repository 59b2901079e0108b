// Windows around a legal schedule's peak live memory re-placed by minimum cuts: the Lagrangian
// bound's machinery (lagrangian_bound.hpp) turned into a large neighbourhood search. The ops
// that start in a window around a cluster of peak cycles move, every other op keeps its start
// (neighbourhood.hpp); for weights on the window's cycles one minimum cut places the moving ops
// so that the weighted live memory is least, and the cutting-plane search over the weights that
// the bound runs yields, cut after cut, placements that push live memory out of whichever
// cycles are high. A placement that lowers the peak (or its count) is kept. The same search's
// bound says when a window cannot go below the peak at all, and the window is then left.
//
// Against the exact windows (milp_windows.hpp): a cut costs about the window's width times its
// moving ops, so windows of thousands of ops are cheap, where a MILP of a few hundred may take
// seconds; but a placement is always one cut's, so a window whose best placement mixes two is
// left to the exact windows, which the improvement step (improvement.hpp) runs after these.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include <gaus/core/graph.hpp>
#include <gaus/core/problem_facts.hpp>
#include <gaus/core/schedule.hpp>

namespace gaus::live_memory {

struct CutWindowOptions {
  // Margins around a cluster of peak cycles, narrowest first: the window is the cluster widened
  // by this many cycles on each side.
  std::vector<Cycle> margins = {8, 24, 64};
  // A window with more moving ops than this is not searched.
  std::int64_t maxWindowOps = 20000;
  // Minimum cuts per window before it is left.
  int maxCutsPerWindow = 60;
};

struct CutWindowFigures {
  std::int64_t windows = 0;       // windows searched
  std::int64_t cuts = 0;          // minimum cuts computed
  std::int64_t improvements = 0;  // windows whose placement was kept
  std::int64_t hopeless = 0;      // windows whose bound showed the peak cannot fall there
};

// Work that can stop and go on, as the other searches of formulation B: run() searches until
// `stop` says so or no window around the current peak's clusters lowers it.
class CutWindowSearch {
 public:
  // `legal` must keep every distance-0 edge and every op within [0, horizon - duration].
  CutWindowSearch(const Graph& graph, Cycle horizon, const Schedule& legal,
                  CutWindowOptions options = {});
  // At the horizon of `facts` (a posed problem's: their order is computed once per call).
  CutWindowSearch(std::shared_ptr<const ProblemFacts> facts, const Schedule& legal,
                  CutWindowOptions options = {});
  ~CutWindowSearch();
  CutWindowSearch(const CutWindowSearch&) = delete;
  CutWindowSearch& operator=(const CutWindowSearch&) = delete;

  // Goes on from another legal schedule (the caller's changed).
  void restart(const Schedule& legal);
  // True when every cluster of the current peak was tried at every margin and none could be
  // lowered (or the peak is 0); false when `stop` ended this slice.
  bool run(const std::function<bool()>& stop);
  const Schedule& schedule() const;
  double peak() const;
  const CutWindowFigures& figures() const;

 private:
  class Search;
  std::unique_ptr<Search> search_;
};

}  // namespace gaus::live_memory
