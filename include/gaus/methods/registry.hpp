// The method framework: one registry maps a method name ("list", "ims", "gaus", "ilp",
// "twill") and an options map to a callable, so the CLI and the experiment runner never switch
// on method names. Each module
// exposes a register function (registerHeuristicMethods, ...); the catalog in src/methods
// calls them all. run() verifies every schedule a method returns before handing it back.
// Methods are made with makeMethod() from an OptionTable of their options.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <gaus/core/deadline.hpp>
#include <gaus/core/expected.hpp>
#include <gaus/core/figures.hpp>
#include <gaus/core/option_table.hpp>
#include <gaus/core/options.hpp>
#include <gaus/core/problem.hpp>
#include <gaus/core/result.hpp>
#include <gaus/methods/run_context.hpp>

namespace gaus {

class MethodRegistry;

// A method's options parsed once, for every use of one call: the options struct its
// OptionTable made (type-erased: only the method that parsed it reads it back) and the values
// the run uses, echoed by name (Result::options, a results record before the run).
struct ParsedOptions {
  std::shared_ptr<const void> values;
  OptionValues echo;
};

// An objective a method minimizes on a kind of problem.
struct KindObjective {
  ProblemKind kind = ProblemKind::kLatency;
  ProblemObjective objective = ProblemObjective::kLatency;
};

struct MethodInfo {
  std::string name;
  std::string summary;             // one line for --help
  std::vector<ProblemKind> kinds;  // problem kinds it accepts
  // The objectives it minimizes, by kind, declared as its kinds are (minimizing): the registry
  // refuses any other objective with one message (objectiveRefusal), and an objective nobody
  // names is the first of the kind's preferredObjectives it minimizes (resolveObjective). Empty
  // for a heuristic without an objective of its own (list, ims, fds), which schedules as
  // always whatever the problem asks and is compared on it.
  std::vector<KindObjective> objectives;
  std::vector<OptionDoc> options;  // generated from the method's OptionTable
  std::vector<FigureDoc> figures;  // from its engine's FigureTable: what Result::figures may hold
  // Parses and checks options given by name, with the typed settings that reach them
  // (applySettings; unknown names, bad values fail with the table's message). A call parses once
  // (prepareMethodCall); run and the echo read the parsed form.
  std::function<Expected<ParsedOptions>(const MethodOptions&, const Settings&)> parseOptions;
  // Solves with options parseOptions made, and echoes them in Result::options.
  std::function<Result(const Problem&, const ParsedOptions&, const RunContext&)> solve;
  // Options that describe the machine rather than the method (twill's `warps`, `warp_issue`):
  // declared by the method that has them (describeMachineWith), empty for the others. The
  // registry applies it to the problem's machine before the input check and the verification.
  std::function<void(Machine&, const ParsedOptions&)> describeMachine;
  // Why the method cannot run (its engine plugin did not load); every use fails with it.
  std::optional<std::string> unavailable;

