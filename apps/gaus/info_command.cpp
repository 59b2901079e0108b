// gaus info GRAPH: sizes, critical path, ResMII / RecMII and what binds them, components.

#include <iostream>

#include <fmt/format.h>

#include <gaus/core/analysis.hpp>

#include "command.hpp"

namespace gaus::cli {

namespace {

struct InfoFlags {
  std::vector<std::string> inputs;
  InputFlags input;
  bool json = false;
};

nlohmann::json summaryToJson(const Instance& instance, const GraphSummary& summary) {
  const Graph& graph = *instance.graph;
  const Machine& machine = *instance.machine;
  nlohmann::json json;
  json["instance"] = instance.name;
  json["source"] = instance.sourcePath;
  json["ops"] = summary.ops;
  json["edges"] = summary.edges;
  json["loop_carried_edges"] = summary.loopCarriedEdges;
  json["weak_components"] = summary.weakComponents;
  json["recurrences"] = summary.nontrivialSccs;
  json["loop_carried_edges_on_recurrences"] = summary.loopCarriedEdgesOnRecurrences;
  json["critical_path"] = summary.criticalPath;
  json["depth"] = summary.depth;
  json["res_mii"] = summary.resMii.value;
  json["res_mii_resource"] = summary.resMii.binding
                                 ? nlohmann::json(machine.resources[*summary.resMii.binding].name)
                                 : nlohmann::json(nullptr);
  json["rec_mii"] = summary.recMii.value;
  nlohmann::json cycle = nlohmann::json::array();
  for (OpId op : summary.recMii.bindingCycle) cycle.push_back(graph.opName(op));
  json["rec_mii_cycle"] = cycle;
  json["mii"] = std::max(summary.resMii.value, summary.recMii.value);
  if (summary.resMii.infeasible) json["infeasible"] = *summary.resMii.infeasible;
  nlohmann::json resources = nlohmann::json::array();
  for (const auto& resource : machine.resources) {
    resources.push_back({{"name", resource.name},
                         {"capacity", resource.capacity ? nlohmann::json(*resource.capacity)
                                                        : nlohmann::json(nullptr)}});
  }
  json["resources"] = resources;
  json["reference"] = nlohmann::json::object();
  for (const auto& [name, value] : instance.reference) json["reference"][name] = value;
  return json;
}

std::string describeSummary(const Instance& instance, const GraphSummary& summary) {
  const Graph& graph = *instance.graph;
  const Machine& machine = *instance.machine;
  std::string text = fmt::format("{} ({})\n", instance.name, instance.sourcePath);
  text += fmt::format("ops {}, edges {} ({} loop-carried), weak components {}\n", summary.ops,
                      summary.edges, summary.loopCarriedEdges, summary.weakComponents);
  text +=
      fmt::format("critical path {} cycles, depth {} ops\n", summary.criticalPath, summary.depth);
  std::string resources;
  for (const auto& resource : machine.resources) {
    resources += fmt::format("{}{}={}", resources.empty() ? "" : ", ", resource.name,
                             resource.capacity ? std::to_string(*resource.capacity) : "inf");
  }
  text += fmt::format("resources: {}\n", resources.empty() ? "none" : resources);
  text += fmt::format("ResMII {}", summary.resMii.value);
  if (summary.resMii.binding) {
    text += fmt::format(" (bound by {})", machine.resources[*summary.resMii.binding].name);
  }
  text += fmt::format(", RecMII {}", summary.recMii.value);
  if (!summary.recMii.bindingCycle.empty()) {
    text += fmt::format(" (cycle {})", describeRecurrence(graph, summary.recMii.bindingCycle));
  }
  text += fmt::format(", MII {}\n", std::max(summary.resMii.value, summary.recMii.value));
  if (summary.nontrivialSccs > 0) {
    text += fmt::format(
        "recurrences: {} (strongly connected groups of ops, each closed by loop-carried edges; "
        "{} of the {} loop-carried edges lie inside one)\n",
        summary.nontrivialSccs, summary.loopCarriedEdgesOnRecurrences, summary.loopCarriedEdges);
  }
  if (summary.resMii.infeasible)
    text += fmt::format("infeasible: {}\n", *summary.resMii.infeasible);
  for (const auto& [name, value] : instance.reference) {
    text += fmt::format("reference {}: {}\n", name, value);
  }
  return text;
}

void runInfo(const InfoFlags& flags) {
  nlohmann::json all = nlohmann::json::array();
  bool first = true;
  for (const auto& spec : flags.inputs) {
    for (const auto& instance : loadInstances(spec, flags.input)) {
      const auto summary = summarizeGraph(*instance.graph, *instance.machine);
      if (!summary) throw CommandError(fmt::format("{}: {}", instance.sourcePath, summary.error()));
      if (flags.json) {
        all.push_back(summaryToJson(instance, *summary));
      } else {
        if (!first) std::cout << '\n';
        std::cout << describeSummary(instance, *summary);
      }
      first = false;
    }
  }
  if (flags.json) std::cout << (all.size() == 1 ? all[0] : all).dump(2) << '\n';
}

}  // namespace

void addInfoCommand(CLI::App& app) {
  auto flags = std::make_shared<InfoFlags>();
  CLI::App* command = app.add_subcommand(
      "info", "Sizes, critical path, ResMII/RecMII and what binds them, components");
  command->add_option("graph", flags->inputs, "Input graph(s); FILE#N picks one loop of a dump")
      ->required();
  flags->input.addTo(*command);
  command->add_flag("--json", flags->json, "Print JSON instead of a summary");
  command->callback([flags] { runInfo(*flags); });
}

}  // namespace gaus::cli
