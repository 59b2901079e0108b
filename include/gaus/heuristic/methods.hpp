// The heuristic methods in the method registry:
//   "list"  list scheduling (latency and latency-bounded problems), objective: latency;
//   "ims"   iterative modulo scheduling (modulo problems), objective: II;
//   "fds"   force-directed scheduling (latency and latency-bounded problems);
//   "balanced"  the greedy balanced cut of the stage problem, then its refinement.
// Their options, defaults and meaning are listed by MethodInfo::options (`gaus schedule
// --method list --help-method`).
#pragma once

namespace gaus {

class MethodRegistry;

void registerHeuristicMethods(MethodRegistry& registry);

}  // namespace gaus
