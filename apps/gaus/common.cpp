#include <algorithm>
#include <charconv>
#include <cstdio>
#include <limits>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <gaus/core/gap.hpp>
#include <gaus/core/option_table.hpp>

#include "command.hpp"

namespace gaus::cli {

int& exitCode() {
  static int code = kExitOk;
  return code;
}

void InputFlags::addTo(CLI::App& command) {
  command.add_option("--format", format,
                     "Input format (json, yaml, heurigym, gml, aiger, aag, triton, graphml); "
                     "default: sniffed from the extension and content");
  command.add_option("--resources", resourceModel,
                     "HatScheT resource model (default: <graph>_RM.xml beside the graph)");
  command.add_option("--machine", machine,
                     "Machine YAML file, or a name in configs/machines (e.g. hopper); replaces "
                     "the machine the input carries, matching resources by name");
  command.add_option("--capacity", capacities,
                     "Set a resource's capacity: NAME=N or NAME=inf (repeatable)");
  command.add_flag("--raw-comm", rawComm,
                   "GML: keep edge parameters as communication weights (default: 0/1)");
}

io::ReadOptions InputFlags::readOptions() const {
  io::ReadOptions options;
  if (!format.empty()) {
    options.format = io::parseFormat(format);
    if (!options.format) {
      throw CommandError(
          fmt::format("unknown format '{}' (known: json, yaml, heurigym, gml, "
                      "aiger, aag, triton, graphml)",
                      format));
    }
  }
  if (!resourceModel.empty()) options.resourceModel = resourceModel;
  options.binarizeComm = !rawComm;
  return options;
}

Machine loadMachine(const std::string& nameOrPath) {
  auto machine = io::findMachine(nameOrPath);
  if (!machine) throw CommandError(machine.error());
  return std::move(machine).value();
}

namespace {

Instance applyMachineFlags(Instance instance, const InputFlags& flags) {
  // What the reader chose on its own (a HatScheT variant's resource model) is said once, on
  // stderr, where it does not mix with --json.
  for (const std::string& note : instance.notes) {
    fmt::print(stderr, "{}: {}\n", instance.sourcePath, note);
  }
  if (!flags.machine.empty()) {
    auto rebound = io::moveToMachine(instance, loadMachine(flags.machine));
    if (!rebound) throw CommandError(rebound.error());
    instance = std::move(rebound).value();
  }
  if (flags.capacities.empty()) return instance;
  Machine machine = *instance.machine;
  for (const auto& setting : flags.capacities) {
    const auto equals = setting.find('=');
    if (equals == std::string::npos) {
      throw CommandError(fmt::format("--capacity '{}': expected NAME=N or NAME=inf", setting));
    }
    const std::string name = setting.substr(0, equals);
    const std::string value = setting.substr(equals + 1);
    const auto resource = machine.findResource(name);
    if (!resource) {
      std::vector<std::string> known;
      for (const auto& r : machine.resources) known.push_back(r.name);
      throw CommandError(fmt::format(
          "--capacity '{}': machine '{}' has no resource '{}'{} (resources: {}); --capacity sets "
          "the capacity of a resource the machine has: a new one goes into the machine's "
          "\"resources\"",
          setting, machine.name, name, option_text::didYouMean(name, known),
          known.empty() ? std::string("none") : option_text::listChoices(known)));
    }
    if (value == "inf") {
      machine.resources[*resource].capacity.reset();
      continue;
    }
    std::int64_t capacity = -1;
    const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), capacity);
    if (error != std::errc{} || end != value.data() + value.size() || capacity < 0 ||
        capacity > kMaxInputValue) {
      throw CommandError(fmt::format("--capacity '{}': expected a count in [0, {}] or inf", setting,
                                     kMaxInputValue));
    }
    machine.resources[*resource].capacity = static_cast<std::int32_t>(capacity);
  }
  instance.machine = std::make_shared<const Machine>(std::move(machine));
  return instance;
}

}  // namespace

std::vector<Instance> loadInstances(const std::string& spec, const InputFlags& flags) {
  const io::ReadOptions options = flags.readOptions();
  std::vector<Instance> instances;
  if (spec.find('#') != std::string::npos) {
    auto one = io::readInstance(spec, options);
    if (!one) throw CommandError(one.error());
    instances.push_back(std::move(one).value());
  } else {
    auto all = io::readInstances(spec, options);
    if (!all) throw CommandError(all.error());
    instances = std::move(all).value();
  }
  for (auto& instance : instances) instance = applyMachineFlags(std::move(instance), flags);
  return instances;
}

Instance loadInstance(const std::string& spec, const InputFlags& flags) {
  auto one = io::readInstance(spec, flags.readOptions());
  if (!one) throw CommandError(one.error());
  return applyMachineFlags(std::move(one).value(), flags);
}

void writeOutput(const std::string& path, const std::string& text) {
  if (path == "-") {
    std::fwrite(text.data(), 1, text.size(), stdout);
    return;
  }
  const auto written = io::writeFileAtomically(path, text);
  if (!written) throw CommandError(written.error());
}

