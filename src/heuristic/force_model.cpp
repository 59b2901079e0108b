// The frames, distribution graphs and forces of force-directed scheduling (force_model.hpp).

#include "force_model.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include <gaus/core/schedule.hpp>

namespace gaus::heuristic::detail {

namespace {

// The distribution graphs hold a double per cycle and resource (one row for memory): past this
// many cells (128 MiB) a run is refused, since building them alone would take seconds per op.
constexpr double kMaxDistributionCells = 16.0 * 1024 * 1024;

}  // namespace

std::optional<std::string> distributionTooLarge(Cycle cycles, ResourceId rows) {
  const double cells = static_cast<double>(cycles) * std::max<double>(1.0, rows);
  if (cells <= kMaxDistributionCells) return std::nullopt;
  return fmt::format(
      "fds: the distribution graphs of {} cycles x {} rows ({:.3g} cells) exceed {:.3g}; use "
      "list or gaus on schedules this long",
      cycles, std::max<ResourceId>(1, rows), cells, kMaxDistributionCells);
}

ForceModel::ForceModel(const Graph& graph, const Machine& machine, bool memory, ForceSums sums)
    : graph_(graph),
      memory_(memory),
      sums_(sums),
      resourceCount_(static_cast<std::size_t>(machine.numResources())),
      predecessors_(graph, false),
      successors_(graph, true),
      products_(successors_) {
  const auto opCount = static_cast<std::size_t>(graph.numOps());
  frameChangedAt_.assign(opCount, 0);
  pendingLo_.assign(opCount, 0);
  pendingHi_.assign(opCount, 0);
  marked_.assign(opCount, 0);
}

void ForceModel::reset(std::vector<Cycle> asap, std::vector<Cycle> alap) {
  asap_ = std::move(asap);
  alap_ = std::move(alap);
  pendingLo_ = asap_;
  pendingHi_ = alap_;
  Cycle end = 1;
  for (OpId op = 0; op < graph_.numOps(); ++op) {
    end = std::max<Cycle>(end, alap_[op] + graph_.duration(op) + 1);
  }
  cycles_ = end;
  fixedCount_ = 0;
  for (OpId op = 0; op < graph_.numOps(); ++op) fixedCount_ += fixed(op) ? 1 : 0;
  ++epoch_;
  cycleChangedAt_.assign(static_cast<std::size_t>(cycles_), epoch_);
  std::fill(frameChangedAt_.begin(), frameChangedAt_.end(), epoch_);
  weights_.assign(static_cast<std::size_t>(cycles_), 0.0);
  started_.assign(static_cast<std::size_t>(cycles_), 0.0);
  if (memory_) {
    if (sums_ == ForceSums::kPrefix) products_.reset(asap_, alap_);
    distribution_.assign(static_cast<std::size_t>(cycles_), 0.0);
    for (OpId op = 0; op < graph_.numOps(); ++op) addLiveTerm(op, 1.0);
  } else {
    distribution_.assign(static_cast<std::size_t>(cycles_) * resourceCount_, 0.0);
    for (OpId op = 0; op < graph_.numOps(); ++op) addOccupancy(op, 1.0);
  }
}

void ForceModel::narrow(OpId op, Cycle lo, Cycle hi) {
  changed_.clear();
  setPending(op, lo, hi);
  std::vector<OpId> forward{op};
  while (!forward.empty()) {
    const OpId from = forward.back();
    forward.pop_back();
    for (const Neighbour& next : successors_.of(from)) {
      const Cycle bound = pendingLo_[from] + next.delay;
      if (bound > pendingLo_[next.op]) {
        setPending(next.op, bound, pendingHi_[next.op]);
        forward.push_back(next.op);
      }
    }
  }
  std::vector<OpId> backward{op};
  while (!backward.empty()) {
    const OpId from = backward.back();
    backward.pop_back();
    for (const Neighbour& previous : predecessors_.of(from)) {
      const Cycle bound = pendingHi_[from] - previous.delay;
      if (bound < pendingHi_[previous.op]) {
        setPending(previous.op, pendingLo_[previous.op], bound);
        backward.push_back(previous.op);
      }
    }
  }
  ++epoch_;
  // The values whose live terms change: those of the changed ops and of what they read.
  std::vector<OpId> values;
  const auto addValue = [&](OpId v) {
    if (marked_[v] == 2) return;
    marked_[v] = 2;
    values.push_back(v);
  };
  if (memory_) {
    for (OpId k : changed_) {
      addValue(k);
      for (const Neighbour& producer : predecessors_.of(k)) addValue(producer.op);
    }
    for (OpId v : values) addLiveTerm(v, -1.0);
    if (sums_ == ForceSums::kPrefix) {
      for (OpId k : changed_) {
        products_.reframe(predecessors_.of(k), asap_[k], alap_[k], pendingLo_[k], pendingHi_[k]);
      }
    }
  } else {
    for (OpId k : changed_) addOccupancy(k, -1.0);
  }
  for (OpId k : changed_) {
    const bool wasFixed = fixed(k);
    asap_[k] = pendingLo_[k];
    alap_[k] = pendingHi_[k];
    if (!wasFixed && fixed(k)) ++fixedCount_;
    frameChangedAt_[k] = epoch_;
    marked_[k] = 0;
  }
  if (memory_) {
    for (OpId v : values) {
      addLiveTerm(v, 1.0);
      marked_[v] = 0;
    }
  } else {
    for (OpId k : changed_) addOccupancy(k, 1.0);
  }
}

bool ForceModel::unchangedSince(OpId op, std::int64_t epoch) const {
  if (frameChangedAt_[op] > epoch) return false;
  Cycle lo = asap_[op];
  Cycle hi = alap_[op] + graph_.duration(op);
  const auto widen = [&](std::span<const Neighbour> neighbours) {
    for (const Neighbour& n : neighbours) {
      if (frameChangedAt_[n.op] > epoch) return false;
      lo = std::min(lo, asap_[n.op]);
      hi = std::max(hi, alap_[n.op] + graph_.duration(n.op));
    }
    return true;
  };
  if (!widen(predecessors_.of(op)) || !widen(successors_.of(op))) return false;
  hi = std::min(hi, cycles_ - 1);
  for (Cycle t = lo; t <= hi; ++t) {
    if (cycleChangedAt_[static_cast<std::size_t>(t)] > epoch) return false;
  }
  return true;
}

std::pair<double, Cycle> ForceModel::bestStep(OpId op) {
  prepare(op);
  double best = std::numeric_limits<double>::infinity();
  Cycle bestStep = asap_[op];
  for (Cycle step = asap_[op]; step <= alap_[op]; ++step) {
    const double force = forceOfNarrowing(step, step);
    if (force < best) {
      best = force;
      bestStep = step;
    }
  }
  return {best, bestStep};
}

double ForceModel::narrowingForce(OpId op, Cycle lo, Cycle hi) {
  prepare(op);
  return forceOfNarrowing(lo, hi);
}

void ForceModel::setPending(OpId op, Cycle lo, Cycle hi) {
  if (marked_[op] != 1) {
    marked_[op] = 1;
    changed_.push_back(op);
  }
  pendingLo_[op] = lo;
  pendingHi_[op] = hi;
}

void ForceModel::markCycles(Cycle lo, Cycle hi) {
  for (Cycle t = std::max<Cycle>(lo, 0); t < std::min(hi, cycles_); ++t) {
    cycleChangedAt_[static_cast<std::size_t>(t)] = epoch_;
  }
}

void ForceModel::addLiveTerm(OpId v, double sign) {
  const double mem = graph_.mem(v);
  if (mem == 0.0 || successors_.size(v) == 0) return;
  Cycle end = 0;
  for (const Neighbour& reader : successors_.of(v)) end = std::max(end, alap_[reader.op]);
  if (end <= asap_[v]) return;
  if (sums_ == ForceSums::kPrefix) {
    products_.fill(v, ReaderProducts::kNoOp, asap_[v], end - 1, asap_, alap_, started_.data());
  }
  for (Cycle t = asap_[v]; t < end; ++t) {
    double allStarted = 1.0;
    if (sums_ == ForceSums::kPrefix) {
      allStarted = started_[static_cast<std::size_t>(t - asap_[v])];
    } else {
      for (const Neighbour& reader : successors_.of(v)) {
        allStarted *= frameCdf(asap_[reader.op], alap_[reader.op], t);
      }
    }
    distribution_[static_cast<std::size_t>(t)] +=
        sign * mem * frameCdf(asap_[v], alap_[v], t) * (1.0 - allStarted);
  }
  markCycles(asap_[v], end);
}

void ForceModel::addOccupancy(OpId op, double sign) {
  const double share = sign / static_cast<double>(alap_[op] - asap_[op] + 1);
  for (const ReservationBlock& block : graph_.reservation(op)) {
    double* row = distribution_.data() +
                  static_cast<std::size_t>(block.resource) * static_cast<std::size_t>(cycles_);
    for (Cycle s = asap_[op]; s <= alap_[op]; ++s) {
      for (Cycle t = s + block.begin; t < s + block.begin + block.length; ++t) {
        row[t] += share * block.units;
      }
    }
  }
  const std::int32_t length = graph_.reservationLength(op);
  if (length > 0) markCycles(asap_[op], alap_[op] + length);
}

void ForceModel::fillProfile(Profile& profile, OpId op) {
  ++evaluations_;
  profile.op = op;
  profile.lo = asap_[op];
  profile.hi = alap_[op];
  const auto width = static_cast<std::size_t>(profile.hi - profile.lo + 1);
  profile.values.assign(width, 0.0);
  if (memory_) {
    double* weight = weights_.data();
    if (sums_ == ForceSums::kPrefix) {
      memoryWeights(op, weight);
    } else {
      memoryWeightsDirect(op, weight);
    }
    for (std::size_t i = 0; i < width; ++i) {
      const double load = distribution_[static_cast<std::size_t>(profile.lo) + i];
      if (load != 0.0) profile.values[i] = load * weight[i];
    }
  } else {
    for (const ReservationBlock& block : graph_.reservation(op)) {
      const double* row = distribution_.data() + static_cast<std::size_t>(block.resource) *
                                                     static_cast<std::size_t>(cycles_);
      for (std::size_t i = 0; i < width; ++i) {
        const Cycle s = profile.lo + static_cast<Cycle>(i);
        double sum = 0.0;
        for (Cycle t = s + block.begin; t < s + block.begin + block.length; ++t) sum += row[t];
        profile.values[i] += block.units * sum;
      }
    }
  }
  profile.suffix.assign(width + 1, 0.0);
  for (std::size_t i = width; i-- > 0;) {
    profile.suffix[i] = profile.suffix[i + 1] + profile.values[i];
  }
  if (memory_ && sums_ == ForceSums::kPrefix) {
    profile.ramp.assign(width + 1, 0.0);
    for (std::size_t i = width; i-- > 0;) {
      profile.ramp[i] = profile.ramp[i + 1] + static_cast<double>(i + 1) * profile.values[i];
    }
  }
  profile.current = weighted(profile, profile.lo, profile.hi);
}

void ForceModel::memoryWeights(OpId op, double* weight) {
  const Cycle lo = asap_[op];
  const Cycle hi = alap_[op];
  const auto width = static_cast<std::size_t>(hi - lo + 1);
  std::fill(weight, weight + width, 0.0);
  double* started = started_.data();
  // Starting op by t opens its value's life at t unless every reader started already.
  if (graph_.mem(op) != 0.0 && successors_.size(op) > 0) {
    products_.fill(op, ReaderProducts::kNoOp, lo, hi, asap_, alap_, started);
    for (std::size_t i = 0; i < width; ++i) weight[i] += graph_.mem(op) * (1.0 - started[i]);
  }
  // Starting op by t ends the life of a value it reads at t unless another reader of it
  // starts later.
  for (const Neighbour& producer : predecessors_.of(op)) {
    const double mem = graph_.mem(producer.op);
    if (mem == 0.0) continue;
    products_.fill(producer.op, op, lo, hi, asap_, alap_, started);
    const Cycle producerLo = asap_[producer.op];
    const Cycle producerHi = alap_[producer.op];
    for (std::size_t i = 0; i < width; ++i) {
      const Cycle t = lo + static_cast<Cycle>(i);
      weight[i] -= mem * frameCdf(producerLo, producerHi, t) * started[i];
    }
  }
}

void ForceModel::memoryWeightsDirect(OpId op, double* weight) const {
  const Cycle lo = asap_[op];
  const Cycle hi = alap_[op];
  for (Cycle t = lo; t <= hi; ++t) {
    double& g = weight[t - lo];
    g = 0.0;
    if (graph_.mem(op) != 0.0 && successors_.size(op) > 0) {
      double allStarted = 1.0;
      for (const Neighbour& reader : successors_.of(op)) {
        allStarted *= frameCdf(asap_[reader.op], alap_[reader.op], t);
      }
      g += graph_.mem(op) * (1.0 - allStarted);
    }
    for (const Neighbour& producer : predecessors_.of(op)) {
      const double mem = graph_.mem(producer.op);
      if (mem == 0.0) continue;
      double othersStarted = 1.0;
      for (const Neighbour& reader : successors_.of(producer.op)) {
        if (reader.op != op) othersStarted *= frameCdf(asap_[reader.op], alap_[reader.op], t);
      }
      g -= mem * frameCdf(asap_[producer.op], alap_[producer.op], t) * othersStarted;
    }
  }
}

double ForceModel::weighted(const Profile& profile, Cycle lo, Cycle hi) const {
  const auto first = static_cast<std::size_t>(lo - profile.lo);
  const auto last = static_cast<std::size_t>(hi - profile.lo);
  const double width = static_cast<double>(hi - lo + 1);
  const std::vector<double>& suffix = profile.suffix;
  if (!memory_) return (suffix[first] - suffix[last + 1]) / width;
  // F = 1 from hi on, (i - first + 1) / width at i in [first, last).
  if (sums_ == ForceSums::kPrefix) {
    const double ramp = (profile.ramp[first] - profile.ramp[last]) -
                        static_cast<double>(first) * (suffix[first] - suffix[last]);
    return suffix[last] + ramp / width;
  }
  double sum = suffix[last];
  for (std::size_t i = first; i < last; ++i) {
    sum += static_cast<double>(i - first + 1) / width * profile.values[i];
  }
  return sum;
}

void ForceModel::prepare(OpId op) {
  profileCount_ = 0;
  const auto add = [&](OpId k, Cycle delay, bool after) {
    if (profileCount_ == profiles_.size()) profiles_.emplace_back();
    Profile& profile = profiles_[profileCount_++];
    fillProfile(profile, k);
    profile.delay = delay;
    profile.after = after;
  };
  add(op, 0, false);
  for (const Neighbour& previous : predecessors_.of(op)) {
    if (!fixed(previous.op)) add(previous.op, previous.delay, false);
  }
  for (const Neighbour& next : successors_.of(op)) {
    if (!fixed(next.op)) add(next.op, next.delay, true);
  }
}

double ForceModel::forceOfNarrowing(Cycle lo, Cycle hi) const {
  const Profile& self = profiles_[0];
  double force = weighted(self, lo, hi) - self.current;
  for (std::size_t i = 1; i < profileCount_; ++i) {
    const Profile& other = profiles_[i];
    Cycle otherLo = other.lo;
    Cycle otherHi = other.hi;
    if (other.after) {
      otherLo = std::max(otherLo, lo + other.delay);
    } else {
      otherHi = std::min(otherHi, hi - other.delay);
    }
    if (otherLo == other.lo && otherHi == other.hi) continue;
    force += weighted(other, otherLo, otherHi) - other.current;
  }
  return force;
}

}  // namespace gaus::heuristic::detail
