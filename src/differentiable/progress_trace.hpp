// The engine's progress: one line per interval through RunContext::report ("gaus: step 1200
// D=17 objective 0.0123 violation 0.0042 best 18 elapsed 1.23s"), and an optional trace file
// with one record per multiplier update (CSV when the path ends in .csv, else JSON lines) for
// the convergence plots.
#pragma once

#include <cstdint>
#include <fstream>
#include <optional>
#include <string>

#include <gaus/core/expected.hpp>
#include <gaus/methods/registry.hpp>

namespace gaus::differentiable {

struct ProgressRecord {
  std::int64_t step = 0;  // Adam steps so far
  std::int64_t horizon = 0;
  std::optional<std::int64_t> ii;
  double objective = 0.0;  // normalized model objective (best batch row)
  double violation = 0.0;  // total expected violation (best batch row)
  double rho = 0.0;
  std::optional<double> bestLegal;  // objective of the best verified schedule
  double elapsedSeconds = 0.0;
};

class ProgressTrace {
 public:
  // Opens the trace file when `tracePath` is non-empty (an error names the path).
  static Expected<ProgressTrace> open(const RunContext& context, const std::string& tracePath,
                                      double intervalSeconds);

  // Writes the trace record; reports a line when the interval has passed (or `force`).
  void record(const ProgressRecord& record, bool force = false);

 private:
  ProgressTrace(const RunContext& context, double intervalSeconds)
      : context_(&context), intervalSeconds_(intervalSeconds) {}

  const RunContext* context_;
  double intervalSeconds_;
  std::optional<double> lastReport_;
  std::shared_ptr<std::ofstream> file_;
  bool csv_ = false;
};

}  // namespace gaus::differentiable
