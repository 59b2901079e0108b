// What a first run of the gaus program says (issue 25): a loop never loses its loop-carried edges
// unasked, typos get the suggestion every unknown name gets, results show the schedule, a
// missing file reads as missing, and the smaller messages say what to change. The graph is
// tests/data/cli/iir.json, an 8-op loop written by hand: five 3-cycle multiplies on MUL (2
// units, occupancy 1) and three 1-cycle adds on ADD (2 units), with three loop-carried edges
// acc -> m1 (distance 1), acc -> m2 (2), acc -> m4 (3). By hand: ResMII = max(ceil(5 / 2),
// ceil(3 / 2)) = 3 (MUL); the cycle s1 -> acc -> m1 -> s1 has delay 1 + 1 + 3 = 5 over distance 1,
// acc -> m2 -> s2 -> acc 5 over 2, acc -> m4 -> acc 4 over 3: RecMII 5. All three cycles pass
// through acc, so they form one strongly connected component.
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
using gaus::test::lineCount;

std::string iir() {
  return gaus::test::dataPath("cli/iir.json").string();
}

std::string toyFa() {
  return gaus::test::dataPath("cli/toy_fa.json").string();
}

// The text of iir.json with `from` replaced by `to` (one change), written into `folder`.
std::filesystem::path iirWith(const gaus::test::TempFolder& folder, const std::string& name,
                              const std::string& from, const std::string& to) {
  std::string text = gaus::test::readWholeFile(iir());
  const auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  text.replace(at, from.size(), to);
  return folder.write(name, text);
}

}  // namespace

TEST_CASE("info counts the recurrences and says what it counts", "[cli][messages]") {
  const auto run = gaus_({"info", iir()});
  REQUIRE(run.exitCode == 0);
  CHECK_THAT(run.out, Catch::Contains("ops 8, edges 10 (3 loop-carried)"));
  CHECK_THAT(run.out, Catch::Contains("ResMII 3 (bound by MUL), RecMII 5 (cycle s1 -> acc -> m1 "
                                      "-> s1), MII 5"));
  // Three loop-carried edges, one recurrence: every cycle passes through acc.
  CHECK_THAT(run.out, Catch::Contains("recurrences: 1 (strongly connected groups of ops, each "
                                      "closed by loop-carried edges; 3 of the 3 loop-carried "
                                      "edges lie inside one)"));
  const auto json = nlohmann::json::parse(gaus_({"info", iir(), "--json"}).out);
  CHECK(json["recurrences"] == 1);
  CHECK(json["loop_carried_edges_on_recurrences"] == 3);
}

TEST_CASE("list refuses a loop, naming the methods that solve it and --kind latency",
          "[cli][messages]") {
  // No --kind: the loop-carried edges make it a modulo problem, which list does not solve.
  const auto run = gaus_({"schedule", iir(), "--method", "list"});
  CHECK(run.exitCode == 1);
  CHECK(lineCount(run.err) == 1);
  CHECK(run.out.empty());
  CHECK_THAT(run.err, Catch::StartsWith("gaus: error: " + iir() +
                                        ": the graph has 3 loop-carried edges, so it poses a "
                                        "modulo problem: method list does not solve modulo "
                                        "problems (it solves latency or latency-bounded); methods "
                                        "that do: "));
  CHECK_THAT(run.err, Catch::Contains("ims") &&
                          Catch::Contains(". --kind latency schedules one iteration instead and "
                                          "ignores the loop-carried edges on purpose"));
}

