// Pieces every picture shares: the colour palette, axis ticks, the utilization colour scale,
// the legend, the title block (with the verifier's verdict) and numbers written for people.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <gaus/core/verify.hpp>

#include "svg_document.hpp"

namespace gaus::report {

// Light fills that dark text stays readable on, told apart by hue.
std::string_view categoryColour(std::size_t index);
inline constexpr std::size_t kCategoryColours = 10;
// A darker tone of the same hue for lines and dots.
std::string_view seriesColour(std::size_t index);

// White (0) to dark blue (1), for utilization bands; values are clamped to [0, 1].
std::string utilizationColour(double fraction);
// True when text on that utilization colour should be white.
bool darkUtilization(double fraction);

// Tick positions for [low, high]: steps of 1, 2 or 5 times a power of ten, about `targetCount`
// of them. Integer steps only when `integral` (cycles, steps).
std::vector<double> niceTicks(double low, double high, int targetCount, bool integral);

// 1234 -> "1234", 12345 -> "12.3k", 0.000123 -> "1.23e-04", 1.5 -> "1.5".
std::string formatNumber(double value);

struct LegendEntry {
  std::string label;
  std::string colour;     // a box filled with this colour
  std::string lineClass;  // or, when set, a line sample of this style class
};

// Draws the entries in rows from (x, y) within `width`; returns the height used.
double drawLegend(SvgDocument& svg, double x, double y, double width,
                  const std::vector<LegendEntry>& entries);

// The title, one line per note, and the verifier's verdict when given (a schedule picture). A
// failed verification is spelled out in red with the first violation. Returns the y below it.
double drawHeader(SvgDocument& svg, double x, double y, std::string_view title,
                  const std::vector<std::string>& notes,
                  const VerificationReport* verification = nullptr);
// The height and the width drawHeader will use.
double headerHeight(const std::vector<std::string>& notes, bool withVerdict);
double headerWidth(std::string_view title, const std::vector<std::string>& notes,
                   const VerificationReport* verification = nullptr);

}  // namespace gaus::report
