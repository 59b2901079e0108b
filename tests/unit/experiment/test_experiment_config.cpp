// Experiment configs: a bad one fails with one line naming the file, the line, the key and what
// was expected (one case per kind of mistake, the line counted in the text beside it); a good
// one expands into the matrix the grids describe.

#include <catch2/catch.hpp>

#include <gaus/experiment/experiment_config.hpp>

#include "experiment_test_support.hpp"
#include "misbehaving_methods.hpp"

using namespace gaus;
using namespace gaus::experiment;

namespace {

// The error of reading `text` as a config, with the folder's path cut off so that the message
// reads "experiment.yaml:LINE: ...".
std::string configError(const std::string& text) {
  const auto folder = test::experimentScratch("config-errors");
  const auto path = test::writeConfig(folder, text);
  const auto config = readExperimentConfig(path, test::testRegistry());
  if (config) return "no error";
  std::string message = config.error();
  const std::string prefix = folder.string() + "/";
  if (message.starts_with(prefix)) message = message.substr(prefix.size());
  return message;
}

// A generated graph entry and a list method: the smallest valid config, for the cases that
// break one key of it.
constexpr const char* kGraphs = "graphs:\n  - generate: {ops: 10}\n";

}  // namespace

TEST_CASE("a config error names the file and the line and the key and what was expected",
          "[experiment][config]") {
  // Line 3 holds the typo; the nearest known key is suggested.
  CHECK(configError(std::string(kGraphs) + "metods:\n  - method: list\n") ==
        "experiment.yaml:3: metods: expected a key of an experiment (name, description, graphs, "
        "problem, methods, budgets or settings), found \"metods\" (did you mean 'methods'?)");
  // Line 4: the method name, with the nearest method.
  CHECK(configError(std::string(kGraphs) + "methods:\n  - method: lisst\n") ==
        "experiment.yaml:4: methods[0].method: expected a method (abort, allocate, hang, list, "
        "sleepy "
        "or throw), found \"lisst\" (did you mean 'list'?)");
  // Line 5: an option the method does not have, as the method's own table says it.
  CHECK(configError(std::string(kGraphs) +
                    "methods:\n  - method: list\n    options: {priorty: height}\n") ==
        "experiment.yaml:5: methods[0].options: method list: unknown option 'priorty' (did you "
        "mean 'priority'?) (known: priority, tie_break, refine or time_limit)");
  // Line 5: a value the option does not take.
  CHECK(configError(std::string(kGraphs) +
                    "methods:\n  - method: list\n    options: {priority: tallest}\n") ==
        "experiment.yaml:5: methods[0].options: method list: option 'priority' expects height, "
        "alap, mobility or successors, got 'tallest'");
  // Line 6: budgets.time_limit is a positive number.
  CHECK(configError(std::string(kGraphs) +
                    "methods:\n  - method: list\nbudgets:\n  time_limit: ten\n") ==
        "experiment.yaml:6: budgets.time_limit: expected a positive number of seconds per run, "
        "found \"ten\"");
  // Line 2: a glob that matches nothing.
  CHECK(configError("graphs:\n  - glob: /nonexistent/*.json\nmethods:\n  - method: list\n") ==
        "experiment.yaml:2: graphs[0].glob: expected a pattern that matches files, found "
        "\"/nonexistent/*.json\"");
  // Line 6: a start from something that is neither an entry's label nor a method.
  CHECK(configError(std::string(kGraphs) +
                    "methods:\n  - method: list\n  - method: sleepy\n    init: {from: lst}\n") ==
        "experiment.yaml:6: methods[1].init: expected a method entry's label or a method, found "
        "\"lst\" (did you mean 'list'?)");
  // Line 5: the entry whose `on` names a set the experiment does not have.
  CHECK(configError("graphs:\n  - set: small\n    generate: {ops: 10}\nmethods:\n  - method: "
                    "list\n    on: smal\n") ==
        "experiment.yaml:5: methods: expected graph sets of the experiment (small) in `on`, found "
        "\"smal\" (did you mean 'small'?)");
  // Line 5: the entry of a method that does not solve the problem kind of its graph set.
  CHECK(
      configError(std::string(kGraphs) + "problem: {kind: modulo}\nmethods:\n  - method: list\n") ==
      "experiment.yaml:5: methods: expected a method that solves modulo problems for graph set "
      "'graphs', found list (it solves latency or latency-bounded)");
  // Line 3: the horizon's grammar.
  CHECK(configError(std::string(kGraphs) +
                    "problem: {horizon: lst_latency * 2}\nmethods:\n  - method: list\n") ==
        "experiment.yaml:3: problem.horizon: expected METHOD_latency with a method that solves "
        "latency problems, found \"lst_latency * 2\" (did you mean 'list_latency'?)");
  // Line 2: YAML cut short (an open flow sequence), where the reader found the end.
  CHECK(configError("graphs: [\n") ==
        "experiment.yaml:2: expected valid YAML, found \"end of sequence flow not found\"");
  // Line 5: the second of two entries that would share a label.
  CHECK(configError(std::string(kGraphs) + "methods:\n  - method: list\n  - method: list\n") ==
        "experiment.yaml:5: methods[1]: expected a method entry with a label of its own, found "
        "the label 'list' a second time (set label:)");
  // Line 4: the first entry of a cycle of starts (a waits for b, b for a): it would never end.
  CHECK(configError(std::string(kGraphs) +
                    "methods:\n  - method: sleepy\n    label: a\n    init: b\n  - method: "
                    "sleepy\n    label: b\n    init: a\n") ==
        "experiment.yaml:4: methods: expected starts (init.from) without a cycle, found one "
        "through 'a'");
}