TEST_CASE(
    "a latency problem posed on a loop: the result and verify say its loop edges were ignored",
    "[cli][messages]") {
  gaus::test::TempFolder folder;
  const std::string schedule = folder.file("iir.list.json").string();
  const auto run =
      gaus_({"schedule", iir(), "--method", "list", "--kind", "latency", "-o", schedule});
  INFO(run.err);
  REQUIRE(run.exitCode == 0);
  CHECK_THAT(run.out, Catch::Contains("method list (latency problem)") &&
                          Catch::Contains("\nloop-carried edges: 3 ignored: a schedule without an "
                                          "II is one iteration, not the loop") &&
                          Catch::Contains("verified: true"));
  const auto json = nlohmann::json::parse(
      gaus_({"schedule", iir(), "--method", "list", "--kind", "latency", "--json"}).out);
  CHECK_THAT(json["notes"]["loop-carried edges"].get<std::string>(),
             Catch::StartsWith("3 ignored"));
  CHECK(json["verification"]["unchecked_loop_carried_edges"] == 3);

  // verify of the schedule without II says the same beside its verdict.
  const auto check = gaus_({"verify", iir(), schedule});
  CHECK(check.exitCode == 0);
  CHECK_THAT(check.out, Catch::Contains("verified (latency problem)") &&
                            Catch::Contains("\nloop-carried edges: 3 ignored: ") &&
                            Catch::EndsWith("verified: true\n"));
  const auto checkJson = nlohmann::json::parse(gaus_({"verify", iir(), schedule, "--json"}).out);
  CHECK(checkJson["unchecked_loop_carried_edges"] == 3);
  CHECK(checkJson["ii"].is_null());
}

TEST_CASE("schedule lists the start times, verify of a modulo schedule prints its II",
          "[cli][messages]") {
  gaus::test::TempFolder folder;
  const std::string schedule = folder.file("iir.ims.json").string();
  const auto run = gaus_({"schedule", iir(), "--method", "ims", "-o", schedule});
  INFO(run.err);
  REQUIRE(run.exitCode == 0);
  // IMS meets MII 5 here; every op is listed with its start, residue and stage.
  CHECK_THAT(run.out, Catch::Contains("II 5 (RecMII") && Catch::Contains("\nstart times:\n"));
  const auto starts = nlohmann::json::parse(gaus::test::readWholeFile(schedule))["start"];
  for (const char* op : {"m0", "m1", "m2", "m3", "m4", "s1", "s2", "acc"}) {
    INFO(op);
    const int start = starts[op];
    CHECK_THAT(run.out,
               Catch::Matches("[\\s\\S]*\\n  " + std::string(op) + " +t=" + std::to_string(start) +
                              " +residue " + std::to_string(start % 5) + " +stage " +
                              std::to_string(start / 5) + "\\n[\\s\\S]*"));
  }
  // Nothing is ignored in a modulo schedule; verify names II first.
  CHECK_THAT(run.out, !Catch::Contains("ignored"));
  const auto check = gaus_({"verify", iir(), schedule});
  CHECK(check.exitCode == 0);
  CHECK_THAT(check.out, Catch::Contains("verified (modulo problem)\nII 5, latency "));
  CHECK(nlohmann::json::parse(gaus_({"verify", iir(), schedule, "--json"}).out)["ii"] == 5);

  // A 100-op graph lists the first 40 starts and says how to get the rest.
  const std::string big = folder.file("big.json").string();
  REQUIRE(gaus_({"generate", "--ops", "100", "--seed", "1", "-o", big}).exitCode == 0);
  const auto large = gaus_({"schedule", big, "--method", "list"});
  REQUIRE(large.exitCode == 0);
  CHECK_THAT(large.out,
             Catch::Contains("  ... and 60 more ops (-o FILE or --json gives every one)\n"));
}

TEST_CASE("every modulo method explains II in the same words", "[cli][messages]") {
  // ims, ilp, gaus and twill (those this build has) all say what bounds II with core's
  // describeIiBound: RecMII 5 of the cycle through acc beats ResMII 3 of MUL.
  const auto methods = nlohmann::json::parse(gaus_({"methods", "--json"}).out);
  int checked = 0;
  for (const auto& method : methods) {
    bool modulo = false;
    for (const auto& kind : method["kinds"])
      modulo = modulo || kind == "modulo" || kind == "modulo-warp";
    if (!modulo) continue;
    const std::string name = method["name"];
    INFO(name);
    const auto run = gaus_({"schedule", iir(), "--method", name, "--json", "-q"});
    INFO(run.err);
    REQUIRE(run.exitCode == 0);
    const auto result = nlohmann::json::parse(run.out);
    CHECK(result["ii"] == 5);
    CHECK(result["bounds"]["ii_bound"] ==
          "RecMII (cycle s1 -> acc -> m1 -> s1) = 5 > ResMII (MUL) = 3");
    ++checked;
  }
  CHECK(checked >= 1);
}

