// The proof on random loops: 100 small loops (codegen_test_support.hpp: randomLoop), each
// scheduled by ims, ilp, twill and gaus (when built), expanded and run in-process for trip
// counts around the stage count and up to 50; a sample of the generated CPU programs compiled
// and run by default, all of them under [.slow]; every seeded fault caught on random loops.
#include <set>

#include <catch2/catch.hpp>

#include <gaus/codegen/protocol_executor.hpp>
#include <gaus/codegen/targets.hpp>
#include <gaus/methods/method_catalog.hpp>

#include "codegen_test_support.hpp"
#include "temp_folder.hpp"

using namespace gaus;
using namespace gaus::codegen;

namespace {

constexpr std::uint64_t kRandomLoops = 100;
const std::vector<std::string> kMethods = {"ims", "ilp", "twill", "gaus"};

// Trip counts that exercise the corners: one trip, fewer trips than stages, exactly the
// stages, one more, and long runs.
std::vector<std::int64_t> tripCounts(const Pipeline& pipeline) {
  std::set<std::int64_t> trips = {1, 2, 10, 50};
  for (std::int64_t offset = -1; offset <= 1; ++offset) {
    if (pipeline.stages + offset >= 1) trips.insert(pipeline.stages + offset);
  }
  return {trips.begin(), trips.end()};
}

struct Scheduled {
  std::string method;
  std::uint64_t seed = 0;
  Pipeline pipeline;
};

// Every (method, loop) that yields a schedule. Methods not in this build are left out (the
// test log says so).
std::vector<Scheduled> scheduleRandomLoops(std::uint64_t loops,
                                           const std::vector<std::string>& methods = kMethods) {
  std::vector<Scheduled> scheduled;
  for (const std::string& method : methods) {
    if (methodCatalog().find(method) == nullptr) {
      WARN("method " << method << " is not in this build: its random loops are skipped");
      continue;
    }
    for (std::uint64_t seed = 1; seed <= loops; ++seed) {
      const Instance instance = test::randomLoop(seed);
      MethodOptions options;
      if (method == "gaus") options["seed"] = std::to_string(seed);
      const auto schedule = test::methodSchedule(methodCatalog(), method, instance, options);
      if (!schedule) continue;
      auto pipeline = buildPipeline(instance, *schedule);
      INFO(method << " seed " << seed << ": " << (pipeline ? std::string() : pipeline.error()));
      REQUIRE(pipeline);
      scheduled.push_back({method, seed, std::move(pipeline).value()});
    }
  }
  return scheduled;
}

}  // namespace

TEST_CASE("random loops of every method run their protocol without a fault",
          "[codegen][protocol][random]") {
  const std::vector<Scheduled> all = scheduleRandomLoops(kRandomLoops);
  std::map<std::string, int> perMethod;
  std::size_t channels = 0;
  for (const Scheduled& entry : all) {
    ++perMethod[entry.method];
    for (const Ring& ring : entry.pipeline.rings) channels += ring.channel() ? 1 : 0;
    for (std::int64_t trips : tripCounts(entry.pipeline)) {
      ProtocolRunOptions options;
      options.trips = trips;
      const ProtocolRun run = runProtocol(entry.pipeline, options);
      INFO(entry.method << " seed " << entry.seed << " trips " << trips << ": " << run.report);
      REQUIRE(run.ok());
      CHECK(run.trace.size() == static_cast<std::size_t>(entry.pipeline.graph->numOps() * trips));
    }
  }
  // Every available method schedules every loop (they are small and feasible: a non-overlapped
  // schedule always exists), and the loops cross roles: on average more than one channel each.
  for (const auto& [method, count] : perMethod) {
    INFO(method);
    CHECK(count == static_cast<int>(kRandomLoops));
  }
  CHECK(perMethod.count("ims") == 1);
  CHECK(channels > all.size());
}

TEST_CASE("every seeded fault is caught on random loops", "[codegen][protocol][random][mutation]") {
  // Twill's schedules carry warps (roles from the schedule), ims's do not (default roles): both
  // paths get every fault, on the first 20 loops.
  std::map<ProtocolFault, int> caught;
  for (const std::string method : {"ims", "twill"}) {
    if (methodCatalog().find(method) == nullptr) continue;
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
      const auto schedule = test::methodSchedule(methodCatalog(), method, test::randomLoop(seed));
      REQUIRE(schedule);
      const auto pipeline = buildPipeline(test::randomLoop(seed), *schedule);
      REQUIRE(pipeline);
      for (ProtocolFault fault : kAllProtocolFaults) {
        Pipeline broken = *pipeline;
        if (!seedFault(broken, fault)) continue;
        ProtocolRunOptions options;
        options.trips = 10;
        const ProtocolRun run = runProtocol(broken, options);
        INFO(method << " seed " << seed << ", " << broken.seededFault << ": " << run.report);
        CHECK_FALSE(run.ok());
        ++caught[fault];
      }
    }
  }
  for (ProtocolFault fault : kAllProtocolFaults) {
    INFO(toString(fault));
    CHECK(caught[fault] >= 5);  // applied (and caught) on at least 5 loops
  }
}

namespace {

// Compiles and runs the programs eight at a time (each chunk in a folder removed after it).
void compileAndRun(const std::vector<Scheduled>& sample) {
  constexpr std::size_t kChunk = 8;
  for (std::size_t first = 0; first < sample.size(); first += kChunk) {
    const std::size_t end = std::min(sample.size(), first + kChunk);
    test::TempFolder folder;
    std::vector<Pipeline> pipelines;
    for (std::size_t p = first; p < end; ++p) pipelines.push_back(sample[p].pipeline);
    const auto programs = test::compileCpuPrograms(folder.path(), pipelines);
    for (std::size_t p = first; p < end; ++p) {
      for (std::int64_t trips : tripCounts(sample[p].pipeline)) {
        const test::ProgramOutput output =
            test::runProgram(programs[p - first].string(), {"--trips", std::to_string(trips)});
        INFO(sample[p].method << " seed " << sample[p].seed << " trips " << trips << ": "
                              << output.out << output.err);
        REQUIRE(output.exitCode == 0);
      }
    }
  }
}

}  // namespace

TEST_CASE("a sample of random loops: the compiled CPU programs pass their checks",
          "[codegen][protocol][random]") {
  // Two programs, one per way of forming roles: ims (no warps: the default assignment) and
  // twill (the schedule's warps), each the loop with the most channels among the first five.
  std::vector<Scheduled> sample;
  for (Scheduled& entry : scheduleRandomLoops(5, {"ims", "twill"})) {
    const auto channels = [](const Pipeline& pipeline) {
      return std::count_if(pipeline.rings.begin(), pipeline.rings.end(),
                           [](const Ring& ring) { return ring.channel(); });
    };
    auto same = std::find_if(sample.begin(), sample.end(),
                             [&](const Scheduled& kept) { return kept.method == entry.method; });
    if (same == sample.end()) {
      sample.push_back(std::move(entry));
    } else if (channels(entry.pipeline) > channels(same->pipeline)) {
      *same = std::move(entry);
    }
  }
  CHECK(sample.size() >= 1);
  compileAndRun(sample);
}

TEST_CASE("every random loop: the compiled CPU programs pass their checks",
          "[codegen][protocol][random][.slow]") {
  compileAndRun(scheduleRandomLoops(kRandomLoops));
}
