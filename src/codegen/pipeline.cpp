// Pipeline expansion (pipeline.hpp; docs/codegen.md): checks the schedule with the verifier,
// then forms the roles, the rings and each role's program, and splits the registers. Stages
// and the loop structure follow the modulo-schedule expansion of Rau ("Iterative Modulo
// Scheduling", 1994): an op starting at cycle t belongs to stage floor(t / II); kernel
// iteration k runs stage s of iteration k - s; a loop of N trips takes N + stages - 1 kernel
// iterations, the first stages - 1 the prologue and the last stages - 1 the epilogue.

#include <algorithm>
#include <bit>

#include <fmt/format.h>

#include <gaus/codegen/pipeline.hpp>
#include <gaus/codegen/protocol_runtime.hpp>
#include <gaus/core/analysis.hpp>
#include <gaus/core/problem_kinds.hpp>
#include <gaus/core/verify.hpp>

#include "identifiers.hpp"
#include "pipeline_steps.hpp"

namespace gaus::codegen {

Expected<Pipeline> buildPipeline(const Instance& instance, const Schedule& schedule) {
  if (!instance.graph || !instance.machine) return Error{"the instance has no graph or machine"};
  const Graph& graph = *instance.graph;
  if (!schedule.ii || *schedule.ii <= 0) {
    return Error{fmt::format(
        "the schedule of {} has no II: code generation needs a modulo schedule (gaus schedule "
        "--kind modulo, or gaus twill)",
        instance.name)};
  }
  // Modulo, or modulo-warp when the schedule assigns warps.
  const auto answered = answeredProblem(instance, schedule);
  if (!answered) return Error{answered.error()};
  const Problem& problem = *answered;
  const VerificationReport report = verify(problem, schedule);
  if (!report.ok()) {
    return Error{fmt::format("the schedule does not verify against {} ({} violation(s)); first: {}",
                             instance.name, report.totalViolations,
                             report.violations.front().message)};
  }

  Pipeline pipeline;
  pipeline.name = instance.name;
  pipeline.identifier = detail::identifierFor(instance.name, "kernel_");
  pipeline.graph = instance.graph;
  pipeline.machine = instance.machine;
  pipeline.schedule = schedule;
  pipeline.ii = *schedule.ii;
  pipeline.latency = report.metrics.latency;
  Cycle lastStart = 0;
  for (Cycle start : schedule.start) lastStart = std::max(lastStart, start);
  // ceil(L / II), or one more when an op of duration 0 starts on the last cycle.
  pipeline.stages = static_cast<std::int32_t>(std::max<Cycle>(
      (pipeline.latency + pipeline.ii - 1) / pipeline.ii, lastStart / pipeline.ii + 1));

  const ResMii resMii = computeResMii(graph, *instance.machine);
  const RecMii recMii = computeRecMii(graph);
  pipeline.resMii = resMii.value;
  pipeline.recMii = recMii.value;
  pipeline.mii = std::max(resMii.value, recMii.value);
  pipeline.miiBound = describeIiBound(graph, *instance.machine, resMii, recMii);

  const auto order = topologicalOrder(graph);
  if (!order) return Error{order.error()};
  pipeline.topologicalPosition.assign(static_cast<std::size_t>(graph.numOps()), 0);
  for (std::size_t p = 0; p < order->size(); ++p) {
    pipeline.topologicalPosition[(*order)[p]] = static_cast<std::int32_t>(p);
  }
  detail::IdentifierSet identifiers;
  for (OpId op = 0; op < graph.numOps(); ++op) {
    pipeline.opIdentifiers.push_back(identifiers.claim(graph.opName(op)));
  }

  if (const Status roles = detail::assignRoles(pipeline); !roles) return Error{roles.error()};
  detail::buildRings(pipeline);
  if (const Status laidOut = detail::layOutMemory(pipeline); !laidOut) {
    return Error{laidOut.error()};
  }
  if (const Status fits = detail::layoutFitsMemories(pipeline); !fits) return Error{fits.error()};
  detail::buildRolePrograms(pipeline);
  if (const Status split = detail::splitRegisters(pipeline); !split) return Error{split.error()};
  return pipeline;
}

std::int64_t ringBytes(const Pipeline& pipeline, std::string_view memory) {
  const auto id = pipeline.machine->findMemory(memory);
  if (!id) return 0;
  std::int64_t total = 0;
  for (const Ring& ring : pipeline.rings) {
    for (const auto& print : ring.bytesPerSlot) {
      if (print.memory == *id) total += print.amount * ring.slots;
    }
  }
  return total;
}

std::vector<OpInstance> expandInstances(const Pipeline& pipeline, std::int64_t trips) {
  const gaus_protocol::LoopBounds bounds = gaus_protocol::loopBounds(trips, pipeline.stages);
  std::vector<OpInstance> instances;
  for (std::size_t r = 0; r < pipeline.programs.size(); ++r) {
    for (std::int64_t k = 0; k < bounds.epilogueEnd; ++k) {
      const Section section = k < bounds.prologueEnd ? Section::kPrologue
                              : k < bounds.steadyEnd ? Section::kSteadyState
                                                     : Section::kEpilogue;
      for (const OpBlock& block : pipeline.programs[r].blocks) {
        const std::int64_t iteration = k - block.stage;
        if (!gaus_protocol::inRange(iteration, trips)) continue;
        OpInstance instance;
        instance.op = block.op;
        instance.iteration = iteration;
        instance.kernelIteration = k;
        instance.cycle = pipeline.schedule.start[block.op] + iteration * pipeline.ii;
        instance.stage = block.stage;
        instance.role = static_cast<std::int32_t>(r);
        instance.section = section;
        instances.push_back(instance);
      }
    }
  }
  return instances;
}

}  // namespace gaus::codegen