TEST_CASE(
    "a config reads into entries with option grids and generator grids and starts and budgets",
    "[experiment][config]") {
  const auto folder = test::experimentScratch("config-good");
  const auto path = test::writeConfig(folder, R"(name: grids
graphs:
  - set: generated
    generate: {ops: [10, 20], seeds: [1, 2, 3]}
    time_limit: 2
methods:
  - method: list
    options: {priority: [height, mobility]}
  - method: sleepy
    options: {seconds: 0}
    init: {from: list priority=height}
budgets:
  time_limit: 5
  seeds: [1, 2]
  memory_limit: 2G
  output: results/here
)");
  const auto config = readExperimentConfig(path, test::testRegistry());
  REQUIRE(config.ok());
  CHECK(config->name == "grids");
  // 2 op counts x 3 seeds.
  REQUIRE(config->graphs.size() == 1);
  CHECK(config->graphs[0].generated.size() == 6);
  CHECK(config->graphs[0].generated[5].options.ops == 20);
  CHECK(config->graphs[0].generated[5].options.seed == 3);
  CHECK(config->graphs[0].timeLimit == 2.0);
  // The list grid gives two entries labelled by the varying option; the sleepy entry keeps its
  // start by label.
  REQUIRE(config->methods.size() == 3);
  CHECK(config->methods[0].label == "list priority=height");
  CHECK(config->methods[1].label == "list priority=mobility");
  CHECK(config->methods[1].options.at("priority") == "mobility");
  REQUIRE(config->methods[2].start);
  CHECK(config->methods[2].start->from == "list priority=height");
  CHECK(config->budgets.timeLimit == 5.0);
  CHECK(config->budgets.seeds == std::vector<std::uint64_t>{1, 2});
  CHECK(config->budgets.memoryLimitBytes == std::int64_t{2} << 30);
  CHECK(config->budgets.output == "results/here");
}

TEST_CASE("byte sizes read with binary suffixes", "[experiment][config]") {
  CHECK(*parseByteSize("512M") == std::int64_t{512} << 20);
  CHECK(*parseByteSize("1.5G") == std::int64_t{3} << 29);
  CHECK(*parseByteSize("4096") == 4096);
  CHECK_FALSE(parseByteSize("lots").ok());
  CHECK_FALSE(parseByteSize("-1G").ok());
}
