// Formulation B's improvement step, the one both engines run on a legal schedule: the local
// refinement (refinement.hpp) to a local optimum, then windows around the peak re-placed by
// minimum cuts (cut_windows.hpp), then exact windows (milp_windows.hpp) where those stop, and what
// a window lowers refined again, until none lowers it. Work
// that can stop and go on, as the refinement: GauS runs it in the legalization worker's time
// slices, method ilp once on its start.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <memory>

#include <gaus/core/graph.hpp>
#include <gaus/core/schedule.hpp>
#include <gaus/live_memory/cut_windows.hpp>
#include <gaus/live_memory/milp_windows.hpp>
#include <gaus/live_memory/refinement.hpp>

namespace gaus::live_memory {

struct ImprovementOptions {
  bool windows = true;  // the windows at each local optimum of the refinement (cut, then exact)
  CutWindowOptions cutWindowOptions;
  MilpWindowOptions windowOptions;
};

class Improvement {
 public:
  // `legal` as for refine(): every distance-0 edge kept, every op within [0, horizon -
  // duration]; problems without limited resources (neither step looks at reservations).
  // At the horizon of `facts` (a posed problem's, or graphFacts).
  Improvement(std::shared_ptr<const ProblemFacts> facts, const Schedule& legal,
              ImprovementOptions options);
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
  CutWindowFigures cutWindowFigures() const;

 private:
  void windowsChanged();

  std::shared_ptr<const ProblemFacts> facts_;
  const Graph& graph_;
  Cycle horizon_;
  ImprovementOptions options_;
  // Runs `search` (created from the refined schedule, or restarted from it when stale) and
  // refines again from what it lowered. Returns whether it lowered the schedule; `finished` says
  // whether it ended its passes (false: `stop` cut it).
  template <class WindowSearch, class Options, class Run>
  bool lowerBy(std::unique_ptr<WindowSearch>& search, bool& stale, const Options& options,
               const Run& run, bool& finished);

  std::unique_ptr<Refiner> refiner_;
  std::unique_ptr<CutWindowSearch> cutWindows_;
  std::unique_ptr<MilpWindowSearch> windows_;
  bool windowsDone_ = false;      // every window around the current peak tried, none lowered it
  bool cutWindowsStale_ = false;  // the cut windows hold an older schedule
  bool windowsStale_ = false;     // the exact windows hold an older schedule
};

}  // namespace gaus::live_memory
