#include <gaus/core/stage_objective.hpp>
#include <gaus/exact/exact_figures.hpp>

namespace gaus::exact {

const FigureTable& exactFigureTable() {
  using namespace figures;
  static const FigureTable table = FigureTable()
                                       .add(kLatency, {"ilp", "twill"})
                                       .add(kStages, {"twill"})
                                       .add(kTimeUnit, {"ilp", "twill"})
                                       .add(kNormalizedMii, {"ilp", "twill"})
                                       .add(kNormalizedIi, {"ilp"})
                                       .add(kNormalizedLowerBound, {"ilp"})
                                       .add(kNormalizedIiProven, {"ilp", "twill"})
                                       .add(kNormalizedLatencyProven, {"ilp"})
                                       .add(kListLatency, {"ilp"})
                                       .add(kInitLatency, {"ilp"})
                                       .add(kStartPeakMemory, {"ilp"})
                                       .add(kCombinatorialBound, {"ilp"})
                                       .add(kVariables, {"ilp"})
                                       .add(kRows, {"ilp"})
                                       .add(gaus::figures::kPeakStageWeight, {"ilp"})
                                       .add(gaus::figures::kCommunication, {"ilp"})
                                       .add(kWarpsUsed, {"twill"})
                                       .add(kWarpsProvenMinimal, {"twill"})
                                       .add(kCrossWarpEdges, {"twill"})
                                       .add(kCrossEdgesProvenMinimal, {"twill"})
                                       .add(kRoles, {"twill"})
                                       .add(kFirstSmtScheduleSeconds, {"twill"})
                                       .add(kWarpRecMii, {"twill"})
                                       .add(kLatencyLowerBound, {"twill"})
                                       .add(kIiProvenEveryLength, {"twill"})
                                       .add(kIiProofLatency, {"twill"})
                                       .add(kIiProofStages, {"twill"})
                                       .add(kMilpSeconds, {"twill"})
                                       .add(kSmtSeconds, {"twill"})
                                       .add(kMinimizeSeconds, {"twill"})
                                       .add(kExplainSeconds, {"twill"});
  return table;
}

}  // namespace gaus::exact
