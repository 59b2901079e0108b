#include "priorities.hpp"

#include <algorithm>
#include <numeric>

namespace gaus::heuristic::detail {

std::vector<OpId> orderByKeys(const std::vector<double>& primary,
                              const std::vector<double>& secondary) {
  std::vector<OpId> order(primary.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](OpId a, OpId b) {
    if (primary[a] != primary[b]) return primary[a] < primary[b];
    if (secondary[a] != secondary[b]) return secondary[a] < secondary[b];
    return a < b;
  });
  return order;
}

}  // namespace gaus::heuristic::detail
