// Machine files (configs/machines/*.yaml, docs/formats.md "machine").
#include <catch2/catch.hpp>

#include <gaus/io/io.hpp>

#include "io_test_support.hpp"

using namespace gaus;

TEST_CASE("every machine under configs/machines loads and is named after its file",
          "[io][machine]") {
  std::size_t count = 0;
  for (const auto& entry :
       std::filesystem::directory_iterator(gaus::test::sourcePath("configs/machines"))) {
    if (entry.path().extension() != ".yaml") continue;
    INFO(entry.path().string());
    const auto machine = io::readMachine(entry.path());
    if (!machine) FAIL(machine.error());
    CHECK(machine->name == entry.path().stem().string());
    CHECK_FALSE(machine->resources.empty());
    ++count;
  }
  CHECK(count >= 3);  // hls_small, hls_medium, hls_unlimited
}

TEST_CASE("hls_small holds the units its comments describe", "[io][machine]") {
  const auto machine = io::readMachine(gaus::test::sourcePath("configs/machines/hls_small.yaml"));
  REQUIRE(machine.ok());
  REQUIRE(machine->resources.size() == 6);
  CHECK(machine->resources[0] == Resource{"ADD", 2});
  CHECK(machine->resources[2] == Resource{"MUL", 1});
  CHECK(machine->warps == 1);
  CHECK_FALSE(machine->registerLimit.has_value());
}

TEST_CASE("a bad machine file names its line", "[io][machine]") {
  const auto path = gaus::test::dataPath("bad/negative_capacity.yaml");
  const auto machine = io::readMachine(path);
  REQUIRE_FALSE(machine.ok());
  CHECK(machine.error() ==
        path.string() + ":4: expected a nonnegative integer capacity of resource 'MUL', found -1");
  gaus::test::TempFolder folder;
  const auto typo = folder.write("typo.yaml", "name: t\nresource:\n  - {name: A}\n");
  CHECK(io::readMachine(typo).error() ==
        typo.string() +
            ":2: expected a key of the machine (name, resources, memories, warps, "
            "threads_per_warp, register_limit, register_file, variable_latency_warp, "
            "warp_issue_width), found \"resource\"");
  // A schedule warp is a hardware warp (32 threads) or a warp group (128), nothing between.
  const auto odd = folder.write("odd.yaml", "name: t\nwarps: 4\nthreads_per_warp: 64\n");
  CHECK(io::readMachine(odd).error() ==
        odd.string() +
            ":3: expected 32 or 128 threads per warp (a warp or a warp group), found 64");
  const auto fa4 = io::findMachine("blackwell_fa4");
  REQUIRE(fa4.ok());
  CHECK(fa4->threadsPerWarp == 32);
  CHECK(io::findMachine("hopper")->threadsPerWarp == 128);
}

TEST_CASE("findMachine takes a name of configs/machines or a path", "[io][machine]") {
  const auto byName = io::findMachine("hls_medium");
  REQUIRE(byName.ok());
  CHECK(byName->resources[0] == Resource{"ADD", 4});
  const auto byPath = io::findMachine("machines/two_alus.yaml", gaus::test::dataPath("native"));
  REQUIRE(byPath.ok());
  CHECK(byPath->name == "two_alus");
  const auto missing = io::findMachine("warp_drive");
  REQUIRE_FALSE(missing.ok());
  CHECK_THAT(missing.error(),
             Catch::StartsWith("machine \"warp_drive\": expected a machine file (looked for it"));
}
