// `gaus schedule --method gaus` end to end on the shared benchmarks: one file of every format in
// the default run (HeuriGym JSON, GML, AIGER, Triton, HatScheT), every file in the slow one, with
// formulations B (AIGER, at list scheduling's latency) and A (GML) beside each file's default
// formulation there. Each schedule the program writes is checked again by `gaus verify`.
// tests/unit/differentiable/test_shared_benchmarks.cpp holds the engine-level cases (through
// the registry, with quality bounds); these check the command line on every file.

#include <filesystem>
#include <optional>
#include <sstream>
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

// Runs `gaus schedule SPEC --method gaus ARGS --json -q -o FILE` with a small budget, requires a
// verified schedule, runs `gaus verify SPEC FILE` on what it wrote, and returns the printed
// result.
nlohmann::json scheduleAndVerify(const std::string& spec,
                                 const std::vector<std::string>& extraArgs = {}) {
  // A folder of this process: test programs of several build trees may run at once.
  const gaus::test::TempFolder folder;
  const auto output = folder.file("schedule.json");
  std::vector<std::string> args = {"schedule", spec,           "--method", "gaus", "--json",
                                   "-q",       "--time-limit", "5",        "-O",   "max_steps=500",
                                   "-o",       output.string()};
  args.insert(args.end(), extraArgs.begin(), extraArgs.end());
  std::string command;
  for (const auto& arg : args) command += arg + " ";
  INFO("gaus " << command);
  const auto run = runProgram(GAUS_BINARY, args);
  INFO(run.err);
  REQUIRE(run.exitCode == 0);
  const auto result = nlohmann::json::parse(run.out);
  CHECK(result["verified"] == true);
  CHECK(result["verification"]["violation_count"] == 0);
  // A budget that ends the run still returns the best verified schedule (status timeout).
  const auto status = result["status"].get<std::string>();
  CHECK((status == "optimal" || status == "feasible" || status == "timeout"));
  if (result["bounds"]["lower_bound"].is_number()) {
    CHECK(result["objective"]["value"] >= result["bounds"]["lower_bound"]);
  }
  const auto check = runProgram(GAUS_BINARY, {"verify", spec, output.string()});
  INFO(check.out << check.err);
  CHECK(check.exitCode == 0);
  CHECK_THAT(check.out, Catch::Contains("verified: true"));
  return result;
}

struct FormatCase {
  const char* format;
  std::string spec;
  const char* objectiveName;
  double objective;
};

// Loops (HatScheT graphs, Triton dumps) are modulo problems: `gaus schedule` needs --kind modulo
// for them (the default kind of a file without a horizon or II is latency).
std::vector<std::string> kindArgs(const std::string& spec) {
  const bool loop = spec.ends_with(".graphml") || spec.find(".ddg.json#") != std::string::npos;
  return loop ? std::vector<std::string>{"--kind", "modulo"} : std::vector<std::string>{};
}

}  // namespace

TEST_CASE("schedule --method gaus on one file of every shared benchmark format", "[cli][gaus]") {
  const std::vector<FormatCase> cases = {
      // Formulation L. The exact engine proves latency 7 (docs/benchmarks.md, "Acyclic latency
      // MILP on HeuriGym"), list scheduling's start; the lower bound printed is 6.
      {"HeuriGym", benchmark("heurigym-operator-scheduling/demo/hal.json"), "latency", 7},
      // README: 9 nodes on the longest path, 1 cycle each, no resources: the critical path 9 is
      // reached by the start and proven optimal.
      {"GML", benchmark("gs-schedule-icml24-rw/rand_graph_sparse_1000_1.gml"), "latency", 9},
      // README: AIG depth 10, so 11 ops on the longest path; unlimited gates.
      {"AIGER", benchmark("epfl-combinational/ctrl.aig"), "latency", 11},
      // Formulation C's min-II search (--kind modulo). README: min II 256 (ResMII = RecMII = 256,
      // the MMA).
      {"Triton", benchmark("triton-ddg/case5_addmm_bias.ddg.json") + "#0", "ii", 256},
      // mem_write (1 unit) held by two ops: ResMII 2; a recurrence of 2 cycles: RecMII 2.
      {"HatScheT", benchmark("hatschet-machsuite/aes2/graph1.graphml"), "ii", 2},
  };
  for (const auto& format : cases) {
    INFO(format.format);
    const auto result = scheduleAndVerify(format.spec, kindArgs(format.spec));
    CHECK(result["objective"]["name"] == format.objectiveName);
    CHECK(result["objective"]["value"] == format.objective);
  }
}

TEST_CASE("schedule --method gaus --device cuda without a visible GPU: one line naming the CPU",
          "[cli][gaus]") {
  // CUDA_VISIBLE_DEVICES set empty hides every GPU from the CUDA runtime, so the outcome is the
  // same with Debian's CPU-only LibTorch and with a CUDA one, on a machine with a GPU or not:
  // no device is visible, the call fails (exit code 1) before optimizing, and the one line that
  // says so names the CPU as the choice.
  const std::string spec = benchmark("heurigym-operator-scheduling/demo/hal.json");
  const auto run = runProgram("env", {"CUDA_VISIBLE_DEVICES=", GAUS_BINARY, "schedule", spec,
                                      "--method", "gaus", "--device", "cuda"});
  INFO(run.out << run.err);
  CHECK(run.exitCode == 1);
  std::vector<std::string> errorLines;
  std::istringstream lines(run.out + run.err);
  for (std::string line; std::getline(lines, line);) {
    if (line.find("cuda") != std::string::npos) errorLines.push_back(line);
  }
  REQUIRE(errorLines.size() == 1);
  CHECK_THAT(
      errorLines.front(),
      Catch::StartsWith("method gaus: device cuda: no CUDA device is visible to LibTorch ") &&
          Catch::Contains("run on the CPU with --device cpu"));

  // The same choice given as a method option (-O device=cuda), with --json: the message is the
  // result's, and no schedule is written.
  const auto json = runProgram("env", {"CUDA_VISIBLE_DEVICES=", GAUS_BINARY, "schedule", spec,
                                       "--method", "gaus", "-O", "device=cuda", "--json"});
  CHECK(json.exitCode == 1);
  const auto result = nlohmann::json::parse(json.out);
  CHECK(result["status"] == "error");
  CHECK(result["message"] == errorLines.front());
}

