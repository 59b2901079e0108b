#include <algorithm>
#include <filesystem>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "cli_test_support.hpp"
#include "test_support.hpp"

using gaus::test::dataPath;
using gaus::test::runProgram;

namespace {

const auto gaus_ = gaus::test::runGaus;
const auto scratch = gaus::test::cliScratch;
using gaus::test::lineCount;

std::string cli(const std::string& name) {
  return dataPath("cli/" + name).string();
}

}  // namespace

TEST_CASE("every subcommand has --help", "[cli]") {
  for (const char* command : {"info", "verify", "generate", "convert", "schedule", "methods"}) {
    INFO(command);
    const auto run = gaus_({command, "--help"});
    CHECK(run.exitCode == 0);
    CHECK_THAT(run.out, Catch::Contains("Usage"));
  }
}

TEST_CASE("info prints the toy FA bounds: ResMII 2 on TC, RecMII 1", "[cli]") {
  const auto run = gaus_({"info", cli("toy_fa.json")});
  REQUIRE(run.exitCode == 0);
  CHECK_THAT(run.out, Catch::Contains("ResMII 2 (bound by TC)") && Catch::Contains("RecMII 1"));
  const auto json = gaus_({"info", cli("toy_fa.json"), "--json"});
  REQUIRE(json.exitCode == 0);
  const auto parsed = nlohmann::json::parse(json.out);
  CHECK(parsed["ops"] == 3);
  CHECK(parsed["edges"] == 3);
  CHECK(parsed["mii"] == 2);
}

TEST_CASE("verify accepts S:0 P:2 O:3 and rejects the TC clash of S:0 P:1 O:2", "[cli]") {
  const auto good = gaus_({"verify", cli("toy_fa.json"), cli("toy_fa.good.schedule.json")});
  CHECK(good.exitCode == 0);
  CHECK_THAT(good.out, Catch::Contains("verified: true") && Catch::Contains("latency 4"));
  const auto clash = gaus_({"verify", cli("toy_fa.json"), cli("toy_fa.clash.schedule.json")});
  CHECK(clash.exitCode == 1);
  CHECK_THAT(clash.out, Catch::Contains("resource TC over capacity at cycle 0 (mod II=2)"));
}

TEST_CASE("bad input: one line naming the file and line, non-zero exit, no output file", "[cli]") {
  const auto output = scratch("never-written.json");
  std::filesystem::remove(output);
  SECTION("truncated JSON") {
    const auto run = gaus_({"convert", cli("truncated.json"), output.string()});
    CHECK(run.exitCode == 1);
    CHECK(lineCount(run.err) == 1);
    CHECK_THAT(run.err, Catch::StartsWith("gaus: error: ") && Catch::Contains("truncated.json:6"));
  }
  SECTION("missing file") {
    const auto run = gaus_({"info", cli("no-such-file.json")});
    CHECK(run.exitCode == 1);
    CHECK(lineCount(run.err) == 1);
    CHECK_THAT(run.err, Catch::Contains("no-such-file.json"));
  }
  SECTION("unknown capacity override") {
    const auto run = gaus_({"info", cli("toy_fa.json"), "--capacity", "FOO=2"});
    CHECK(run.exitCode == 1);
    CHECK_THAT(run.err, Catch::Contains("no resource 'FOO'") && Catch::Contains("TC or EXP"));
  }
  CHECK_FALSE(std::filesystem::exists(output));
}

TEST_CASE("generate is deterministic and convert round-trips through YAML", "[cli]") {
  const auto first = scratch("gen1.json");
  const auto second = scratch("gen2.json");
  REQUIRE(gaus_({"generate", "--ops", "200", "--degree", "2.5", "--back-edges", "3", "--seed", "5",
                 "-o", first.string()})
              .exitCode == 0);
  REQUIRE(gaus_({"generate", "--ops", "200", "--degree", "2.5", "--back-edges", "3", "--seed", "5",
                 "-o", second.string()})
              .exitCode == 0);
  CHECK(gaus::test::readWholeFile(first) == gaus::test::readWholeFile(second));

  const auto yaml = scratch("gen.yaml");
  const auto back = scratch("gen-back.json");
  REQUIRE(gaus_({"convert", first.string(), yaml.string()}).exitCode == 0);
  REQUIRE(gaus_({"convert", yaml.string(), back.string()}).exitCode == 0);
  CHECK(gaus::test::readWholeFile(first) == gaus::test::readWholeFile(back));
}