TEST_CASE("typos get the nearest name: methods, kinds, kernels, commands, long flags",
          "[cli][messages]") {
  auto run = gaus_({"schedule", iir(), "--method", "lsit"});
  CHECK(run.exitCode == 1);
  CHECK(lineCount(run.err) == 1);
  CHECK_THAT(run.err, Catch::StartsWith("gaus: error: unknown method 'lsit' (did you mean "
                                        "'list'?); known: ") &&
                          Catch::Contains("ims"));

  run = gaus_({"schedule", iir(), "--method", "ims", "--kind", "modolo"});
  CHECK(run.exitCode == 1);
  CHECK_THAT(run.err, Catch::Contains("--kind 'modolo' (did you mean 'modulo'?): expected "
                                      "latency, latency-bounded, modulo, modulo-warp or stages"));

  run = gaus_({"info", "toy_faa"});
  CHECK(run.exitCode == 1);
  CHECK_THAT(run.err, Catch::Contains("toy_faa: no such file, and no built-in kernel of that name "
                                      "(did you mean 'toy_fa'?)"));

  // A long flag CLI11 does not know: one line, the flag named first, exit 2 (a usage error).
  run = gaus_({"schedule", iir(), "--method", "list", "--timelimit", "5"});
  CHECK(run.exitCode == 2);
  CHECK(lineCount(run.err) == 1);
  CHECK(run.err ==
        "gaus: error: unknown flag '--timelimit' (did you mean '--time-limit'?) (gaus schedule "
        "--help lists the flags)\n");
  run = gaus_({"verify", iir(), iir(), "--max-mesages=3"});
  CHECK(run.exitCode == 2);
  CHECK_THAT(run.err, Catch::Contains("unknown flag '--max-mesages' (did you mean "
                                      "'--max-messages'?)"));
  run = gaus_({"schedule", iir(), "--method", "ims", "--seeed", "3"});
  CHECK(run.exitCode == 2);
  CHECK_THAT(run.err, Catch::Contains("unknown flag '--seeed' (did you mean '--seed'?)"));
  run = gaus_({"shedule", iir()});
  CHECK(run.exitCode == 2);
  CHECK_THAT(run.err, Catch::Contains("unknown command 'shedule' (did you mean 'schedule'?)"));
}

TEST_CASE("a missing file reads as missing in every reader", "[cli][messages]") {
  gaus::test::TempFolder folder;
  const std::string missing = folder.file("none.json").string();
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"info", missing}, missing + ": no such file"},
      {{"verify", iir(), missing}, missing + ": no such file"},
      {{"render", iir(), missing, "-o", folder.file("x.svg").string()}, missing + ": no such file"},
      {{"render", "--trace", missing, "-o", folder.file("x.svg").string()},
       missing + ": no such file (expected a GauS trace"},
      {{"report", missing}, missing + ": no such file (expected a results file"},
      {{"run", missing}, missing + ": no such file"},
      {{"schedule", iir(), "--method", "ims", "--init", missing}, missing + ": no such file"},
  };
  for (const auto& [args, expected] : cases) {
    INFO(args.front());
    const auto run = gaus_(args);
    CHECK(run.exitCode == 1);
    CHECK(lineCount(run.err) == 1);
    CHECK_THAT(run.err, Catch::StartsWith("gaus: error: " + expected));
  }
}

