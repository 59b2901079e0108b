// Limits in time: seconds since a start, and a deadline from an optional time limit, for every
// engine's time_limit and for a caller that hands on what is left of its own.
#pragma once

#include <chrono>
#include <optional>

namespace gaus {

// Seconds since `start`, for method statistics and deadlines.
double secondsSince(std::chrono::steady_clock::time_point start);

// A deadline from an optional time limit; `expired()` is false forever when unset.
class Deadline {
 public:
  explicit Deadline(std::optional<double> seconds);
  bool expired() const;
  double remainingSeconds() const;  // +inf when unset
  // What is left as a limit to hand on (nullopt when unset), so that a callee's deadline ends
  // with this one.
  std::optional<double> remainingLimit() const;
  double elapsedSeconds() const;

 private:
  std::chrono::steady_clock::time_point start_;
  std::optional<std::chrono::steady_clock::time_point> end_;
};

}  // namespace gaus