  bool solves(ProblemKind kind) const;
  bool minimizes(ProblemKind kind, ProblemObjective objective) const;
  bool declares(std::string_view option) const;
  bool reportsFigure(std::string_view figure) const;
  // The values a run would use: the defaults with `settings` and `given` applied and checked,
  // or the message a run would fail with. For a reader that only echoes (a config check, the
  // docs).
  Expected<OptionValues> resolveOptions(const MethodOptions& given,
                                        const Settings& settings = {}) const;
  // The value of one of its figures in `result`, read by the name the method declares it with:
  // for readers that do not include the engine's figure header (a command that loads the
  // engine as a plugin, a benchmark). A name the method does not declare is a programming
  // error and aborts with the name, so a renamed figure fails the first test that reads it.
  // Nothing for a method that is unavailable (its calls fail and report no figures).
  std::optional<double> figureValue(const Result& result, std::string_view figure) const;
};

// A method whose options are read by `table` (which must outlive the registry: a static), whose
// figures are those `figures` says it reports, and which solves with the parsed struct. Every
// method is made this way, so every method parses, checks, echoes and documents its options
// and figures the same way.
template <class Options>
MethodInfo makeMethod(
    std::string name, std::string summary, std::vector<ProblemKind> kinds,
    const OptionTable<Options>& table, const FigureTable& figures,
    std::function<Result(const Problem&, const Options&, const RunContext&)> solve) {
  MethodInfo method;
  method.figures = figures.reportedBy(name);
  method.name = std::move(name);
  method.summary = std::move(summary);
  method.kinds = std::move(kinds);
  method.options = table.docs();
  const OptionTable<Options>* options = &table;
  method.parseOptions = [options](const MethodOptions& given,
                                  const Settings& settings) -> Expected<ParsedOptions> {
    auto parsed = options->parse(given, settings);
    if (!parsed) return Error{parsed.error()};
    OptionValues echo = options->echo(*parsed);
    return ParsedOptions{std::make_shared<const Options>(std::move(parsed).value()),
                         std::move(echo)};
  };
  method.solve = [solve = std::move(solve)](const Problem& problem, const ParsedOptions& parsed,
                                            const RunContext& context) {
    Result result = solve(problem, *static_cast<const Options*>(parsed.values.get()), context);
    result.options = parsed.echo;
    return result;
  };
  return method;
}

// A method that reports no figures.
template <class Options>
MethodInfo makeMethod(
    std::string name, std::string summary, std::vector<ProblemKind> kinds,
    const OptionTable<Options>& table,
    std::function<Result(const Problem&, const Options&, const RunContext&)> solve) {
  return makeMethod<Options>(std::move(name), std::move(summary), std::move(kinds), table,
                             FigureTable(), std::move(solve));
}

// Declares the objectives `method` minimizes, by kind (MethodInfo::objectives).
MethodInfo minimizing(MethodInfo method, std::vector<KindObjective> objectives);

// Declares that some of `method`'s options describe the machine: `describe` changes a copy of
// the problem's machine from the parsed options (Options: the struct of the method's
// OptionTable, as for makeMethod).
template <class Options>
void describeMachineWith(MethodInfo& method,
                         std::function<void(Machine&, const Options&)> describe) {
  method.describeMachine = [describe = std::move(describe)](Machine& machine,
                                                            const ParsedOptions& parsed) {
    describe(machine, *static_cast<const Options*>(parsed.values.get()));
  };
}

// Settings a caller applies to every method at once (the CLI's --memory-limit, --seed,
// --device, --formulation, ...; the time a deadline leaves; an experiment's per-run budget), by
// option name, typed. A method receives those it declares, unless its own options already set
// them: a method's own option always wins.
struct AppliedSettings {
  MethodOptions options;             // the method's own options, as given
  Settings settings;                 // the settings that reach it (parseOptions reads both)
  std::vector<std::string> ignored;  // settings the method does not declare
};
AppliedSettings applySettings(const MethodInfo& method, MethodOptions options,
                              const Settings& settings);

// The problem with the options that describe the machine applied (the method's
// describeMachine; the problem itself when it has none): MethodRegistry::run checks the input
// and verifies every schedule against this problem, so a warp count or issue model given for
// the run counts before the input check and in the verdict, not only inside the method.
Problem withMachineOptions(const MethodInfo& method, const Problem& problem,
                           const ParsedOptions& options);

// The kind of problem to pose for `method` on `graph` when none is requested: modulo when the
// graph has loop-carried edges or an II is fixed or the objective is ii (modulo-warp for a
// method that solves only that), latency-bounded when a horizon is given or the objective is
// one only such a problem has, else latency (core's preferredKinds). A graph with loop-carried
// edges stays a modulo problem for a method that solves neither modulo kind, so that the
// registry refuses it rather than drop the edges unasked; otherwise a kind the method does not
// solve falls back to its first kind (the registry then says what it does solve).
ProblemKind inferProblemKind(const Graph& graph, const MethodInfo& method, bool fixedIi,
                             bool hasHorizon,
                             ProblemObjective objective = ProblemObjective::kMethodDefault);

// The objective `problem` asks of `method`: the one named, or the first of the kind's
// preferredObjectives that the method minimizes (the first of them for a method that minimizes
// none). Posing calls it once (poseProblem); MethodRegistry::runParsed for a problem built by
// hand.
ProblemObjective resolveObjective(const Problem& problem, const MethodInfo& method);

// The one objective check: why `method` is not asked `problem`'s objective ("objective
// peak_memory does not fit a latency problem (it fits: latency-bounded)"; "method ilp does not
// minimize stage_cost on a latency-bounded problem (it minimizes peak_memory there)"), or
// nothing.
std::optional<std::string> objectiveRefusal(const MethodInfo& method, const Problem& problem);

class MethodRegistry {
 public:
  void add(MethodInfo method);  // replaces a method of the same name

