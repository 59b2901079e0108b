#include <gaus/heuristic/heuristic_figures.hpp>

namespace gaus::heuristic {

const FigureTable& heuristicFigureTable() {
  using namespace figures;
  static const FigureTable table = FigureTable()
                                       .add(kLatency, {"list", "ims", "fds"})
                                       .add(kCriticalPath, {"list", "fds"})
                                       .add(kResourceBound, {"list"})
                                       .add(kStages, {"ims"})
                                       .add(kNonOverlappedIi, {"ims"})
                                       .add(kAttempts, {"ims"})
                                       .add(kEvictions, {"ims"})
                                       .add(kRefinementMoves, {"balanced", "fds"})
                                       .add(kForceEvaluations, {"fds"})
                                       .add(kOpsPlacedAtLimit, {"fds"})
                                       .add(kBoundedPicks, {"fds"})
                                       .add(kRefinementSwaps, {"balanced"})
                                       .add(kPeakStageWeight, {"balanced"})
                                       .add(kCommunication, {"balanced"});
  return table;
}

}  // namespace gaus::heuristic
