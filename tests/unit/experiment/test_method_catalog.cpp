// Every method of the catalog, through the one interface: its options round-trip (a value given
// is the value echoed), and a run echoes exactly what its table resolves.
#include <cmath>
#include <filesystem>

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <gaus/experiment/experiment_config.hpp>
#include <gaus/methods/method_catalog.hpp>

#include "kernel_files.hpp"
#include "run_program.hpp"
#include "test_support.hpp"
#include "toy_graphs.hpp"

using namespace gaus;

namespace {

// A valid value other than the default, derived from the option's documentation alone, so that
// a new option is covered without touching this test.
std::optional<std::string> otherValue(const OptionDoc& doc) {
  if (doc.type == "boolean") return doc.defaultValue == "true" ? "false" : "true";
  if (doc.type == "choice" || doc.type == "list") {
    for (const auto& choice : doc.choices) {
      if (choice != doc.defaultValue) return choice;
    }
    return std::nullopt;
  }
  if (doc.type == "text") return doc.defaultValue + "x";
  const bool integer = doc.type.starts_with("integer");
  std::vector<double> candidates;
  if (doc.defaultValue != "none") {
    const double value = std::stod(doc.defaultValue);
    candidates = {value * 2, value + 1, value / 2, value - 1};
  }
  if (doc.range.min) candidates.push_back(*doc.range.min + 1);
  if (doc.range.max) candidates.push_back(*doc.range.max);
  candidates.push_back(3);
  for (double candidate : candidates) {
    if (integer) candidate = std::round(candidate);
    const std::string text = integer ? fmt::format("{}", static_cast<std::int64_t>(candidate))
                                     : fmt::format("{}", candidate);
    if (text != doc.defaultValue && doc.range.contains(candidate)) return text;
  }
  return std::nullopt;
}

}  // namespace

TEST_CASE("every option of every method round-trips: the value given is the value echoed",
          "[experiment][catalog]") {
  const MethodRegistry& catalog = methodCatalog();
  std::size_t checked = 0;
  for (const auto& name : catalog.names()) {
    const MethodInfo& method = *catalog.find(name);
    // The defaults echo as documented.
    const auto defaults = method.resolveOptions({});
    REQUIRE(defaults.ok());
    REQUIRE(defaults->size() == method.options.size());
    for (std::size_t i = 0; i < method.options.size(); ++i) {
      const OptionDoc& doc = method.options[i];
      INFO(name << " -O " << doc.name);
      CHECK((*defaults)[i] == std::pair{doc.name, doc.defaultValue});
      CHECK_FALSE(doc.description.empty());
      CHECK(doc.name.find('-') == std::string::npos);  // one spelling: snake_case
      const auto value = otherValue(doc);
      REQUIRE(value);
      const auto echoed = method.resolveOptions({{doc.name, *value}});
      INFO("given " << *value << (echoed ? "" : ": " + echoed.error()));
      REQUIRE(echoed.ok());
      CHECK((*echoed)[i] == std::pair{doc.name, *value});
      ++checked;
    }
  }
  // list 4, ims 5, balanced 2, fds 5, ilp and twill over ten each, gaus over thirty: a broken
  // enumeration would check nothing.
  CHECK(checked > 50);
  // The stage problem's method is among them, with both of its options.
  const MethodInfo* balanced = catalog.find("balanced");
  REQUIRE(balanced != nullptr);
  REQUIRE(balanced->options.size() == 2);
  CHECK(balanced->options[0].name == "refine");
  CHECK(balanced->options[1].name == "time_limit");
}

