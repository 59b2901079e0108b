// The optimizer and legalization side by side (GAUS.md "On a GPU"): a worker thread takes the
// latest means the optimizer offers, rounds and legalizes each batch row, refines, verifies and
// scores the schedule, and keeps the attempt's incumbent, while the optimizer keeps stepping; the
// optimizer reads the incumbent when it checks for success and when it restarts. The optimizer
// waits for the worker only where an answer is due: at the end of an attempt that ran out of
// patience (the last means are legalized before the attempt is judged) and when a new attempt
// stops the previous one's work. Everything it waits is counted (optimizer_wait_seconds).
//
// Each candidate's legalization is bounded: a refinement (B) gets one time slice, and a
// candidate whose refinement the slice cut leaves it as unfinished work. The worker keeps the
// unfinished work of the candidate with the lowest objective (whether or not it beats the best
// yet: a cut refinement may not have lowered the peak so far) and goes on with it between
// offers, slice by slice.
// So a new offer is taken within about a slice, whatever the graph's size, and a refinement
// still reaches its local optimum.
//
// The synchronous mode (option legalization=sync) does the same work on the optimizer's thread,
// at each multiplier update, with no slices: a run is then a function of its seed.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <torch/torch.h>

#include <gaus/core/schedule.hpp>

#include "run_budget.hpp"

namespace gaus::differentiable {

struct Candidate;

using StopRequest = std::function<bool()>;

// A refinement that a time slice cut: resume() runs one more slice and returns the candidate it
// has reached (legal, verified, scored), nullopt when it cannot (a schedule that no longer
// verifies, which a refinement that keeps precedence never gives).
class UnfinishedRefinement {
 public:
  virtual ~UnfinishedRefinement() = default;
  virtual std::optional<Candidate> resume(const StopRequest& stop) = 0;
};

struct Candidate {
  Schedule schedule;
  double objective = 0.0;  // smaller is better
  // Set when a time slice cut the candidate's refinement: more may still improve it. The worker
  // takes it over; candidates it hands out have none.
  std::shared_ptr<UnfinishedRefinement> unfinished;
};

// Legalizes the means of one batch row into a candidate, nullopt when they give none. `stop`
// ends a refinement early (with a legal candidate and its unfinished rest).
using Legalizer =
    std::function<std::optional<Candidate>(const std::vector<double>& mu, const StopRequest& stop)>;

// Work other than offered means whose candidates count for the attempt (refining a start).
using CandidateJob = std::function<std::optional<Candidate>(const StopRequest& stop)>;

// What one attempt counts as progress.
struct AttemptRules {
  Legalizer legalize;
  // Candidates must be strictly better than this to count as an improvement.
  std::optional<double> objectiveToBeat;
  // When set, the first candidate passing it ends the attempt.
  std::function<bool(const Candidate&)> success;
};

// The attempt's progress as the worker has it, without the schedule (cheap to read every step).
struct AttemptStatus {
  std::optional<double> bestObjective;  // of the best improving candidate, if any
  bool succeeded = false;
  std::int64_t improvements = 0;  // times the best candidate changed
};

// The run's legalization figures (result figures of method gaus).
struct LegalizationFigures {
  std::int64_t legalizedCandidates = 0;  // batch rows of offered means legalized
  // Seconds summed over rows: with rows side by side (rowThreads) the sums exceed wall time.
  double legalizationSeconds = 0.0;      // on legalization, refinement, verification, scoring
  double candidateSeconds = 0.0;         // of that, on offered rows (one refinement slice each)
  double longestCandidateSeconds = 0.0;  // the longest of those rows
  // The CPU time of the threads that legalized offered rows: on a loaded machine the wall time
  // above also counts the time other threads held the cores.
  double candidateCpuSeconds = 0.0;
  double optimizerWaitSeconds = 0.0;        // the optimizer's thread waiting for the worker
  std::int64_t droppedOffers = 0;           // means replaced before the worker took them
  std::optional<double> firstLegalSeconds;  // first legal candidate from offered means
};

class LegalizationWorker {
 public:
  // `sliceSeconds`: the time slice of one refinement step; `rowThreads`: threads that legalize
  // the rows of one offer side by side (both asynchronous mode only).
  LegalizationWorker(bool asynchronous, const RunBudget& budget, double sliceSeconds,
                     std::int64_t rowThreads = 1);
  ~LegalizationWorker();
  LegalizationWorker(const LegalizationWorker&) = delete;
  LegalizationWorker& operator=(const LegalizationWorker&) = delete;

