// Formulation B's improvement step (include/gaus/live_memory/improvement.hpp): refinement, then
// exact windows at its local optima, the loop that GauS's incumbent and method ilp's start share.

#include <gaus/live_memory/improvement.hpp>

namespace gaus::live_memory {

Improvement::Improvement(const Graph& graph, Cycle horizon, const Schedule& legal,
                         ImprovementOptions options)
    : graph_(graph),
      horizon_(horizon),
      options_(std::move(options)),
      refiner_(std::make_unique<Refiner>(graph, horizon, legal)) {}

Improvement::~Improvement() = default;

bool Improvement::run(const std::function<bool()>& stop, bool windowsNow, double windowSeconds) {
  while (true) {
    const bool refined = refiner_->run(stop);
    const bool windowsLeft = options_.windows && !windowsDone_;
    if (!refined || !windowsLeft || !windowsNow) return refined && !windowsLeft;
    if (!windows_) {
      windows_ = std::make_unique<MilpWindowSearch>(graph_, horizon_, refiner_->result().schedule,
                                                    options_.windowOptions);
    } else if (windowsStale_) {
      windows_->restart(refiner_->result().schedule);
    }
    windowsStale_ = false;
    const std::int64_t keptBefore = windows_->figures().improvements;
    const bool windowsFinished = windows_->run(stop, windowSeconds);
    if (windows_->figures().improvements > keptBefore) {
      // Refined again from what the windows lowered, then windows again.
      refiner_ = std::make_unique<Refiner>(graph_, horizon_, windows_->schedule());
      windowsChanged();
      if (stop && stop()) return false;
      continue;
    }
    windowsDone_ = windowsFinished;
    return windowsFinished;
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

void Improvement::windowsChanged() {
  windowsStale_ = true;
  windowsDone_ = false;
}

}  // namespace gaus::live_memory
