// gaus-bench exact-kernels: the Twill search of the exact engine (joint software pipelining and
// warp specialization, exact::solveTwill) on every built-in kernel of configs/kernels, with the
// (II, L, status, seconds) log of each solve. Targets (issue 5): the toy kernel under 0.1 s, each
// Flash-Attention kernel under 30 s (for reference, the Twill paper reports 28 s for FA forward
// on Hopper with Yices2 on one Xeon core). The time is one solveTwill call with the default
// options (minimize warps, then cross-warp edges), reading the kernel excluded; the median of
// --repeat runs is reported. Every schedule is checked by verify() against the raw problem.

#include <algorithm>
#include <map>
#include <memory>

#include <fmt/format.h>

#include <gaus/core/verify.hpp>
#include <gaus/exact/twill.hpp>
#include <gaus/io/io.hpp>

#include "bench_main.hpp"
#include "shared_benchmarks.hpp"

namespace gaus::bench {

namespace {

struct ExactKernelsFlags {
  std::vector<std::string> kernels;  // empty: every built-in kernel
  int repeat = 3;
  bool explain = false;
  std::optional<double> timeLimit;  // per solve
};

// Solve-time targets of issue 5 ("Benchmarks"), in seconds.
const std::map<std::string, double, std::less<>> kSolveTimeTargets = {
    {"toy_fa", 0.1}, {"fa_fwd_hopper", 30.0}, {"fa_fwd_blackwell", 30.0}};

struct KernelRun {
  exact::TwillSolution solution;  // of the last run
  double medianSeconds = 0;
  std::optional<std::int64_t> peakRssBytes;  // over the runs, the kernel's input included
};

Instance loadKernel(const std::string& name) {
  const auto path = io::findKernelFile(name);
  if (!path)
    throw std::runtime_error(fmt::format("no built-in kernel {} in configs/kernels", name));
  auto instance = io::readInstance(path->string());
  if (!instance) throw std::runtime_error(instance.error());
  return std::move(instance).value();
}

KernelRun solveKernel(const Instance& instance, const ExactKernelsFlags& flags) {
  const Problem problem = instance.problem(ProblemKind::kModuloWarp);
  exact::TwillOptions options;
  options.explain.enabled = flags.explain;
  options.search.timeLimitSeconds = flags.timeLimit;
  KernelRun run;
  std::vector<double> seconds;
  resetPeakRss();
  for (int i = 0; i < std::max(1, flags.repeat); ++i) {
    Stopwatch watch;
    run.solution = exact::solveTwill(problem, options);
    seconds.push_back(watch.seconds());
  }
  run.peakRssBytes = peakRssSinceResetBytes();
  std::sort(seconds.begin(), seconds.end());
  run.medianSeconds = seconds[seconds.size() / 2];
  const auto& solution = run.solution;
  if (solution.result.call == CallStatus::kError) {
    throw std::runtime_error(
        fmt::format("twill on {}: {}", instance.name, solution.result.message));
  }
  if (solution.result.schedule) {
    const VerificationReport verification = verify(problem, *solution.result.schedule);
    if (!verification.ok()) {
      throw std::runtime_error(fmt::format("twill on {}: the schedule fails verification: {}",
                                           instance.name, verification.summary()));
    }
  }
  return run;
}

std::string optionalText(const auto& value) {
  return value ? fmt::format("{}", *value) : std::string("-");
}

Report runExactKernels(const ExactKernelsFlags& flags) {
  Report report("Exact engine: Twill on the built-in kernels");
  for (auto& [key, value] : environmentNotes()) report.note(key, value);
  report.note(
      "method",
      fmt::format("exact::solveTwill, default options (minimize warps, then cross-warp "
                  "edges{}), one MILP solver thread; median of {} run(s); reading the kernel "
                  "excluded",
                  flags.explain ? ", explanation" : "", std::max(1, flags.repeat)));
  const std::vector<std::string> names =
      flags.kernels.empty() ? io::builtInKernelNames() : flags.kernels;
  if (names.empty()) throw std::runtime_error("no built-in kernels found in configs/kernels");

  std::vector<std::vector<std::string>> summary, log, explanations;
  for (const auto& name : names) {
    const Instance instance = loadKernel(name);
    const KernelRun run = solveKernel(instance, flags);
    const auto& solution = run.solution;
    const auto target = kSolveTimeTargets.find(name);
    report.add(
        {fmt::format("{} solve time", name), run.medianSeconds, "s",
         target == kSolveTimeTargets.end() ? std::nullopt : std::optional<double>(target->second),
         std::nullopt});
    summary.push_back(
        {name, std::to_string(instance.graph->numOps()), std::to_string(instance.graph->numEdges()),
         std::string(toString(solution.result.status)), optionalText(solution.ii()),
         solution.twill.iiBound.provenMinimal ? "yes" : "no", optionalText(solution.twill.latency),
         optionalText(solution.twill.stages), std::to_string(solution.twill.assignment.warpsUsed),
         std::to_string(solution.twill.assignment.crossWarpEdges),
         solution.result.schedule ? "yes" : "-", fmt::format("{:.3f}", run.medianSeconds),
         run.peakRssBytes ? fmt::format("{:.0f} MB", *run.peakRssBytes / 1e6) : "-"});
    const std::vector<Attempt>& attempts = solution.result.attempts;
    for (std::size_t i = 0; i < attempts.size(); ++i) {
      const Attempt& record = attempts[i];
      log.push_back({name, record.phase, optionalText(record.ii), optionalText(record.latency),
                     std::string(record.statusText()), fmt::format("{:.3f}", record.seconds),
                     exact::familyList(solution.twill.blocking[i]), record.detail});
    }
    if (flags.explain) {
      std::string_view text = solution.twill.explanation.text;
      while (!text.empty()) {
        const auto end = text.find('\n');
        explanations.push_back({name, std::string(text.substr(0, end))});
        text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
      }
    }
  }
  report.addTable("Twill on each kernel (II and L in cycles of the kernel's cost model)",
                  {"kernel", "ops", "edges", "status", "II", "II proven minimal", "L", "stages",
                   "warps", "cross-warp edges", "verified", "seconds", "peak RSS"},
                  std::move(summary));
  report.addTable(
      "Attempt log of the last run (II, L, status, seconds)",
      {"kernel", "phase", "II", "L", "status", "seconds", "blocking families", "detail"},
      std::move(log));
  if (flags.explain) report.addTable("Explanations", {"kernel", "line"}, std::move(explanations));
  return report;
}

}  // namespace

void addExactKernelsSuite(CLI::App& app, BenchOptions& options) {
  auto flags = std::make_shared<ExactKernelsFlags>();
  CLI::App* command = app.add_subcommand(
      "exact-kernels", "Twill (exact SWP + WS) on every built-in kernel: time and attempt log");
  command->add_option("--kernel", flags->kernels,
                      "Built-in kernel name (repeatable; default: all of configs/kernels)");
  command->add_option("--repeat", flags->repeat, "Runs per kernel (the median is reported)")
      ->capture_default_str();
  command->add_flag("--explain", flags->explain, "Also explain each answer (timed with it)");
  command->add_option("--time-limit", flags->timeLimit, "Seconds per solve (default: none)");
  command->callback([flags, &options] { emitReport(runExactKernels(*flags), options); });
}

}  // namespace gaus::bench
