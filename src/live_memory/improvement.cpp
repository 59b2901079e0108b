// Formulation B's improvement step (include/gaus/live_memory/improvement.hpp): refinement, then
// exact windows at its local optima, the loop that GauS's incumbent and method ilp's start share.

#include <gaus/live_memory/improvement.hpp>

namespace gaus::live_memory {

Improvement::Improvement(std::shared_ptr<const ProblemFacts> facts, const Schedule& legal,
                         ImprovementOptions options)
    : facts_(std::move(facts)),
      graph_(facts_->graph()),
      horizon_(facts_->horizon().value_or(0)),
      options_(std::move(options)),
      refiner_(std::make_unique<Refiner>(graph_, horizon_, legal)) {}

Improvement::~Improvement() = default;

template <class WindowSearch, class Options, class Run>
bool Improvement::lowerBy(std::unique_ptr<WindowSearch>& search, bool& stale,
                          const Options& options, const Run& run, bool& finished) {
  if (!search) {
    search = std::make_unique<WindowSearch>(facts_, refiner_->result().schedule, options);
  } else if (stale) {
    search->restart(refiner_->result().schedule);
  }
  stale = false;
  const std::int64_t keptBefore = search->figures().improvements;
  finished = run(*search);
  if (search->figures().improvements == keptBefore) return false;
  // Refined again from what the window lowered, then windows again.
  refiner_ = std::make_unique<Refiner>(graph_, horizon_, search->schedule());
  windowsChanged();
  return true;
}

bool Improvement::run(const std::function<bool()>& stop, bool windowsNow, double windowSeconds) {
  while (true) {
    const bool refined = refiner_->run(stop);
    const bool windowsLeft = options_.windows && !windowsDone_;
    if (!refined || !windowsLeft || !windowsNow) return refined && !windowsLeft;
    bool finished = false;
    if (lowerBy(
            cutWindows_, cutWindowsStale_, options_.cutWindowOptions,
            [&](CutWindowSearch& search) { return search.run(stop); }, finished)) {
      if (stop && stop()) return false;
      continue;
    }
    if (!finished) return false;
    if (lowerBy(
            windows_, windowsStale_, options_.windowOptions,
            [&](MilpWindowSearch& search) { return search.run(stop, windowSeconds); }, finished)) {
      if (stop && stop()) return false;
      continue;
    }
    windowsDone_ = finished;
    return finished;
  }
}

std::int64_t Improvement::splice(const Schedule& donor, const std::function<bool()>& stop) {
  const std::int64_t regions = refiner_->splice(donor, stop);
  if (regions > 0) windowsChanged();
  return regions;
}

void Improvement::replace(const Schedule& legal) {
  refiner_ = std::make_unique<Refiner>(graph_, horizon_, legal);
  windowsChanged();
}

const Schedule& Improvement::schedule() {
  return refiner_->result().schedule;
}

double Improvement::peak() const {
  return refiner_->peak();
}

const Refinement& Improvement::refinement() {
  return refiner_->result();
}

MilpWindowFigures Improvement::windowFigures() const {
  return windows_ ? windows_->figures() : MilpWindowFigures{};
}

CutWindowFigures Improvement::cutWindowFigures() const {
  return cutWindows_ ? cutWindows_->figures() : CutWindowFigures{};
}

void Improvement::windowsChanged() {
  cutWindowsStale_ = true;
  windowsStale_ = true;
  windowsDone_ = false;
}

}  // namespace gaus::live_memory
