// The progress of a batch as it runs. On a terminal: one line redrawn in place with a bar, runs
// done out of the total, failures, the estimated time left and, per method, on how many problems
// it holds the best value so far; runs that fail are printed above it. Elsewhere (a log, a pipe):
// one plain line per finished run.
#pragma once

#include <chrono>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include <gaus/experiment/experiment_runner.hpp>
#include <gaus/report/results.hpp>

namespace gaus::experiment {

class ProgressDisplay {
 public:
  // `total` runs in the batch, `alreadyDone` of them recorded before it started (resume).
  ProgressDisplay(std::ostream& out, ProgressStyle style, std::int64_t total,
                  std::int64_t alreadyDone);

  // A run finished and was recorded; `records` holds every record of the results file so far.
  void finished(const report::ResultRecord& record,
                const std::vector<report::ResultRecord>& records);
  // Redraws the bar (the estimate changes as time passes); at most a few times a second.
  void tick();
  // A line of its own (above the bar on a terminal).
  void note(const std::string& line);
  // Leaves the bar's line.
  void close();

  std::int64_t failures() const { return failures_; }

 private:
  void draw();
  std::string bestPerMethod(const std::vector<report::ResultRecord>& records) const;
  std::string eta() const;

  std::ostream& out_;
  bool bar_ = false;
  bool quiet_ = false;
  std::int64_t total_ = 0;
  std::int64_t done_ = 0;
  std::int64_t doneHere_ = 0;  // finished in this batch (for the rate)
  std::int64_t failures_ = 0;
  std::string best_;
  std::chrono::steady_clock::time_point started_;
  std::chrono::steady_clock::time_point lastDraw_;
  std::chrono::steady_clock::time_point lastBest_;
  bool drawn_ = false;
};

}  // namespace gaus::experiment
