// End-to-end tests of `gaus twill` (builds with the exact engine): the built-in kernels by name,
// the summary and the JSON, the explanation, normalized costs, a bad kernel name, and that it
// prints the schedule `gaus schedule --method twill` computes.
#include <algorithm>
#include <filesystem>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "run_program.hpp"
#include "test_support.hpp"

using gaus::test::runProgram;

namespace {

gaus::test::ProgramOutput gaus_(const std::vector<std::string>& args) {
  return runProgram(GAUS_BINARY, args);
}

nlohmann::json twillJson(const std::vector<std::string>& args) {
  std::vector<std::string> all{"twill"};
  all.insert(all.end(), args.begin(), args.end());
  all.push_back("--json");
  const auto run = gaus_(all);
  INFO(run.err);
  REQUIRE(run.exitCode == 0);
  return nlohmann::json::parse(run.out);
}

// The explanation's attempts that decide whether two warp roles could share a warp set.
std::vector<nlohmann::json> mergeAttempts(const nlohmann::json& result) {
  std::vector<nlohmann::json> merges;
  for (const auto& attempt : result["attempts"]) {
    if (attempt["phase"] == "explain" &&
        attempt["detail"].get<std::string>().starts_with("merge roles")) {
      merges.push_back(attempt);
    }
  }
  return merges;
}

std::size_t lineCount(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

}  // namespace

TEST_CASE("twill toy_fa by name: I = 2, L = 4, one role holding S, P, O", "[cli][twill]") {
  // TWILL.md (paper Fig. 1): two 1-cycle tensor-core ops on one tensor core make I = 1
  // infeasible and I* = 2; S -> P -> O with delays 1 and O's TC slot at residue 1 give L = 4,
  // S:0 and O:3 (P at 1 or 2), 2 stages; one warp suffices (no variable-latency op).
  const auto run = gaus_({"twill", "toy_fa"});
  INFO(run.err);
  REQUIRE(run.exitCode == 0);
  CHECK_THAT(run.out, Catch::Contains("toy_fa: optimal") &&
                          Catch::Contains(
                              "I = 2 (proven minimal), L = 4 (proven least at this I), stages 2") &&
                          Catch::Contains("role 0 on warps {0}: TC+EXP, 3 ops") &&
                          Catch::Contains("verified: true"));

  // The same result as `gaus schedule toy_fa --method twill --json`, plus the roles.
  const auto json = twillJson({"toy_fa"});
  CHECK(json["status"] == "optimal");
  CHECK(json["method"] == "twill");
  CHECK(json["kind"] == "modulo-warp");
  CHECK(json["ii"] == 2);
  CHECK(json["extra"]["latency"] == 4);
  CHECK(json["extra"]["stages"] == 2);
  CHECK(json["bounds"]["ii_proven_optimal"] == true);
  CHECK(json["bounds"]["res_mii"] == 2);
  CHECK(json["bounds"]["rec_mii"] == 1);
  CHECK(json["schedule"]["start"]["S"] == 0);
  CHECK(json["schedule"]["start"]["O"] == 3);
  CHECK(json["extra"]["warps_used"] == 1);
  REQUIRE(json["roles"].size() == 1);
  CHECK(json["roles"][0]["ops"] == nlohmann::json::array({"S", "P", "O"}));
  CHECK(json["roles"][0]["units"] == "TC+EXP");
  CHECK(json["verified"] == true);
  // The attempts start with the modulo MILP at I = 2 (the search starts at MII = 2).
  REQUIRE(!json["attempts"].empty());
  const auto& first = json["attempts"][0];
  CHECK(first["phase"] == "milp");
  CHECK(first["ii"] == 2);
  CHECK(first["latency"] == 4);
  CHECK(first["status"] == "optimal");
}

TEST_CASE("twill --explain says what binds I and why ops were split", "[cli][twill]") {
  SECTION("toy_fa: the tensor core binds I, one warp") {
    // TC carries S and O: 2 busy cycles per iteration on one unit, so I >= 2.
    const auto run = gaus_({"twill", "toy_fa", "--explain"});
    REQUIRE(run.exitCode == 0);
    CHECK_THAT(run.out,
               Catch::Contains("explanation:\nII: ResMII: unit TC is busy 2 unit-cycles per "
                               "iteration at capacity 1, so II >= 2") &&
                   Catch::Contains("all ops run on warps {0}: nothing forces a split"));
    const auto json = twillJson({"toy_fa", "--explain"});
    CHECK_THAT(json["notes"]["explanation"].get<std::string>(),
               Catch::StartsWith("II: ResMII: unit TC"));
    CHECK(mergeAttempts(json).empty());  // one role: no pair to decide
  }
  SECTION("gemm_hopper: the MMA binds I, the loads are split off by variable latency") {
    // configs/kernels/gemm_hopper.yaml: the WGMMA holds the tensor core 4 cycles and carries
    // its accumulator (delay 4, distance 1), so ResMII = RecMII = 4; the two TMA loads are
    // variable-latency ops, which must run alone on the variable-latency warp.
    const auto json = twillJson({"gemm_hopper", "--explain"});
    CHECK(json["ii"] == 4);
    CHECK(json["extra"]["warps_used"] == 2);
    const std::string explanation = json["notes"]["explanation"].get<std::string>();
    CHECK_THAT(explanation,
               Catch::Contains("unit TC is busy 4") &&
                   Catch::Contains("the recurrence through mma -> mma needs II >= 4 as well") &&
                   Catch::Contains("variable-latency: variable-latency ops"));
    // The one pair of roles cannot merge, and the record names the family that forbids it.
    const auto merges = mergeAttempts(json);
    REQUIRE(merges.size() == 1);
    CHECK(merges[0]["status"] == "infeasible");
    CHECK(merges[0]["detail"] == "merge roles 0 and 1; blocked by variable-latency");
  }
}

TEST_CASE("twill on normalized costs states I in cycles and where it is minimal", "[cli][twill]") {
  // Triton's GEMM dump: costs 96..559 cycles normalize to 2..11 units of 52 cycles; the
  // normalized MII is 5 units (the MMA), so I = 5 units = 260 raw cycles, minimal only in
  // normalized units (the raw MII is 256).
  const auto path =
      gaus::test::sharedPath("benchmarks/triton-ddg/case1_simple_gemm.ddg.json").string();
  const auto run = gaus_({"twill", path});
  INFO(run.err);
  REQUIRE(run.exitCode == 0);
  CHECK_THAT(run.out,
             Catch::Contains("I = 260 cycles (5 units of 52; minimal in normalized units)") &&
                 Catch::Contains("MII 5 in normalized units; raw MII 256: ResMII (TC) = 256") &&
                 Catch::Contains("attempts (II and L in normalized units):"));
  const auto json = twillJson({path});
  CHECK(json["status"] == "feasible");  // optimal in normalized units only
  CHECK(json["extra"]["time_unit"] == 52);
  CHECK_THAT(json["notes"]["normalized costs"].get<std::string>(), Catch::Contains("->"));
  CHECK(json["verified"] == true);
}

TEST_CASE("twill with an unknown kernel name: one line naming it and the built-in kernels",
          "[cli][twill]") {
  const auto run = gaus_({"twill", "no_such_kernel"});
  CHECK(run.exitCode == 1);
  CHECK(run.out.empty());
  CHECK(lineCount(run.err) == 1);
  CHECK_THAT(run.err, Catch::StartsWith("gaus: error: no_such_kernel: no such file") &&
                          Catch::Contains("toy_fa") && Catch::Contains("fa_fwd_hopper"));
}

TEST_CASE("twill --explain on every built-in kernel: optimal, verified, every split explained",
          "[cli][twill][.slow]") {
  // configs/kernels: each kernel is solved to a proven minimal I at its ResMII (the tensor core
  // binds in each cost model: TWILL.md "Built-in kernels"), and the explanation decides every
  // pair of warp roles (could share a warp set, or the families that forbid it).
  int kernels = 0;
  for (const auto& entry :
       std::filesystem::directory_iterator(gaus::test::sourcePath("configs/kernels"))) {
    if (entry.path().extension() != ".yaml") continue;
    const std::string name = entry.path().stem().string();
    // The stand-ins for measuring the search (on 6 and on 32 warps) bind I above their MII
    // (docs/benchmarks.md, "Twill on realistic graphs"); tests/unit/exact checks them.
    if (name == "fa_fwd_blackwell_subtiled" || name == "fa_fwd_blackwell_subtiled_32w") continue;
    // The gather stand-in binds I at its warp-aware RecMII, above its MII; tests/unit/exact
    // (test_twill_bounds.cpp) checks it.
    if (name == "gather_attention_32w") continue;
    // FA on Blackwell in FA4's 16 warps of 32 threads takes up to a minute as well, before its
    // explanation; tests/unit/codegen (test_warp_roles.cpp, [.slow]) checks its four roles.
    if (name == "fa_fwd_blackwell_fa4") continue;
    INFO(name);
    const auto json = twillJson({name, "--explain"});
    ++kernels;
    CHECK(json["status"] == "optimal");
    CHECK(json["verified"] == true);
    CHECK(json["ii"] == json["bounds"]["res_mii"]);
    CHECK_THAT(json["notes"]["explanation"].get<std::string>(),
               Catch::StartsWith("II: ResMII: unit TC"));
    const std::size_t roles = json["roles"].size();
    const auto merges = mergeAttempts(json);
    REQUIRE(merges.size() == roles * (roles - 1) / 2);
    for (const auto& merge : merges) {
      CHECK((merge["status"] == "infeasible" || merge["status"] == "feasible"));
      if (merge["status"] == "infeasible") {
        CHECK_THAT(merge["detail"].get<std::string>(), Catch::Contains("blocked by "));
      }
    }
  }
  CHECK(kernels == 4);  // toy_fa, gemm_hopper, fa_fwd_hopper, fa_fwd_blackwell
}

TEST_CASE("gaus twill K and gaus schedule K --method twill give the same schedule",
          "[cli][twill]") {
  // One front door: twill is the schedule command with the method fixed, so the same kernel
  // gives the same verified schedule (the search is deterministic).
  const auto twill = twillJson({"fa_fwd_hopper"});
  const auto run = gaus_({"schedule", "fa_fwd_hopper", "--method", "twill", "--json"});
  INFO(run.err);
  REQUIRE(run.exitCode == 0);
  const auto schedule = nlohmann::json::parse(run.out);
  CHECK(schedule["kind"] == "modulo-warp");  // inferred: twill solves only modulo-warp
  CHECK(schedule["verified"] == true);
  CHECK(schedule["ii"] == twill["ii"]);
  CHECK(schedule["schedule"] == twill["schedule"]);
  CHECK(schedule["options"] == twill["options"]);
  CHECK(twill["ii"] == 16);  // TWILL.md: I* = ResMII(TC) for FA forward on Hopper
}

TEST_CASE("twill on a Triton dump: --warps and --machine apply before the input check",
          "[cli][twill]") {
  // case3_FA's tmem_load ops need min_warps=4. Its companion file gives the loop Triton's 12
  // warps, so the input check passes; --warps 2 replaces them before the check, which then
  // names the op; --warps 16 passes it (the search then ends at once: --max-ii 1 lies below
  // the MII, so no II is tried, and the answer is "infeasible", not an input error).
  const auto fa = gaus::test::sharedPath("benchmarks/triton-ddg/case3_FA.ddg.json").string();
  for (const char* command : {"twill", "schedule"}) {
    INFO(command);
    std::vector<std::string> args{command, fa, "--warps", "2"};
    if (std::string(command) == "schedule") args.insert(args.end(), {"--method", "twill"});
    const auto few = gaus_(args);
    CHECK(few.exitCode == 1);
    CHECK_THAT(few.out + few.err, Catch::Contains("op tmem_load_8 needs min_warps=4, but machine "
                                                  "'triton_blackwell' has 2 warps"));
  }
  const auto enough = gaus_({"twill", fa, "--warps", "16", "--max-ii", "1", "--json"});
  INFO(enough.err);
  const auto json = nlohmann::json::parse(enough.out);
  CHECK(json["options"]["warps"] == "16");
  CHECK(json["status"] == "infeasible");
  CHECK_THAT(json["message"].get<std::string>(), Catch::Contains("no modulo schedule"));

  // The Twill kernels' blackwell machine names other units (EXP, ALU): the error names the
  // shipped machines that have every pipeline of the dump.
  const auto other = gaus_({"twill", fa, "--machine", "blackwell"});
  CHECK(other.exitCode == 1);
  CHECK(lineCount(other.err) == 1);
  CHECK_THAT(other.err, Catch::Contains("machine 'blackwell' has no resource 'CUDA'") &&
                            Catch::Contains("machines that have them all: triton_blackwell, "
                                            "triton_hopper"));
}

TEST_CASE("twill on the Triton GEMM dump: its default machine, and triton_hopper", "[cli][twill]") {
  // The GEMM loop solves in well under a second on triton_blackwell with the companion's 3
  // warps (as in the normalized-costs case above); --machine triton_hopper, the other shipped
  // Triton machine, keeps its own 16 warps and finds the same I (the dump's costs decide it).
  const auto gemm =
      gaus::test::sharedPath("benchmarks/triton-ddg/case1_simple_gemm.ddg.json").string();
  const auto blackwell = twillJson({gemm});
  CHECK(blackwell["ii"] == 260);
  CHECK(blackwell["verified"] == true);
  const auto hopper = twillJson({gemm, "--machine", "triton_hopper"});
  CHECK(hopper["ii"] == 260);
  CHECK(hopper["verified"] == true);
}

TEST_CASE("twill --strategy judges FA3's and FA4's roles against the free optimum",
          "[cli][twill][strategy]") {
  // FA3 on Hopper (producer, two consumers) is what the free search finds (docs/exact.md,
  // "Kernels"): I 16, L 24 under it and free, both proven, so the gap is 0 in I and L. FA4's
  // five roles on Blackwell also reach I 16, L 32 (docs/exact.md, "A given warp strategy"), with
  // 14 warps where the free assignment needs 10.
  const auto fa3 =
      twillJson({"fa_fwd_hopper", "--strategy",
                 gaus::test::sourcePath("configs/strategies/fa_fwd_hopper.fa3.yaml").string()});
  const auto& hopper = fa3["strategy"];
  CHECK(hopper["under_strategy"]["ii"] == 16);
  CHECK(hopper["under_strategy"]["latency"] == 24);
  CHECK(hopper["under_strategy"]["ii_proof"] == "every_length");
  CHECK(hopper["gap"]["ii"] == 0);
  CHECK(hopper["gap"]["latency"] == 0);
  const auto fa4 = twillJson(
      {"fa_fwd_blackwell_fa4", "--strategy",
       gaus::test::sourcePath("configs/strategies/fa_fwd_blackwell_fa4.fa4.yaml").string()});
  const auto& blackwell = fa4["strategy"];
  CHECK(blackwell["under_strategy"]["ii"] == 16);
  CHECK(blackwell["under_strategy"]["latency"] == 32);
  CHECK(blackwell["under_strategy"]["latency_proven_optimal"] == true);
  CHECK(blackwell["gap"]["ii"] == 0);
  CHECK(blackwell["gap"]["latency"] == 0);
  CHECK(blackwell["gap"]["warps"] == 4);
  CHECK(blackwell["free"]["warps_used"] == 10);
}
