// Method "gaus" in the registry: options read (and checked) from the string map, then the engine.
#include <gaus/differentiable/gaus_scheduler.hpp>

namespace gaus {

void registerGausMethods(MethodRegistry& registry) {
  registry.add(
      {"gaus",
       "GauS: differentiable scheduling with Gaussian start times (LibTorch, CPU/CUDA)",
       {ProblemKind::kLatency, ProblemKind::kLatencyBounded, ProblemKind::kModulo},
       differentiable::gausOptionDocs(),
       [](const Problem& problem, const MethodOptions& options, const RunContext& context) {
         auto read = differentiable::readGausOptions(options, context);
         if (!read) return errorResult(read.error());
         return differentiable::scheduleWithGaus(problem, *read, context);
       }});
}

}  // namespace gaus