TEST_CASE("a run echoes the options its table resolves, defaults included",
          "[experiment][catalog]") {
  const MethodRegistry& catalog = methodCatalog();
  const Instance toy = test::loadKernel("toy_fa");
  // Small settings where a method declares them, so that every method ends quickly.
  const MethodOptions quick = {{"time_limit", "10"}, {"max_steps", "50"}};
  for (const auto& name : catalog.names()) {
    const MethodInfo& method = *catalog.find(name);
    INFO(name);
    ProblemKind kind = inferProblemKind(*toy.graph, method, false, false);
    // toy_fa is a loop: a method that solves no modulo kind (list, balanced) is refused it
    // unless asked for another kind, as here, its first.
    if (!method.solves(kind)) kind = method.kinds.front();
    // A stage problem (method balanced solves only those) needs its number of stages.
    const Problem problem =
        toy.problem(kind, kind == ProblemKind::kStages ? std::optional<Cycle>(3) : std::nullopt);
    MethodOptions given;
    for (const auto& [option, value] : quick) {
      if (method.declares(option)) given.emplace(option, value);
    }
    const Result result = catalog.run(name, problem, given);
    INFO(result.message);
    REQUIRE_FALSE(result.failed());
    CHECK(result.verified());
    CHECK(result.options == *method.resolveOptions(given));
  }
}

TEST_CASE(
    "the gaus program's plugin catalog offers the same methods and options as the linked "
    "one",
    "[experiment][catalog][plugins]") {
  // `gaus methods --json` loads every engine plugin; its methods and their documented options
  // must be those of the catalog linked into this test.
  const auto run = test::runProgram(GAUS_BINARY, {"methods", "--json"});
  REQUIRE(run.exitCode == 0);
  const auto listed = nlohmann::json::parse(run.out);
  const MethodRegistry& catalog = methodCatalog();
  REQUIRE(listed.size() == catalog.names().size());
  for (const auto& entry : listed) {
    const std::string name = entry["name"];
    INFO(name);
    const MethodInfo* method = catalog.find(name);
    REQUIRE(method != nullptr);
    REQUIRE(entry["options"].size() == method->options.size());
    for (std::size_t i = 0; i < method->options.size(); ++i) {
      const OptionDoc& doc = method->options[i];
      const auto& option = entry["options"][i];
      INFO(doc.name);
      CHECK(option["name"] == doc.name);
      CHECK(option["type"] == doc.type);
      // The default as JSON of its type, the same value the table echoes; null where it is
      // unset or depends on the machine (then default_rule says how it is found).
      const auto& value = option["default"];
      if (!doc.defaultRule.empty()) {
        CHECK(value.is_null());
        CHECK(option["default_rule"] == doc.defaultRule);
      } else if (value.is_null()) {
        CHECK(doc.defaultValue == "none");
      } else if (value.is_boolean()) {
        CHECK(*option_text::parseBoolean(doc.defaultValue) == value.get<bool>());
      } else if (value.is_number()) {
        CHECK(*option_text::parseNumber(doc.defaultValue) == value.get<double>());
      } else if (value.is_array()) {
        std::string joined;
        for (const auto& item : value) {
          if (!joined.empty()) joined += ',';
          joined += item.get<std::string>();
        }
        CHECK(joined == doc.defaultValue);
      } else {
        CHECK(value.get<std::string>() == doc.defaultValue);
      }
      if (doc.range.min || doc.range.max) {
        CHECK(option["range"]["min_exclusive"] == doc.range.minExclusive);
        if (doc.range.min) CHECK(option["range"]["min"] == *doc.range.min);
      } else {
        CHECK(option["range"].is_null());
      }
    }
    CHECK(entry.contains("kinds"));
  }
}

TEST_CASE("every shipped experiment configuration reads against the catalog",
          "[experiment][catalog]") {
  // configs/experiments/*.yaml name methods, options and graph sets that must exist: a renamed
  // option or method would otherwise surface only when someone runs the batch (gaus_ablation
  // takes 50 minutes). Reading checks keys, methods, options and globs; it generates no graph.
  std::size_t configs = 0;
  for (const auto& entry :
       std::filesystem::directory_iterator(gaus::test::sourcePath("configs/experiments"))) {
    if (entry.path().extension() != ".yaml") continue;
    const auto config = experiment::readExperimentConfig(entry.path(), methodCatalog());
    INFO(entry.path().string() << ": " << (config ? std::string() : config.error()));
    CHECK(config);
    ++configs;
  }
  CHECK(configs >= 9);  // nine today: a folder read as empty must not pass vacuously
}
