#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>

#include <fmt/format.h>

#include <gaus/core/option_table.hpp>

namespace gaus {

bool NumericRange::contains(double value) const {
  if (min && (minExclusive ? value <= *min : value < *min)) return false;
  if (max && (maxExclusive ? value >= *max : value > *max)) return false;
  return true;
}

std::string NumericRange::describe() const {
  const auto number = [](double value) { return option_text::formatNumber(value); };
  if (min && max) {
    return fmt::format("in {}{}, {}{}", minExclusive ? "(" : "[", number(*min), number(*max),
                       maxExclusive ? ")" : "]");
  }
  if (min) return fmt::format("{} {}", minExclusive ? ">" : ">=", number(*min));
  if (max) return fmt::format("{} {}", maxExclusive ? "<" : "<=", number(*max));
  return {};
}

std::string formatSetting(const SettingValue& value) {
  if (const bool* flag = std::get_if<bool>(&value)) return *flag ? "true" : "false";
  if (const std::int64_t* count = std::get_if<std::int64_t>(&value)) return std::to_string(*count);
  if (const double* number = std::get_if<double>(&value)) {
    return option_text::formatNumber(*number);
  }
  return std::get<std::string>(value);
}

namespace option_text {

Expected<std::int64_t> parseInteger(std::string_view text) {
  std::int64_t value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, error] = std::from_chars(text.data(), end, value);
  if (text.empty() || error != std::errc{} || ptr != end) {
    return Error{fmt::format("expects an integer, got '{}'", text)};
  }
  return value;
}

Expected<double> parseNumber(std::string_view text) {
  const std::string copy(text);
  char* end = nullptr;
  const double value = std::strtod(copy.c_str(), &end);
  if (copy.empty() || end != copy.c_str() + copy.size() || !std::isfinite(value)) {
    return Error{fmt::format("expects a number, got '{}'", text)};
  }
  return value;
}

Expected<bool> parseBoolean(std::string_view text) {
  if (text == "true" || text == "1" || text == "yes" || text == "on") return true;
  if (text == "false" || text == "0" || text == "no" || text == "off") return false;
  return Error{fmt::format("expects true or false, got '{}'", text)};
}

std::string formatNumber(double value) {
  // fmt's default format is the shortest text that parses back to the same double.
  return fmt::format("{}", value);
}

namespace {

// Edit distance where swapping two neighbours counts as one edit (optimal string alignment),
// since transposed letters are the commonest typo.
std::size_t editDistance(std::string_view a, std::string_view b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.size()][b.size()];
}

// A name with dashes in snake_case: the separators do not count as typos (time-limit is
// time_limit, --time-limit is --time_limit).
std::string withOtherSeparator(std::string_view name) {
  std::string text(name);
  std::replace(text.begin(), text.end(), '-', '_');
  return text;
}

}  // namespace

std::optional<std::string> nearestName(std::string_view given,
                                       const std::vector<std::string>& known) {
  const std::string normalized = withOtherSeparator(given);
  std::optional<std::string> best;
  std::size_t bestDistance = 0;
  for (const auto& name : known) {
    const std::size_t distance = editDistance(normalized, withOtherSeparator(name));
    if (!best || distance < bestDistance) {
      best = name;
      bestDistance = distance;
    }
  }
  // A third of the name may be mistyped; further away it is more likely another option.
  if (!best || bestDistance > std::max<std::size_t>(1, best->size() / 3)) return std::nullopt;
  return best;
}

Expected<MethodOptions> parseAssignments(const std::vector<std::string>& assignments,
                                         std::string_view flag) {
  MethodOptions options;
  for (const std::string& assignment : assignments) {
    const auto equals = assignment.find('=');
    if (equals == std::string::npos || equals == 0) {
      return Error{fmt::format("{} '{}': expected KEY=VALUE", flag, assignment)};
    }
    options[assignment.substr(0, equals)] = assignment.substr(equals + 1);
  }
  return options;
}

std::string didYouMean(std::string_view given, const std::vector<std::string>& known,
                       std::string_view suffix) {
  const auto nearest = nearestName(given, known);
  return nearest ? fmt::format(" (did you mean '{}{}'?)", *nearest, suffix) : std::string();
}

}  // namespace option_text

}  // namespace gaus