std::string describeMetrics(const Machine& machine, const ScheduleMetrics& metrics) {
  std::string text = fmt::format("latency {}", metrics.latency);
  if (metrics.stages) text += fmt::format(", stages {}", *metrics.stages);
  std::string usage;
  for (std::size_t r = 0; r < metrics.peakUsage.size() && r < machine.resources.size(); ++r) {
    const auto& resource = machine.resources[r];
    if (metrics.peakUsage[r] == 0) continue;
    usage +=
        fmt::format("{}{} {}/{}", usage.empty() ? "" : ", ", resource.name, metrics.peakUsage[r],
                    resource.capacity ? std::to_string(*resource.capacity) : "inf");
  }
  if (!usage.empty()) text += "\npeak usage: " + usage;
  if (metrics.peakLiveMemory > 0) {
    text += fmt::format("\npeak live memory: {}", metrics.peakLiveMemory);
  }
  for (std::size_t m = 0; m < metrics.peakMemoryFootprint.size() && m < machine.memories.size();
       ++m) {
    text += fmt::format("\npeak {}: {} of {}", machine.memories[m].name,
                        metrics.peakMemoryFootprint[m], machine.memories[m].capacity);
  }
  return text;
}

std::string describeStartTimes(const Graph& graph, const Schedule& schedule, std::vector<OpId> ops,
                               std::size_t limit, bool stages) {
  std::sort(ops.begin(), ops.end(), [&](OpId a, OpId b) {
    return schedule.start[a] != schedule.start[b] ? schedule.start[a] < schedule.start[b] : a < b;
  });
  std::string text;
  for (std::size_t i = 0; i < ops.size() && i < limit; ++i) {
    const OpId op = ops[i];
    const Cycle start = schedule.start[op];
    if (stages) {
      text += fmt::format("  {:<24} stage {}\n", graph.opName(op), start);
    } else if (schedule.ii) {
      text += fmt::format("  {:<24} t={:<8} residue {:<6} stage {}\n", graph.opName(op), start,
                          start % *schedule.ii, start / *schedule.ii);
    } else {
      text += fmt::format("  {:<24} t={}\n", graph.opName(op), start);
    }
  }
  if (ops.size() > limit) {
    text += fmt::format("  ... and {} more ops (-o FILE or --json gives every one)\n",
                        ops.size() - limit);
  }
  return text;
}

namespace {

// "peak memory 39, bound 36 (gap 7.7 %)", or "...: proven optimal" where the value meets it.
std::string describeValueAndBound(const Result& result) {
  const double bound = *result.bounds.lowerBound;
  const std::string& argument = result.bounds.lowerBoundArgument;
  if (!result.objective) {
    return argument.empty() ? fmt::format("lower bound {}", bound)
                            : fmt::format("lower bound {} ({})", bound, argument);
  }
  std::string name = result.objectiveName;
  std::replace(name.begin(), name.end(), '_', ' ');
  const std::optional<double> gap = resultGap(result);
  if (gap && *gap == 0.0) {
    return argument.empty()
               ? fmt::format("{} {}, bound {}: proven optimal", name, *result.objective, bound)
               : fmt::format("{} {}, bound {} ({}): proven optimal", name, *result.objective, bound,
                             argument);
  }
  std::vector<std::string> parts;
  if (!argument.empty()) parts.push_back(argument);
  if (gap) parts.push_back(fmt::format("gap {:.1f} %", 100.0 * *gap));
  return fmt::format(
      "{} {}, bound {}{}", name, *result.objective, bound,
      parts.empty() ? std::string() : " (" + fmt::format("{}", fmt::join(parts, "; ")) + ")");
}

}  // namespace

std::string describeResult(const Instance& instance, const Result& result) {
  std::string text = fmt::format("{}: {}", instance.name, result.statusText());
  if (result.objective) {
    text += fmt::format(", {} {}", result.objectiveName, *result.objective);
  }
  text += fmt::format(" ({:.3f} s)", result.stats.seconds);
  if (!result.message.empty()) text += "\n" + result.message;
  if (result.schedule && result.schedule->ii) text += fmt::format("\nII {}", *result.schedule->ii);
  if (result.bounds.mii) text += " (" + result.bounds.mii->reason + ")";
  if (result.bounds.lowerBound) text += "\n" + describeValueAndBound(result);
  for (const auto& [title, note] : result.notes) {
    text += note.find('\n') == std::string::npos ? fmt::format("\n{}: {}", title, note)
                                                 : fmt::format("\n{}:\n{}", title, note);
  }
  if (result.verification) {
    if (result.verification->ok()) {
      text += "\n" + describeMetrics(*instance.machine, result.verification->metrics);
      text += "\nverified: true";
    } else {
      text += "\nverified: false\n" + result.verification->summary();
    }
  }
  return text;
}

}  // namespace gaus::cli
