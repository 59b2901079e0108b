// The memory limit of the engines' models (core/memory_limit.hpp).

#include <cctype>
#include <limits>
#include <unistd.h>

#include <fmt/format.h>

#include <gaus/core/memory_limit.hpp>
#include <gaus/core/option_table.hpp>

namespace gaus {

std::optional<std::int64_t> physicalMemoryBytes() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long pageSize = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || pageSize <= 0) return std::nullopt;
  return static_cast<std::int64_t>(pages) * static_cast<std::int64_t>(pageSize);
}

std::int64_t defaultMemoryLimitBytes() {
  const auto physical = physicalMemoryBytes();
  if (!physical) return std::numeric_limits<std::int64_t>::max();
  return *physical / 10 * 9;
}

std::string formatBytes(std::int64_t bytes) {
  const double value = static_cast<double>(bytes);
  if (value >= 1e9) return fmt::format("{:.2f} GB", value / 1e9);
  if (value >= 1e6) return fmt::format("{:.0f} MB", value / 1e6);
  if (value >= 1e3) return fmt::format("{:.0f} kB", value / 1e3);
  return fmt::format("{} bytes", bytes);
}

std::optional<std::string> refuseAboveMemoryLimit(std::string_view what,
                                                  std::int64_t estimatedBytes,
                                                  std::int64_t limitBytes, std::string_view remedy,
                                                  std::string_view alternative) {
  if (estimatedBytes <= limitBytes) return std::nullopt;
  return fmt::format(
      "{} would take about {} (estimated before it is built), above memory_limit={} ({}): {}, "
      "raise --memory-limit (-O memory_limit=BYTES), or use another method ({})",
      what, formatBytes(estimatedBytes), limitBytes, formatBytes(limitBytes), remedy, alternative);
}

Expected<std::int64_t> parseByteSize(std::string_view text) {
  const auto expected = [&] {
    return Error{fmt::format(
        "expected a byte count such as 8G, 512M or 1048576 (suffixes K, M, G, T), found '{}'",
        text)};
  };
  if (text.empty()) return expected();
  // K, M, G, T: powers of 1024.
  constexpr std::string_view kSuffixes = "KMGT";
  const auto suffix = kSuffixes.find(static_cast<char>(std::toupper(text.back())));
  const std::int64_t unit =
      suffix == std::string_view::npos ? 1 : std::int64_t{1} << (10 * (suffix + 1));
  const std::string_view digits = unit == 1 ? text : text.substr(0, text.size() - 1);
  const auto number = option_text::parseNumber(digits);
  if (!number || *number <= 0 || *number * static_cast<double>(unit) > 9.0e18) return expected();
  return static_cast<std::int64_t>(*number * static_cast<double>(unit));
}

}  // namespace gaus
