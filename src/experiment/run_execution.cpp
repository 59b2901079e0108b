// One run (run_execution.hpp): posing the problem from the config's policies, the start, the
// method call through the registry, and the record of what happened, from inside the run's
// process or, when the process did not end on its own, from the runner.

#include "run_execution.hpp"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <variant>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <gaus/core/analysis.hpp>
#include <gaus/core/build_info.hpp>
#include <gaus/core/option_table.hpp>
#include <gaus/io/io.hpp>
#include <gaus/report/result_json.hpp>

namespace gaus::experiment {

namespace {

namespace fs = std::filesystem;
using report::ResultRecord;
using report::RunStatus;

RunOutput failedRun(ResultRecord record, RunStatus status, std::string message) {
  record.status = status;
  record.message = std::move(message);
  return {std::move(record), std::nullopt, std::nullopt};
}

// The figure of a verified schedule that an experiment compares its methods on.
std::optional<double> scheduleFigure(std::string_view name, const Result& result) {
  if (!result.verified()) return std::nullopt;
  const ScheduleMetrics& metrics = result.verification->metrics;
  if (name == "latency") return static_cast<double>(metrics.latency);
  if (name == "peak_memory") return metrics.peakLiveMemory;
  if (name == "ii" && result.schedule->ii) return static_cast<double>(*result.schedule->ii);
  return std::nullopt;
}

struct PosedProblem {
  Problem problem;
  std::vector<Attempt> steps;  // what setting the horizon took, for the record
};

// The horizon D the policy sets on `instance` (a run of another method for METHOD_latency).
Expected<std::optional<Cycle>> policyHorizon(const HorizonPolicy& policy, const Instance& instance,
                                             const MethodRegistry& registry,
                                             const Settings& settings,
                                             std::vector<Attempt>& steps) {
  const auto scaled = [&](double figure) {
    return static_cast<Cycle>(std::ceil(policy.factor * figure - 1e-9));
  };
  switch (policy.kind) {
    case HorizonPolicy::Kind::kNone:
      return std::optional<Cycle>();
    case HorizonPolicy::Kind::kCycles:
      return std::optional<Cycle>(policy.cycles);
    case HorizonPolicy::Kind::kCriticalPath: {
      const auto order = topologicalOrder(*instance.graph);
      if (!order) return Error{order.error()};
      return std::optional<Cycle>(scaled(static_cast<double>(
          criticalPathLength(*instance.graph, asapTimes(*instance.graph, *order)))));
    }
    case HorizonPolicy::Kind::kMethodLatency: {
      const Result result = runMethod(registry, instance.problem(ProblemKind::kLatency),
                                      {policy.method, {}, settings});
      Attempt step;
      step.phase = "horizon-policy";
      step.call = result.call;
      step.status = result.status;
      step.seconds = result.stats.seconds;
      if (!result.verified()) {
        return Error{fmt::format("horizon {}: method {} gave no verified schedule ({}: {})",
                                 policy.text, policy.method, result.statusText(), result.message)};
      }
      const Cycle horizon = scaled(static_cast<double>(result.verification->metrics.latency));
      step.latency = result.verification->metrics.latency;
      step.horizon = horizon;
      step.detail = fmt::format("{}: {} latency {}, D = {}", policy.text, policy.method,
                                result.verification->metrics.latency, horizon);
      steps.push_back(std::move(step));
      return std::optional<Cycle>(horizon);
    }
  }
  return std::optional<Cycle>();
}

// The problem the config's policies pose (kind, horizon, II), the way every caller poses one.
Expected<PosedProblem> posePlannedProblem(const PlannedRun& run, const MethodInfo& method,
                                          const Instance& instance,
                                          const MethodRegistry& registry) {
  const ProblemSpec& spec = run.problem;
  const Graph& graph = *instance.graph;
  ProblemRequest request;
  if (spec.ii && spec.ii->kind == IiPolicy::Kind::kFixed) request.ii = spec.ii->ii;
  if (spec.ii && spec.ii->kind == IiPolicy::Kind::kMii) {
    const std::int64_t mii = std::max<std::int64_t>(
        {1, computeResMii(graph, *instance.machine).value, computeRecMii(graph).value});
    request.ii = static_cast<std::int32_t>(std::min<std::int64_t>(mii, kMaxInputValue));
  }
  PosedProblem posed;
  auto horizon = policyHorizon(spec.horizon.value_or(HorizonPolicy{}), instance, registry,
                               run.settings, posed.steps);
  if (!horizon) return Error{horizon.error()};
  request.horizon = *horizon;
  if (spec.kind && *spec.kind != "inferred") request.kind = *parseProblemKind(*spec.kind);
  // The objective the runner compares on is the one every method is asked to minimize
  // ("method": each its own); Problem::check refuses one that does not fit the kind.
  if (spec.objective && *spec.objective != "method") {
    request.objective = *kProblemObjectiveNames.parse(*spec.objective);
  }
  posed.problem = poseProblem(instance, method, request);
  return posed;
}

// The start schedule: the start run's (read against this graph), or one made here by the start
// method. A start that cannot be had is recorded as an attempt and the run goes on without it.
std::optional<Schedule> startSchedule(const RunTask& task, const Problem& problem,
                                      const MethodRegistry& registry, const fs::path& scratch,
                                      std::vector<Attempt>& steps) {
  const PlannedRun& run = task.planned();
  Attempt step;
  step.phase = "init";
  std::optional<Schedule> start;
  if (task.startSchedule) {
    const fs::path file = scratch / "start.schedule.json";
    if (auto written = io::writeFileAtomically(file, *task.startSchedule); !written) {
      step.call = CallStatus::kError;
      step.detail = written.error();
    } else if (auto read = io::readSchedule(file, *problem.graph); !read) {
      step.call = CallStatus::kError;
      step.detail = read.error();
    } else {
      start = std::move(read).value();
      step.status = ModelStatus::kFeasible;
      step.detail = fmt::format("the schedule of run {}", task.startRunId);
    }
  } else if (run.startRun) {
    step.detail =
        fmt::format("run {} left no verified schedule: started without one", task.startRunId);
  } else if (run.startInProcess) {
    const StartSpec& spec = *run.startInProcess;
    const Result result = runMethod(registry, problem, {spec.from, spec.options, run.settings});
    step.call = result.call;
    step.status = result.status;
    step.seconds = result.stats.seconds;
    if (result.verified()) {
      start = result.schedule;
      step.detail = fmt::format(
          "method {} run first: {} {}", spec.from, result.objectiveName,
          result.objective ? option_text::formatNumber(*result.objective) : std::string("-"));
    } else {
      step.detail = fmt::format(
          "method {} run first gave no verified schedule ({}): started "
          "without one",
          spec.from, result.message);
    }
  } else {
    return std::nullopt;
  }
  steps.push_back(std::move(step));
  return start;
}

void fillFromResult(ResultRecord& record, const PlannedRun& run, const MethodCall& call,
                    const Result& result) {
  static_cast<report::ResultFields&>(record) = report::resultFields(result, record.method);
  if (record.options.empty()) record.options = call.echo();
  const std::string objective = run.problem.objective.value_or("method");
  if (objective != "method" && objective != result.objectiveName) {
    // Another objective than the method's: a figure of its verified schedule, without the
    // method's bound and proof, which are about its own objective (a schedule proven optimal
    // for latency is only feasible for peak memory).
    record.objective.reset();
    if (const auto figure = scheduleFigure(objective, result)) {
      record.objective = {objective, *figure};
    }
    record.lowerBound.reset();
    record.gap.reset();
    record.lowerBoundArgument.clear();
    record.iiProvenOptimal = false;
    record.latencyProvenOptimal = false;
    if (record.status == RunStatus::kOptimal) record.status = RunStatus::kFeasible;
  }
}

void writeText(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
}

}  // namespace

MethodCall plannedCall(const RunTask& task, const MethodRegistry& registry,
                       const std::optional<fs::path>& traceFile) {
  const PlannedRun& run = task.planned();
  const MethodEntry& entry = task.config->methods.at(run.methodEntry);
  Settings settings = run.settings;
  // As a setting: it reaches a method that declares `trace` and whose entry names no file.
  if (traceFile) settings["trace"] = traceFile->string();
  // The config names only methods of the registry.
  return prepareMethodCall(registry, {entry.method, entry.options, std::move(settings)}).value();
}

ResultRecord plannedRecord(const RunTask& task, const MethodCall& call) {
  const PlannedRun& run = task.planned();
  const MethodEntry& entry = task.config->methods.at(run.methodEntry);
  const SurveyedGraph& graph = task.plan->graphs.at(run.graph);
  ResultRecord record;
  record.runId = run.id;
  record.experiment = task.config->name;
  record.label = entry.label;
  record.method = entry.method;
  record.graph = {graph.id, graph.path, graph.hash, graph.ops, graph.edges};
  const auto& spec = run.problem;
  record.problem.kind = spec.kind && *spec.kind != "inferred" ? *spec.kind : std::string();
  if (spec.horizon && spec.horizon->kind == HorizonPolicy::Kind::kCycles) {
    record.problem.horizon = spec.horizon->cycles;
  }
  if (spec.ii && spec.ii->kind == IiPolicy::Kind::kFixed) record.problem.ii = spec.ii->ii;
  record.options = call.echo();
  record.reference = run.reference;
  record.jobs = task.jobs;
  if (run.seed) record.seed = static_cast<std::int64_t>(*run.seed);
  record.repeat = run.repeat;
  record.version = softwareVersion();
  record.host = hostName();
  record.startedAt = utcTimestamp();
  return record;
}

RunOutput executeRun(const RunTask& task, const MethodRegistry& registry, const fs::path& scratch,
                     const std::function<void(const ResultRecord&)>& posed) {
  const PlannedRun& run = task.planned();
  // A run that writes its schedule also keeps its convergence trace, when the method has one
  // and the config did not name a file: the report draws it beside the schedule.
  const fs::path traceFile = scratch / "trace.csv";
  // The call is prepared here, once: the record echoes the options the method runs with.
  const MethodCall call =
      plannedCall(task, registry, run.writeSchedule ? std::optional(traceFile) : std::nullopt);
  // The scratch trace reaches the method as a setting, which applies only where the entry names
  // no file of its own.
  const auto traced = call.settings.find("trace");
  const bool tracing = traced != call.settings.end() &&
                       std::holds_alternative<std::string>(traced->second) &&
                       std::get<std::string>(traced->second) == traceFile.string();
  // The scratch path is gone once the run ends; the record names the kept copy (trace_file).
  const auto forgetTraceFile = [tracing](ResultRecord& record) {
    if (!tracing) return;
    std::erase_if(record.options, [](const auto& option) { return option.first == "trace"; });
  };
  ResultRecord record = plannedRecord(task, call);
  forgetTraceFile(record);

  auto instance = loadSurveyedGraph(*task.config, task.plan->graphs.at(run.graph));
  if (!instance) return failedRun(std::move(record), RunStatus::kError, instance.error());
  if (run.problem.machine) {
    auto machine = io::findMachine(*run.problem.machine);
    if (!machine) return failedRun(std::move(record), RunStatus::kError, machine.error());
    auto rebound = rebindMachine(*instance, *machine);
    if (!rebound) return failedRun(std::move(record), RunStatus::kError, rebound.error());
    instance = std::move(rebound).value();
  }
  record.problem.machine = instance->machine->name;
  auto problem = posePlannedProblem(run, *call.method, *instance, registry);
  if (!problem) return failedRun(std::move(record), RunStatus::kError, problem.error());
  record.problem.kind = std::string(toString(problem->problem.kind));
  record.problem.horizon = problem->problem.horizon;
  record.problem.ii = problem->problem.ii;
  if (posed) posed(record);

  std::vector<Attempt> steps = std::move(problem->steps);
  const std::optional<Schedule> start =
      startSchedule(task, problem->problem, registry, scratch, steps);
  RunContext context;
  context.initialSchedule = start ? &*start : nullptr;
  const Result result = runMethod(problem->problem, call, context);
  fillFromResult(record, run, call, result);
  forgetTraceFile(record);
  std::vector<report::ResultAttempt> before;
  for (const Attempt& step : steps) before.push_back(report::resultAttempt(step));
  record.attempts.insert(record.attempts.begin(), before.begin(), before.end());

  RunOutput output{std::move(record), std::nullopt, std::nullopt};
  if (run.writeSchedule && result.verified()) {
    output.schedule = io::formatSchedule(*instance->graph, *result.schedule);
  }
  if (std::ifstream in(traceFile, std::ios::binary); tracing && in) {
    output.trace.emplace(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  return output;
}

int runInChildProcess(const RunTask& task, const MethodRegistry& registry, const RunFiles& files) {
  std::optional<ResultRecord> posed;
  RunOutput output;
  try {
    output = executeRun(task, registry, files.folder, [&](const ResultRecord& record) {
      posed = record;
      writeText(files.posed(), report::formatResultRecord(record));
    });
  } catch (const std::exception& error) {
    // Statuses, not exceptions, cross the method boundary; one that escapes a method is its
    // error. An allocation the system refused (ENOMEM, as LibTorch's allocator reports it)
    // is a run out of memory.
    const std::string what = error.what();
    const std::string firstLine = what.substr(0, what.find('\n'));
    const bool outOfMemory = what.find(std::strerror(ENOMEM)) != std::string::npos;
    output = failedRun(posed ? *posed : plannedRecord(task, plannedCall(task, registry)),
                       outOfMemory ? RunStatus::kOutOfMemory : RunStatus::kError,
                       "the method threw: " + firstLine);
  }
  nlohmann::json json;
  json["record"] = report::formatResultRecord(output.record);
  json["schedule"] = output.schedule ? nlohmann::json(*output.schedule) : nlohmann::json(nullptr);
  json["trace"] = output.trace ? nlohmann::json(*output.trace) : nlohmann::json(nullptr);
  // Written whole, then renamed: the runner reads it only once the process has ended, but a
  // process killed while writing must not leave a file that parses.
  const auto written = io::writeFileAtomically(files.output(), json.dump());
  return written ? 0 : 1;
}

RunOutput finishRun(const RunTask& task, const MethodRegistry& registry, const ChildEnd& end,
                    const RunFiles& files, std::optional<std::int64_t> memoryLimitBytes) {
  const PlannedRun& run = task.planned();
  if (end.how == ChildEnd::How::kExited && end.exitCode == 0) {
    std::ifstream in(files.output(), std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const nlohmann::json json = nlohmann::json::parse(text, nullptr, false);
    if (json.is_object() && json.contains("record") && json["record"].is_string()) {
      auto record = report::parseResultRecord(json["record"].get<std::string>());
      if (record) {
        RunOutput output{std::move(record).value(), std::nullopt, std::nullopt};
        output.record.peakRssBytes = end.peakRssBytes;
        // A run that failed before its method returned (an unreadable graph, an exception)
        // has no method time: the process's.
        if (!output.record.seconds) output.record.seconds = end.seconds;
        if (json["schedule"].is_string()) output.schedule = json["schedule"].get<std::string>();
        if (json["trace"].is_string()) output.trace = json["trace"].get<std::string>();
        return output;
      }
    }
  }
  // The process did not hand over a record: the planned one, with the problem the process
  // posed when it got that far.
  ResultRecord record = plannedRecord(task, plannedCall(task, registry));
  std::ifstream posedFile(files.posed(), std::ios::binary);
  std::string posedLine;
  if (std::getline(posedFile, posedLine)) {
    if (auto posed = report::parseResultRecord(posedLine)) {
      record.graph = posed->graph;
      record.problem = posed->problem;
    }
  }
  record.seconds = end.seconds;
  record.peakRssBytes = end.peakRssBytes;
  const std::string tail = end.outputTail.empty() ? "" : "; last output: " + end.outputTail;
  switch (end.how) {
    case ChildEnd::How::kDeadline: {
      const auto limit = run.settings.find("time_limit");
      return failedRun(
          std::move(record), RunStatus::kTimeout,
          fmt::format("{}: the time limit {} s plus the grace {} s{}", end.describe(),
                      limit == run.settings.end() ? std::string("-") : formatSetting(limit->second),
                      option_text::formatNumber(task.config->budgets.grace), tail));
    }
    case ChildEnd::How::kOutOfMemory:
      return failedRun(
          std::move(record), RunStatus::kOutOfMemory,
          fmt::format("{}{}{}", end.describe(),
                      memoryLimitBytes
                          ? fmt::format(" under the memory limit of {} bytes", *memoryLimitBytes)
                          : std::string(),
                      tail));
    case ChildEnd::How::kStopped:
      return failedRun(std::move(record), RunStatus::kUnknown, end.describe());
    case ChildEnd::How::kSignaled:
    case ChildEnd::How::kExited:
      break;
  }
  return failedRun(std::move(record), RunStatus::kCrashed,
                   end.how == ChildEnd::How::kExited
                       ? fmt::format("{} without a result{}", end.describe(), tail)
                       : end.describe() + tail);
}

}  // namespace gaus::experiment
