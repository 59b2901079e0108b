#include <algorithm>
#include <limits>

#include <gaus/core/deadline.hpp>

namespace gaus {

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

Deadline::Deadline(std::optional<double> seconds) : start_(std::chrono::steady_clock::now()) {
  if (seconds) {
    end_ = start_ + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                        std::chrono::duration<double>(std::max(0.0, *seconds)));
  }
}

bool Deadline::expired() const {
  return end_ && std::chrono::steady_clock::now() >= *end_;
}

double Deadline::remainingSeconds() const {
  if (!end_) return std::numeric_limits<double>::infinity();
  return std::max(0.0,
                  std::chrono::duration<double>(*end_ - std::chrono::steady_clock::now()).count());
}

std::optional<double> Deadline::remainingLimit() const {
  if (!end_) return std::nullopt;
  return remainingSeconds();
}

double Deadline::elapsedSeconds() const {
  return secondsSince(start_);
}

std::optional<double> Deadline::limitSeconds() const {
  if (!end_) return std::nullopt;
  return std::chrono::duration<double>(*end_ - start_).count();
}

Deadline Deadline::share(double fraction, std::optional<double> atMost) const {
  std::optional<double> seconds = atMost;
  if (end_) {
    const double part = std::clamp(fraction, 0.0, 1.0) * remainingSeconds();
    seconds = seconds ? std::min(*seconds, part) : part;
  }
  return Deadline(seconds);
}

}  // namespace gaus