TEST_CASE("generate --circuit writes an and-inverter graph with the profile, the same each time",
          "[cli]") {
  const auto first = scratch("circuit1.json");
  const auto second = scratch("circuit2.json");
  const std::vector<std::string> profile = {
      "generate",  "--circuit", "--inputs",     "40", "--ands",   "900",     "--depth", "60",
      "--outputs", "30",        "--components", "3",  "--family", "control", "--seed",  "2"};
  auto args = profile;
  args.insert(args.end(), {"-o", first.string()});
  REQUIRE(gaus_(args).exitCode == 0);
  args = profile;
  args.insert(args.end(), {"-o", second.string()});
  REQUIRE(gaus_(args).exitCode == 0);
  CHECK(gaus::test::readWholeFile(first) == gaus::test::readWholeFile(second));
  // gaus info as for an .aig file: 40 + 900 ops, two fan-ins per gate, the critical path in
  // cycles is the depth + 1, three components
  const auto info = gaus_({"info", first.string(), "--json"});
  REQUIRE(info.exitCode == 0);
  const auto parsed = nlohmann::json::parse(info.out);
  CHECK(parsed["ops"] == 940);
  CHECK(parsed["edges"] == 1800);
  CHECK(parsed["critical_path"] == 61);
  CHECK(parsed["weak_components"] == 3);
  CHECK(parsed["resources"][0]["name"] == "PI");
  CHECK(parsed["resources"][1]["name"] == "AND");

  const auto mixed = gaus_({"generate", "--circuit", "--ops", "10"});
  CHECK(mixed.exitCode == 1);
  CHECK_THAT(mixed.err, Catch::Contains("--ops shapes random graphs, not --circuit"));
  const auto alone = gaus_({"generate", "--inputs", "10"});
  CHECK(alone.exitCode == 1);
  CHECK_THAT(alone.err, Catch::Contains("--inputs needs --circuit"));
  const auto impossible = gaus_({"generate", "--circuit", "--ands", "5", "--depth", "6"});
  CHECK(impossible.exitCode == 1);
  CHECK(lineCount(impossible.err) == 1);
  CHECK_THAT(impossible.err, Catch::Contains("ands must be >= depth"));
}

TEST_CASE("engines load as plugins: a missing plugin is named with the remedy", "[cli][plugins]") {
  // The program alone in a folder, without the libgaus-engine-*.so beside it: light methods
  // still run, an engine's method fails in one line naming the plugin and what to do.
  namespace fs = std::filesystem;
  const fs::path alone = scratch("alone") / "gaus";
  fs::create_directories(alone.parent_path());
  fs::copy_file(GAUS_BINARY, alone, fs::copy_options::overwrite_existing);
  const auto list = runProgram(alone.string(), {"schedule", cli("toy_fa.json"), "--method", "list",
                                                "--kind", "latency", "-q"});
  CHECK(list.exitCode == 0);
  const auto ilp =
      runProgram(alone.string(), {"schedule", cli("toy_fa.json"), "--method", "ilp", "-q"});
  CHECK(ilp.exitCode == 1);
  CHECK_THAT(ilp.out + ilp.err, Catch::Contains("libgaus-engine-exact.so was not found") &&
                                    Catch::Contains("GAUS_PLUGIN_DIR"));
  // Not quiet, with a setting the unloaded stand-in would not declare: the plugin's absence is
  // the one thing said, not a note that --time-limit does not apply to twill.
  const auto twill = runProgram(alone.string(), {"twill", cli("toy_fa.json"), "--time-limit", "5"});
  CHECK(twill.exitCode == 1);
  CHECK_THAT(twill.err, Catch::Contains("libgaus-engine-exact.so was not found"));
  CHECK_THAT(twill.err, !Catch::Contains("does not apply"));
  // The same program finds them through GAUS_PLUGIN_DIR.
  const auto found = runProgram(
      "/usr/bin/env", {"GAUS_PLUGIN_DIR=" + fs::path(GAUS_BINARY).parent_path().string(),
                       alone.string(), "schedule", cli("toy_fa.json"), "--method", "ilp", "-q"});
  CHECK(found.exitCode == 0);
  CHECK_THAT(found.out, Catch::Contains("verified: true"));
}
