// Limits in time: seconds since a start, and a deadline from an optional time limit, for every
// engine's time_limit and for a caller that hands on what is left of its own.
#pragma once

#include <chrono>
#include <optional>

namespace gaus {

// Seconds since `start`, for method statistics and deadlines.
double secondsSince(std::chrono::steady_clock::time_point start);

// A deadline from an optional time limit; `expired()` is false forever when unset. A caller
// hands its phases a Deadline (never a time limit of its own, and never "0 means none"), and a
// phase that gets a part of the time takes it with share().
class Deadline {
 public:
  Deadline() : Deadline(std::nullopt) {}  // none: never expires
  explicit Deadline(std::optional<double> seconds);
  // A command-line limit where 0 means none (`gaus bound --time-limit 0`): the one place that
  // reads that convention.
  static Deadline zeroMeansNone(double seconds) {
    return Deadline(seconds > 0 ? std::optional<double>(seconds) : std::nullopt);
  }
  bool expired() const;
  bool limited() const { return end_.has_value(); }
  double remainingSeconds() const;  // +inf when unset
  // What is left as a limit to hand on (nullopt when unset), so that a callee's deadline ends
  // with this one.
  std::optional<double> remainingLimit() const;
  double elapsedSeconds() const;
  // The whole limit it was made with (nullopt when unset): for a phase whose share is of the
  // caller's time limit, not of what earlier phases left.
  std::optional<double> limitSeconds() const;
  // The one way to take a share of what is left: a deadline `fraction` of the remaining time
  // from now, and at most `atMost` seconds from now; it never ends after this one. Unset with
  // no `atMost`: unset.
  Deadline share(double fraction, std::optional<double> atMost = std::nullopt) const;

 private:
  std::chrono::steady_clock::time_point start_;
  std::optional<std::chrono::steady_clock::time_point> end_;
};

}  // namespace gaus
