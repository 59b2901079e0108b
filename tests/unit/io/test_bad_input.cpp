// Bad input across the formats (issue "Bad input"): each case checks the whole one-line
// message, "PATH:LINE: expected X, found Y", with the line of the offending token counted by
// hand in the file under tests/data/bad/.
#include <fstream>
#include <iterator>
#include <random>

#include <catch2/catch.hpp>

#include <gaus/io/io.hpp>

#include "io_test_support.hpp"

using namespace gaus;
using gaus::test::dataPath;
using gaus::test::loadError;

namespace {

std::string bad(const std::string& name) {
  return dataPath("bad/" + name).string();
}

}  // namespace

TEST_CASE("truncated and invalid JSON name the line of the syntax error", "[io][bad]") {
  // The file stops after line 4, inside the ops array.
  CHECK(loadError(bad("truncated.json")) ==
        bad("truncated.json") +
            ":4: expected '[', '{', or a literal, found end of input (while parsing value)");
  // Line 2 lacks its comma: the parser meets the next key on line 3.
  CHECK(loadError(bad("invalid.json")) ==
        bad("invalid.json") + ":3: expected '}', found string literal (while parsing object)");
}

TEST_CASE("truncated YAML and GML name the line where they stop", "[io][bad]") {
  // The flow mapping opened on line 3 is never closed.
  CHECK_THAT(loadError(bad("truncated.yaml")),
             Catch::StartsWith(bad("truncated.yaml") + ":4: expected valid YAML, found "));
  // The node list opened on line 3 is still open at the end (line 6, after the last newline).
  CHECK(loadError(bad("truncated.gml")) ==
        bad("truncated.gml") +
            ":6: expected ']' to close the list opened on line 3, found the end of the file");
}

TEST_CASE("a string where a number is expected names the value", "[io][bad]") {
  CHECK(loadError(bad("wrong_type.json")) ==
        bad("wrong_type.json") + ":4: expected an integer latency for op 'a', found \"two\"");
  CHECK(loadError(bad("wrong_type.yaml")) ==
        bad("wrong_type.yaml") + ":4: expected an integer latency for op 'b', found \"two\"");
  CHECK(loadError(bad("wrong_type.gml")) ==
        bad("wrong_type.gml") + ":4: expected an integer node id, found \"one\"");
}

TEST_CASE("an unknown resource or op type lists the known ones", "[io][bad]") {
  // The resource error also says how to add one: --capacity cannot, it sets a known one.
  CHECK(loadError(bad("unknown_resource.json")) ==
        bad("unknown_resource.json") +
            ":6: expected a resource of machine 'm' (ALU), found unknown resource \"XYZ\"; add "
            "{\"name\": \"XYZ\", \"capacity\": N} to the machine's \"resources\" (--capacity only "
            "sets one it has), or pick a machine that has it with --machine");
  CHECK(loadError(bad("unknown_type.json")) ==
        bad("unknown_type.json") +
            ":7: expected an op type of \"delay\" (mul, add), found unknown op type \"sub\"");
  CHECK(loadError(bad("unknown_pipeline.ddg.json")) ==
        bad("unknown_pipeline.ddg.json") +
            ":7: expected a pipeline of machine 'triton_hopper' (TC, TMA, SFU, CUDA, or NONE), "
            "found unknown pipeline \"XPU\"");
  CHECK(loadError(bad("unknown_key.json")) ==
        bad("unknown_key.json") +
            ":4: expected a key of an op (name, kind, latency, reservation, uses, occupancy, mem, "
            "weight, regs, footprints, variable_latency, streaming, spill_cost, min_warps), found "
            "\"lattency\"");
}

TEST_CASE("a negative latency is refused with its op", "[io][bad]") {
  CHECK(loadError(bad("negative_latency.json")) ==
        bad("negative_latency.json") +
            ":5: expected a nonnegative integer latency for op 'b', "
            "found -1");
}

TEST_CASE("an edge to a missing op names it", "[io][bad]") {
  CHECK(loadError(bad("missing_op.json")) ==
        bad("missing_op.json") +
            ":6: expected an existing op as the edge's target, found "
            "unknown op \"zz\"");
}

TEST_CASE("a cycle of distance-0 edges is refused at load time", "[io][bad]") {
  // b -> c -> b; the line is that of the cycle's edge that goes back in op order, c -> b (line 8,
  // where the edges are), not that of an op.
  CHECK(loadError(bad("zero_distance_cycle.json")) ==
        bad("zero_distance_cycle.json") +
            ":8: cycle of distance-0 edges: c -> b -> c (no schedule can satisfy it; a "
            "loop-carried edge needs distance >= 1)");
}

