// `gaus schedule --method list|ims` end to end on the shared benchmarks: one file of every
// format in the default run, every file in the slow one. Each schedule the program writes is
// checked again by `gaus verify`.

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "run_program.hpp"
#include "shared_benchmark_specs.hpp"
#include "temp_folder.hpp"
#include "test_support.hpp"

using gaus::test::runProgram;
using gaus::test::sharedPath;

namespace {

std::string benchmark(const std::string& relative) {
  return sharedPath("benchmarks/" + relative).string();
}

// Runs `gaus schedule SPEC --method METHOD --json -o FILE`, requires a verified schedule, runs
// `gaus verify SPEC FILE` on what it wrote, and returns the printed result. list is asked for
// the latency problem: on a loop that is one iteration, on purpose (without --kind a loop is a
// modulo problem, which list does not solve).
nlohmann::json scheduleAndVerify(const std::string& spec, const std::string& method) {
  INFO("gaus schedule " << spec << " --method " << method);
  // A folder of this process: test programs of several build trees may run at once.
  const gaus::test::TempFolder folder;
  const auto output = folder.file("schedule.json");
  std::vector<std::string> args = {"schedule", spec, "--method", method,
                                   "--json",   "-q", "-o",       output.string()};
  if (method == "list") args.insert(args.end(), {"--kind", "latency"});
  const auto run = runProgram(GAUS_BINARY, args);
  INFO(run.err);
  REQUIRE(run.exitCode == 0);
  const auto result = nlohmann::json::parse(run.out);
  CHECK(result["verified"] == true);
  CHECK(result["verification"]["violation_count"] == 0);
  const auto status = result["status"].get<std::string>();
  CHECK((status == "optimal" || status == "feasible"));
  const auto check = runProgram(GAUS_BINARY, {"verify", spec, output.string()});
  INFO(check.out << check.err);
  CHECK(check.exitCode == 0);
  CHECK_THAT(check.out, Catch::Contains("verified: true"));
  return result;
}

// The figures both methods print, against the bounds they print themselves.
void checkBounds(const nlohmann::json& list, const nlohmann::json& ims) {
  CHECK(list["objective"]["value"] >= list["extra"]["critical_path"]);
  CHECK(list["objective"]["value"] >= list["extra"]["resource_bound"]);
  CHECK(ims["ii"] >= ims["bounds"]["mii"]);
  CHECK(ims["bounds"]["mii"] == std::max(ims["bounds"]["res_mii"], ims["bounds"]["rec_mii"]));
}

struct FormatCase {
  const char* format;
  std::string spec;
  std::optional<double> listLatency;  // when known from the folder's README
  double imsIi;
};

}  // namespace

TEST_CASE("schedule --method list and ims on one file of every shared benchmark format",
          "[cli][heuristic]") {
  const std::vector<FormatCase> cases = {
      // baseline.json's ILP latency is 7; six 2-cycle muls on 2 units: ResMII 6, no recurrence.
      {"HeuriGym", benchmark("heurigym-operator-scheduling/demo/hal.json"), 7, 6},
      // README: 9 nodes on the longest path, 1 cycle each, no resources; II 1 without limits.
      {"GML", benchmark("gs-schedule-icml24-rw/rand_graph_sparse_1000_1.gml"), 9, 1},
      // README: AIG depth 10, so 11 ops on the longest path; unlimited gates, no latches.
      {"AIGER", benchmark("epfl-combinational/ctrl.aig"), 11, 1},
      // README: min II 256 (ResMII = RecMII = 256, the MMA on the tensor core).
      {"Triton", benchmark("triton-ddg/case5_addmm_bias.ddg.json") + "#0", std::nullopt, 256},
      // mem_write (1 unit) held by two ops: ResMII 2; a recurrence of 2 cycles: RecMII 2.
      {"HatScheT", benchmark("hatschet-machsuite/aes2/graph1.graphml"), std::nullopt, 2},
  };
  for (const auto& format : cases) {
    INFO(format.format);
    const auto list = scheduleAndVerify(format.spec, "list");
    const auto ims = scheduleAndVerify(format.spec, "ims");
    checkBounds(list, ims);
    if (format.listLatency) CHECK(list["objective"]["value"] == *format.listLatency);
    CHECK(ims["ii"] == format.imsIi);
  }
}

