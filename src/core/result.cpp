#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include <gaus/core/gap.hpp>
#include <gaus/core/result.hpp>

namespace gaus {

std::string Attempt::describe() const {
  std::string text;
  if (ii) text += fmt::format("II={} ", *ii);
  if (horizon) text += fmt::format("D={} ", *horizon);
  if (latency) text += fmt::format("L={} ", *latency);
  text += phase.empty() ? std::string() : phase + " ";
  text += statusText();
  text += fmt::format(" {:.3f}s", seconds);
  if (bound) text += fmt::format(" bound {}", *bound);
  if (!detail.empty()) text += " (" + detail + ")";
  return text;
}

bool meetsBound(double value, double bound) {
  return value <= bound + 1e-9 * std::max(1.0, std::abs(bound));
}

std::optional<double> relativeGap(std::optional<double> value, std::optional<double> bound) {
  if (!value || !bound) return std::nullopt;
  if (meetsBound(*value, *bound)) return 0.0;
  if (*value == 0.0) return std::nullopt;
  return (*value - *bound) / std::abs(*value);
}

Result errorResult(std::string message) {
  Result result;
  result.call = CallStatus::kError;
  result.message = std::move(message);
  return result;
}

}  // namespace gaus
