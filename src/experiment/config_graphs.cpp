// The `graphs:` entries of an experiment configuration (docs/experiments.md "graphs"): files,
// globs with their exclusions, the generator's parameter grid, ids, references.

#include "config_graphs.hpp"

#include <algorithm>
#include <fnmatch.h>
#include <functional>
#include <glob.h>

#include <fmt/format.h>

#include <gaus/core/option_table.hpp>
#include <gaus/io/document_tree.hpp>
#include <gaus/io/io.hpp>

#include "config_problem.hpp"
#include "config_value.hpp"

namespace gaus::experiment {

namespace fs = std::filesystem;
using io::InputError;
using io::JsonValue;

namespace {

// The folder part of a glob before its first wildcard: what graph ids are relative to.
fs::path globBase(const std::string& pattern) {
  const auto wildcard = pattern.find_first_of("*?[");
  const auto slash = pattern.rfind('/', wildcard);
  return slash == std::string::npos ? fs::path(".") : fs::path(pattern.substr(0, slash));
}

std::vector<std::string> globFiles(const ConfigValue& where, const std::string& pattern) {
  glob_t matches{};
  const int status = ::glob(pattern.c_str(), GLOB_ERR, nullptr, &matches);
  std::vector<std::string> files;
  if (status == 0) {
    for (std::size_t i = 0; i < matches.gl_pathc; ++i) {
      std::error_code ignored;
      if (fs::is_regular_file(matches.gl_pathv[i], ignored))
        files.emplace_back(matches.gl_pathv[i]);
    }
  }
  ::globfree(&matches);
  if (files.empty()) {
    where.fail("a pattern that matches files",
               pattern == where.raw().text ? "" : fmt::format(" (expanded: {})", pattern));
  }
  std::sort(files.begin(), files.end());
  return files;
}

GraphFile graphFile(const ConfigValue& where, const std::string& given,
                    const ConfigContext& context) {
  const auto hash = given.find('#');
  const std::string file = given.substr(0, hash);
  const std::string selector = hash == std::string::npos ? std::string() : given.substr(hash);
  const fs::path resolved = resolvePath(file, context);
  std::error_code ignored;
  if (fs::is_regular_file(resolved, ignored)) {
    return {resolved.string() + selector, resolved.parent_path()};
  }
  if (!fs::path(file).has_parent_path() && io::findKernelFile(file, context.folder)) {
    return {given, fs::path()};  // a built-in kernel, read by name
  }
  where.fail(fmt::format("a graph file or a built-in kernel name (no file {})", resolved.string()));
}

// One generator key: how it is checked and where it goes in the options.
struct GeneratorKey {
  std::string_view name;
  std::function<void(const ConfigValue&, RandomGraphOptions&)> apply;
};

template <typename Field>
GeneratorKey integerKey(std::string_view name, Field field, std::int64_t min) {
  return {name, [name, field, min](const ConfigValue& value, RandomGraphOptions& options) {
            options.*field = static_cast<std::remove_reference_t<decltype(options.*field)>>(
                value.integer(fmt::format("an integer {} >= {}", name, min), min, kMaxInputValue));
          }};
}

GeneratorKey numberKey(std::string_view name, double RandomGraphOptions::*field) {
  return {name, [name, field](const ConfigValue& value, RandomGraphOptions& options) {
            const double number = value.number(fmt::format("a number {} >= 0", name));
            if (number < 0) value.fail(fmt::format("a number {} >= 0", name));
            options.*field = number;
          }};
}

const std::vector<GeneratorKey>& generatorKeys() {
  using O = RandomGraphOptions;
  static const std::vector<GeneratorKey> keys = {
      integerKey("ops", &O::ops, 1),
      numberKey("degree", &O::averageDegree),
      numberKey("edge_probability", &O::edgeProbability),
      {"layered", [](const ConfigValue& value,
                     O& options) { options.layered = value.boolean("true or false"); }},
      integerKey("layers", &O::layers, 1),
      integerKey("layer_span", &O::maxLayerSpan, 1),
      integerKey("fanin", &O::faninPerOp, 0),
      integerKey("id_span", &O::maxIdSpan, 0),
      {"types",
       [](const ConfigValue& value, O& options) {
         options.opTypes.clear();
         for (const ConfigValue& spec : value.list()) {
           auto type =
               parseRandomOpType(spec.text("an op type NAME:MIN-MAX[:OCC[:UNITS[:SHARE]]]"));
           if (!type) spec.failWith(type.error());
           options.opTypes.push_back(std::move(type).value());
         }
       }},
      integerKey("back_edges", &O::backEdges, 0),
      integerKey("max_distance", &O::maxDistance, 1),
      numberKey("weighted", &O::weightedFraction),
      numberKey("min_weight", &O::minWeight),
      numberKey("max_weight", &O::maxWeight),
      numberKey("comm", &O::commFraction),
      {"seed",
       [](const ConfigValue& value, O& options) {
         options.seed = static_cast<std::uint64_t>(value.integer(
             "a nonnegative integer seed", 0, std::numeric_limits<std::int64_t>::max()));
       }},
  };
  return keys;
}

// The grid of a `generate` entry: every combination of the values of list-valued keys (a list
// of lists for `types`), the first key varying slowest.
std::vector<GeneratedGraph> generatorGrid(const ConfigValue& value) {
  std::vector<std::string_view> known;
  for (const auto& key : generatorKeys()) known.push_back(key.name);
  known.push_back("seeds");
  if (!value.raw().isObject()) value.fail("the generator's parameters (a mapping)");
  std::vector<std::string> names(known.begin(), known.end());
  for (std::size_t i = 0; i < value.raw().keys.size(); ++i) {
    const std::string& key = value.raw().keys[i];
    if (std::find(names.begin(), names.end(), key) == names.end()) {
      throw InputError(value.raw().items[i].line,
                       fmt::format("{}.{}: expected a generator parameter ({}), found {}{}",
                                   value.key(), key, option_text::listChoices(names),
                                   io::quoteText(key), option_text::didYouMean(key, names)));
    }
  }
  std::vector<GeneratedGraph> grid(1);
  grid.front().parameters["ops"] = std::to_string(RandomGraphOptions{}.ops);
  grid.front().parameters["seed"] = std::to_string(RandomGraphOptions{}.seed);
  for (auto [name, entry] : value.entries()) {
    if (name == "seeds") name = "seed";
    const auto key =
        std::find_if(generatorKeys().begin(), generatorKeys().end(),
                     [&wanted = name](const GeneratorKey& k) { return k.name == wanted; });
    // A list is a grid, except for `types`, whose value is itself a list (a grid of type sets
    // is a list of lists).
    std::vector<ConfigValue> values = entry.list();
    if (name == "types" && (values.empty() || !values.front().raw().isArray())) {
      values = {entry};
    }
    if (values.empty()) entry.fail(fmt::format("at least one value of {}", name));
    std::vector<GeneratedGraph> expanded;
    for (const GeneratedGraph& graph : grid) {
      for (std::size_t i = 0; i < values.size(); ++i) {
        GeneratedGraph point = graph;
        key->apply(values[i], point.options);
        if (name != "types") {
          point.parameters[name] = values[i].scalar(fmt::format("a value of {}", name));
        } else if (values.size() > 1) {
          point.parameters["types"] = std::to_string(i);  // type sets are named by position
        }
        expanded.push_back(std::move(point));
      }
    }
    grid = std::move(expanded);
  }
  // The generator's own checks run when the graphs are made (graph_survey.cpp), where a failure
  // is reported at this entry's line.
  return grid;
}

}  // namespace

GraphEntry parseGraphEntry(const ConfigValue& value, const ConfigContext& context,
                           const ProblemSpec& problem) {
  value.requireObject("a graph entry", {"set", "files", "glob", "exclude", "generate", "id",
                                        "reference", "problem", "time_limit"});
  GraphEntry entry;
  entry.line = value.line();
  entry.set = value.member("set") ? value.member("set")->text("a set name") : "graphs";
  std::vector<std::string> excluded;
  if (const auto exclude = value.member("exclude")) {
    for (const ConfigValue& pattern : exclude->list()) {
      excluded.push_back(pattern.text("a file name pattern"));
    }
  }
  if (const auto files = value.member("files")) {
    for (const ConfigValue& file : files->list()) {
      entry.files.push_back(
          graphFile(file, expandVariables(file, file.text("a graph file"), context), context));
    }
  }
  if (const auto globs = value.member("glob")) {
    for (const ConfigValue& pattern : globs->list()) {
      const std::string text =
          resolvePath(expandVariables(pattern, pattern.text("a file pattern"), context), context);
      const fs::path base = globBase(text);
      std::size_t kept = 0;
      for (const std::string& file : globFiles(pattern, text)) {
        const std::string relative = fs::path(file).lexically_relative(base).string();
        const bool skip = std::any_of(excluded.begin(), excluded.end(), [&](const auto& p) {
          return ::fnmatch(p.c_str(), relative.c_str(), 0) == 0 ||
                 ::fnmatch(p.c_str(), fs::path(file).filename().c_str(), 0) == 0;
        });
        if (skip) continue;
        entry.files.push_back({file, base});
        ++kept;
      }
      if (kept == 0) pattern.fail("a pattern that matches files not excluded");
    }
  }
  if (const auto generate = value.member("generate")) {
    if (!entry.files.empty()) generate->fail("either files and globs, or a generator");
    entry.generated = generatorGrid(*generate);
  }
  if (entry.files.empty() && entry.generated.empty()) {
    value.fail("a graph entry with files, glob or generate");
  }
  if (const auto id = value.member("id")) {
    entry.idPattern = id->text("an id pattern");
    if (entry.idPattern.find('~') != std::string::npos) id->fail("an id pattern without '~'");
  }
  if (const auto reference = value.member("reference")) {
    if (reference->raw().isString()) {
      entry.referenceFigure = reference->text("a reference figure");
    } else {
      reference->requireObject("the reference", {"figure", "file"});
      if (const auto figure = reference->member("figure")) {
        entry.referenceFigure = figure->text("a figure name");
      }
      if (const auto file = reference->member("file")) {
        // A JSON object {graph name: value}, as HeuriGym's baseline.json.
        const fs::path path =
            resolvePath(expandVariables(*file, file->text("a file"), context), context);
        try {
          const JsonValue values = io::readJsonFile(path);
          if (!values.isObject()) {
            throw InputError(values.line,
                             io::expectedFound("an object {graph name: value}", values.describe()));
          }
          for (std::size_t i = 0; i < values.keys.size(); ++i) {
            entry.referenceValues[values.keys[i]] =
                io::asNumber(values.items[i], fmt::format("for graph '{}'", values.keys[i]));
          }
        } catch (const InputError& error) {
          file->fail(fmt::format("a reference file that reads ({})", error.describe(path)));
        }
      }
    }
  }
  if (const auto limit = value.member("time_limit")) {
    entry.timeLimit = limit->positiveNumber("a positive number of seconds per run");
  }
  entry.problem = problem;
  if (const auto own = value.member("problem")) {
    entry.problem = problem.mergedWith(parseProblem(*own, context));
  }
  return entry;
}

}  // namespace gaus::experiment
