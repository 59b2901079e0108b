// Shared pieces of the pictures (chart_support.hpp).

#include "chart_support.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include <fmt/format.h>

namespace gaus::report {

namespace {

// Pairs of a light fill and a dark line colour of the same hue.
constexpr std::array<std::string_view, kCategoryColours> kFills = {
    "#8fb8ea", "#f6b26b", "#93d19b", "#c9a7e3", "#ef8f8f",
    "#e2d06b", "#7fd1cb", "#d4b08c", "#f4a6cf", "#b8b8b8"};
constexpr std::array<std::string_view, kCategoryColours> kLines = {
    "#1f5fb4", "#c96a06", "#23823a", "#7b47a8", "#c02a2a",
    "#8a7a0c", "#157d76", "#80562b", "#b3407f", "#595959"};

constexpr double kNoteLine = 17.0;
constexpr double kTitleLine = 22.0;
constexpr std::size_t kVerdictCharacters = 160;

std::string verdictText(const VerificationReport& verification) {
  if (verification.ok()) return "verified: the schedule passes every check of gaus::verify";
  std::string first =
      verification.violations.empty() ? std::string() : verification.violations.front().message;
  if (first.size() > kVerdictCharacters) first = first.substr(0, kVerdictCharacters) + "...";
  return fmt::format("NOT VERIFIED: {} violation(s) found by gaus::verify; first: {}",
                     verification.totalViolations, first);
}

}  // namespace

std::string_view categoryColour(std::size_t index) {
  return kFills[index % kCategoryColours];
}
std::string_view seriesColour(std::size_t index) {
  return kLines[index % kCategoryColours];
}

std::string utilizationColour(double fraction) {
  const double t = std::clamp(fraction, 0.0, 1.0);
  // From white through light blue to a dark blue; a square root so low loads stay visible.
  const double s = std::sqrt(t);
  const auto mix = [s](double from, double to) {
    return static_cast<int>(std::lround(from + (to - from) * s));
  };
  return fmt::format("#{:02x}{:02x}{:02x}", mix(255, 20), mix(255, 62), mix(255, 140));
}

bool darkUtilization(double fraction) {
  return fraction > 0.45;
}

std::vector<double> niceTicks(double low, double high, int targetCount, bool integral) {
  std::vector<double> ticks;
  if (!(high > low) || targetCount < 1) {
    ticks.push_back(low);
    return ticks;
  }
  const double rough = (high - low) / targetCount;
  const double power = std::pow(10.0, std::floor(std::log10(rough)));
  double step = power;
  for (const double factor : {1.0, 2.0, 5.0, 10.0}) {
    step = factor * power;
    if (step >= rough) break;
  }
  if (integral) step = std::max(1.0, std::round(step));
  for (double tick = std::ceil(low / step) * step; tick <= high + step * 1e-9; tick += step) {
    ticks.push_back(std::abs(tick) < step * 1e-9 ? 0.0 : tick);
  }
  return ticks;
}

std::string formatNumber(double value) {
  if (!std::isfinite(value)) return value > 0 ? "inf" : (value < 0 ? "-inf" : "nan");
  const double magnitude = std::abs(value);
  if (magnitude == 0.0) return "0";
  if (value == std::round(value) && magnitude < 1e4) return fmt::format("{}", value);
  if (magnitude >= 1e4 && magnitude < 1e6) return fmt::format("{:.3g}k", value / 1e3);
  if (magnitude >= 1e6 && magnitude < 1e9) return fmt::format("{:.3g}M", value / 1e6);
  if (magnitude < 1e-3 || magnitude >= 1e9) return fmt::format("{:.2e}", value);
  return fmt::format("{:.4g}", value);
}

double drawLegend(SvgDocument& svg, double x, double y, double width,
                  const std::vector<LegendEntry>& entries) {
  constexpr double kRow = 18.0;
  constexpr double kSample = 16.0;
  constexpr double kFont = 11.0;
  double cursor = x;
  double row = 0.0;
  for (const auto& entry : entries) {
    const double entryWidth = kSample + 6.0 + estimateTextWidth(entry.label, kFont) + 18.0;
    if (cursor > x && cursor + entryWidth > x + width) {
      cursor = x;
      row += kRow;
    }
    const double top = y + row;
    if (!entry.lineClass.empty()) {
      svg.line(cursor, top + 6.0, cursor + kSample, top + 6.0, entry.lineClass);
    } else {
      svg.rect(cursor, top, kSample, 12, "box", entry.colour);
    }
    svg.text(cursor + kSample + 6.0, top + 10.5, entry.label, "lbl");
    cursor += entryWidth;
  }
  return entries.empty() ? 0.0 : row + kRow;
}

double headerHeight(const std::vector<std::string>& notes, bool withVerdict) {
  return 8.0 + kTitleLine + kNoteLine * static_cast<double>(notes.size() + (withVerdict ? 1 : 0)) +
         6.0;
}

double headerWidth(std::string_view title, const std::vector<std::string>& notes,
                   const VerificationReport* verification) {
  double width = estimateTextWidth(title, 15.0) * 1.1;  // bold is wider
  for (const auto& note : notes) width = std::max(width, estimateTextWidth(note, 12.0));
  if (verification) width = std::max(width, estimateTextWidth(verdictText(*verification), 12.0));
  return width;
}

double drawHeader(SvgDocument& svg, double x, double y, std::string_view title,
                  const std::vector<std::string>& notes, const VerificationReport* verification) {
  double cursor = y + 8.0 + 15.0;
  svg.text(x, cursor, title, "title");
  cursor += kNoteLine - 15.0 + 12.0;
  if (verification) {
    svg.text(x, cursor, verdictText(*verification), verification->ok() ? "ok" : "warn");
    cursor += kNoteLine;
  }
  for (const auto& note : notes) {
    svg.text(x, cursor, note, "note");
    cursor += kNoteLine;
  }
  return y + headerHeight(notes, verification != nullptr);
}

}  // namespace gaus::report
