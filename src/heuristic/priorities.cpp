#include "priorities.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <optional>

namespace gaus::heuristic::detail {

namespace {

// The keys as offsets from their smallest, when every key is a whole number and they span at
// most a few times as many values as there are keys; nullopt otherwise.
std::optional<std::vector<std::uint32_t>> countableKeys(const std::vector<double>& keys) {
  if (keys.empty()) return std::vector<std::uint32_t>{};
  const auto [lowest, highest] = std::minmax_element(keys.begin(), keys.end());
  if (!std::isfinite(*lowest) || !std::isfinite(*highest)) return std::nullopt;
  const double span = *highest - *lowest;
  const double countable = std::min(4.0 * static_cast<double>(keys.size()) + 1024.0, 2147483647.0);
  if (span > countable) return std::nullopt;
  std::vector<std::uint32_t> offsets(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) {
    // The key itself must be whole (an offset of two fractional keys may round to a whole
    // number and tie keys that differ); whole keys within the span subtract exactly. A NaN
    // fails both comparisons and lands here too.
    if (!(keys[i] == std::floor(keys[i]))) return std::nullopt;
    const double offset = keys[i] - *lowest;
    if (!(offset >= 0.0 && offset <= span)) return std::nullopt;
    offsets[i] = static_cast<std::uint32_t>(offset);
  }
  return offsets;
}

// A stable counting sort of `order` by `offset` of each element.
std::vector<OpId> stableByOffset(const std::vector<OpId>& order,
                                 const std::vector<std::uint32_t>& offset) {
  const std::uint32_t largest =
      offset.empty() ? 0 : *std::max_element(offset.begin(), offset.end());
  std::vector<std::size_t> first(static_cast<std::size_t>(largest) + 2, 0);
  for (OpId op : order) ++first[offset[op] + 1];
  std::partial_sum(first.begin(), first.end(), first.begin());
  std::vector<OpId> sorted(order.size());
  for (OpId op : order) sorted[first[offset[op]]++] = op;
  return sorted;
}

}  // namespace

// GauS orders millions of ops by rounded means (whole cycles) with ALAP ties, once per
// candidate: two stable counting passes (secondary, then primary, from ids in order) give the
// comparison sort's order in linear time, a tenth of its time at 10M ops. Keys that are not whole
// numbers or spread too far take the comparison sort.
std::vector<OpId> orderByKeys(const std::vector<double>& primary,
                              const std::vector<double>& secondary) {
  std::vector<OpId> order(primary.size());
  std::iota(order.begin(), order.end(), 0);
  auto primaryOffsets = countableKeys(primary);
  auto secondaryOffsets = primaryOffsets ? countableKeys(secondary) : std::nullopt;
  if (primaryOffsets && secondaryOffsets) {
    return stableByOffset(stableByOffset(order, *secondaryOffsets), *primaryOffsets);
  }
  std::sort(order.begin(), order.end(), [&](OpId a, OpId b) {
    if (primary[a] != primary[b]) return primary[a] < primary[b];
    if (secondary[a] != secondary[b]) return secondary[a] < secondary[b];
    return a < b;
  });
  return order;
}

}  // namespace gaus::heuristic::detail
