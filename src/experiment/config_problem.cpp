// The `problem:` section of an experiment configuration (docs/experiments.md "problem"), at the
// top or in a graph or method entry: the kind, the machine, the horizon and II policies and the
// objective that runs are judged by.

#include "config_problem.hpp"

#include <algorithm>
#include <string_view>

#include <fmt/format.h>

#include <gaus/core/option_table.hpp>
#include <gaus/io/io.hpp>

namespace gaus::experiment {

namespace {

namespace fs = std::filesystem;
using io::JsonValue;

HorizonPolicy parseHorizon(const ConfigValue& value, const ConfigContext& context) {
  constexpr std::string_view kExpected =
      "a horizon: cycles, none, critical_path [* FACTOR] or METHOD_latency [* FACTOR]";
  HorizonPolicy policy;
  if (value.raw().kind == JsonValue::Kind::kInteger) {
    policy.kind = HorizonPolicy::Kind::kCycles;
    policy.cycles = value.integer(kExpected, 0, kMaxInputValue);
    policy.text = std::to_string(policy.cycles);
    return policy;
  }
  policy.text = value.text(kExpected);
  if (policy.text == "none") return policy;
  std::string figure = policy.text;
  if (const auto star = policy.text.find('*'); star != std::string::npos) {
    figure = policy.text.substr(0, star);
    std::string_view factorText = std::string_view(policy.text).substr(star + 1);
    while (!factorText.empty() && factorText.front() == ' ') factorText.remove_prefix(1);
    const auto factor = option_text::parseNumber(factorText);
    if (!factor || *factor <= 0) value.fail("a positive FACTOR after '*'");
    policy.factor = *factor;
  }
  while (!figure.empty() && figure.back() == ' ') figure.pop_back();
  constexpr std::string_view kLatencySuffix = "_latency";
  if (figure == "critical_path") {
    policy.kind = HorizonPolicy::Kind::kCriticalPath;
  } else if (figure.ends_with(kLatencySuffix) && figure.size() > kLatencySuffix.size()) {
    policy.kind = HorizonPolicy::Kind::kMethodLatency;
    policy.method = figure.substr(0, figure.size() - kLatencySuffix.size());
    const MethodInfo* method = context.registry->find(policy.method);
    if (method == nullptr || !method->solves(ProblemKind::kLatency)) {
      value.fail("METHOD_latency with a method that solves latency problems",
                 option_text::didYouMean(policy.method, context.registry->names(), "_latency"));
    }
  } else {
    value.fail(kExpected);
  }
  return policy;
}

IiPolicy parseIi(const ConfigValue& value) {
  constexpr std::string_view kExpected = "an II: search, mii, a positive integer or fixed N";
  IiPolicy policy;
  if (value.raw().kind == JsonValue::Kind::kInteger) {
    policy.kind = IiPolicy::Kind::kFixed;
    policy.ii = static_cast<std::int32_t>(value.integer(kExpected, 1, kMaxInputValue));
    policy.text = std::to_string(policy.ii);
    return policy;
  }
  policy.text = value.text(kExpected);
  if (policy.text == "search") return policy;
  if (policy.text == "mii") {
    policy.kind = IiPolicy::Kind::kMii;
    return policy;
  }
  if (policy.text.starts_with("fixed ")) {
    const auto ii = option_text::parseInteger(std::string_view(policy.text).substr(6));
    if (ii && *ii >= 1 && *ii <= kMaxInputValue) {
      policy.kind = IiPolicy::Kind::kFixed;
      policy.ii = static_cast<std::int32_t>(*ii);
      return policy;
    }
  }
  value.fail(kExpected);
}

const std::vector<std::string>& objectiveNames() {
  static const std::vector<std::string> names = {"method", "latency", "ii", "peak_memory"};
  return names;
}

}  // namespace

ProblemSpec parseProblem(const ConfigValue& value, const ConfigContext& context) {
  value.requireObject("the problem", {"kind", "machine", "horizon", "ii", "objective"});
  ProblemSpec spec;
  if (const auto kind = value.member("kind")) {
    const std::vector<std::string> kinds = problemKindNames();
    const std::string& text = kind->text("a problem kind");
    if (text != "inferred" && std::find(kinds.begin(), kinds.end(), text) == kinds.end()) {
      std::vector<std::string> choices = kinds;
      choices.emplace_back("inferred");
      kind->fail(fmt::format("a problem kind ({})", option_text::listChoices(choices)),
                 option_text::didYouMean(text, choices));
    }
    spec.kind = text;
  }
  if (const auto machine = value.member("machine")) {
    const std::string text = expandVariables(*machine, machine->text("a machine"), context);
    // A file beside the configuration is named by its absolute path, so that a run finds it
    // from any folder; anything else is a name looked up as --machine does.
    std::string reference = text;
    for (const fs::path& candidate : {fs::path(text), fs::path(text + ".yaml")}) {
      const fs::path resolved = resolvePath(candidate, context);
      std::error_code ignored;
      if (fs::is_regular_file(resolved, ignored)) reference = resolved.string();
    }
    const auto found = io::findMachine(reference, context.folder);
    if (!found) machine->fail(fmt::format("a machine name or file ({})", found.error()));
    spec.machine = reference;
  }
  if (const auto horizon = value.member("horizon")) spec.horizon = parseHorizon(*horizon, context);
  if (const auto ii = value.member("ii")) spec.ii = parseIi(*ii);
  if (const auto objective = value.member("objective")) {
    const std::string& text = objective->text("an objective");
    if (std::find(objectiveNames().begin(), objectiveNames().end(), text) ==
        objectiveNames().end()) {
      objective->fail(fmt::format("an objective ({})", option_text::listChoices(objectiveNames())));
    }
    spec.objective = text;
  }
  return spec;
}

}  // namespace gaus::experiment
