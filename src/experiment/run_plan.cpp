// Expanding an experiment into runs (run_plan.hpp). A method entry runs once per seed when its
// method declares the setting `seed` (or its start comes from a seeded entry), else once: seeds
// change nothing for a deterministic method. Starts are resolved here: a run whose `init.from`
// names an entry that covers the same graph waits for that entry's run with the same seed and
// repeat; otherwise the start method runs first in the same process.

#include "run_plan.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include <gaus/core/option_table.hpp>

namespace gaus::experiment {

namespace {

bool coversSet(const MethodEntry& entry, const std::string& set) {
  return entry.sets.empty() ||
         std::find(entry.sets.begin(), entry.sets.end(), set) != entry.sets.end();
}

const MethodEntry* entryLabelled(const ExperimentConfig& config, const std::string& label) {
  for (const MethodEntry& entry : config.methods) {
    if (entry.label == label) return &entry;
  }
  return nullptr;
}

// Seeded: the method takes a seed, or it starts from a seeded entry's runs (one run per seed of
// the start).
bool seeded(const ExperimentConfig& config, const MethodEntry& entry,
            const MethodRegistry& registry) {
  if (registry.find(entry.method)->declares("seed")) return true;
  if (!entry.start) return false;
  const MethodEntry* source = entryLabelled(config, entry.start->from);
  return source != nullptr && seeded(config, *source, registry);
}

std::string runId(const std::string& graph, const std::string& label,
                  std::optional<std::uint64_t> seed, std::int32_t repeat) {
  return seed ? fmt::format("{}~{}~s{}~r{}", graph, label, *seed, repeat)
              : fmt::format("{}~{}~r{}", graph, label, repeat);
}

std::optional<double> referenceOf(const GraphEntry& entry, const SurveyedGraph& graph) {
  if (!entry.referenceFigure.empty()) {
    if (const auto found = graph.reference.find(entry.referenceFigure);
        found != graph.reference.end()) {
      return found->second;
    }
  }
  if (const auto found = entry.referenceValues.find(graph.name);
      found != entry.referenceValues.end()) {
    return found->second;
  }
  return std::nullopt;
}

}  // namespace

void applyMemoryLimit(RunPlan& plan, std::optional<std::int64_t> bytes) {
  if (!bytes) return;
  for (PlannedRun& run : plan.runs) run.settings["memory_limit"] = *bytes;
}

Expected<RunPlan> planRuns(const ExperimentConfig& config, std::vector<SurveyedGraph> graphs,
                           const MethodRegistry& registry, std::int32_t threadsPerRun) {
  RunPlan plan;
  plan.graphs = std::move(graphs);
  const Budgets& budgets = config.budgets;
  for (std::size_t g = 0; g < plan.graphs.size(); ++g) {
    const SurveyedGraph& graph = plan.graphs[g];
    const GraphEntry& graphEntry = config.graphs[graph.entry];
    for (std::size_t m = 0; m < config.methods.size(); ++m) {
      const MethodEntry& entry = config.methods[m];
      if (!coversSet(entry, graphEntry.set)) continue;
      const MethodInfo& method = *registry.find(entry.method);
      std::vector<std::optional<std::uint64_t>> seeds = {std::nullopt};
      if (seeded(config, entry, registry)) seeds.assign(budgets.seeds.begin(), budgets.seeds.end());
      for (const auto& seed : seeds) {
        for (std::int32_t repeat = 0; repeat < budgets.repeats; ++repeat) {
          PlannedRun run;
          run.id = runId(graph.id, entry.label, seed, repeat);
          run.graph = g;
          run.methodEntry = m;
          run.problem = graphEntry.problem.mergedWith(entry.problem);
          run.seed = seed;
          run.repeat = repeat;
          run.reference = referenceOf(graphEntry, graph);
          run.settings = config.settings;
          const std::optional<double> timeLimit =
              graphEntry.timeLimit ? graphEntry.timeLimit : budgets.timeLimit;
          if (timeLimit) run.settings["time_limit"] = *timeLimit;
          if (seed) run.settings["seed"] = static_cast<std::int64_t>(*seed);
          run.settings["threads"] = std::int64_t{budgets.threads.value_or(threadsPerRun)};
          if (entry.start) {
            const MethodEntry* source = entryLabelled(config, entry.start->from);
            if (source == nullptr) {
              run.startInProcess = *entry.start;
            } else if (!coversSet(*source, graphEntry.set)) {
              run.startInProcess = StartSpec{source->method, source->options, true, {}, 0};
            }
          }
          // The methods the process may run, each under the time limit: the start, the one
          // that sets the horizon, the run's own. The run's own limit is its method's
          // time_limit when it declares one (an option of the entry may set it), else the
          // experiment's, so that a method that ignores limits is still stopped.
          int limited = 1;
          if (run.startInProcess) ++limited;
          if (run.problem.horizon &&
              run.problem.horizon->kind == HorizonPolicy::Kind::kMethodLatency) {
            ++limited;
          }
          std::optional<double> ownLimit = timeLimit;
          if (method.declares("time_limit")) {
            // The entry's own -O time_limit (text from the YAML), else the run's setting.
            const auto given = entry.options.find("time_limit");
            const auto setting = run.settings.find("time_limit");
            ownLimit.reset();
            const std::string text = given != entry.options.end() ? given->second
                                     : setting != run.settings.end()
                                         ? formatSetting(setting->second)
                                         : std::string();
            if (const auto seconds = option_text::parseNumber(text)) ownLimit = *seconds;
            if (ownLimit) run.budgetSeconds = *ownLimit + (limited - 1) * timeLimit.value_or(0);
          }
          const std::optional<double> longest = ownLimit && timeLimit
                                                    ? std::max(*ownLimit, *timeLimit)
                                                    : (ownLimit ? ownLimit : timeLimit);
          if (longest) run.deadlineSeconds = limited * *longest + budgets.grace;
          run.writeSchedule = budgets.schedules;
          plan.runs.push_back(std::move(run));
        }
      }
    }
  }
  // Starts from runs of the experiment: the source entry's run on the same graph, same repeat,
  // and the same seed when the source is seeded.
  std::map<std::string, std::size_t, std::less<>> index;
  for (std::size_t i = 0; i < plan.runs.size(); ++i) index.emplace(plan.runs[i].id, i);
  for (PlannedRun& run : plan.runs) {
    const MethodEntry& entry = config.methods[run.methodEntry];
    if (!entry.start || run.startInProcess) continue;
    const MethodEntry& source = *entryLabelled(config, entry.start->from);
    const auto sourceSeed = seeded(config, source, registry) ? run.seed : std::nullopt;
    const std::string sourceId =
        runId(plan.graphs[run.graph].id, source.label, sourceSeed, run.repeat);
    const auto found = index.find(sourceId);
    if (found == index.end()) {
      return Error{fmt::format("{}: run {} starts from run {}, which the plan does not hold",
                               config.path.string(), run.id, sourceId)};
    }
    run.startRun = found->second;
  }
  for (const PlannedRun& run : plan.runs) {
    if (run.startRun) plan.runs[*run.startRun].writeSchedule = true;
  }
  return plan;
}

}  // namespace gaus::experiment
