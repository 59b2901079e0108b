#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <set>

#include <fmt/format.h>

#include <gaus/core/problem_facts.hpp>
#include <gaus/core/problem_kinds.hpp>
#include <gaus/core/verify.hpp>
#include <gaus/methods/registry.hpp>

namespace gaus {

bool MethodInfo::solves(ProblemKind kind) const {
  return std::find(kinds.begin(), kinds.end(), kind) != kinds.end();
}

bool MethodInfo::minimizes(ProblemKind kind, ProblemObjective objective) const {
  return std::any_of(objectives.begin(), objectives.end(), [&](const KindObjective& declared) {
    return declared.kind == kind && declared.objective == objective;
  });
}

bool MethodInfo::declares(std::string_view option) const {
  return std::any_of(options.begin(), options.end(),
                     [&](const OptionDoc& doc) { return doc.name == option; });
}

bool MethodInfo::reportsFigure(std::string_view figure) const {
  return std::any_of(figures.begin(), figures.end(),
                     [&](const FigureDoc& doc) { return doc.name == figure; });
}

Expected<OptionValues> MethodInfo::resolveOptions(const MethodOptions& given,
                                                  const Settings& settings) const {
  auto parsed = parseOptions(given, settings);
  if (!parsed) return Error{parsed.error()};
  return std::move(parsed->echo);
}

std::optional<double> MethodInfo::figureValue(const Result& result, std::string_view figure) const {
  if (unavailable) return std::nullopt;
  if (!reportsFigure(figure)) {
    std::fputs(
        fmt::format("internal error: method {} declares no figure {}\n", name, figure).c_str(),
        stderr);
    std::abort();
  }
  return result.figures.get(figure);
}

MethodInfo minimizing(MethodInfo method, std::vector<KindObjective> objectives) {
  method.objectives = std::move(objectives);
  return method;
}

AppliedSettings applySettings(const MethodInfo& method, MethodOptions options,
                              const Settings& settings) {
  AppliedSettings applied;
  for (const auto& [name, value] : settings) {
    if (!method.declares(name)) {
      applied.ignored.push_back(name);
    } else if (!options.contains(name)) {
      applied.settings.emplace(name, value);
    }
  }
  applied.options = std::move(options);
  return applied;
}

Problem withMachineOptions(const MethodInfo& method, const Problem& problem,
                           const ParsedOptions& options) {
  if (!method.describeMachine || !problem.machine) return problem;
  auto machine = std::make_shared<Machine>(*problem.machine);
  method.describeMachine(*machine, options);
  Problem posed = problem;
  posed.machine = std::move(machine);
  // The facts that read the machine are of the one described.
  return withFacts(std::move(posed));
}

ProblemKind inferProblemKind(const Graph& graph, const MethodInfo& method, bool fixedIi,
                             bool hasHorizon, ProblemObjective objective) {
  const std::vector<ProblemKind> preferred =
      preferredKinds({graph.hasLoopCarriedEdges() || fixedIi, false, hasHorizon, objective});
  for (ProblemKind kind : preferred) {
    if (method.solves(kind)) return kind;
  }
  // A loop is never posed as a problem that drops its loop-carried edges: the registry refuses
  // the modulo problem and names the methods that solve it (--kind latency asks for one
  // iteration on purpose).
  if (graph.hasLoopCarriedEdges() || method.kinds.empty()) return preferred.front();
  return method.kinds.front();
}

ProblemObjective resolveObjective(const Problem& problem, const MethodInfo& method) {
  if (problem.objective != ProblemObjective::kMethodDefault) return problem.objective;
  const bool liveMemory = problem.graph && problem.facts()->hasLiveMemory();
  const std::vector<ProblemObjective> preferred = preferredObjectives(problem.kind, liveMemory);
  for (ProblemObjective objective : preferred) {
    if (method.minimizes(problem.kind, objective)) return objective;
  }
  return preferred.front();
}

std::optional<std::string> objectiveRefusal(const MethodInfo& method, const Problem& problem) {
  const ProblemObjective objective = askedObjective(problem);
  if (!objectiveFits(objective, problem.kind)) {
    return fmt::format("objective {} does not fit a {} problem (it fits: {})", toString(objective),
                       toString(problem.kind), kindsForObjective(objective));
  }
  if (method.objectives.empty() || method.minimizes(problem.kind, objective)) return std::nullopt;
  std::vector<std::string> minimized;
  for (const KindObjective& declared : method.objectives) {
    if (declared.kind == problem.kind) minimized.emplace_back(toString(declared.objective));
  }
  return fmt::format("method {} does not minimize {} on a {} problem (it minimizes {} there)",
                     method.name, toString(objective), toString(problem.kind),
                     option_text::listChoices(minimized));
}

void MethodRegistry::add(MethodInfo method) {
  const std::lock_guard lock(*mutex_);
  const std::string name = method.name;
  methods_.insert_or_assign(name, std::move(method));
}

void MethodRegistry::addProvider(std::vector<std::string> methods,
                                 std::function<void(MethodRegistry&)> load) {
  const std::lock_guard lock(*mutex_);
  providers_.push_back({std::move(methods), std::move(load), false});
}

const MethodInfo* MethodRegistry::find(std::string_view name) const {
  const std::lock_guard lock(*mutex_);
  lookups_->fetch_add(1, std::memory_order_relaxed);
  if (const auto it = methods_.find(name); it != methods_.end()) return &it->second;
  for (Provider& provider : providers_) {
    if (provider.loaded || std::find(provider.methods.begin(), provider.methods.end(), name) ==
                               provider.methods.end()) {
      continue;
    }
    provider.loaded = true;
    // Loading adds methods: logically a lookup, so it is allowed behind the const interface.
    provider.load(const_cast<MethodRegistry&>(*this));
    if (const auto it = methods_.find(name); it != methods_.end()) return &it->second;
  }
  return nullptr;
}

std::vector<std::string> MethodRegistry::names() const {
  const std::lock_guard lock(*mutex_);
  std::set<std::string> result;
  for (const auto& [name, method] : methods_) result.insert(name);
  for (const Provider& provider : providers_) {
    result.insert(provider.methods.begin(), provider.methods.end());
  }
  return {result.begin(), result.end()};
}

std::string MethodRegistry::unknownMethodMessage(std::string_view name) const {
  const std::vector<std::string> known = names();
  return fmt::format("unknown method '{}'{}; known: {}", name, option_text::didYouMean(name, known),
                     option_text::listChoices(known));
}

namespace {

// "method list does not solve modulo problems (it solves latency or latency-bounded)".
std::string refusalOfKind(const MethodInfo& method, ProblemKind kind) {
  std::vector<std::string> kinds;
  for (ProblemKind solved : method.kinds) kinds.emplace_back(toString(solved));
  return fmt::format("method {} does not solve {} problems (it solves {})", method.name,
                     toString(kind), option_text::listChoices(kinds));
}

}  // namespace

std::string MethodRegistry::unsupportedKindMessage(std::string_view name, ProblemKind kind) const {
  std::vector<std::string> solvers;
  for (const auto& other : names()) {
    const MethodInfo* method = find(other);
    if (method != nullptr && method->solves(kind)) solvers.push_back(other);
  }
  return fmt::format("{}; {}", refusalOfKind(*find(name), kind),
                     solvers.empty()
                         ? std::string("no method of this build does")
                         : fmt::format("methods that do: {}", option_text::listChoices(solvers)));
}

std::optional<std::string> MethodRegistry::unsupportedObjectiveMessage(
    const MethodInfo& method, const Problem& problem) const {
  auto refusal = objectiveRefusal(method, problem);
  if (!refusal || !objectiveFits(askedObjective(problem), problem.kind)) return refusal;
  std::vector<std::string> minimizers;
  for (const auto& other : names()) {
    const MethodInfo* candidate = find(other);
    if (candidate != nullptr && candidate->minimizes(problem.kind, askedObjective(problem))) {
      minimizers.push_back(other);
    }
  }
  return fmt::format("{}; {}", *refusal,
                     minimizers.empty()
                         ? std::string("no method of this build does")
                         : fmt::format("{} {}", minimizers.size() == 1 ? "method" : "methods",
                                       option_text::listChoices(minimizers)) +
                               (minimizers.size() == 1 ? " does" : " do"));
}

Result MethodRegistry::run(std::string_view name, const Problem& problem,
                           const MethodOptions& options, const RunContext& context) const {
  const MethodInfo* method = find(name);
  if (method == nullptr) return errorResult(unknownMethodMessage(name));
  auto parsed = method->parseOptions(options, {});
  if (!parsed) return errorResult(parsed.error());
  return runParsed(*method, withMachineOptions(*method, problem, *parsed), *parsed, context);
}

Result MethodRegistry::runParsed(const MethodInfo& method, const Problem& posed,
                                 const ParsedOptions& options, const RunContext& context) const {
  const std::string_view name = method.name;
  // Not unsupportedKindMessage: naming the methods that do would load every engine plugin in
  // the middle of a run (ilp's init method is run through here).
  if (!method.solves(posed.kind)) return errorResult(refusalOfKind(method, posed.kind));
  // A problem built by hand: its objective resolved and its facts attached, as posing does.
  Problem problem = withFacts(posed);
  problem.objective = resolveObjective(problem, method);
  if (const auto refusal = objectiveRefusal(method, problem)) return errorResult(*refusal);
  if (const auto errors = problem.check(); !errors.empty()) {
    std::string message = errors.front();
    if (errors.size() > 1) message += fmt::format(" (and {} more input errors)", errors.size() - 1);
    return errorResult(message);
  }
  const auto start = std::chrono::steady_clock::now();
  RunContext methodContext = context;
  methodContext.registry = this;
  Result result = method.solve(problem, options, methodContext);
  result.stats.seconds = secondsSince(start);
  if (result.schedule) {
    // A strategy the caller gave holds for every method's answer (twill solves under it).
    VerifyOptions verifyOptions;
    verifyOptions.strategy = context.warpStrategy;
    result.verification = verify(problem, *result.schedule, verifyOptions);
    if (result.verification->uncheckedLoopCarriedEdges > 0) {
      result.notes.emplace_back(kUncheckedLoopCarriedTitle,
                                result.verification->uncheckedLoopCarriedNote());
    }
    if (!result.verification->ok()) {
      result.message = fmt::format("method {} returned a schedule that fails verification: {}",
                                   name, result.verification->summary());
      result.call = CallStatus::kError;
    }
  }
  // A figure a method does not declare would reach no reader by its declaration: a programming
  // error, caught here as an unverified schedule is.
  for (const auto& [figure, value] : result.figures.values()) {
    if (method.reportsFigure(figure)) continue;
    result.call = CallStatus::kError;
    result.message = fmt::format(
        "method {} reported the figure '{}', which its engine's figure table does not declare "
        "for it",
        name, figure);
    break;
  }
  return result;
}

}  // namespace gaus
