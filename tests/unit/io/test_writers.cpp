// Writers: DOT export, schedule JSON in and out, and atomic file replacement.
#include <fstream>
#include <sstream>

#include <catch2/catch.hpp>

#include <gaus/io/io.hpp>

#include "io_test_support.hpp"
#include "toy_graphs.hpp"

using namespace gaus;

namespace {

std::string fileText(const std::filesystem::path& path) {
  std::ifstream stream(path, std::ios::binary);
  std::stringstream text;
  text << stream.rdbuf();
  return text.str();
}

}  // namespace

TEST_CASE("DOT export draws ops, delays and dashed loop-carried edges", "[io][dot]") {
  const Instance toy = gaus::test::toyFlashAttention();
  const auto text = io::formatInstance(toy, io::Format::kDot);
  REQUIRE(text.ok());
  // S on TC for one cycle; O -> O with delay 1 and distance 1.
  CHECK_THAT(*text, Catch::StartsWith("digraph \"toy_fa\" {\n"));
  CHECK_THAT(*text, Catch::Contains("  n0 [label=\"S\\nlat 1\\nTC\"];\n"));
  CHECK_THAT(*text, Catch::Contains("  n0 -> n1 [label=\"1\"];\n"));
  CHECK_THAT(*text, Catch::Contains("  n2 -> n2 [label=\"1, dist 1\", style=dashed];\n"));
  CHECK_THAT(*text, Catch::EndsWith("}\n"));
}

TEST_CASE("schedule JSON round-trips by op name, with II and warps", "[io][schedule]") {
  // TWILL.md's toy loop: S:0, P:2, O:3 at II 2.
  const Instance toy = gaus::test::toyFlashAttention();
  Schedule schedule;
  schedule.start = {0, 2, 3};
  schedule.ii = 2;
  schedule.warps = std::vector<WarpSet>{0b01, 0b10, 0b11};
  gaus::test::TempFolder folder;
  const auto path = folder.file("toy.schedule.json");
  REQUIRE(io::writeSchedule(path, *toy.graph, schedule).ok());
  CHECK(fileText(path) ==
        "{\n"
        "  \"format\": \"gaus-schedule-0.1\",\n"
        "  \"graph\": \"toy_fa\",\n"
        "  \"ii\": 2,\n"
        "  \"start\": {\n"
        "    \"S\": 0,\n"
        "    \"P\": 2,\n"
        "    \"O\": 3\n"
        "  },\n"
        "  \"warps\": {\n"
        "    \"S\": [0],\n"
        "    \"P\": [1],\n"
        "    \"O\": [0, 1]\n"
        "  }\n"
        "}\n");
  const auto reread = io::readSchedule(path, *toy.graph);
  REQUIRE(reread.ok());
  CHECK(*reread == schedule);
}

TEST_CASE("a schedule naming unknown ops or missing some is refused with names", "[io][schedule]") {
  const Instance toy = gaus::test::toyFlashAttention();
  gaus::test::TempFolder folder;
  const auto unknown = folder.write(
      "u.json", "{\"format\": \"gaus-schedule-0.1\",\n \"start\": {\"S\": 0,\n \"Q\": 1}}");
  CHECK(io::readSchedule(unknown, *toy.graph).error() ==
        unknown.string() +
            ":3: expected an op of graph 'toy_fa' in \"start\", found unknown op "
            "\"Q\"");
  const auto missing =
      folder.write("m.json", "{\"format\": \"gaus-schedule-0.1\",\n \"start\": {\"P\": 2}}");
  CHECK(io::readSchedule(missing, *toy.graph).error() ==
        missing.string() +
            ":2: expected an entry for every op of graph 'toy_fa' in \"start\", "
            "found none for \"S\", \"O\"");
  const auto negative = folder.write(
      "n.json", "{\"format\": \"gaus-schedule-0.1\", \"start\": {\"S\": 0, \"P\": -2, \"O\": 1}}");
  CHECK(io::readSchedule(negative, *toy.graph).error() ==
        negative.string() + ":1: expected a nonnegative integer start of op 'P', found -2");
}

TEST_CASE("atomic writes replace the file and leave nothing else behind", "[io][atomic]") {
  gaus::test::TempFolder folder;
  const auto path = folder.file("out.txt");
  REQUIRE(io::writeFileAtomically(path, "first").ok());
  REQUIRE(io::writeFileAtomically(path, "second").ok());
  CHECK(fileText(path) == "second");
  CHECK(folder.entries() == std::vector<std::string>{"out.txt"});
}

TEST_CASE("a failed write leaves no file and no temporary file", "[io][atomic]") {
  gaus::test::TempFolder folder;
  // The target folder does not exist: not even the temporary file can be made.
  const auto nowhere = folder.file("missing/out.json");
  const auto status = io::writeFileAtomically(nowhere, "text");
  REQUIRE_FALSE(status.ok());
  CHECK_THAT(status.error(), Catch::StartsWith(nowhere.string() + ": cannot write the file ("));
  // The target is a directory: the temporary file is written, the rename fails, and the
  // temporary file is removed again.
  std::filesystem::create_directories(folder.file("taken"));
  folder.write("taken/inside", "kept");
  const auto status2 = io::writeFileAtomically(folder.file("taken"), "text");
  REQUIRE_FALSE(status2.ok());
  CHECK(folder.entries() == std::vector<std::string>{"taken"});
  CHECK(fileText(folder.file("taken/inside")) == "kept");
}

TEST_CASE("an instance that cannot be written leaves the old file in place", "[io][atomic]") {
  gaus::test::TempFolder folder;
  const auto path = folder.write("graph.json", "old content");
  const Instance instance = gaus::test::oneOpInstance([](GraphBuilder& builder) {
    builder.setWeight(0, std::numeric_limits<double>::quiet_NaN());
  });
  const auto status = io::writeInstance(path, instance, io::Format::kNativeJson);
  REQUIRE_FALSE(status.ok());
  CHECK(status.error() == path.string() +
                              ": instance 'g': expected a finite number for weight of op 'a', "
                              "found nan");
  CHECK(fileText(path) == "old content");
  CHECK(folder.entries() == std::vector<std::string>{"graph.json"});
  CHECK_FALSE(io::writeInstance(path, instance, io::Format::kGml).ok());  // not writable
}

TEST_CASE("a schedule that does not fit the graph is not written", "[io][schedule]") {
  Instance toy = gaus::test::toyFlashAttention();
  toy.schedule = Schedule{{0, 2}, 2, std::nullopt};  // two starts for three ops
  const auto text = io::formatInstance(toy, io::Format::kNativeJson);
  REQUIRE_FALSE(text.ok());
  CHECK(text.error() ==
        "instance 'toy_fa': expected a start time (and warp set) for each of the 3 "
        "ops in the schedule, found 2 start times");
  gaus::test::TempFolder folder;
  CHECK(io::writeSchedule(folder.file("s.json"), *toy.graph, *toy.schedule).error() ==
        folder.file("s.json").string() +
            ": the schedule has 2 start times for the 3 ops of graph 'toy_fa'");
  CHECK(folder.entries().empty());
}
