// Formulation B's improvement step, the one both engines run on a legal schedule: the local
// refinement (refinement.hpp) to a local optimum, then exact windows around the peak
// (milp_windows.hpp), and what the windows lower refined again, until neither lowers it. Work
// that can stop and go on, as the refinement: GauS runs it in the legalization worker's time
// slices, method ilp once on its start.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <memory>

#include <gaus/core/graph.hpp>
#include <gaus/core/schedule.hpp>
#include <gaus/live_memory/milp_windows.hpp>
#include <gaus/live_memory/refinement.hpp>

namespace gaus::live_memory {

struct ImprovementOptions {
  bool windows = true;  // exact windows at each local optimum of the refinement
  MilpWindowOptions windowOptions;
};

class Improvement {
 public:
  // `legal` as for refine(): every distance-0 edge kept, every op within [0, horizon -
  // duration]; problems without limited resources (neither step looks at reservations).
  Improvement(const Graph& graph, Cycle horizon, const Schedule& legal, ImprovementOptions options);
  ~Improvement();
  Improvement(const Improvement&) = delete;
  Improvement& operator=(const Improvement&) = delete;

  // Refines, and at a local optimum, when `windowsNow`, solves windows (each solve within
  // `windowSeconds`, a solve not being cut by `stop`); a window that lowers the schedule is
  // refined again. True when neither step can lower it any more (windows tried, or off); false
  // when `stop` ended this slice or the windows wait for `windowsNow`.
  bool run(const std::function<bool()>& stop, bool windowsNow = true,
           double windowSeconds = std::numeric_limits<double>::infinity());
  // The donor's regions, as Refiner::splice; the windows then look again.
  std::int64_t splice(const Schedule& donor, const std::function<bool()>& stop);
  // Starts over from another legal schedule: refined from scratch, windows not yet tried.
  void replace(const Schedule& legal);

  const Schedule& schedule();
  double peak() const;
  const Refinement& refinement();  // the refinement's counters
  MilpWindowFigures windowFigures() const;

 private:
  void windowsChanged();

  const Graph& graph_;
  Cycle horizon_;
  ImprovementOptions options_;
  std::unique_ptr<Refiner> refiner_;
  std::unique_ptr<MilpWindowSearch> windows_;
  bool windowsDone_ = false;   // every window around the current peak tried, none lowered it
  bool windowsStale_ = false;  // the window search holds an older schedule
};

}  // namespace gaus::live_memory
