// The legalization worker (src/differentiable/legalization_worker.hpp) with stand-in legalizers
// whose answers are known: a row of means [x, ...] legalizes to a candidate of objective x, so
// every expected best below is read off the offered rows.
#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>

#include "legalization_worker.hpp"
#include "run_budget.hpp"
#include "torch_catch.hpp"  // after LibTorch: Catch2's CHECK, not glog's

using namespace gaus;
using namespace gaus::differentiable;

namespace {

const RunContext noContext;  // RunBudget keeps a reference to its context

GausOptions withTimeLimit(double seconds) {
  GausOptions options;
  options.timeLimitSeconds = seconds;
  return options;
}

// Means of `rows` batch rows whose first entries are `firsts`.
torch::Tensor meansWithFirsts(const std::vector<double>& firsts) {
  torch::Tensor means = torch::zeros({static_cast<std::int64_t>(firsts.size()), 3},
                                     torch::TensorOptions().dtype(torch::kFloat64));
  for (std::size_t b = 0; b < firsts.size(); ++b) {
    means[static_cast<std::int64_t>(b)][0] = firsts[b];
  }
  return means;
}

std::optional<Candidate> objectiveFromFirst(const std::vector<double>& mu) {
  Candidate candidate;
  candidate.schedule.start = {0, 1, 2};
  candidate.objective = mu.front();
  return candidate;
}

// Rules whose legalizer reads the objective off the row's first entry.
AttemptRules objectiveFromFirstRules(std::optional<double> objectiveToBeat = std::nullopt) {
  AttemptRules rules;
  rules.legalize = [](const std::vector<double>& mu, const StopRequest&) {
    return objectiveFromFirst(mu);
  };
  rules.objectiveToBeat = objectiveToBeat;
  return rules;
}

// Stands in for a refinement that a slice cuts: each resume lowers the objective by one, down
// to `floor`, and is unfinished until it gets there.
class CountdownRefinement final : public UnfinishedRefinement,
                                  public std::enable_shared_from_this<CountdownRefinement> {
 public:
  CountdownRefinement(double start, double floor) : value_(start), floor_(floor) {}
  std::optional<Candidate> resume(const StopRequest&) override {
    value_ = std::max(floor_, value_ - 1.0);
    Candidate candidate;
    candidate.schedule.start = {0};
    candidate.objective = value_;
    if (value_ > floor_) candidate.unfinished = shared_from_this();
    return candidate;
  }

 private:
  double value_;
  double floor_;
};

template <typename Condition>
bool eventually(Condition condition) {
  for (int k = 0; k < 2000 && !condition(); ++k) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return condition();
}

}  // namespace

TEST_CASE("legalization worker, synchronous: every offered row at once, the best kept",
          "[differentiable][worker]") {
  // Rows 5, 3 and 4 against an objective to beat of 6: 5 improves, then 3; 4 does not. The
  // optimizer waited for all three (synchronous mode waits for everything).
  const GausOptions options = withTimeLimit(60);
  RunBudget budget(options, noContext);
  LegalizationWorker worker(false, budget, 1.0);
  worker.beginAttempt(objectiveFromFirstRules(6.0));
  worker.offer(meansWithFirsts({5, 3, 4}));
  CHECK(worker.status().improvements == 2);
  CHECK(worker.status().bestObjective == 3.0);
  CHECK_FALSE(worker.wantsMeans());  // synchronous: the optimizer offers at its updates
  const std::optional<Candidate> best = worker.endAttempt();
  REQUIRE(best);
  CHECK(best->objective == 3.0);
  CHECK(worker.figures().legalizedCandidates == 3);
  CHECK(worker.figures().optimizerWaitSeconds > 0.0);
  CHECK(worker.figures().firstLegalSeconds.has_value());
}

TEST_CASE("legalization worker, asynchronous: the latest offer replaces an untaken one",
          "[differentiable][worker]") {
  // The first offer blocks the worker until released; two more arrive meanwhile, and the second
  // replaces the first of them (one dropped). So rows 9 (taken), then 1 (replaced, never
  // legalized) and 2 are the candidates: best 2, three legalized, one dropped.
  const GausOptions options = withTimeLimit(60);
  RunBudget budget(options, noContext);
  LegalizationWorker worker(true, budget, 1.0);
  std::atomic<bool> release{false};
  std::atomic<int> started{0};
  AttemptRules rules;
  rules.legalize = [&](const std::vector<double>& mu, const StopRequest&) {
    ++started;
    while (!release) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    return objectiveFromFirst(mu);
  };
  worker.beginAttempt(rules);
  CHECK(worker.wantsMeans());
  worker.offer(meansWithFirsts({9}));
  REQUIRE(eventually([&] { return started == 1; }));
  CHECK(worker.wantsMeans());  // the offer was taken
  worker.offer(meansWithFirsts({1}));
  CHECK_FALSE(worker.wantsMeans());
  worker.offer(meansWithFirsts({2}));
  release = true;
  const std::optional<Candidate> best = worker.finishAttempt();
  REQUIRE(best);
  CHECK(best->objective == 2.0);
  CHECK(worker.figures().legalizedCandidates == 2);
  CHECK(worker.figures().droppedOffers == 1);
  CHECK(worker.endAttempt()->objective == 2.0);
}

