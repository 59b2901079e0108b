#include <fmt/format.h>

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

Result errorResult(std::string message) {
  Result result;
  result.call = CallStatus::kError;
  result.message = std::move(message);
  return result;
}

}  // namespace gaus
