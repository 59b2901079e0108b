// `gaus schedule --method ilp --init FILE` end to end: a verifying initial schedule is CBC's start
// (a note says so), one that does not verify is ignored with a note, and the answer is the same
// optimum either way. `gaus twill --init FILE`: the start is the first (II, L) probe.

#include <fstream>
#include <string>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "run_program.hpp"
#include "temp_folder.hpp"
#include "test_support.hpp"

using gaus::test::runProgram;
using gaus::test::sharedPath;

namespace {

// HeuriGym's arf: 28 ops, 3 multipliers and 1 adder; CBC proves latency 16 in about 0.1 s.
constexpr int kArfOptimalLatency = 16;
// As a modulo problem: MII = ResMII = 12 (12 additions on 1 adder), which CBC reaches.
constexpr int kArfMii = 12;

std::string arf() {
  return sharedPath("benchmarks/heurigym-operator-scheduling/small/arf.json").string();
}

// `gaus schedule arf --kind KIND --method ilp`, from `init` when not empty, written to `output`
// when not empty.
nlohmann::json scheduleIlp(const std::string& init, const std::string& output,
                           const std::string& kind = "latency") {
  std::vector<std::string> arguments = {"schedule", arf(),          "--kind", kind,     "--method",
                                        "ilp",      "--time-limit", "30",     "--json", "-q"};
  if (!init.empty()) arguments.insert(arguments.end(), {"--init", init});
  if (!output.empty()) arguments.insert(arguments.end(), {"-o", output});
  const auto run = runProgram(GAUS_BINARY, arguments);
  INFO(run.err);
  REQUIRE(run.exitCode == 0);
  return nlohmann::json::parse(run.out);
}

}  // namespace

TEST_CASE("ilp --init: an optimal start is used, a broken one ignored, both with a note",
          "[cli][exact]") {
  const gaus::test::TempFolder folder;
  const auto optimal = folder.file("optimal.json").string();
  const auto first = scheduleIlp("", optimal);
  REQUIRE(first["status"] == "optimal");
  REQUIRE(first["objective"]["value"] == kArfOptimalLatency);
  CHECK_FALSE(first["notes"].contains("initial schedule"));  // no --init, no note

  SECTION("an init equal to the optimum: same optimum, proven, and the note names --init") {
    const auto warm = scheduleIlp(optimal, "");
    CHECK(warm["status"] == "optimal");
    CHECK(warm["verified"] == true);
    CHECK(warm["objective"]["value"] == kArfOptimalLatency);
    CHECK(warm["extra"]["init_latency"] == kArfOptimalLatency);
    CHECK_THAT(warm["notes"]["initial schedule"].get<std::string>(), Catch::Contains("--init"));
  }

  SECTION("an init that does not verify: ignored with a note, the optimum all the same") {
    // Every op at cycle 0 breaks the precedences and the resource capacities.
    auto broken = nlohmann::json::parse(std::ifstream(optimal));
    for (auto& [op, start] : broken["start"].items()) start = 0;
    const auto brokenPath = folder.file("broken.json").string();
    std::ofstream(brokenPath) << broken.dump();
    const auto cold = scheduleIlp(brokenPath, "");
    CHECK(cold["status"] == "optimal");
    CHECK(cold["objective"]["value"] == kArfOptimalLatency);
    CHECK_FALSE(cold["extra"].contains("init_latency"));
    const auto note = cold["notes"]["initial schedule"].get<std::string>();
    CHECK_THAT(note, Catch::Contains("ignored"));
    CHECK_THAT(note, Catch::Contains("does not verify"));
  }
}

TEST_CASE("ilp --init on a modulo problem: an init at the MII keeps that II and caps the search",
          "[cli][exact]") {
  const gaus::test::TempFolder folder;
  const auto atMii = folder.file("modulo.json").string();
  const auto first = scheduleIlp("", atMii, "modulo");
  REQUIRE(first["ii"] == kArfMii);

  const auto warm = scheduleIlp(atMii, "", "modulo");
  CHECK(warm["status"] == "optimal");
  CHECK(warm["verified"] == true);
  CHECK(warm["ii"] == kArfMii);  // the init's II is the MII: nothing below it, nothing above
  REQUIRE(warm["attempts"].size() == 1);
  CHECK(warm["attempts"][0]["ii"] == kArfMii);
  CHECK_THAT(warm["notes"]["initial schedule"].get<std::string>(), Catch::Contains("--init"));
}

namespace {

// `gaus schedule arf --kind KIND --method ilp -O init=METHOD --time-limit SECONDS --json`.
nlohmann::json scheduleIlpWithInitMethod(const std::string& method, const std::string& kind,
                                         const std::string& seconds) {
  const auto run =
      runProgram(GAUS_BINARY, {"schedule", arf(), "--kind", kind, "--method", "ilp", "-O",
                               "init=" + method, "--time-limit", seconds, "--json", "-q"});
  INFO(run.err);
  REQUIRE(run.exitCode == 0);
  return nlohmann::json::parse(run.out);
}

}  // namespace

