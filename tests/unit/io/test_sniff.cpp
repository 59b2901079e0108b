// Format names and sniffing by extension and content.
#include <catch2/catch.hpp>

#include <gaus/io/io.hpp>

#include "io_test_support.hpp"

using namespace gaus;
using gaus::test::dataPath;
using gaus::test::sharedPath;

TEST_CASE("format names parse and print", "[io][sniff]") {
  CHECK(io::parseFormat("json") == io::Format::kNativeJson);
  CHECK(io::parseFormat("YAML") == io::Format::kNativeYaml);
  CHECK(io::parseFormat("heurigym") == io::Format::kHeuriGym);
  CHECK(io::parseFormat("graphml") == io::Format::kHatschetGraphml);
  CHECK(io::parseFormat("triton") == io::Format::kTritonDdg);
  CHECK_FALSE(io::parseFormat("xlsx").has_value());
  for (auto format : {io::Format::kNativeJson, io::Format::kNativeYaml, io::Format::kHeuriGym,
                      io::Format::kGml, io::Format::kAigerBinary, io::Format::kAigerAscii,
                      io::Format::kTritonDdg, io::Format::kHatschetGraphml, io::Format::kDot}) {
    CHECK(io::parseFormat(io::toString(format)) == format);
  }
}

TEST_CASE("formats are sniffed from the extension and the content", "[io][sniff]") {
  const auto sniff = [](const std::filesystem::path& path) {
    const auto format = io::sniffFormat(path);
    INFO(path.string());
    if (!format) FAIL(format.error());
    return *format;
  };
  CHECK(sniff(dataPath("native/toy_fa.json")) == io::Format::kNativeJson);
  CHECK(sniff(dataPath("native/toy_fa.yaml")) == io::Format::kNativeYaml);
  CHECK(sniff(sharedPath("benchmarks/heurigym-operator-scheduling/demo/hal.json")) ==
        io::Format::kHeuriGym);
  CHECK(sniff(sharedPath("benchmarks/triton-ddg/case1_simple_gemm.ddg.json")) ==
        io::Format::kTritonDdg);
  CHECK(sniff(dataPath("gml/tiny.gml")) == io::Format::kGml);
  CHECK(sniff(dataPath("aiger/and2.aig")) == io::Format::kAigerBinary);
  CHECK(sniff(dataPath("aiger/latch.aag")) == io::Format::kAigerAscii);
  CHECK(sniff(dataPath("hatschet/tiny.graphml")) == io::Format::kHatschetGraphml);

  // Without a telling extension, the content decides.
  gaus::test::TempFolder folder;
  CHECK(sniff(folder.write("a.txt", "aag 1 1 0 0 0\n2\n")) == io::Format::kAigerAscii);
  CHECK(sniff(folder.write("b", "graph [\n directed 1\n]\n")) == io::Format::kGml);
  CHECK(sniff(folder.write("c.data", R"({"format": "gaus-0.1", "ops": []})")) ==
        io::Format::kNativeJson);
  // An .aig file whose header says ASCII is read as ASCII.
  CHECK(sniff(folder.write("renamed.aig", "aag 1 1 0 0 0\n2\n")) == io::Format::kAigerAscii);
}

TEST_CASE("sniffing says why a JSON file is not a graph", "[io][sniff]") {
  gaus::test::TempFolder folder;
  const auto schedule = folder.write("s.json", R"({"format": "gaus-schedule-0.1", "start": {}})");
  CHECK(io::sniffFormat(schedule).error() ==
        schedule.string() +
            ": expected a graph, found a schedule (gaus-schedule-0.1); read it "
            "with the graph it belongs to");
  const auto other = folder.write("o.json", R"({"hello": [1, 2]})");
  CHECK(io::sniffFormat(other).error() ==
        other.string() +
            ": expected a JSON graph format: native (\"format\": \"gaus-0.1\"), "
            "Triton (\"schema_version\": \"ddg-0.1\") or HeuriGym (\"delay\", "
            "\"resource\", \"nodes\"), found none of their top-level keys");
  const auto broken = folder.write("t.json", "{\n  \"name\": \"x\",\n  \"delay\": {\n");
  CHECK(io::sniffFormat(broken).error() ==
        broken.string() +
            ":4: expected string literal, found end of input (while parsing "
            "object key)");
  // DOT is written, not read.
  const auto dot = folder.write("g.dot", "digraph g {}\n");
  CHECK(io::readInstances(dot).error() ==
        dot.string() +
            ": expected a readable format, found DOT, which gaus writes but does not "
            "read");
}