TEST_CASE("input errors say what to change", "[cli][messages]") {
  gaus::test::TempFolder folder;
  // An op on a resource the machine lacks: how to add it, since --capacity cannot.
  const auto div = iirWith(folder, "div.json", R"("name": "acc", "latency": 1, "uses": "ADD")",
                           R"("name": "acc", "latency": 1, "uses": "DIV")");
  auto run = gaus_({"info", div.string()});
  CHECK(run.exitCode == 1);
  CHECK_THAT(run.err, Catch::Contains("found unknown resource \"DIV\"; add {\"name\": \"DIV\", "
                                      "\"capacity\": N} to the machine's \"resources\" "
                                      "(--capacity only sets one it has)"));
  run = gaus_({"info", iir(), "--capacity", "DIV=1"});
  CHECK(run.exitCode == 1);
  CHECK_THAT(run.err, Catch::Contains("--capacity 'DIV=1': machine 'dsp' has no resource 'DIV' "
                                      "(resources: MUL or ADD); --capacity sets the capacity of a "
                                      "resource the machine has"));

  // A distance-0 cycle is reported at an edge of it, not at an op: the one that goes back in the
  // order the ops were written, acc -> m1 on line 26 here (the loop edge without its distance).
  const auto cycle = iirWith(folder, "cycle.json", R"({"from": "acc", "to": "m1", "distance": 1})",
                             R"({"from": "acc", "to": "m1"})");
  run = gaus_({"info", cycle.string()});
  CHECK(run.exitCode == 1);
  CHECK_THAT(run.err, Catch::StartsWith("gaus: error: " + cycle.string() +
                                        ":26: cycle of distance-0 edges: "));

  // A schedule of another graph: the error names the graph the file says it is for.
  const std::string schedule = folder.file("iir.ims.json").string();
  REQUIRE(gaus_({"schedule", iir(), "--method", "ims", "-q", "-o", schedule}).exitCode == 0);
  run = gaus_({"verify", toyFa(), schedule});
  CHECK(run.exitCode == 1);
  CHECK(lineCount(run.err) == 1);
  CHECK_THAT(run.err, Catch::Contains("(the file is a schedule of graph \"iir\", its \"graph\" "
                                      "field, not of 'toy_fa')"));
}

TEST_CASE("the time-limit note on loading time comes only when the limit was reached",
          "[cli][messages]") {
  // ims finishes at once: the seconds spent loading changed nothing, so nothing is said.
  const auto run = gaus_({"schedule", iir(), "--method", "ims", "--time-limit", "5"});
  CHECK(run.exitCode == 0);
  CHECK_THAT(run.err, !Catch::Contains("counts from the command's start"));
  // A 200,000-op graph takes longer than 0.3 s to read (about 0.7 s here): ims gets the 1 ms
  // floor, stops at its limit, and the note says where the time went.
  gaus::test::TempFolder folder;
  const std::string big = folder.file("big.json").string();
  REQUIRE(gaus_({"generate", "--ops", "200000", "--seed", "1", "-o", big}).exitCode == 0);
  const auto stopped = gaus_({"schedule", big, "--method", "ims", "--time-limit", "0.3", "--json"});
  INFO(stopped.err);
  REQUIRE(stopped.exitCode == 0);
  CHECK(nlohmann::json::parse(stopped.out)["status"] == "timeout");
  CHECK_THAT(stopped.err,
             Catch::StartsWith("note: --time-limit counts from the command's start: ") &&
                 Catch::Contains("were left for it (-O time_limit=S gives the method "
                                 "S seconds of its own)"));
}

