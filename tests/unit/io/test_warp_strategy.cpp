// Warp-strategy files (docs/formats.md "Warp strategy"): the shipped FA3 and FA4 strategies read
// against their kernels and placed on FA's warps, and bad files refused with the line and what
// was expected.
#include <catch2/catch.hpp>

#include <gaus/io/io.hpp>

#include "kernel_files.hpp"
#include "temp_folder.hpp"
#include "test_support.hpp"

using namespace gaus;

namespace {

Instance kernel(const std::string& name) {
  return test::loadInstance(test::sourcePath("configs/kernels/" + name + ".yaml"));
}

}  // namespace

TEST_CASE("the shipped strategies read and place as FA3 and FA4 assign warps", "[io][strategy]") {
  const Instance fa4 = kernel("fa_fwd_blackwell_fa4");
  const auto read =
      io::readWarpStrategy(test::sourcePath("configs/strategies/fa_fwd_blackwell_fa4.fa4.yaml"),
                           *fa4.graph, *fa4.machine);
  INFO((read ? std::string() : read.error()));
  REQUIRE(read);
  // FA4's forward kernel: softmax 0-3 and 4-7, correction 8-11, MMA 12, load 13, epilogue 14;
  // every op of the loop in a role (22 ops: 2 loads, 4 MMAs, 8 per tile's softmax and
  // correction).
  REQUIRE(read->roles.size() == 6);
  std::vector<std::int32_t> first;
  std::size_t ops = 0;
  for (const auto& role : read->roles) {
    first.push_back(*role.firstWarp);
    ops += role.ops.size();
  }
  CHECK(first == std::vector<std::int32_t>{0, 4, 8, 12, 13, 14});
  CHECK(ops == static_cast<std::size_t>(fa4.graph->numOps()));
  CHECK(read->name == "fa_fwd_blackwell_fa4.fa4");

  // FA3 on Hopper's warp groups: the producer on the load warp 0 (variable latency), the two
  // consumers on 1 and 2, placed without first_warp.
  const Instance fa3 = kernel("fa_fwd_hopper");
  const auto hopper = io::readWarpStrategy(
      test::sourcePath("configs/strategies/fa_fwd_hopper.fa3.yaml"), *fa3.graph, *fa3.machine);
  INFO((hopper ? std::string() : hopper.error()));
  REQUIRE(hopper);
  CHECK(*hopper->roles[0].firstWarp == 0);
  CHECK(*hopper->roles[1].firstWarp == 1);
  CHECK(*hopper->roles[2].firstWarp == 2);
}

TEST_CASE("a bad strategy file names its line and what was expected", "[io][strategy]") {
  const Instance fa4 = kernel("fa_fwd_blackwell_fa4");
  const test::TempFolder folder;
  auto error = [&](const std::string& name, const std::string& text) {
    const auto path = folder.write(name, text);
    const auto read = io::readWarpStrategy(path, *fa4.graph, *fa4.machine);
    REQUIRE_FALSE(read);
    return read.error();
  };
  const std::string unknownOp = error("unknown_op.yaml",
                                      "roles:\n"
                                      "  - {name: mma, warps: 1, ops: [s0, pv9]}\n");
  CHECK(unknownOp == (folder.file("unknown_op.yaml").string() +
                      ":2: expected an op of role 'mma' of graph 'fa_fwd_blackwell_fa4', found "
                      "\"pv9\""));
  const std::string otherGraph = error("other_graph.yaml",
                                       "graph: fa_fwd_hopper\n"
                                       "roles:\n"
                                       "  - {name: mma, warps: 1, ops: [s0]}\n");
  CHECK(otherGraph == folder.file("other_graph.yaml").string() +
                          ":1: expected a strategy of graph 'fa_fwd_blackwell_fa4', found one of "
                          "\"fa_fwd_hopper\"");
  CHECK_THAT(
      error("bad_key.yaml", "roles:\n  - {name: mma, warp: 1}\n"),
      Catch::StartsWith(folder.file("bad_key.yaml").string() + ":2: ") && Catch::Contains("warp"));
  // Placement's refusals name the roles line.
  CHECK(error("small_group.yaml",
              "roles:\n"
              "  - {name: softmax, warps: 2, ops: [lds0]}\n") ==
        folder.file("small_group.yaml").string() +
            ":2: op 'lds0' needs 4 warps (min_warps) and role 'softmax' has 2");
  CHECK_THAT(error("no_roles.yaml", "roles: []\n"),
             Catch::Contains(":1: expected at least one role, found none"));
}