TEST_CASE("schedule --method gaus on every shared benchmark file", "[cli][gaus][.slow]") {
  const std::vector<std::string> specs = gaus::test::sharedBenchmarkSpecs();
  CHECK(specs.size() == gaus::test::kSharedBenchmarkInstances);
  for (const auto& spec : specs) {
    const auto result = scheduleAndVerify(spec, kindArgs(spec));
    const std::string kind = result["kind"];
    if (kind != "latency") {
      CHECK(result["objective"]["name"] == "ii");
      continue;
    }
    // The latency-bounded formulations at a horizon the default run proved legal: B (peak live
    // memory) on the circuits, A (peak stage weight + communication) on the GML graphs.
    const auto horizon = std::to_string(result["objective"]["value"].get<long long>());
    if (spec.ends_with(".aig")) {
      const auto memory = scheduleAndVerify(spec, {"--formulation", "B", "--horizon", horizon});
      CHECK(memory["objective"]["name"] == "peak_memory");
      CHECK(memory["verification"]["metrics"]["latency"] <= result["objective"]["value"]);
    } else if (spec.ends_with(".gml")) {
      const auto stages = scheduleAndVerify(spec, {"--formulation", "A", "--horizon", horizon});
      CHECK(stages["objective"]["name"] == "stage_cost");
    }
  }
}

TEST_CASE("schedule --kind stages --method gaus: never above the greedy cut", "[cli][gaus]") {
  // tests/data/gml/stages.gml with D = 2 (test_cli_heuristic.cpp derives it): the optimum is
  // 501 (peak 5, one crossing), which the greedy cut, one of GauS's starts, already reaches.
  const std::string graph = gaus::test::dataPath("gml/stages.gml").string();
  const auto run =
      runProgram(GAUS_BINARY, {"schedule", graph, "--kind", "stages", "--horizon", "2", "--method",
                               "gaus", "--time-limit", "2", "--json", "-q"});
  INFO(run.err);
  REQUIRE(run.exitCode == 0);
  const auto result = nlohmann::json::parse(run.out);
  CHECK(result["verified"] == true);
  CHECK(result["objective"]["name"] == "stage_cost");
  CHECK(result["objective"]["value"] == 501);
  CHECK(result["bounds"]["lower_bound"] == 500);
}

TEST_CASE("schedule --method gaus -O max_steps=0: the step budget is said, not a time-out",
          "[cli][gaus]") {
  // router (257 gates) at D = its list latency 55 with B: the start + refinement and no Adam
  // step. Its optimum, 56, lies above its best bound, 55 (the Lagrangian's; ilp proves 56), so
  // nothing can prove the answer optimal. The run ends by the budget the user set, so the answer
  // is feasible, and the message names the step budget.
  const auto run =
      runProgram(GAUS_BINARY, {"schedule", benchmark("epfl-combinational/router.aig"), "--method",
                               "gaus", "--horizon", "55", "--objective", "peak_memory", "-O",
                               "max_steps=0", "--time-limit", "30", "--json", "-q"});
  INFO(run.err);
  REQUIRE(run.exitCode == 0);
  const auto result = nlohmann::json::parse(run.out);
  CHECK(result["verified"] == true);
  const auto status = result["status"].get<std::string>();
  INFO(result.dump());
  CHECK(status == "feasible");
  CHECK_THAT(result["message"].get<std::string>(),
             Catch::StartsWith("step budget reached: 0 of max_steps=0 Adam steps"));
}

TEST_CASE("schedule a HatScheT variant graphN.200MHz.graphml: its base graph's model, said once",
          "[cli][hatschet]") {
  // HatScheT's layout: graph9.200MHz.graphml beside graph9_RM.xml (the shared copy of stencil3d
  // holds the base graph, copied here under the variant's name). No --resources is needed, and
  // stderr says which model was taken.
  const gaus::test::TempFolder folder;
  const std::filesystem::path stencil = sharedPath("benchmarks/hatschet-machsuite/stencil3d");
  std::filesystem::copy_file(stencil / "graph9.graphml", folder.file("graph9.200MHz.graphml"));
  std::filesystem::copy_file(stencil / "graph9_RM.xml", folder.file("graph9_RM.xml"));
  const auto run =
      runProgram(GAUS_BINARY, {"schedule", folder.file("graph9.200MHz.graphml").string(),
                               "--method", "ims", "--json", "-q"});
  INFO(run.err);
  REQUIRE(run.exitCode == 0);
  CHECK(nlohmann::json::parse(run.out)["verified"] == true);
  CHECK_THAT(run.err, Catch::Contains("resource model " + folder.file("graph9_RM.xml").string()));
}