TEST_CASE("codegen --help says what each target writes, --target cpu how to build it",
          "[cli][messages]") {
  const auto help = gaus_({"codegen", "--help"});
  CHECK(help.exitCode == 0);
  // One row per target, the names padded to the longest ("selftest").
  CHECK_THAT(help.out, Catch::Contains("  text     the software pipeline per warp role") &&
                           Catch::Contains("  layout   the memory layout as JSON") &&
                           Catch::Contains("  cuda     {id}_pipeline.cu") &&
                           Catch::Contains("  cpu      {id}_pipeline.cpp") &&
                           Catch::Contains("  trace    {id}.trace.json") &&
                           Catch::Contains("  selftest the cuda target's files"));
  gaus::test::TempFolder folder;
  const std::string schedule = folder.file("toy.ims.json").string();
  REQUIRE(gaus_({"schedule", toyFa(), "--method", "ims", "-q", "-o", schedule}).exitCode == 0);
  const std::string out = folder.file("out").string();
  const auto cpu = gaus_({"codegen", toyFa(), schedule, "--target", "cpu", "-o", out});
  INFO(cpu.err);
  REQUIRE(cpu.exitCode == 0);
  CHECK_THAT(cpu.out, Catch::EndsWith("build and run: c++ -std=c++20 -O1 -pthread " + out +
                                      "/toy_fa_pipeline.cpp -o toy_fa_pipeline && "
                                      "./toy_fa_pipeline --trips 50\n"));
  const auto typo = gaus_({"codegen", toyFa(), schedule, "--target", "cpp", "-o", out});
  CHECK(typo.exitCode == 1);
  // Every target of codegen::kTargetNames, in its order.
  CHECK_THAT(typo.err, Catch::Contains("--target 'cpp' (did you mean 'cpu'?): expected text, "
                                       "layout, cuda, cpu, trace or selftest"));
}

TEST_CASE("methods: kinds under one name, typed defaults and ranges in the JSON",
          "[cli][messages]") {
  const auto text = gaus_({"methods"});
  REQUIRE(text.exitCode == 0);
  CHECK_THAT(text.out, Catch::Contains("list: ") && Catch::Contains("\n  kinds: latency, "
                                                                    "latency-bounded\n"));
  const auto methods = nlohmann::json::parse(gaus_({"methods", "--json"}).out);
  bool sawMemoryLimit = false;
  for (const auto& method : methods) {
    REQUIRE(method.contains("kinds"));
    for (const auto& option : method["options"]) {
      INFO(method["name"] << " " << option["name"]);
      const std::string type = option["type"];
      const auto& value = option["default"];
      if (type == "boolean") CHECK(value.is_boolean());
      if ((type == "integer" || type == "number") && !option.contains("default_rule")) {
        CHECK(value.is_number());
      }
      if (option["name"] == "memory_limit") {
        // Machine-independent: the rule, not this machine's bytes.
        CHECK(value.is_null());
        CHECK(option["default_rule"] == "90 % of physical memory");
        sawMemoryLimit = true;
      }
      if (!option["range"].is_null()) CHECK(option["range"]["min_exclusive"].is_boolean());
    }
    if (method["name"] == "ims") {
      // budget_factor: 6 (> 0); max_ii: none (>= 1).
      CHECK(method["options"][1]["default"] == 6);
      CHECK(method["options"][1]["range"]["min"] == 0);
      CHECK(method["options"][1]["range"]["min_exclusive"] == true);
      CHECK(method["options"][2]["default"].is_null());
    }
  }
  // memory_limit belongs to the engines (gaus, ilp, twill) when the build has them.
  if (methods.size() > 3) CHECK(sawMemoryLimit);
}

TEST_CASE("every subcommand of gaus --help is in the README", "[cli][messages]") {
  const auto help = gaus_({"--help"});
  const std::string readme = gaus::test::readWholeFile(gaus::test::sourcePath("README.md"));
  const auto from = help.out.find("Subcommands:");
  REQUIRE(from != std::string::npos);
  std::istringstream lines(help.out.substr(from));
  std::string line;
  std::getline(lines, line);
  int commands = 0;
  while (std::getline(lines, line)) {
    std::istringstream words(line);
    std::string name;
    if (!(words >> name)) continue;
    INFO(name);
    CHECK_THAT(readme, Catch::Contains("gaus " + name + " ") ||
                           Catch::Contains("gaus " + name + "`") ||
                           Catch::Contains("gaus/gaus " + name));
    ++commands;
  }
  CHECK(commands >= 11);
}
