#include <gaus/differentiable/gaus_figures.hpp>

namespace gaus::differentiable {

const FigureTable& gausFigureTable() {
  using namespace figures;
  static const FigureTable table = FigureTable()
                                       .add(kPeakStageWeight, {"gaus"})
                                       .add(kCommunication, {"gaus"})
                                       .add(kIi, {"gaus"})
                                       .add(kLatency, {"gaus"})
                                       .add(kMinIi, {"gaus"})
                                       .add(kBatchUsed, {"gaus"})
                                       .add(kAdamSteps, {"gaus"})
                                       .add(kOptimizationSeconds, {"gaus"})
                                       .add(kSecondsPerStep, {"gaus"})
                                       .add(kLegalizationSeconds, {"gaus"})
                                       .add(kLegalizedCandidates, {"gaus"})
                                       .add(kSecondsPerCandidate, {"gaus"})
                                       .add(kCpuSecondsPerCandidate, {"gaus"})
                                       .add(kLongestCandidateSeconds, {"gaus"})
                                       .add(kOptimizerWaitSeconds, {"gaus"})
                                       .add(kOptimizerWaitShare, {"gaus"})
                                       .add(kFirstLegalSeconds, {"gaus"})
                                       .add(kSplicedRegions, {"gaus"})
                                       .add(kSpliceImprovements, {"gaus"})
                                       .add(kWindowSolves, {"gaus"})
                                       .add(kWindowImprovements, {"gaus"})
                                       .add(kCutWindows, {"gaus"})
                                       .add(kCutWindowCuts, {"gaus"})
                                       .add(kCutWindowImprovements, {"gaus"});
  return table;
}

}  // namespace gaus::differentiable
