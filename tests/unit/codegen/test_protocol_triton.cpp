// Real loops: every loop of the Triton dependence-graph dumps (../shared/benchmarks/triton-ddg)
// at its Twill schedule, when gaus twill schedules it, and at its ims schedule (default roles:
// one per Blackwell unit, TC, TMA, SFU, CUDA). Each becomes a pipeline whose protocol passes
// every check in-process around its stage count, and a listing.
#include <catch2/catch.hpp>

#include <gaus/codegen/protocol_executor.hpp>
#include <gaus/codegen/targets.hpp>

#include "codegen_test_support.hpp"

using namespace gaus;
using namespace gaus::codegen;

namespace {

void checkProtocol(const Pipeline& pipeline, const std::string& label) {
  for (std::int64_t trips : {std::int64_t{1}, std::int64_t{pipeline.stages} - 1,
                             std::int64_t{pipeline.stages}, std::int64_t{12}}) {
    if (trips < 1) continue;
    ProtocolRunOptions options;
    options.trips = trips;
    const ProtocolRun run = runProtocol(pipeline, options);
    INFO(label << " trips " << trips << ": " << run.report);
    REQUIRE(run.ok());
  }
  CHECK_THAT(renderListing(pipeline), Catch::Contains("software pipeline of " + pipeline.name));
}

}  // namespace

TEST_CASE("Triton loops: the protocols of their Twill and ims schedules pass every check",
          "[codegen][protocol][triton]") {
  std::size_t loops = 0, atTwill = 0;
  for (const auto& file : test::sharedBenchmarkFiles("triton-ddg", ".ddg.json")) {
    for (const Instance& instance : test::loadInstances(file)) {
      ++loops;
      const auto ims = test::methodSchedule(test::heuristicAndExactMethods(), "ims", instance);
      REQUIRE(ims);
      auto imsPipeline = buildPipeline(instance, *ims);
      INFO(instance.name << " (ims): " << (imsPipeline ? std::string() : imsPipeline.error()));
      REQUIRE(imsPipeline);
      checkProtocol(*imsPipeline, instance.name + " at ims");

      // Twill finds no schedule of FA and layernorm within 10 s (docs/benchmarks.md, "Twill on
      // the Triton dumps"); a longer limit only makes the default tests slow. What it schedules
      // must generate.
      MethodOptions options{{"time_limit", "10"}};
      const auto twill =
          test::methodSchedule(test::heuristicAndExactMethods(), "twill", instance, options);
      if (!twill) {
        WARN(instance.name << ": gaus twill gives no schedule (see the log); not generated");
        continue;
      }
      ++atTwill;
      auto pipeline = buildPipeline(instance, *twill);
      INFO(instance.name << " (twill): " << (pipeline ? std::string() : pipeline.error()));
      REQUIRE(pipeline);
      checkProtocol(*pipeline, instance.name + " at twill");
    }
  }
  // Five loops in four dumps (README of triton-ddg); on their machines with Triton's warps, Twill
  // schedules three of them in seconds: the two GEMM loops and addmm's outer loop.
  CHECK(loops == 5);
  CHECK(atTwill >= 3);
}
