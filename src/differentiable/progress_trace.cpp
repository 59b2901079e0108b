#include "progress_trace.hpp"

#include <memory>

#include <fmt/format.h>

namespace gaus::differentiable {

Expected<ProgressTrace> ProgressTrace::open(const RunContext& context, const std::string& tracePath,
                                            double intervalSeconds) {
  ProgressTrace trace(context, intervalSeconds);
  if (tracePath.empty()) return trace;
  trace.file_ = std::make_shared<std::ofstream>(tracePath);
  if (!*trace.file_) {
    return Error{
        fmt::format("trace file {}: cannot open for writing; fix the path or drop "
                    "option trace",
                    tracePath)};
  }
  trace.csv_ = tracePath.size() >= 4 && tracePath.compare(tracePath.size() - 4, 4, ".csv") == 0;
  if (trace.csv_) *trace.file_ << "step,horizon,ii,objective,violation,rho,best,elapsed\n";
  return trace;
}

void ProgressTrace::record(const ProgressRecord& record, bool force) {
  const std::string ii = record.ii ? std::to_string(*record.ii) : "";
  if (file_) {
    const std::string best = record.bestLegal ? fmt::format("{:.10g}", *record.bestLegal) : "";
    if (csv_) {
      *file_ << fmt::format("{},{},{},{:.6g},{:.6g},{:.6g},{},{:.4f}\n", record.step,
                            record.horizon, ii, record.objective, record.violation, record.rho,
                            best, record.elapsedSeconds);
    } else {
      *file_ << fmt::format(
          "{{\"step\": {}, \"horizon\": {}, \"ii\": {}, \"objective\": {:.6g}, \"violation\": "
          "{:.6g}, \"rho\": {:.6g}, \"best\": {}, \"elapsed\": {:.4f}}}\n",
          record.step, record.horizon, ii.empty() ? "null" : ii, record.objective, record.violation,
          record.rho, best.empty() ? "null" : best, record.elapsedSeconds);
    }
    // One record per multiplier update: flushed, so that a long run can be followed as it goes.
    file_->flush();
  }
  if (!force && lastReport_ && record.elapsedSeconds - *lastReport_ < intervalSeconds_) return;
  lastReport_ = record.elapsedSeconds;
  context_->report(fmt::format(
      "gaus: step {} D={}{} objective {:.4g} violation {:.4g} best {} elapsed {:.2f}s", record.step,
      record.horizon, ii.empty() ? "" : " II=" + ii, record.objective, record.violation,
      record.bestLegal ? fmt::format("{:.10g}", *record.bestLegal) : "-", record.elapsedSeconds));
}

}  // namespace gaus::differentiable