TEST_CASE("legalization worker, asynchronous rows side by side: judged in row order",
          "[differentiable][worker]") {
  // Six rows on four threads, each row held 30 ms. Judged in row order against 6 to beat, 5, 3
  // and 2 improve (4, 7 and 6 do not): three improvements, best 2, six legalized, as one thread
  // gives. The rows ran on more than one thread: four threads start within microseconds of each
  // other and each row waits 30 ms, so no thread takes all six.
  const GausOptions options = withTimeLimit(60);
  RunBudget budget(options, noContext);
  LegalizationWorker worker(true, budget, 1.0, 4);
  std::mutex seenMutex;
  std::set<std::thread::id> threads;
  AttemptRules rules = objectiveFromFirstRules(6.0);
  rules.legalize = [&](const std::vector<double>& mu, const StopRequest&) {
    {
      std::lock_guard<std::mutex> guard(seenMutex);
      threads.insert(std::this_thread::get_id());
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    return objectiveFromFirst(mu);
  };
  worker.beginAttempt(rules);
  worker.offer(meansWithFirsts({5, 3, 4, 2, 7, 6}));
  const std::optional<Candidate> best = worker.finishAttempt();
  REQUIRE(best);
  CHECK(best->objective == 2.0);
  CHECK(worker.status().improvements == 3);
  CHECK(worker.figures().legalizedCandidates == 6);
  CHECK(threads.size() > 1);
  CHECK(worker.endAttempt()->objective == 2.0);
}

TEST_CASE("legalization worker, asynchronous rows side by side: a throwing row fails the worker",
          "[differentiable][worker]") {
  // Row 1 of three throws: the worker reports the failure (its message), as one thread does.
  const GausOptions options = withTimeLimit(60);
  RunBudget budget(options, noContext);
  LegalizationWorker worker(true, budget, 1.0, 3);
  AttemptRules rules = objectiveFromFirstRules();
  rules.legalize = [](const std::vector<double>& mu, const StopRequest&) {
    if (mu.front() == 1.0) throw std::runtime_error("row one is broken");
    return objectiveFromFirst(mu);
  };
  worker.beginAttempt(rules);
  worker.offer(meansWithFirsts({0, 1, 2}));
  worker.finishAttempt();
  REQUIRE(worker.failure().has_value());
  CHECK(*worker.failure() == "row one is broken");
  worker.endAttempt();
}

TEST_CASE("legalization worker: ending an attempt stops its work and drops its late answer",
          "[differentiable][worker]") {
  // The legalizer runs until asked to stop, then returns objective 0, which would beat
  // everything. endAttempt must stop it (the optimizer waits for that, and counts it), and the
  // stale answer must not become anyone's best.
  const GausOptions options = withTimeLimit(60);
  RunBudget budget(options, noContext);
  LegalizationWorker worker(true, budget, 1.0e9);
  std::atomic<bool> running{false};
  AttemptRules rules;
  rules.legalize = [&](const std::vector<double>&, const StopRequest& stop) {
    running = true;
    while (!stop()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    Candidate candidate;
    candidate.objective = 0.0;
    return std::optional<Candidate>(candidate);
  };
  worker.beginAttempt(rules);
  worker.offer(meansWithFirsts({7}));
  REQUIRE(eventually([&] { return running.load(); }));
  CHECK_FALSE(worker.endAttempt().has_value());
  CHECK(worker.figures().optimizerWaitSeconds >= 0.0);
  worker.beginAttempt(objectiveFromFirstRules());
  CHECK_FALSE(worker.status().bestObjective.has_value());
  worker.offer(meansWithFirsts({4}));
  CHECK(worker.finishAttempt()->objective == 4.0);
}

TEST_CASE("legalization worker: an unfinished refinement goes on until it is done",
          "[differentiable][worker]") {
  // A start job returns objective 10 with a refinement that counts down to 6 one slice at a
  // time; it does not beat the objective to beat (12 -> 10 does, then every slice improves).
  // finishAttempt waits for the whole refinement: best 6, five improvements (10, 9, 8, 7, 6).
  // In synchronous mode the job's candidate is judged once; its unfinished rest goes on in
  // finishAttempt only asynchronously, so there the best stays 10.
  for (const bool asynchronous : {true, false}) {
    INFO((asynchronous ? "async" : "sync"));
    const GausOptions options = withTimeLimit(60);
    RunBudget budget(options, noContext);
    LegalizationWorker worker(asynchronous, budget, 1.0);
    worker.beginAttempt(objectiveFromFirstRules(12.0));
    worker.runFirst([](const StopRequest&) {
      auto refinement = std::make_shared<CountdownRefinement>(11.0, 6.0);
      return refinement->resume({});
    });
    const std::optional<Candidate> best = worker.finishAttempt();
    REQUIRE(best);
    CHECK(best->objective == (asynchronous ? 6.0 : 10.0));
    CHECK_FALSE(best->unfinished);
    CHECK(worker.status().improvements == (asynchronous ? 5 : 1));
    worker.endAttempt();
  }
}

TEST_CASE("run budget: the step budget ends the steps, not the work without steps",
          "[differentiable][worker]") {
  // max_steps=3 and an hour: after 2 steps nothing is spent; after 3 the steps are (exhausted)
  // while legalizing and refining may go on (not out of time), so that max_steps=0 still refines
  // the start. A cancel request is out of time whatever the steps.
  GausOptions options = withTimeLimit(3600);
  options.maxSteps = 3;
  RunBudget budget(options, noContext);
  budget.addSteps(2);
  REQUIRE_FALSE(budget.exhausted());
  budget.addSteps(1);
  REQUIRE(budget.steps() == 3);
  REQUIRE(budget.exhausted());
  REQUIRE_FALSE(budget.outOfTime());
  REQUIRE(budget.remainingSeconds() > 3000.0);

  const std::atomic<bool> cancelRequest{true};
  RunContext cancelled;
  cancelled.cancel = &cancelRequest;
  RunBudget stopped(options, cancelled);
  REQUIRE(stopped.outOfTime());
  REQUIRE(stopped.cancelled());
  REQUIRE(stopped.exhausted());
}

TEST_CASE("legalization worker: out of time, the worker takes no more work",
          "[differentiable][worker]") {
  // A budget of 1 ms: once it has passed, an unfinished refinement is not resumed and
  // finishAttempt returns at once with the job's first candidate (objective 10).
  const GausOptions options = withTimeLimit(0.001);
  RunBudget budget(options, noContext);
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  REQUIRE(budget.outOfTime());
  LegalizationWorker worker(true, budget, 1.0);
  AttemptRules rules;
  rules.objectiveToBeat = 12.0;
  worker.beginAttempt(rules);
  worker.runFirst([](const StopRequest&) {
    return std::make_shared<CountdownRefinement>(11.0, 0.0)->resume({});
  });
  const std::optional<Candidate> best = worker.finishAttempt();
  REQUIRE(best);
  CHECK(best->objective == 10.0);
}

TEST_CASE("legalization worker: the first job runs to its end before any offer",
          "[differentiable][worker]") {
  // The start's refinement (docs/gaus.md, "Never worse than its start"). Asynchronously, with
  // slices of 1 ms, the first job spends 30 ms and must see no stop request: no slice cuts it.
  // Its candidate (objective 5, below the 12 to beat) is the attempt's best as soon as runFirst
  // returns, before the optimizer offers anything.
  const GausOptions options = withTimeLimit(60);
  RunBudget budget(options, noContext);
  LegalizationWorker worker(true, budget, 0.001);
  worker.beginAttempt(objectiveFromFirstRules(12.0));
  bool stopped = false;
  worker.runFirst([&stopped](const StopRequest& stop) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(30);
    while (std::chrono::steady_clock::now() < until) stopped = stopped || stop();
    Candidate candidate;
    candidate.schedule.start = {0};
    candidate.objective = 5.0;
    return std::optional<Candidate>(candidate);
  });
  CHECK_FALSE(stopped);
  // Judged before runFirst returns, before any offer.
  REQUIRE(worker.status().bestObjective.has_value());
  CHECK(*worker.status().bestObjective == 5.0);
  const std::optional<Candidate> best = worker.finishAttempt();
  REQUIRE(best);
  CHECK(best->objective == 5.0);
  worker.endAttempt();
}
