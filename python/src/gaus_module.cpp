// gaus._gaus: the library as the Python package gaus (python/gaus, docs/python.md) calls it. Each
// function is the library call the matching CLI command makes (readInstance, runMethodOnInstance,
// verify, renderSchedule, codegen::generate, the JSON views of report/result_json.hpp), so Python
// and the command line read, run, verify and report the same way; the Python layer above turns
// the JSON into dicts and objects. Failures raise gaus.Error (a ValueError) with the message the
// CLI prints after "gaus: error:".

#include <atomic>
#include <cstdint>
#include <nanobind/nanobind.h>
#include <nanobind/stl/map.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include <gaus/codegen/pipeline.hpp>
#include <gaus/codegen/targets.hpp>
#include <gaus/core/build_info.hpp>
#include <gaus/core/memory_limit.hpp>
#include <gaus/core/option_table.hpp>
#include <gaus/core/problem_kinds.hpp>
#include <gaus/core/verify.hpp>
#include <gaus/experiment/experiment_config.hpp>
#include <gaus/io/io.hpp>
#include <gaus/methods/method_catalog.hpp>
#include <gaus/methods/run_method.hpp>
#include <gaus/report/pictures.hpp>
#include <gaus/report/result_json.hpp>

#include "interruptible_call.hpp"

namespace nb = nanobind;