TEST_CASE("schedule --method list and ims on every shared benchmark file",
          "[cli][heuristic][.slow]") {
  const std::vector<std::string> specs = gaus::test::sharedBenchmarkSpecs();
  CHECK(specs.size() == gaus::test::kSharedBenchmarkInstances);
  for (const auto& spec : specs) {
    const auto list = scheduleAndVerify(spec, "list");
    const auto ims = scheduleAndVerify(spec, "ims");
    checkBounds(list, ims);
  }
}

TEST_CASE("schedule --kind stages --method balanced: objective by hand, checked by verify",
          "[cli][stages]") {
  // tests/data/gml/stages.gml: a(5) -> b(3), a -> c(2), b -> d(0), c -> d; a -> b and b -> d
  // carry communication. D = 2: total 10, LB = max(ceil(10 / 2), 5) = 5, bound 100 x 5 = 500.
  // The greedy cut of the order a, b, c, d at capacity 5 is a | b c d: peak 5, a -> b crosses
  // one boundary: 100 x 5 + 1 = 501. Nothing does better: a peak of 5 needs a alone, and a
  // precedes b, so a is in stage 0 and b in stage 1.
  const std::string graph = gaus::test::dataPath("gml/stages.gml").string();
  const gaus::test::TempFolder folder;
  const auto output = folder.file("stages.schedule.json");
  auto run =
      runProgram(GAUS_BINARY, {"schedule", graph, "--kind", "stages", "--horizon", "2", "--method",
                               "balanced", "--json", "-q", "-o", output.string()});
  INFO(run.err);
  REQUIRE(run.exitCode == 0);
  auto result = nlohmann::json::parse(run.out);
  CHECK(result["kind"] == "stages");
  CHECK(result["verified"] == true);
  CHECK(result["objective"]["name"] == "stage_cost");
  CHECK(result["objective"]["value"] == 501);
  CHECK(result["bounds"]["lower_bound"] == 500);
  CHECK(result["status"] == "feasible");
  const auto check =
      runProgram(GAUS_BINARY, {"verify", graph, output.string(), "--stages", "--horizon", "2"});
  INFO(check.out << check.err);
  CHECK(check.exitCode == 0);
  CHECK_THAT(check.out, Catch::Contains("verified: true"));
  // With one stage a, b and c share it: the schedule of two stages is out of range there.
  const auto tooFew =
      runProgram(GAUS_BINARY, {"verify", graph, output.string(), "--stages", "--horizon", "1"});
  CHECK(tooFew.exitCode != 0);
  CHECK_THAT(tooFew.out, Catch::Contains("stage out of range"));

  // --ratio 10: 10 x 5 + 1 = 51, bound 50.
  run = runProgram(GAUS_BINARY, {"schedule", graph, "--kind", "stages", "--horizon", "2", "--ratio",
                                 "10", "--method", "balanced", "--json", "-q"});
  REQUIRE(run.exitCode == 0);
  result = nlohmann::json::parse(run.out);
  CHECK(result["objective"]["value"] == 51);
  CHECK(result["bounds"]["lower_bound"] == 50);
  // --ratio belongs to stage problems only.
  run = runProgram(GAUS_BINARY,
                   {"schedule", graph, "--horizon", "2", "--ratio", "10", "--method", "list"});
  CHECK(run.exitCode != 0);
  CHECK_THAT(run.err, Catch::Contains("--ratio applies to --kind stages"));
}

