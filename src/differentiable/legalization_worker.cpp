#include "legalization_worker.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>
#include <time.h>
#include <vector>

namespace gaus::differentiable {

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// CPU seconds the calling thread has used.
double threadCpuSeconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

}  // namespace

LegalizationWorker::LegalizationWorker(bool asynchronous, const RunBudget& budget,
                                       double sliceSeconds, std::int64_t rowThreads)
    : asynchronous_(asynchronous),
      budget_(budget),
      sliceSeconds_(sliceSeconds),
      rowThreads_(asynchronous ? std::max<std::int64_t>(rowThreads, 1) : 1),
      attempt_(0),
      shutdown_(false) {
  if (asynchronous_) thread_ = std::thread([this] { workLoop(); });
}

LegalizationWorker::~LegalizationWorker() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    shutdown_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void LegalizationWorker::beginAttempt(AttemptRules rules) {
  std::lock_guard<std::mutex> lock(mutex_);
  best_.reset();
  status_ = AttemptStatus{};
  refining_.reset();
  resumeNext_ = false;
  rules_ = std::move(rules);
}

std::optional<Candidate> LegalizationWorker::endAttempt() {
  std::unique_lock<std::mutex> lock(mutex_);
  ++attempt_;  // the piece in flight sees it at its next stop check and returns
  offered_.reset();
  waitFor(lock, [this] { return !busy_; });
  rules_ = AttemptRules{};
  refining_.reset();  // its closures belong to the attempt
  std::optional<Candidate> best = std::move(best_);
  best_.reset();
  return best;
}

void LegalizationWorker::runFirst(const CandidateJob& job) {
  std::unique_lock<std::mutex> lock(mutex_);
  const Clock::time_point began = Clock::now();
  const std::int64_t attempt = attempt_;
  lock.unlock();
  std::optional<Candidate> candidate = job(stopFor(attempt, false));
  lock.lock();
  figures_.legalizationSeconds += secondsSince(began);
  figures_.optimizerWaitSeconds += secondsSince(began);
  consider(std::move(candidate), attempt);
  lock.unlock();
  // Asynchronously the worker takes over what the candidate left unfinished.
  wake_.notify_one();
}

void LegalizationWorker::offer(torch::Tensor means) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (!asynchronous_) {
    const Clock::time_point began = Clock::now();
    legalizeMeans(means, attempt_, lock);
    figures_.optimizerWaitSeconds += secondsSince(began);
    return;
  }
  if (offered_) ++figures_.droppedOffers;
  offered_ = std::move(means);
  lock.unlock();
  wake_.notify_one();
}

bool LegalizationWorker::wantsMeans() const {
  if (!asynchronous_) return false;
  std::lock_guard<std::mutex> lock(mutex_);
  return !offered_.has_value();
}

AttemptStatus LegalizationWorker::status() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return status_;
}

std::optional<Candidate> LegalizationWorker::best() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return best_;
}

std::optional<Candidate> LegalizationWorker::finishAttempt() {
  std::unique_lock<std::mutex> lock(mutex_);
  // Synchronous legalization did every piece of work as it came (refinements without slices).
  if (asynchronous_) waitFor(lock, [this] { return !busy_ && (!hasWork() || failure_); });
  return best_;
}

LegalizationFigures LegalizationWorker::figures() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return figures_;
}

std::optional<std::string> LegalizationWorker::failure() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return failure_;
}

void LegalizationWorker::workLoop() {
  // The worker only rounds and copies tensors: no autograd graph is wanted on this thread.
  torch::NoGradGuard noGrad;
  std::unique_lock<std::mutex> lock(mutex_);
  while (true) {
    wake_.wait(lock, [this] { return shutdown_ || (hasWork() && !failure_); });
    if (shutdown_) return;
    try {
      doNextPiece(lock);
    } catch (const std::exception& error) {
      if (!lock.owns_lock()) lock.lock();
      busy_ = false;
      failure_ = error.what();
    }
    idle_.notify_all();
  }
}

bool LegalizationWorker::hasWork() const {
  if (offered_) return true;
  return refining_ && !budget_.outOfTime();
}

void LegalizationWorker::doNextPiece(std::unique_lock<std::mutex>& lock) {
  const std::int64_t attempt = attempt_;
  busy_ = true;
  if (offered_ && !(resumeNext_ && refining_)) {
    torch::Tensor means = std::move(*offered_);
    offered_.reset();
    resumeNext_ = true;
    legalizeMeans(means, attempt, lock);
  } else if (refining_) {
    resumeNext_ = false;
    std::shared_ptr<UnfinishedRefinement> work = refining_;
    const Clock::time_point began = Clock::now();
    lock.unlock();
    std::optional<Candidate> candidate = work->resume(stopFor(attempt, true));
    lock.lock();
    figures_.legalizationSeconds += secondsSince(began);
    if (refining_ == work) refining_.reset();  // consider() takes back what is left of it
    consider(std::move(candidate), attempt);
  }
  busy_ = false;
}