  // Methods that come from a module loaded on first use (an engine plugin): the first find()
  // of one of `methods` calls `load`, which add()s them. Lookups stay the one entry point,
  // whether a method was linked in or loaded.
  void addProvider(std::vector<std::string> methods, std::function<void(MethodRegistry&)> load);

  const MethodInfo* find(std::string_view name) const;
  std::vector<std::string> names() const;  // every method, loaded or not yet

  // "unknown method 'lsit' (did you mean 'list'?); known: ...": what every caller says about a
  // name that find() does not know.
  std::string unknownMethodMessage(std::string_view name) const;
  // "method list does not solve modulo problems (it solves latency or latency-bounded); methods
  // that do: ...": run()'s refusal with the methods that solve the kind, for a command that
  // refuses before running. `name` must be known. Looks up every method, so it loads the engine
  // plugins: call it on the way out only (run() itself does not name them).
  std::string unsupportedKindMessage(std::string_view name, ProblemKind kind) const;
  // objectiveRefusal with the methods that minimize the objective on the kind, for a command
  // that refuses before running (only a refusal looks the others up, which loads the engine
  // plugins too). Nothing, and no lookup, when the method is asked what it may be.
  std::optional<std::string> unsupportedObjectiveMessage(const MethodInfo& method,
                                                         const Problem& problem) const;

  // Runs a method on a problem with its options as they are, for a caller without settings
  // (a test, a method that runs another first): finds the method, parses the options, applies
  // the machine's options (withMachineOptions) and goes on as runParsed. Callers with settings
  // go through prepareMethodCall (gaus/methods/run_method.hpp), which applies them once.
  Result run(std::string_view name, const Problem& problem, const MethodOptions& options,
             const RunContext& context = {}) const;

  // Checks the problem (Problem::check), runs the method with options parsed once, times it,
  // verifies any schedule it returns and stores the report in Result::verification. `posed`
  // is the problem with the method's machine options applied (withMachineOptions). A schedule
  // that fails verification makes the call an error with the first violations in the
  // message: an unverified schedule is never reported as a success. So does a figure the
  // method does not declare (MethodInfo::figures).
  Result runParsed(const MethodInfo& method, const Problem& posed, const ParsedOptions& options,
                   const RunContext& context = {}) const;

  // How many times find() has looked a method up, over the registry's life (copies share the
  // count): a call looks its method up once, and the tests of the run path hold it to that.
  std::size_t lookups() const { return lookups_->load(std::memory_order_relaxed); }

 private:
  struct Provider {
    std::vector<std::string> methods;
    std::function<void(MethodRegistry&)> load;
    bool loaded = false;
  };

  // Loading a provider adds methods behind a const lookup; the mutex (shared by copies, which
  // share nothing else) keeps concurrent lookups safe.
  mutable std::map<std::string, MethodInfo, std::less<>> methods_;
  mutable std::vector<Provider> providers_;
  std::shared_ptr<std::recursive_mutex> mutex_ = std::make_shared<std::recursive_mutex>();
  std::shared_ptr<std::atomic<std::size_t>> lookups_ =
      std::make_shared<std::atomic<std::size_t>>(0);
};

}  // namespace gaus