namespace gaus::python {

namespace {

// Raised as gaus.Error: bad input, an unknown name, a method that cannot run.
class GausError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

template <class Value>
Value valueOrRaise(Expected<Value> expected) {
  if (!expected) throw GausError(expected.error());
  return std::move(expected).value();
}

// A schedule from Python: starts in op order, the II and the warp lists of a modulo-warp one.
using WarpLists = std::vector<std::vector<int>>;

Schedule makeSchedule(const Instance& instance, const std::vector<Cycle>& starts,
                      std::optional<std::int32_t> ii, const std::optional<WarpLists>& warps) {
  const Graph& graph = *instance.graph;
  const auto ops = static_cast<std::size_t>(graph.numOps());
  if (starts.size() != ops) {
    throw GausError(fmt::format("{}: expected a start for each of the {} ops, found {} starts",
                                instance.name, ops, starts.size()));
  }
  Schedule schedule{starts, ii, std::nullopt};
  if (warps) {
    if (warps->size() != ops) {
      throw GausError(fmt::format("{}: expected a warp list for each of the {} ops, found {}",
                                  instance.name, ops, warps->size()));
    }
    std::vector<WarpSet> sets(ops, 0);
    for (std::size_t op = 0; op < ops; ++op) {
      for (const int warp : (*warps)[op]) {
        if (warp < 0 || warp >= kMaxWarps) {
          throw GausError(fmt::format("{}: op {}: expected warps in [0, {}), found {}",
                                      instance.name, graph.opName(static_cast<OpId>(op)), kMaxWarps,
                                      warp));
        }
        sets[op] |= WarpSet{1} << warp;
      }
    }
    schedule.warps = std::move(sets);
  }
  return schedule;
}

Instance readGraph(const std::string& spec, const std::optional<std::string>& format,
                   const std::optional<std::string>& resources, bool rawComm) {
  io::ReadOptions options;
  if (format) {
    options.format = io::parseFormat(*format);
    if (!options.format) {
      throw GausError(fmt::format(
          "format '{}': expected json, yaml, heurigym, gml, aiger, aag, triton or graphml",
          *format));
    }
  }
  if (resources) options.resourceModel = *resources;
  options.binarizeComm = !rawComm;
  return valueOrRaise(io::readInstance(spec, options));
}

// The problem a schedule is checked against, as `gaus verify` and `gaus render` pose it
// (answeredProblem): its kind follows from what the schedule carries (warps, an II), a horizon
// or the stage flag.
Problem checkedProblem(const Instance& instance, const Schedule& schedule,
                       std::optional<Cycle> horizon, bool stages) {
  auto problem =
      answeredProblem(instance, schedule,
                      {stages ? std::optional(ProblemKind::kStages) : std::nullopt, horizon, {}});
  if (!problem) throw GausError(fmt::format("{}: {}", instance.sourcePath, problem.error()));
  return std::move(problem).value();
}

// What a run hands back: the result as `gaus schedule --json` prints it (with roles and buffers
// for a warp-specialized schedule, as `gaus twill --json`), the status pair, and the starts in
// op order.
struct MethodRunOutput {
  std::string json;
  std::string call;
  std::string solution;
  std::optional<std::vector<Cycle>> starts;
};

// The settings as Python's keyword arguments give them (text, python/gaus/_methods.py), typed
// here, at the edge, as the command line types its flags: bytes (with a K, M, G or T suffix), counts,
// a flag; words stay words.
Expected<Settings> typedSettings(const MethodOptions& given) {
  Settings settings;
  for (const auto& [name, text] : given) {
    if (name == "memory_limit") {
      const auto bytes = parseByteSize(text);
      if (!bytes) return Error{"memory_limit: " + bytes.error()};
      settings[name] = *bytes;
    } else if (name == "seed" || name == "warps" || name == "max_ii") {
      const auto count = option_text::parseInteger(text);
      if (!count) return Error{name + ": " + count.error()};
      settings[name] = *count;
    } else if (name == "explain") {
      const auto flag = option_text::parseBoolean(text);
      if (!flag) return Error{name + ": " + flag.error()};
      settings[name] = *flag;
    } else {
      settings[name] = text;
    }
  }
  return settings;
}

MethodRunOutput runMethodOn(const Instance& instance, const std::string& method,
                            const std::string& kind, std::optional<Cycle> horizon,
                            std::optional<std::int32_t> ii, std::optional<double> ratio,
                            const std::string& objective, const MethodOptions& options,
                            const MethodOptions& settings, std::optional<double> timeLimit,
                            const std::optional<std::vector<Cycle>>& initialStarts,
                            nb::object progress) {
  InstanceRunRequest request;
  // The one channel of the time limit (the settings carry none), as for the command line.
  request.deadline = Deadline(timeLimit);
  request.method = {method, options, valueOrRaise(typedSettings(settings))};
  request.kind = kind;
  request.horizon = horizon;
  request.ii = ii;
  request.ratio = ratio;
  request.objective = objective;
  RunContext context;
  std::optional<Schedule> start;
  if (initialStarts) {
    start = makeSchedule(instance, *initialStarts, std::nullopt, std::nullopt);
    context.initialSchedule = &*start;
  }
  if (!progress.is_none()) {
    context.progress = [progress](std::string_view line) {
      nb::gil_scoped_acquire held;
      try {
        progress(std::string(line));
      } catch (nb::python_error& error) {
        error.discard_as_unraisable("gaus progress callback");
      }
    };
  }
  std::atomic<bool> cancel{false};
  context.cancel = &cancel;
  const MethodRegistry& catalog = methodCatalog();
  auto ran = runInterruptibly(
      [&] { return runMethodOnInstance(catalog, instance, request, context); }, cancel);
  InstanceRun run = valueOrRaise(std::move(ran));
  const nlohmann::json json =
      report::methodRunToJson(instance, run.result, {method, run.kind, run.ignoredSettings, true});
  MethodRunOutput output{json.dump(), std::string(toString(run.result.call)),
                         std::string(toString(run.result.status)), std::nullopt};
  if (run.result.schedule) output.starts = run.result.schedule->start;
  return output;
}

std::string verifySchedule(const Instance& instance, const std::vector<Cycle>& starts,
                           std::optional<std::int32_t> ii, const std::optional<WarpLists>& warps,
                           std::optional<Cycle> horizon, bool stages, std::size_t maxMessages) {
  const Schedule schedule = makeSchedule(instance, starts, ii, warps);
  const Problem problem = checkedProblem(instance, schedule, horizon, stages);
  VerifyOptions options;
  options.maxMessages = maxMessages;
  const VerificationReport verification = verify(problem, schedule, options);
  nlohmann::json json = report::verificationToJson(*instance.machine, verification);
  json["instance"] = instance.name;
  json["kind"] = std::string(toString(problem.kind));
  json["ii"] = ii ? nlohmann::json(*ii) : nlohmann::json(nullptr);
  return json.dump();
}

report::PictureOptions pictureOptions(std::optional<std::int32_t> iterations,
                                      const std::string& title) {
  report::PictureOptions options;
  options.iterations = iterations;
  options.title = title;
  return options;
}

std::string renderPicture(const Instance& instance, const std::string& viewName,
                          const std::optional<std::vector<Cycle>>& starts,
                          std::optional<std::int32_t> ii, const std::optional<WarpLists>& warps,
                          std::optional<Cycle> horizon, std::optional<std::int32_t> iterations,
                          const std::string& title) {
  const auto view = report::parseScheduleView(viewName);
  if (!view) {
    throw GausError(fmt::format("view '{}': expected units, warps, mrt or graph", viewName));
  }
  const report::PictureOptions options = pictureOptions(iterations, title);
  if (*view == report::ScheduleView::kGraph) return report::renderGraph(*instance.graph, options);
  if (!starts) {
    throw GausError(
        fmt::format("view {} draws a schedule: give one (a Result or starts)", viewName));
  }
  const Schedule schedule = makeSchedule(instance, *starts, ii, warps);
  const Problem problem = checkedProblem(instance, schedule, horizon, false);
  return report::renderSchedule(*view, problem, schedule, options);
}

std::string renderTrace(const std::string& path, std::optional<std::int32_t> iterations,
                        const std::string& title) {
  const report::ConvergenceTrace trace = valueOrRaise(report::readConvergenceTrace(path));
  return report::renderConvergence(trace, pictureOptions(iterations, title));
}

std::vector<std::pair<std::string, std::string>> generateCode(
    const Instance& instance, const std::vector<Cycle>& starts, std::optional<std::int32_t> ii,
    const std::optional<WarpLists>& warps, const std::string& targetName, std::int64_t trips,
    const std::string& scheduleSource) {
  const auto target = codegen::kTargetNames.parse(targetName);
  if (!target) {
    const std::vector<std::string> names = codegen::kTargetNames.names();
    throw GausError(fmt::format("target '{}'{}: expected {}", targetName,
                                option_text::didYouMean(targetName, names),
                                option_text::listChoices(names)));
  }
  const Schedule schedule = makeSchedule(instance, starts, ii, warps);
  auto pipeline = codegen::buildPipeline(instance, schedule);
  if (!pipeline) throw GausError(fmt::format("{}: {}", scheduleSource, pipeline.error()));
  codegen::TargetOptions options;
  options.scheduleSource = scheduleSource;
  options.traceTrips = trips;
  auto files = codegen::generate(*pipeline, *target, options);
  if (!files) throw GausError(fmt::format("{}: {}", instance.name, files.error()));
  std::vector<std::pair<std::string, std::string>> named;
  for (auto& file : *files) named.emplace_back(std::move(file.name), std::move(file.content));
  return named;
}

}  // namespace

}  // namespace gaus::python