TEST_CASE("ilp init=METHOD runs that method first and starts from its schedule", "[cli][exact]") {
  SECTION("init=ims on the modulo problem: IMS reaches the MII, which caps the search") {
    // IMS finds II 12 = MII on arf (the test above: CBC proves nothing lower exists), so the
    // MILP runs at II 12 only, from IMS's schedule.
    const auto result = scheduleIlpWithInitMethod("ims", "modulo", "20");
    CHECK(result["status"] == "optimal");
    CHECK(result["ii"] == kArfMii);
    REQUIRE(result["attempts"].size() == 2);
    CHECK(result["attempts"][0]["phase"] == "init ims");
    CHECK(result["attempts"][0]["status"] == "feasible");
    CHECK(result["attempts"][1]["ii"] == kArfMii);
    CHECK_THAT(result["notes"]["initial schedule"].get<std::string>(), Catch::Contains("init=ims"));
  }

  SECTION("init=gaus on the latency problem: a verified start, and the same optimum") {
    // GauS gets a quarter of the 8 s; whatever latency it reaches, it is at least the optimum
    // 16, and CBC still proves 16.
    const auto result = scheduleIlpWithInitMethod("gaus", "latency", "8");
    CHECK(result["status"] == "optimal");
    CHECK(result["objective"]["value"] == kArfOptimalLatency);
    REQUIRE_FALSE(result["attempts"].empty());
    const auto& init = result["attempts"][0];
    CHECK(init["phase"] == "init gaus");
    CHECK(init["seconds"].get<double>() <= 2.0 + 1.0);  // its share, with a second of slack
    REQUIRE(result["extra"].contains("init_latency"));
    CHECK(result["extra"]["init_latency"].get<double>() >= kArfOptimalLatency);
    CHECK_THAT(result["notes"]["initial schedule"].get<std::string>(),
               Catch::Contains("init=gaus"));
  }

  SECTION("init=ims on the latency problem: IMS does not solve it; the attempt says so") {
    const auto result = scheduleIlpWithInitMethod("ims", "latency", "20");
    CHECK(result["status"] == "optimal");
    CHECK(result["objective"]["value"] == kArfOptimalLatency);
    REQUIRE_FALSE(result["attempts"].empty());
    CHECK(result["attempts"][0]["status"] == "error");
    CHECK_THAT(result["attempts"][0]["detail"].get<std::string>(),
               Catch::Contains("does not solve latency"));
    CHECK_FALSE(result["notes"].contains("initial schedule"));
  }
}

TEST_CASE("ilp --init on a modulo problem: a search that runs out of time answers with the init",
          "[cli][exact]") {
  // MachSuite md_grid/graph6: MII 12, IMS finds II 13, and CBC cannot settle II 12 within a
  // minute (docs/benchmarks.md, MachSuite). With 2 s the attempt at II 12 runs out of time and
  // the answer is II 13, verified, with II 12 not proven infeasible. Which of two honest answers
  // comes depends on the time the attempt at II 12 leaves: none, and the search stops on its
  // total limit with the init (status timeout); a little, and CBC solves II 13 from the init
  // (status feasible, "II not proven minimal"). This is CBC's case (-O solver=cbc): HiGHS, the
  // default, proves II 13 optimal in about 1 s (docs/benchmarks.md, "HiGHS against CBC").
  const gaus::test::TempFolder folder;
  const auto graph = sharedPath("benchmarks/hatschet-machsuite/md_grid/graph6.graphml").string();
  const auto init = folder.file("ims.json").string();
  const auto ims = runProgram(
      GAUS_BINARY, {"schedule", graph, "--kind", "modulo", "--method", "ims", "-o", init, "-q"});
  REQUIRE(ims.exitCode == 0);
  const auto run =
      runProgram(GAUS_BINARY, {"schedule", graph, "--kind", "modulo", "--method", "ilp", "-O",
                               "solver=cbc", "--init", init, "--time-limit", "2", "--json", "-q"});
  INFO(run.err);
  REQUIRE(run.exitCode == 0);
  const auto result = nlohmann::json::parse(run.out);
  CHECK(result["verified"] == true);
  CHECK(result["ii"] == 13);
  const std::string message = result["message"].get<std::string>();
  if (result["status"] == "timeout") {
    CHECK_THAT(message, Catch::Contains("the initial schedule"));
  } else {
    CHECK(result["status"] == "feasible");
    CHECK_THAT(message, Catch::Contains("II not proven minimal"));
  }
}

TEST_CASE("twill --init: the start written by an earlier run is the first probe", "[cli][twill]") {
  // Twill at the fixed II 3 writes S:0, P:1, O:2 on the toy FA (L 3: at II 3 the two TC ops no
  // longer share a residue); from that start, the search probes (3, 3) first and still proves
  // I = 2, L = 4, the answer without a start (test_cli_twill.cpp).
  const gaus::test::TempFolder folder;
  const auto start = folder.file("toy_fa_ii3.json").string();
  const auto first = runProgram(GAUS_BINARY, {"twill", "toy_fa", "--ii", "3", "-q", "-o", start});
  INFO(first.err);
  REQUIRE(first.exitCode == 0);
  CHECK_THAT(first.out, Catch::Contains("I = 3 (proven minimal), L = 3"));
  const auto run = runProgram(GAUS_BINARY, {"twill", "toy_fa", "-q", "--init", start});
  INFO(run.err);
  REQUIRE(run.exitCode == 0);
  CHECK_THAT(run.out, Catch::Contains("initial schedule: the start came from --init: II 3, L 3; it "
                                      "verifies") &&
                          Catch::Contains("probe at II 3, L 3: SAT, L 3") &&
                          Catch::Contains(
                              "I = 2 (proven minimal), L = 4 (proven least at this I), stages 2") &&
                          Catch::Contains("II=3 L=3 probe feasible") &&
                          Catch::Contains("first schedule of the SMT model after"));
}