TEST_CASE("an empty graph is refused", "[io][bad]") {
  CHECK(loadError(bad("empty.json")) ==
        bad("empty.json") + ": expected at least one op, found none");
}

TEST_CASE("values beyond the int32 range are refused, not wrapped", "[io][bad]") {
  CHECK(loadError(bad("overflow_integer.json")) ==
        bad("overflow_integer.json") +
            ":4: expected an integer latency for op 'a' within the int32 range (|value| <= "
            "2147483647), found 3000000000 (integer overflow)");
  CHECK(loadError(bad("overflow_float.json")) ==
        bad("overflow_float.json") +
            ":5: expected an integer delay of edge #0 within the int32 range (|value| <= "
            "2147483647), found 1e40 (integer overflow)");
  CHECK(loadError(bad("header_overflow.aig")) ==
        bad("header_overflow.aig") +
            ":1: expected M within the int32 range, found \"4000000000\" (integer overflow)");
}

TEST_CASE("duplicate op names give both lines", "[io][bad]") {
  CHECK(loadError(bad("duplicate_name.json")) ==
        bad("duplicate_name.json") +
            ":6: expected unique op names, found \"a\" again (op #2; first as op #0 on line 4)");
}

TEST_CASE("an op name with a control character is refused at its line", "[io][bad]") {
  // A name reaches every message, table and generated kernel: a newline inside a quoted GML
  // label (a fuzzing find) or a JSON "\t" would break them. The name is shown escaped.
  CHECK(loadError(bad("newline_in_name.gml")) ==
        bad("newline_in_name.gml") +
            ":4: expected an op name without control characters, found \"b\\x0ac\" (op #1)");
  CHECK(loadError(bad("control_in_name.json")) ==
        bad("control_in_name.json") +
            ":5: expected an op name without control characters, found \"b\\x09c\" (op #1)");
}

TEST_CASE("a corrupt AIGER header is refused with what it should hold", "[io][bad][aiger]") {
  CHECK(
      loadError(bad("bad_magic.aig")) ==
      bad("bad_magic.aig") +
          ":1: expected an AIGER header starting with \"aig\" or \"aag\", found \"aog 3 2 0 1 1\"");
  CHECK(loadError(bad("short_header.aig")) ==
        bad("short_header.aig") +
            ":1: expected 5 counts after \"aig\" (M I L O A), found 3 in \"aig 3 2 0\"");
  CHECK(loadError(bad("count_mismatch.aig")) ==
        bad("count_mismatch.aig") +
            ":1: expected M = I + L + A = 3 in a binary AIGER file, found M = 5");
}

TEST_CASE("AIGER: truncated deltas and huge counts fail fast instead of hanging",
          "[io][bad][aiger]") {
  // One byte 0x82 (a continued 7-bit group) and then the end of the file.
  CHECK(loadError(bad("truncated_delta.aig")) ==
        bad("truncated_delta.aig") +
            ": expected the delta of AND gate 0 (byte 17), found the end of the file (truncated "
            "delta stream)");
  // 10^8 gates declared in a 2-byte body: refused before anything is allocated for them.
  CHECK(loadError(bad("huge_count.aig")) ==
        bad("huge_count.aig") +
            ":1: expected a file long enough for the 100000000 inputs, latches, outputs and AND "
            "gates the header declares, found 2 bytes after the header");
  // Gate 0 has lhs 6; a first delta of 5 gives rhs0 = 1 and a second of 2 would go below 0.
  CHECK(loadError(bad("bad_delta.aig")) ==
        bad("bad_delta.aig") +
            ": expected deltas of AND gate 0 (lhs 6) with lhs > rhs0 >= rhs1 >= 0, found deltas 5 "
            "and 2");
}

TEST_CASE("a HatScheT graph without its resource model says where it looked",
          "[io][bad][hatschet]") {
  CHECK(loadError(bad("no_model.graphml")) ==
        bad("no_model.graphml") + ": expected the resource model " + bad("no_model_RM.xml") +
            " (beside the graph; or pass --resources), found no such file");
}

TEST_CASE("an undirected GML graph is refused", "[io][bad][gml]") {
  CHECK(
      loadError(bad("undirected.gml")) ==
      bad("undirected.gml") +
          ":2: expected \"directed 1\" (a dependence graph has directed edges), found directed 0");
}

TEST_CASE("a missing file and a directory are errors, not crashes", "[io][bad]") {
  const auto missing = dataPath("bad/no_such_file.json");
  CHECK(loadError(missing) == missing.string() + ": no such file");
  const auto folder = dataPath("bad");
  CHECK(loadError(folder) ==
        folder.string() + ": expected a regular file, found a directory or device");
}