NB_MODULE(_gaus, module) {
  using namespace gaus;
  using namespace gaus::python;
  nb::exception<GausError>(module, "Error", PyExc_ValueError);

  nb::class_<Machine>(module, "Machine")
      .def_ro("name", &Machine::name)
      .def_ro("warps", &Machine::warps)
      .def_prop_ro("resources",
                   [](const Machine& machine) {
                     std::vector<std::pair<std::string, std::optional<std::int32_t>>> resources;
                     for (const auto& r : machine.resources)
                       resources.emplace_back(r.name, r.capacity);
                     return resources;
                   })
      .def_prop_ro("memories", [](const Machine& machine) {
        std::vector<std::pair<std::string, std::int64_t>> memories;
        for (const auto& m : machine.memories) memories.emplace_back(m.name, m.capacity);
        return memories;
      });

  nb::class_<Instance>(module, "Instance")
      .def_ro("name", &Instance::name)
      .def_ro("source", &Instance::sourcePath)
      .def_prop_ro("machine", [](const Instance& instance) { return *instance.machine; })
      .def_prop_ro("op_names",
                   [](const Instance& instance) {
                     const Graph& graph = *instance.graph;
                     std::vector<std::string> names;
                     names.reserve(static_cast<std::size_t>(graph.numOps()));
                     for (OpId op = 0; op < graph.numOps(); ++op) names.push_back(graph.opName(op));
                     return names;
                   })
      .def_prop_ro("num_ops", [](const Instance& instance) { return instance.graph->numOps(); })
      .def_prop_ro("num_edges", [](const Instance& instance) { return instance.graph->numEdges(); })
      .def_ro("reference", &Instance::reference);

  module.def("read_graph", &readGraph, nb::arg("spec"), nb::arg("format").none(),
             nb::arg("resources").none(), nb::arg("raw_comm"));
  module.def(
      "graph_from_json",
      [](const std::string& text, const std::string& source) {
        return valueOrRaise(io::readNativeJsonText(text, source));
      },
      nb::arg("text"), nb::arg("source"));
  module.def(
      "graph_to_json",
      [](const Instance& instance) {
        return valueOrRaise(io::formatInstance(instance, io::Format::kNativeJson));
      },
      nb::arg("instance"));
  module.def(
      "with_machine",
      [](const Instance& instance, const Machine& machine) {
        return valueOrRaise(io::moveToMachine(instance, machine));
      },
      nb::arg("instance"), nb::arg("machine"));
  module.def(
      "find_machine",
      [](const std::string& reference) { return valueOrRaise(io::findMachine(reference)); },
      nb::arg("reference"));
  module.def(
      "machine_from_json",
      [](const std::string& text, const std::string& source) {
        return valueOrRaise(io::readMachineJsonText(text, source));
      },
      nb::arg("text"), nb::arg("source"));

  module.def(
      "run_method",
      [](const Instance& instance, const std::string& method, const std::string& kind,
         std::optional<Cycle> horizon, std::optional<std::int32_t> ii, std::optional<double> ratio,
         const std::string& objective, const MethodOptions& options, const MethodOptions& settings,
         std::optional<double> timeLimit, const std::optional<std::vector<Cycle>>& initialStarts,
         nb::object progress) {
        MethodRunOutput output = runMethodOn(instance, method, kind, horizon, ii, ratio, objective,
                                             options, settings, timeLimit, initialStarts, progress);
        return std::make_tuple(std::move(output.json), std::move(output.call),
                               std::move(output.solution), std::move(output.starts));
      },
      nb::arg("instance"), nb::arg("method"), nb::arg("kind"), nb::arg("horizon").none(),
      nb::arg("ii").none(), nb::arg("ratio").none(), nb::arg("objective"), nb::arg("options"),
      nb::arg("settings"), nb::arg("time_limit").none(), nb::arg("initial_starts").none(),
      nb::arg("progress").none());
  module.def("verify", &verifySchedule, nb::arg("instance"), nb::arg("starts"),
             nb::arg("ii").none(), nb::arg("warps").none(), nb::arg("horizon").none(),
             nb::arg("stages"), nb::arg("max_messages"));
  module.def("render", &renderPicture, nb::arg("instance"), nb::arg("view"),
             nb::arg("starts").none(), nb::arg("ii").none(), nb::arg("warps").none(),
             nb::arg("horizon").none(), nb::arg("iterations").none(), nb::arg("title"));
  module.def("render_trace", &renderTrace, nb::arg("path"), nb::arg("iterations").none(),
             nb::arg("title"));
  module.def("codegen", &generateCode, nb::arg("instance"), nb::arg("starts"), nb::arg("ii").none(),
             nb::arg("warps").none(), nb::arg("target"), nb::arg("trips"),
             nb::arg("schedule_source"));
  module.def(
      "read_schedule",
      [](const Instance& instance, const std::string& path) {
        const Schedule schedule = valueOrRaise(io::readSchedule(path, *instance.graph));
        std::optional<WarpLists> warps;
        if (schedule.warps) {
          warps.emplace();
          for (const WarpSet set : *schedule.warps) {
            std::vector<int>& list = warps->emplace_back();
            for (int w = 0; w < kMaxWarps; ++w) {
              if ((set >> w) & 1U) list.push_back(w);
            }
          }
        }
        return std::make_tuple(schedule.start, schedule.ii, std::move(warps));
      },
      nb::arg("instance"), nb::arg("path"));
  module.def(
      "experiment_output",
      [](const std::string& path) {
        const auto config = valueOrRaise(experiment::readExperimentConfig(path, methodCatalog()));
        return config.budgets.output.string();
      },
      nb::arg("path"));
  module.def("methods_json", [] { return report::methodsToJson(methodCatalog()).dump(); });
  module.def("version", &softwareVersion);
}