  bool asynchronous() const { return asynchronous_; }

  // Counts candidates against `rules` from now on. The rules' closures may refer to the caller's
  // locals: endAttempt() must come before those end.
  void beginAttempt(AttemptRules rules);
  // Stops the attempt's work (a piece in flight returns at its next stop check; the optimizer
  // waits for that), drops what is queued, and returns the best improving candidate.
  std::optional<Candidate> endAttempt();
  // Work the attempt must do before any offer (refining a start): done at once on the calling
  // thread, with no time slice (only the run's time limit stops it), and judged before any
  // offered means. So the attempt's best is never worse than what the job reaches on its own in
  // the same time: the start's refinement is not cut short by the candidates' work, nor left
  // behind for a candidate that looks better half refined (docs/gaus.md, "Never worse than its
  // start"). Unfinished work the candidate still carries goes on between offers, as a
  // candidate's does.
  void runFirst(const CandidateJob& job);
  // The latest means [B, V] (any device, float64; a copy the caller no longer changes). Replaces
  // an offer the worker has not taken. Synchronous mode: legalized at once, every row.
  void offer(torch::Tensor means);
  // Asynchronous mode: the worker has no offer waiting, so new means would be taken at once.
  bool wantsMeans() const;
  AttemptStatus status() const;
  // The attempt's best improving candidate so far (a copy: read it at restarts, not per step).
  std::optional<Candidate> best() const;
  // Waits until the attempt's offer and the unfinished refinement it goes on with are done (or the
  // run is out of time), then returns the best improving candidate.
  std::optional<Candidate> finishAttempt();
  LegalizationFigures figures() const;
  // What made the worker fail (an exception in a legalization), if anything did.
  std::optional<std::string> failure() const;

 private:
  void workLoop();
  bool hasWork() const;  // with the lock held
  // Takes one piece of work and does it with the lock released (held on entry and on return).
  void doNextPiece(std::unique_lock<std::mutex>& lock);
  void legalizeMeans(const torch::Tensor& means, std::int64_t attempt,
                     std::unique_lock<std::mutex>& lock);
  // Judges a candidate against the attempt's rules (lock held); a stale attempt's is dropped.
  void consider(std::optional<Candidate> candidate, std::int64_t attempt);
  StopRequest stopFor(std::int64_t attempt, bool sliced) const;
  // Waits, counting the optimizer's wait, until `done` holds (lock held).
  void waitFor(std::unique_lock<std::mutex>& lock, const std::function<bool()>& done);

  const bool asynchronous_;
  const RunBudget& budget_;
  const double sliceSeconds_;
  const std::int64_t rowThreads_;

  mutable std::mutex mutex_;
  std::condition_variable wake_;       // the worker: work arrived, or shutdown
  std::condition_variable idle_;       // the optimizer: the worker finished a piece of work
  std::atomic<std::int64_t> attempt_;  // the current attempt's number; older work is stale
  std::atomic<bool> shutdown_;
  AttemptRules rules_;
  std::optional<Candidate> best_;
  AttemptStatus status_;
  // The refinement the worker goes on with between offers, and its candidate's objective.
  std::shared_ptr<UnfinishedRefinement> refining_;
  double refiningObjective_ = 0.0;
  std::optional<torch::Tensor> offered_;
  bool busy_ = false;
  bool resumeNext_ = false;  // alternates offers with resuming `refining_`
  LegalizationFigures figures_;
  std::optional<std::string> failure_;
  std::thread thread_;
};

}  // namespace gaus::differentiable