void LegalizationWorker::legalizeMeans(const torch::Tensor& means, std::int64_t attempt,
                                       std::unique_lock<std::mutex>& lock) {
  const Legalizer legalize = rules_.legalize;
  const StopRequest stop = stopFor(attempt, asynchronous_);
  lock.unlock();
  // A copy to the host; on a GPU this waits for the steps queued before the offer, on this
  // thread, not the optimizer's.
  const torch::Tensor host = means.to(torch::kCPU, torch::kFloat64).contiguous();
  const std::int64_t rows = host.size(0);
  const std::int64_t ops = host.size(1);
  // Each row is legalized on its own: the legalizer and the prepared list scheduler keep no
  // state between calls.
  struct RowOutcome {
    bool done = false;
    std::optional<Candidate> candidate;
    double seconds = 0.0;
    double cpuSeconds = 0.0;
  };
  const auto legalizeRow = [&](std::int64_t b) {
    const double* row = host.data_ptr<double>() + b * ops;
    const Clock::time_point began = Clock::now();
    const double cpuBegan = threadCpuSeconds();
    RowOutcome outcome;
    outcome.candidate = legalize(std::vector<double>(row, row + ops), stop);
    outcome.seconds = secondsSince(began);
    outcome.cpuSeconds = threadCpuSeconds() - cpuBegan;
    outcome.done = true;
    return outcome;
  };
  // With the lock held.
  const auto judge = [&](RowOutcome& outcome) {
    ++figures_.legalizedCandidates;
    figures_.legalizationSeconds += outcome.seconds;
    figures_.candidateSeconds += outcome.seconds;
    figures_.candidateCpuSeconds += outcome.cpuSeconds;
    figures_.longestCandidateSeconds = std::max(figures_.longestCandidateSeconds, outcome.seconds);
    if (outcome.candidate && attempt == attempt_ && !figures_.firstLegalSeconds) {
      figures_.firstLegalSeconds = budget_.elapsedSeconds();
    }
    consider(std::move(outcome.candidate), attempt);
  };
  const std::int64_t threadCount = std::min<std::int64_t>(rowThreads_, rows);
  if (threadCount <= 1) {
    // One row after another, each judged at once: its candidate counts before the next begins.
    for (std::int64_t b = 0; b < rows; ++b) {
      if (attempt != attempt_ || budget_.outOfTime()) break;
      RowOutcome outcome = legalizeRow(b);
      lock.lock();
      judge(outcome);
      lock.unlock();
    }
    lock.lock();
    return;
  }
  // Rows side by side, judged in row order once all are done.
  std::vector<RowOutcome> outcomes(static_cast<std::size_t>(rows));
  std::atomic<std::int64_t> nextRow{0};
  std::exception_ptr failure;
  std::mutex failureMutex;
  std::int64_t failedRow = rows;  // the first row that threw, if any
  const auto legalizeRows = [&] {
    while (true) {
      const std::int64_t b = nextRow++;
      if (b >= rows || attempt != attempt_ || budget_.outOfTime()) return;
      try {
        outcomes[static_cast<std::size_t>(b)] = legalizeRow(b);
      } catch (...) {
        std::lock_guard<std::mutex> guard(failureMutex);
        if (b < failedRow) {
          failedRow = b;
          failure = std::current_exception();
        }
        nextRow = rows;
        return;
      }
    }
  };
  std::vector<std::thread> helpers;
  try {
    for (std::int64_t t = 1; t < threadCount; ++t) helpers.emplace_back(legalizeRows);
  } catch (const std::system_error&) {
    // No more threads to be had: the ones started and this one share the rows.
  }
  legalizeRows();
  for (std::thread& helper : helpers) helper.join();
  lock.lock();
  // As one thread would: the rows before the first that threw are judged, then it fails.
  for (std::int64_t b = 0; b < failedRow; ++b) {
    RowOutcome& outcome = outcomes[static_cast<std::size_t>(b)];
    if (outcome.done) judge(outcome);
  }
  if (failure) std::rethrow_exception(failure);
}

void LegalizationWorker::consider(std::optional<Candidate> candidate, std::int64_t attempt) {
  if (!candidate || attempt != attempt_) return;
  if (std::shared_ptr<UnfinishedRefinement> unfinished = std::move(candidate->unfinished)) {
    // The refinement of the lowest objective goes on (a tie keeps the one further along),
    // whether or not its candidate improves on the best yet.
    if (!refining_ || candidate->objective < refiningObjective_) {
      refining_ = std::move(unfinished);
      refiningObjective_ = candidate->objective;
    }
  }
  const std::optional<double> threshold =
      best_ ? std::optional<double>(best_->objective) : rules_.objectiveToBeat;
  const bool passes = rules_.success && rules_.success(*candidate);
  if ((!threshold || candidate->objective < *threshold) || (passes && !best_)) {
    best_ = std::move(candidate);
    ++status_.improvements;
    status_.bestObjective = best_->objective;
    if (passes) status_.succeeded = true;
  }
}

StopRequest LegalizationWorker::stopFor(std::int64_t attempt, bool sliced) const {
  std::optional<Clock::time_point> sliceEnd;
  if (sliced && asynchronous_) {
    sliceEnd = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                  std::chrono::duration<double>(sliceSeconds_));
  }
  return [this, attempt, sliceEnd] {
    return budget_.outOfTime() || shutdown_ || attempt != attempt_ ||
           (sliceEnd && Clock::now() >= *sliceEnd);
  };
}

void LegalizationWorker::waitFor(std::unique_lock<std::mutex>& lock,
                                 const std::function<bool()>& done) {
  if (done()) return;
  const Clock::time_point began = Clock::now();
  idle_.wait(lock, done);
  figures_.optimizerWaitSeconds += secondsSince(began);
}

}  // namespace gaus::differentiable
