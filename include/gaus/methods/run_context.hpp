// What a method may use from its caller beyond the problem and its options: progress, a cancel
// flag, a start schedule and the registry that runs it. Apart from the registry
// (methods/registry.hpp), so that an engine's header that takes one does not pull in the method
// framework.
#pragma once

#include <atomic>
#include <functional>
#include <string_view>

#include <gaus/core/schedule.hpp>
#include <gaus/core/warp_strategy.hpp>

namespace gaus {

class MethodRegistry;

// Everything that changes what a method computes (time limit, seed, device, ...) is an option of
// the method, so that the Result echoes it; the context holds only what does not.
struct RunContext {
  // Receives progress lines (iteration, objective, violation, best, elapsed). May be empty.
  std::function<void(std::string_view)> progress;
  const std::atomic<bool>* cancel = nullptr;  // set from outside to stop early
  // A legal schedule to start from and improve on (e.g. read with --init). Methods that improve
  // a start never return anything worse; methods that cannot use one ignore it. Not owned.
  const Schedule* initialSchedule = nullptr;
  // The registry running the method (MethodRegistry::run sets it), for a method that runs
  // another one first, as ilp's init=gaus does: it reaches the other method by name, so an
  // engine never links the module of another. Not owned.
  const MethodRegistry* registry = nullptr;
  // A kernel author's warp strategy (core warp_strategy.hpp, placed): twill solves under it, and
  // the registry verifies every answer against it. Not owned.
  const WarpStrategy* warpStrategy = nullptr;

  void report(std::string_view line) const {
    if (progress) progress(line);
  }
  bool cancelled() const { return cancel != nullptr && cancel->load(std::memory_order_relaxed); }
};

}  // namespace gaus
