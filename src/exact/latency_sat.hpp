// Internal to the exact engine: the acyclic latency problem at a fixed L as a SAT model with
// interval energy rows (latency_sat.cpp says what it is and why), and the destructive lower
// bound built on it: L below the incumbent refuted one at a time, each satisfiable check a
// better schedule.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <gaus/core/deadline.hpp>
#include <gaus/core/expected.hpp>
#include <gaus/core/problem.hpp>
#include <gaus/core/result.hpp>
#include <gaus/core/schedule.hpp>

#include "smt_answer.hpp"
#include "time_indexed.hpp"

namespace gaus::exact::detail {

// The size of the model at the windows given (the latest starts those of the L it is built at):
// its Boolean variables and literal occurrences, in the units of Twill's SMT model, whose rates
// (SmtModelSize::bytes and ::cost) it is held against.
SmtModelSize estimateLatencySatSize(const Graph& graph, const Machine& machine,
                                    const TimeWindows& windows);

class LatencySatModel {
 public:
  // The model of "a schedule of latency <= `latency`" with starts in `windows` (ASAP, and the
  // latest starts at `latency`), or why it was not built: its estimated memory is above
  // `memoryLimitBytes`, its estimated build, load and teardown above the time left, or the
  // deadline passed during the build.
  static Expected<std::unique_ptr<LatencySatModel>> buildWithin(const Problem& problem,
                                                                Cycle latency,
                                                                const TimeWindows& windows,
                                                                const Deadline& deadline,
                                                                std::int64_t memoryLimitBytes);
  ~LatencySatModel();
  LatencySatModel(const LatencySatModel&) = delete;
  LatencySatModel& operator=(const LatencySatModel&) = delete;

  // Whether a schedule of latency <= `latency` (at most the L built at) exists: kFeasible with
  // one (not yet verified), kInfeasible, or kTimeout after `timeLimitSeconds` (0: none). A
  // smaller L is an assumption on the same model (the latest starts at that L), so what Z3
  // learns at one L serves the next.
  SmtAnswer check(Cycle latency, double timeLimitSeconds);

  const SmtModelSize& estimatedSize() const;

 private:
  struct Impl;
  explicit LatencySatModel(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// What refuteLatencies established.
struct LatencyRefutation {
  std::optional<Schedule> best;   // a verified schedule better than the start, when one was found
  std::optional<Cycle> refuted;   // the largest L proven to have no schedule
  std::vector<Attempt> attempts;  // one per check ("sat"), or the model not built
};

// The destructive lower bound: checks L = top, top - 1, ... down to `lower` on one model built
// at `top`, until a check is unsatisfiable (every L below it is then too: a schedule within L is
// one within L + 1) or runs out of `deadline`. A satisfiable check's schedule is verified and the
// next L checked is one below its latency.
LatencyRefutation refuteLatencies(const Problem& problem, const std::vector<Cycle>& asap, Cycle top,
                                  Cycle lower, const Deadline& deadline,
                                  std::int64_t memoryLimitBytes);

}  // namespace gaus::exact::detail
