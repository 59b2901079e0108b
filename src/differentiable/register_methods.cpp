// Method "gaus" in the registry: options read (and checked) by its table, then the machinery.
#include <gaus/differentiable/gaus_figures.hpp>
#include <gaus/differentiable/gaus_scheduler.hpp>
#include <gaus/methods/registry.hpp>

namespace gaus {

void registerGausMethods(MethodRegistry& registry) {
  registry.add(makeMethod<differentiable::GausOptions>(
      "gaus", "GauS: differentiable scheduling with Gaussian start times (LibTorch, CPU/CUDA)",
      {ProblemKind::kLatency, ProblemKind::kLatencyBounded, ProblemKind::kModulo,
       ProblemKind::kStages},
      differentiable::gausOptionTable(), differentiable::gausFigureTable(),
      differentiable::scheduleWithGaus));
}

}  // namespace gaus
