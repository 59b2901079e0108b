// Reading an experiment configuration (docs/experiments.md). The YAML goes through the io
// module's tree (yaml-cpp, every value with its line) and its InputError, so that a mistake reads
// like every other input error of gaus: "FILE:LINE: KEY: expected X, found Y". Each value is
// checked where it is read; methods and their options are checked against the registry, grids
// are expanded, and paths are resolved here, so that nothing is found wrong after runs started.

#include <algorithm>
#include <cctype>
#include <set>

#include <fmt/format.h>

#include <gaus/core/option_table.hpp>
#include <gaus/experiment/experiment_config.hpp>
#include <gaus/io/document_tree.hpp>
#include <gaus/io/io.hpp>

#include "config_graphs.hpp"
#include "config_problem.hpp"
#include "config_value.hpp"

namespace gaus::experiment {

namespace {

namespace fs = std::filesystem;
using io::InputError;
using io::JsonValue;

// ---- methods ----

// The options of one method entry: every list value is a grid axis. Returns the grid points
// in order (the first key varying slowest) with the keys that vary.
std::vector<MethodOptions> optionGrid(const ConfigValue& value, std::vector<std::string>& varying) {
  std::vector<MethodOptions> grid(1);
  for (const auto& [name, entry] : value.entries()) {
    const std::vector<ConfigValue> values = entry.list();
    if (values.empty()) entry.fail("at least one value");
    if (values.size() > 1) varying.push_back(name);
    std::vector<MethodOptions> expanded;
    for (const MethodOptions& point : grid) {
      for (const ConfigValue& one : values) {
        MethodOptions next = point;
        next[name] = one.scalar("an option value (a number, a word or a list of them)");
        expanded.push_back(std::move(next));
      }
    }
    grid = std::move(expanded);
  }
  return grid;
}

const MethodInfo& findMethod(const ConfigValue& value, const MethodRegistry& registry) {
  const std::string& name = value.text("a method name");
  const MethodInfo* method = registry.find(name);
  if (method == nullptr) {
    value.fail(fmt::format("a method ({})", option_text::listChoices(registry.names())),
               option_text::didYouMean(name, registry.names()));
  }
  return *method;
}

void checkOptions(const ConfigValue& where, const MethodInfo& method, const MethodOptions& options,
                  const Settings& settings) {
  const AppliedSettings applied = applySettings(method, options, settings);
  const auto resolved = method.resolveOptions(applied.options, applied.settings);
  if (!resolved) {
    throw InputError(where.line(), fmt::format("{}: {}", where.key(), resolved.error()));
  }
}

std::vector<MethodEntry> parseMethodEntry(const ConfigValue& value, const ConfigContext& context,
                                          const Settings& settings,
                                          std::vector<std::string>& baseLabels) {
  value.requireObject("a method entry", {"method", "label", "options", "on", "init", "problem"});
  const auto methodValue = value.member("method");
  if (!methodValue) value.fail("a method entry with a method");
  const MethodInfo& method = findMethod(*methodValue, *context.registry);
  MethodEntry base;
  base.method = method.name;
  base.line = value.line();
  base.label = method.name;
  if (const auto label = value.member("label")) {
    base.label = label->text("a label");
    if (base.label.find('~') != std::string::npos) label->fail("a label without '~'");
  }
  if (const auto on = value.member("on")) {
    for (const ConfigValue& set : on->list()) base.sets.push_back(set.text("a graph set name"));
  }
  if (const auto problem = value.member("problem")) base.problem = parseProblem(*problem, context);
  if (const auto init = value.member("init")) {
    StartSpec start;
    start.key = init->key();
    start.line = init->line();
    if (init->raw().isString()) {
      start.from = init->text("a method entry's label or a method");
    } else {
      init->requireObject("the start", {"from", "options"});
      const auto from = init->member("from");
      if (!from) init->fail("a start with `from`");
      start.from = from->text("a method entry's label or a method");
      if (const auto options = init->member("options")) {
        if (!options->raw().isObject()) options->fail("the start method's options (a mapping)");
        std::vector<std::string> varying;
        const auto grid = optionGrid(*options, varying);
        if (grid.size() != 1) options->fail("one value per option (a start has no grid)");
        start.options = grid.front();
        start.hasOptions = true;
      }
    }
    base.start = start;
  }
  std::vector<std::string> varying;
  std::vector<MethodOptions> grid = {{}};
  const auto options = value.member("options");
  if (options) {
    if (!options->raw().isObject()) options->fail("the method's options (a mapping)");
    grid = optionGrid(*options, varying);
  }
  baseLabels.push_back(base.label);
  std::vector<MethodEntry> entries;
  for (const MethodOptions& point : grid) {
    MethodEntry entry = base;
    entry.options = point;
    for (const std::string& key : varying) entry.label += fmt::format(" {}={}", key, point.at(key));
    checkOptions(options ? *options : *methodValue, method, point, settings);
    entries.push_back(std::move(entry));
  }
  return entries;
}

// `init: {from: X}`: X is a method entry's label (exact), the label of a grid's entries only
// when it names one, or a method of the registry run first in the same process.
void checkStarts(std::vector<MethodEntry>& methods, const MethodRegistry& registry,
                 const std::vector<std::string>& baseLabels, const Settings& settings) {
  for (MethodEntry& entry : methods) {
    if (!entry.start) continue;
    const StartSpec& start = *entry.start;
    const auto fail = [&](std::string_view expected, std::string_view hint = {}) {
      throw InputError(start.line, fmt::format("{}: expected {}, found {}{}", start.key, expected,
                                               io::quoteText(start.from), hint));
    };
    const bool isLabel = std::any_of(methods.begin(), methods.end(),
                                     [&](const MethodEntry& m) { return m.label == start.from; });
    if (isLabel) {
      if (start.from == entry.label) fail("a start from another method entry, not itself");
      if (start.hasOptions) {
        fail("a start without options (a start from a method entry uses that entry's options)");
      }
      continue;
    }
    if (std::count(baseLabels.begin(), baseLabels.end(), start.from) > 0) {
      std::vector<std::string> labels;
      for (const MethodEntry& m : methods) {
        if (m.label.starts_with(start.from + " ")) labels.push_back(m.label);
      }
      fail(fmt::format("one method entry's label ({})", option_text::listChoices(labels)));
    }
    const MethodInfo* method = registry.find(start.from);
    if (method == nullptr) {
      std::vector<std::string> known = registry.names();
      for (const MethodEntry& m : methods) known.push_back(m.label);
      fail("a method entry's label or a method", option_text::didYouMean(start.from, known));
    }
    const AppliedSettings applied = applySettings(*method, start.options, settings);
    const auto resolved = method->resolveOptions(applied.options, applied.settings);
    if (!resolved) {
      throw InputError(start.line, fmt::format("{}: {}", start.key, resolved.error()));
    }
  }
  // A start from an entry that starts from this one would wait forever.
  for (const MethodEntry& entry : methods) {
    std::set<std::string> seen = {entry.label};
    const MethodEntry* current = &entry;
    while (current->start) {
      const auto next = std::find_if(methods.begin(), methods.end(), [&](const MethodEntry& m) {
        return m.label == current->start->from;
      });
      if (next == methods.end()) break;
      if (!seen.insert(next->label).second) {
        throw InputError(entry.line,
                         fmt::format("methods: expected starts (init.from) without a cycle, "
                                     "found one through '{}'",
                                     entry.label));
      }
      current = &*next;
    }
  }
}

// ---- budgets and settings ----

Budgets parseBudgets(const std::optional<ConfigValue>& value, const std::string& name) {
  Budgets budgets;
  budgets.output = fs::path("out") / name;
  if (!value) return budgets;
  value->requireObject("the budgets", {"time_limit", "grace", "repeats", "seeds", "memory_limit",
                                       "jobs", "threads", "output", "schedules"});
  if (const auto limit = value->member("time_limit")) {
    budgets.timeLimit = limit->positiveNumber("a positive number of seconds per run");
  }
  if (const auto grace = value->member("grace")) {
    budgets.grace = grace->number("a number of seconds >= 0");
    if (budgets.grace < 0) grace->fail("a number of seconds >= 0");
  }
  if (const auto repeats = value->member("repeats")) {
    budgets.repeats = static_cast<std::int32_t>(repeats->integer("a positive count", 1, kMaxCount));
  }
  if (const auto seeds = value->member("seeds")) {
    budgets.seeds.clear();
    for (const ConfigValue& seed : seeds->list()) {
      budgets.seeds.push_back(static_cast<std::uint64_t>(
          seed.integer("a nonnegative integer seed", 0, std::numeric_limits<std::int64_t>::max())));
    }
    if (budgets.seeds.empty()) seeds->fail("at least one seed");
  }
  if (const auto memory = value->member("memory_limit")) {
    const auto bytes = parseByteSize(memory->scalar("a byte count such as 8G"));
    if (!bytes) memory->fail("a byte count such as 8G, 512M or 1048576");
    budgets.memoryLimitBytes = *bytes;
  }
  if (const auto jobs = value->member("jobs")) {
    budgets.jobs = static_cast<std::int32_t>(jobs->integer("a positive count", 1, 4096));
  }
  if (const auto threads = value->member("threads")) {
    budgets.threads = static_cast<std::int32_t>(threads->integer("a positive count", 1, 4096));
  }
  if (const auto output = value->member("output")) {
    budgets.output = expandVariables(*output, output->text("a folder"), ConfigContext{});
  }
  if (const auto schedules = value->member("schedules")) {
    budgets.schedules = schedules->boolean("true or false");
  }
  return budgets;
}

Settings parseSettings(const std::optional<ConfigValue>& value) {
  Settings settings;
  if (!value) return settings;
  if (!value->raw().isObject()) value->fail("settings (a mapping from option name to value)");
  for (const auto& [name, entry] : value->entries()) {
    settings[name] = entry.scalar("a setting value (a number or a word)");
  }
  return settings;
}

// A setting no method of the experiment declares is most likely a typo.
void checkSettings(const ConfigValue& value, const Settings& settings,
                   const std::vector<MethodEntry>& methods, const MethodRegistry& registry) {
  std::vector<std::string> declared;
  for (const MethodEntry& entry : methods) {
    for (const OptionDoc& doc : registry.find(entry.method)->options) declared.push_back(doc.name);
  }
  for (const auto& [name, text] : settings) {
    if (std::find(declared.begin(), declared.end(), name) != declared.end()) continue;
    const ConfigValue where = *value.member(name);
    where.fail("a setting some method of the experiment declares",
               option_text::didYouMean(name, declared));
  }
}

void checkSetsAndKinds(const ConfigValue& list, const std::vector<MethodEntry>& methods,
                       const std::vector<GraphEntry>& graphs, const MethodRegistry& registry) {
  std::vector<std::string> sets;
  for (const GraphEntry& graph : graphs) sets.push_back(graph.set);
  for (const MethodEntry& entry : methods) {
    for (const std::string& set : entry.sets) {
      if (std::find(sets.begin(), sets.end(), set) != sets.end()) continue;
      throw InputError(entry.line,
                       fmt::format("{}: expected graph sets of the experiment ({}) in "
                                   "`on`, found {}{}",
                                   list.key(), option_text::listChoices(sets), io::quoteText(set),
                                   option_text::didYouMean(set, sets)));
    }
    const MethodInfo& method = *registry.find(entry.method);
    for (const GraphEntry& graph : graphs) {
      if (!entry.sets.empty() &&
          std::find(entry.sets.begin(), entry.sets.end(), graph.set) == entry.sets.end()) {
        continue;
      }
      const ProblemSpec spec = graph.problem.mergedWith(entry.problem);
      if (!spec.kind || *spec.kind == "inferred") continue;
      if (!method.solves(*parseProblemKind(*spec.kind))) {
        std::vector<std::string> kinds;
        for (ProblemKind kind : method.kinds) kinds.emplace_back(toString(kind));
        throw InputError(entry.line,
                         fmt::format("{}: expected a method that solves {} problems for graph set "
                                     "'{}', found {} (it solves {})",
                                     list.key(), *spec.kind, graph.set, entry.method,
                                     option_text::listChoices(kinds)));
      }
    }
  }
}

ExperimentConfig parseConfig(const fs::path& path, const MethodRegistry& registry) {
  const JsonValue root = io::readYamlFile(path);
  const ConfigValue top(root, "");
  if (!root.isObject()) top.fail("an experiment (a mapping with graphs, methods, ...)");
  top.requireObject("an experiment",
                    {"name", "description", "graphs", "problem", "methods", "budgets", "settings"});
  ExperimentConfig config;
  config.path = path;
  const ConfigContext context{fs::absolute(path).parent_path().lexically_normal(), &registry};
  config.name = path.stem().string();
  if (const auto name = top.member("name")) {
    config.name = name->text("a name");
    if (config.name.find_first_of("/~") != std::string::npos) name->fail("a name without / or ~");
  }
  if (const auto description = top.member("description")) {
    config.description = description->text("a description");
  }
  const ProblemSpec problem =
      top.member("problem") ? parseProblem(*top.member("problem"), context) : ProblemSpec{};
  const auto graphs = top.member("graphs");
  if (!graphs || !graphs->raw().isArray() || graphs->raw().items.empty()) {
    (graphs ? *graphs : top).fail("graphs: a list of graph entries");
  }
  for (const ConfigValue& entry : graphs->list()) {
    config.graphs.push_back(parseGraphEntry(entry, context, problem));
  }
  config.settings = parseSettings(top.member("settings"));
  config.budgets = parseBudgets(top.member("budgets"), config.name);
  // The per-run budget is a setting too: checked against every method that declares it.
  Settings settings = config.settings;
  if (config.budgets.timeLimit) settings["time_limit"] = *config.budgets.timeLimit;
  const auto methods = top.member("methods");
  if (!methods || !methods->raw().isArray() || methods->raw().items.empty()) {
    (methods ? *methods : top).fail("methods: a list of method entries");
  }
  std::vector<std::string> baseLabels;
  for (const ConfigValue& entry : methods->list()) {
    for (MethodEntry& one : parseMethodEntry(entry, context, settings, baseLabels)) {
      const bool taken = std::any_of(config.methods.begin(), config.methods.end(),
                                     [&](const MethodEntry& m) { return m.label == one.label; });
      if (taken) {
        entry.failWith(fmt::format(
            "expected a method entry with a label of its own, found the label '{}' a second "
            "time (set label:)",
            one.label));
      }
      config.methods.push_back(std::move(one));
    }
  }
  checkStarts(config.methods, registry, baseLabels, settings);
  if (const auto given = top.member("settings")) {
    checkSettings(*given, config.settings, config.methods, registry);
  }
  checkSetsAndKinds(*methods, config.methods, config.graphs, registry);
  return config;
}

}  // namespace

ProblemSpec ProblemSpec::mergedWith(const ProblemSpec& over) const {
  ProblemSpec merged = *this;
  if (over.kind) merged.kind = over.kind;
  if (over.machine) merged.machine = over.machine;
  if (over.horizon) merged.horizon = over.horizon;
  if (over.ii) merged.ii = over.ii;
  if (over.objective) merged.objective = over.objective;
  return merged;
}

Expected<ExperimentConfig> readExperimentConfig(const fs::path& path,
                                                const MethodRegistry& registry) {
  try {
    return parseConfig(path, registry);
  } catch (const InputError& error) {
    return Error{error.describe(path)};
  }
}

}  // namespace gaus::experiment
