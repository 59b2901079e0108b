// Internal to core: the sum of weighted time intervals per cycle, either over absolute cycles
// or folded modulo II. Used by the verifier and by computeMetrics only; schedulers keep their own
// reservation tables so that the judge shares no code with what it judges.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

#include <gaus/core/types.hpp>

namespace gaus::detail {

template <typename Amount>
class UsageProfile {
 public:
  // `ii` set: cycles are taken modulo ii (an interval longer than ii wraps around and counts
  // once per wrap). Unset: absolute cycles. Either way the profile holds two events per
  // interval, never a table per cycle: a schedule file may carry an II of 10^9.
  explicit UsageProfile(std::optional<std::int64_t> ii) : ii_(ii) {}

  // Adds `amount` to every cycle of [begin, begin + length).
  void add(Cycle begin, Cycle length, Amount amount) {
    if (length <= 0 || amount == Amount{}) return;
    if (ii_) {
      const std::int64_t ii = *ii_;
      const std::int64_t wraps = length / ii;
      const std::int64_t rest = length % ii;
      if (wraps > 0) everyResidue_ += amount * static_cast<Amount>(wraps);
      if (rest > 0) {
        const std::int64_t first = ((begin % ii) + ii) % ii;
        const std::int64_t last = first + rest;  // exclusive, may pass ii
        events_.emplace_back(first, amount);
        if (last <= ii) {
          events_.emplace_back(last, -amount);
        } else {
          events_.emplace_back(0, amount);
          events_.emplace_back(last - ii, -amount);
        }
      }
      return;
    }
    events_.emplace_back(begin, amount);
    events_.emplace_back(begin + length, -amount);
  }

  // Calls visit(firstCycle, endCycle, value) for every maximal run of cycles with the same
  // nonzero total, in increasing cycle order (residues 0..ii-1 for a modulo profile).
  void forEachSegment(const std::function<void(Cycle, Cycle, Amount)>& visit) {
    sortEvents();
    if (ii_) {
      // Residues 0..ii-1; an interval's end event at ii closes nothing that is visited.
      Amount running{};
      std::size_t i = 0;
      while (i < events_.size() && events_[i].first == 0) running += events_[i++].second;
      Cycle segmentStart = 0;
      Amount segmentValue = running + everyResidue_;
      while (i < events_.size() && events_[i].first < *ii_) {
        const Cycle at = events_[i].first;
        while (i < events_.size() && events_[i].first == at) running += events_[i++].second;
        const Amount value = running + everyResidue_;
        if (value == segmentValue) continue;
        if (segmentValue != Amount{}) visit(segmentStart, at, segmentValue);
        segmentStart = at;
        segmentValue = value;
      }
      if (segmentValue != Amount{}) visit(segmentStart, *ii_, segmentValue);
      return;
    }
    if (events_.empty()) return;
    Amount running{};
    std::size_t i = 0;
    while (i < events_.size()) {
      const Cycle time = events_[i].first;
      while (i < events_.size() && events_[i].first == time) running += events_[i++].second;
      if (i < events_.size() && running != Amount{}) visit(time, events_[i].first, running);
    }
  }

  Amount peak() {
    Amount best{};
    forEachSegment([&](Cycle, Cycle, Amount value) { best = std::max(best, value); });
    return best;
  }

 private:
  // The events in increasing cycle order. Many events over a range of cycles not much wider than
  // their count (the schedule of a large graph: two events per op, a latency of a fraction of
  // the op count) are ordered by counting, in time linear in both; the rest by comparison. On a
  // 1,000,000-op list schedule the comparison sort was the largest step of the verifier's own work
  // (perf of `gaus verify`, 2026-11-27), after reading the files.
  void sortEvents() {
    constexpr std::size_t kCountingFrom = 4096;
    const std::size_t count = events_.size();
    if (count >= kCountingFrom) {
      const auto [low, high] =
          std::minmax_element(events_.begin(), events_.end(),
                              [](const auto& a, const auto& b) { return a.first < b.first; });
      const Cycle first = low->first;
      // The width in unsigned arithmetic: cycles far apart must not overflow.
      const std::uint64_t width =
          static_cast<std::uint64_t>(high->first) - static_cast<std::uint64_t>(first);
      if (width < 4 * count) {
        const auto range = static_cast<std::size_t>(width) + 1;
        std::vector<std::size_t> next(range + 1, 0);  // events before each cycle
        for (const auto& event : events_) ++next[static_cast<std::size_t>(event.first - first) + 1];
        for (std::size_t c = 1; c <= range; ++c) next[c] += next[c - 1];
        std::vector<std::pair<Cycle, Amount>> sorted(count);
        for (const auto& event : events_) {
          sorted[next[static_cast<std::size_t>(event.first - first)]++] = event;
        }
        events_ = std::move(sorted);
        return;
      }
    }
    std::sort(events_.begin(), events_.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
  }

  std::optional<std::int64_t> ii_;
  Amount everyResidue_{};
  std::vector<std::pair<Cycle, Amount>> events_;
};

}  // namespace gaus::detail