TEST_CASE("schedule within D on an EPFL circuit prints value, bound and gap", "[cli][bounds]") {
  // ctrl at D = 11 (its list latency): list's own objective there is the peak live memory, with
  // B's min-cut bound (docs/exact.md, "Bounds"). The printed line and --json's gap are one
  // computation: (value - bound) / value from the same two numbers.
  const std::string circuit = benchmark("epfl-combinational/ctrl.aig");
  const auto json = runProgram(
      GAUS_BINARY, {"schedule", circuit, "--horizon", "11", "--method", "list", "--json", "-q"});
  INFO(json.err);
  REQUIRE(json.exitCode == 0);
  const auto result = nlohmann::json::parse(json.out);
  REQUIRE(result["objective"]["name"] == "peak_memory");
  const double value = result["objective"]["value"];
  const double bound = result["bounds"]["lower_bound"];
  // The mandatory lifetimes gave 5 on ctrl (issue 41); the cut is far above and below the
  // optimum 31 that an exact model proves.
  CHECK(bound > 5);
  CHECK(bound <= 31);
  CHECK(result["bounds"]["gap"].get<double>() == Approx((value - bound) / value));
  const auto text =
      runProgram(GAUS_BINARY, {"schedule", circuit, "--horizon", "11", "--method", "list"});
  REQUIRE(text.exitCode == 0);
  char line[160];
  const std::string argument = result["bounds"]["argument"];
  std::snprintf(line, sizeof line, "peak memory %g, bound %g (%s; gap %.1f %%)", value, bound,
                argument.c_str(), 100.0 * (value - bound) / value);
  CHECK_THAT(text.out, Catch::Contains(line));
  // dec at D = 4: every input is read at the last level, so the lifetimes every schedule keeps
  // already reach list's peak, and the line says so.
  const auto dec = runProgram(GAUS_BINARY, {"schedule", benchmark("epfl-combinational/dec.aig"),
                                            "--horizon", "4", "--method", "list"});
  REQUIRE(dec.exitCode == 0);
  CHECK_THAT(dec.out, Catch::Contains(": proven optimal"));
}

TEST_CASE("gaus bound: the whole time on the bound, and the argument that gave it",
          "[cli][bounds]") {
  // ctrl at D = 11: the per-cycle min cut gives 26, the Lagrangian bound over its 11 cycles 31,
  // the optimum HiGHS proves (docs/exact.md, "B: the Lagrangian bound over windows of cycles").
  const std::string circuit = benchmark("epfl-combinational/ctrl.aig");
  const auto json = runProgram(GAUS_BINARY, {"bound", circuit, "--horizon", "11", "--objective",
                                             "peak_memory", "--time-limit", "20", "--json", "-q"});
  INFO(json.err);
  REQUIRE(json.exitCode == 0);
  const auto bound = nlohmann::json::parse(json.out);
  CHECK(bound["lower_bound"] == 31.0);
  CHECK(bound["arguments"]["min_cut"] == 26.0);
  CHECK(bound["arguments"]["lagrangian"] == 31.0);
  CHECK(bound["argument"] == "Lagrangian over cycles 0-10");
  CHECK(bound["complete"] == true);
  const auto text = runProgram(GAUS_BINARY, {"bound", circuit, "--horizon", "11", "-q"});
  REQUIRE(text.exitCode == 0);
  CHECK_THAT(text.out,
             Catch::Contains("peak memory at D = 11 is at least 31 (Lagrangian over cycles 0-10)"));
  // Without a horizon: refused before any search, naming the flag.
  const auto noHorizon = runProgram(GAUS_BINARY, {"bound", circuit});
  CHECK(noHorizon.exitCode != 0);
  CHECK_THAT(noHorizon.err, Catch::Contains("--horizon"));
  // Shorter than the critical path (11): no schedule, said with the file.
  const auto tooShort = runProgram(GAUS_BINARY, {"bound", circuit, "--horizon", "5"});
  CHECK(tooShort.exitCode != 0);
  CHECK_THAT(tooShort.err, Catch::Contains("ctrl.aig"));
}
