// End-to-end tests of `gaus codegen`: a built-in kernel by name with a schedule from
// `gaus twill -o` and `gaus schedule -o`, every target written into a folder, and the
// refusals (a schedule that does not verify, one without II, a bad target, an unknown
// kernel), each a one-line error with nothing written.
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "cli_test_support.hpp"
#include "temp_folder.hpp"
#include "test_support.hpp"

namespace {

const auto gaus_ = gaus::test::runGaus;

}  // namespace

TEST_CASE("codegen of gemm_hopper from gaus twill -o: the listing and every target",
          "[cli][codegen]") {
  gaus::test::TempFolder folder;
  const std::string schedule = folder.file("gemm.schedule.json").string();
  const auto twill = gaus_({"twill", "gemm_hopper", "-q", "-o", schedule});
  INFO(twill.out << twill.err);
  REQUIRE(twill.exitCode == 0);

  // Without -o the listing goes to stdout. GEMM (TWILL.md): II 4 = the MMA's TC cycles, the
  // loads on the producer role, the MMA on a consumer role; A and B tiles of 16 KB cross.
  const auto text = gaus_({"codegen", "gemm_hopper", schedule});
  INFO(text.err);
  REQUIRE(text.exitCode == 0);
  CHECK_THAT(text.out, Catch::Contains("software pipeline of gemm_hopper") &&
                           Catch::Contains("II 4, MII 4") && Catch::Contains("role producer_wg0") &&
                           Catch::Contains("ring load_a: load_a (producer_wg0) -> consumer_wg1") &&
                           Catch::Contains("16384 B of smem per slot"));

  // Each target writes its files and lists them.
  const std::vector<std::pair<std::string, std::vector<std::string>>> targets = {
      {"text", {"gemm_hopper.listing.txt"}},
      {"layout", {"gemm_hopper.layout.json"}},
      {"cuda", {"gemm_hopper_pipeline.cu", "gemm_hopper_ops.cuh"}},
      {"selftest", {"gemm_hopper_pipeline.cu", "gemm_hopper_ops.cuh", "gemm_hopper_selftest.cu"}},
      {"cpu", {"gemm_hopper_pipeline.cpp", "gaus_protocol_runtime.hpp"}},
      {"trace", {"gemm_hopper.trace.json"}}};
  for (const auto& [target, files] : targets) {
    const std::string out = folder.file(target).string();
    const auto run = gaus_({"codegen", "gemm_hopper", schedule, "--target", target, "-o", out});
    INFO(target << ": " << run.out << run.err);
    REQUIRE(run.exitCode == 0);
    for (const auto& file : files) {
      CHECK(std::filesystem::is_regular_file(std::filesystem::path(out) / file));
      CHECK_THAT(run.out, Catch::Contains(file));
    }
  }
  // The layout goes to stdout without -o, as JSON: the A and B tiles of 16 KB at 0 and 16384,
  // then the full and empty barriers of the two one-slot channels (32 bytes), rounded up to the
  // 128-byte alignment of SharedStorage: 32896 bytes.
  const auto layout = gaus_({"codegen", "gemm_hopper", schedule, "--target", "layout"});
  REQUIRE(layout.exitCode == 0);
  const auto memory = nlohmann::json::parse(layout.out);
  CHECK(memory["rings"][1]["ring"] == "load_b");
  CHECK(memory["rings"][1]["base"] == 16384);
  CHECK(memory["memories"][0]["memory"] == "smem");
  CHECK(memory["memories"][0]["total"] == 32896);
  CHECK(memory["memories"][0]["capacity"] == 232448);

  // A seeded fault writes the broken copy, which its own checks report.
  const auto seeded =
      gaus_({"codegen", "gemm_hopper", schedule, "--seed-fault", "wrong-arrival-count"});
  REQUIRE(seeded.exitCode == 0);
  CHECK_THAT(seeded.out, Catch::Contains("SEEDED FAULT (test only): the full barriers of ring"));
  const auto unknownFault =
      gaus_({"codegen", "gemm_hopper", schedule, "--seed-fault", "off-by-one"});
  CHECK(unknownFault.exitCode != 0);
  CHECK_THAT(unknownFault.err, Catch::Contains("--seed-fault 'off-by-one': expected "
                                               "ring-slot-missing, wrong-arrival-count"));

  // The trace of 3 iterations: 3 ops x 3 on role tracks, x 3 on unit tracks, x 3 in the run.
  const auto traced = gaus_({"codegen", "gemm_hopper", schedule, "--target", "trace", "--trips",
                             "3", "-o", folder.file("trace3").string()});
  REQUIRE(traced.exitCode == 0);
  const auto json = nlohmann::json::parse(
      gaus::test::readWholeFile(folder.file("trace3") / "gemm_hopper.trace.json"));
  std::size_t slices = 0;
  for (const auto& event : json["traceEvents"]) slices += event["ph"] == "X" ? 1 : 0;
  CHECK(slices == 27);
}

TEST_CASE("codegen of an ims schedule (no warps) uses the default roles", "[cli][codegen]") {
  gaus::test::TempFolder folder;
  const std::string schedule = folder.file("fa.ims.json").string();
  const auto ims =
      gaus_({"schedule", gaus::test::sourcePath("configs/kernels/toy_fa.yaml").string(), "--method",
             "ims", "-o", schedule});
  INFO(ims.out << ims.err);
  REQUIRE(ims.exitCode == 0);
  const auto text = gaus_({"codegen", "toy_fa", schedule});
  INFO(text.err);
  REQUIRE(text.exitCode == 0);
  // Toy FA's units are TC and EXP: S and O on role TC, P on role EXP.
  CHECK_THAT(text.out,
             Catch::Contains("roles: default assignment") &&
                 Catch::Contains("role TC: schedule warp {0} = warp group 0, threads 0..127, units "
                                 "TC, 2 ops") &&
                 Catch::Contains("role EXP: schedule warp {1} = warp group 1, threads 128..255, "
                                 "units EXP, 1 op"));
}