TEST_CASE("nesting too deep for the tree is refused, not a stack overflow", "[io][bad]") {
  gaus::test::TempFolder folder;
  const auto path = folder.write("deep.json", R"({"format": "gaus-0.1", "reference": )" +
                                                  std::string(100000, '[') + "1" +
                                                  std::string(100000, ']') + "}");
  CHECK(loadError(path) == path.string() +
                               ":1: expected at most 200 nested levels, found deeper "
                               "nesting");
}

TEST_CASE("a top-level key given twice is refused", "[io][bad]") {
  gaus::test::TempFolder folder;
  const auto path = folder.write(
      "twice.json", "{\"format\": \"gaus-0.1\",\n \"ops\": [{\"name\": \"a\"}],\n \"ops\": []}");
  CHECK(loadError(path) ==
        path.string() + ":3: expected each top-level key once, found \"ops\" a second time");
}

TEST_CASE("AIGER: a binary header declaring billions of inputs is refused", "[io][bad][aiger]") {
  // Binary inputs take no bytes, so only the header's plausibility can stop 2e9 op allocations.
  CHECK(loadError(bad("huge_inputs.aig")) ==
        bad("huge_inputs.aig") +
            ":1: expected at most 1048576 inputs in a binary file of 32 bytes, found I = "
            "2000000000");
}

TEST_CASE("a device is refused even when the format is given", "[io][bad]") {
  // Without the check, reading /dev/zero would never end.
  io::ReadOptions options;
  options.format = io::Format::kNativeJson;
  CHECK(loadError("/dev/zero", options) ==
        "/dev/zero: expected a regular file, found a directory or device");
}

namespace {

// The sample files the robustness tests damage, each copied into `folder` (with the resource
// model the HatScheT graph needs); `damage(copy, text, name)` runs once per file.
template <typename Damage>
void forEachSampleFile(const gaus::test::TempFolder& folder, Damage&& damage) {
  std::filesystem::copy_file(dataPath("hatschet/tiny_RM.xml"), folder.file("tiny_RM.xml"),
                             std::filesystem::copy_options::overwrite_existing);
  for (const char* name : {"native/toy_fa.json", "native/toy_fa.yaml", "gml/tiny.gml",
                           "aiger/and2.aig", "aiger/latch.aag", "hatschet/tiny.graphml"}) {
    const auto source = dataPath(name);
    std::ifstream stream(source, std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(stream)),
                           std::istreambuf_iterator<char>());
    damage(folder.file(source.filename().string()), text, name);
  }
}

// Writes `content` to `copy` and reads it: it loads, or fails with one line naming the file.
bool loadsOrFailsCleanly(const std::filesystem::path& copy, const std::string& content) {
  std::ofstream(copy, std::ios::binary | std::ios::trunc) << content;
  const auto loaded = io::readInstances(copy);
  if (loaded) return true;
  CHECK_THAT(loaded.error(), Catch::StartsWith(copy.string() + ":"));
  CHECK(loaded.error().find('\n') == std::string::npos);
  return false;
}

}  // namespace

TEST_CASE("every prefix of a valid file loads or fails with a located message",
          "[io][bad][robustness]") {
  // Truncation at every byte: the readers never crash or hang, and every failure names the file.
  gaus::test::TempFolder folder;
  forEachSampleFile(folder, [](const auto& copy, const std::string& text, const char* name) {
    std::size_t failures = 0;
    for (std::size_t length = 0; length < text.size(); ++length) {
      INFO(name << " cut at " << length);
      failures += loadsOrFailsCleanly(copy, text.substr(0, length)) ? 0 : 1;
    }
    // The empty prefix fails, the whole file loads (latch.aag also loads once its gates are
    // complete: what follows is symbols and comments).
    INFO(name << ": " << failures << " of " << text.size() << " prefixes fail");
    CHECK(failures > 0);
    CHECK(loadsOrFailsCleanly(copy, text));
  });
}

TEST_CASE("random byte changes never crash a reader", "[io][bad][robustness]") {
  // 300 mutants per file, each with 1-3 bytes replaced by random ones (a fixed seed, so a
  // failure reproduces): each loads or fails with a one-line message naming the file.
  gaus::test::TempFolder folder;
  std::mt19937 rng(20240611);
  forEachSampleFile(folder, [&rng](const auto& copy, const std::string& text, const char* name) {
    for (int mutant = 0; mutant < 300; ++mutant) {
      std::string changed = text;
      const int changes = 1 + static_cast<int>(rng() % 3);
      for (int c = 0; c < changes; ++c) {
        changed[rng() % changed.size()] = static_cast<char>(rng() % 256);
      }
      INFO(name << " mutant " << mutant);
      loadsOrFailsCleanly(copy, changed);
    }
  });
}
