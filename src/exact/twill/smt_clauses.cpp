// The variables of Twill's SMT model (smt_encoding.hpp).

#include <algorithm>

#include <fmt/format.h>

#include "smt_encoding.hpp"

namespace gaus::exact::detail {

Cycle liveHorizon(const Graph& graph, OpId op, std::int32_t ii, Cycle latency) {
  Cycle horizon = 0;
  for (EdgeId e : graph.outEdges(op)) {
    horizon = std::max(horizon, latency - graph.duration(graph.edgeTarget(e)) +
                                    static_cast<Cycle>(graph.edgeDistance(e)) * ii);
  }
  return horizon;
}

SmtVariables::SmtVariables(z3::context& context)
    : opSymmetry(context.bool_const("op_symmetry")), starts(context) {}

}  // namespace gaus::exact::detail