TEST_CASE("codegen refuses, in one line and writing nothing", "[cli][codegen]") {
  gaus::test::TempFolder folder;
  const auto out = folder.file("out");
  // {S:0, P:1, O:2} at II 2 puts S and O on the tensor core at residue 0 (TWILL.md).
  const auto clash = folder.write(
      "clash.json",
      R"({"format": "gaus-schedule-0.1", "ii": 2, "start": {"S": 0, "P": 1, "O": 2}})");
  auto run = gaus_({"codegen", "toy_fa", clash.string(), "--target", "cpu", "-o", out.string()});
  CHECK(run.exitCode == 1);
  CHECK_THAT(run.err, Catch::StartsWith("gaus: error: " + clash.string() +
                                        ": the schedule does not verify against toy_fa"));
  CHECK(gaus::test::lineCount(run.err) == 1);
  CHECK_FALSE(std::filesystem::exists(out));

  const auto noIi = folder.write(
      "no_ii.json", R"({"format": "gaus-schedule-0.1", "start": {"S": 0, "P": 2, "O": 3}})");
  run = gaus_({"codegen", "toy_fa", noIi.string()});
  CHECK(run.exitCode == 1);
  CHECK_THAT(run.err, Catch::Contains("has no II: code generation needs a modulo schedule"));

  const auto broken =
      folder.write("broken.json", "{\"format\": \"gaus-schedule-0.1\",\n \"ii\": two}");
  run = gaus_({"codegen", "toy_fa", broken.string()});
  CHECK(run.exitCode == 1);
  CHECK_THAT(run.err, Catch::StartsWith("gaus: error: " + broken.string() + ":2:"));

  const auto good = folder.write(
      "good.json",
      R"({"format": "gaus-schedule-0.1", "ii": 2, "start": {"S": 0, "P": 2, "O": 3}})");
  run = gaus_({"codegen", "toy_fa", good.string(), "--target", "cuda"});
  CHECK(run.exitCode == 1);
  CHECK_THAT(run.err, Catch::Contains("--target cuda writes several files: give a folder"));
  run = gaus_({"codegen", "toy_fa", good.string(), "--target", "ptx", "-o", out.string()});
  CHECK(run.exitCode == 1);
  CHECK_THAT(run.err, Catch::Contains("--target 'ptx': expected text, layout, cuda, cpu, trace or "
                                      "selftest"));
  run = gaus_({"codegen", "no_such_kernel", good.string()});
  CHECK(run.exitCode == 1);
  CHECK_THAT(run.err, Catch::Contains("no built-in kernel of that name") &&
                          Catch::Contains("fa_fwd_hopper"));
  CHECK_FALSE(std::filesystem::exists(out));
}

TEST_CASE("the README's codegen listing is what the program prints", "[cli][codegen][readme]") {
  // README.md runs `gaus twill fa_fwd_hopper -o fa.schedule.json` and then `gaus codegen
  // fa_fwd_hopper fa.schedule.json`, "the listing below". The same two commands, in a folder so
  // that the schedule has the README's name, must print that block line for line: a change to
  // twill's search or to the listing fails here until the README shows the new output.
  const std::string readme = gaus::test::readWholeFile(gaus::test::sourcePath("README.md"));
  const auto command = readme.find("gaus codegen fa_fwd_hopper fa.schedule.json ");
  REQUIRE(command != std::string::npos);
  const auto open = readme.find("```\nsoftware pipeline of fa_fwd_hopper", command);
  REQUIRE(open != std::string::npos);
  const auto first = open + 4;  // past "```\n"
  const auto close = readme.find("\n```", first);
  REQUIRE(close != std::string::npos);
  const std::string shown = readme.substr(first, close + 1 - first);

  gaus::test::TempFolder folder;
  const auto inFolder = [&](std::vector<std::string> args) {
    args.insert(args.begin(), {"-C", folder.path().string(), GAUS_BINARY});
    return gaus::test::runProgram("/usr/bin/env", args);
  };
  const auto twill = inFolder({"twill", "fa_fwd_hopper", "-q", "-o", "fa.schedule.json"});
  INFO(twill.err);
  REQUIRE(twill.exitCode == 0);
  const auto listing = inFolder({"codegen", "fa_fwd_hopper", "fa.schedule.json"});
  INFO(listing.err);
  REQUIRE(listing.exitCode == 0);

  std::istringstream printedLines(listing.out);
  std::istringstream shownLines(shown);
  std::string printed;
  std::string expected;
  for (int line = 1;; ++line) {
    const bool morePrinted = static_cast<bool>(std::getline(printedLines, printed));
    const bool moreShown = static_cast<bool>(std::getline(shownLines, expected));
    if (!morePrinted && !moreShown) break;
    INFO("listing line " << line << " differs; refresh README.md with the output of: cd "
                         << "$(mktemp -d) && gaus twill fa_fwd_hopper -q -o fa.schedule.json && "
                         << "gaus codegen fa_fwd_hopper fa.schedule.json");
    REQUIRE(moreShown == morePrinted);
    REQUIRE(expected == printed);
  }
}
