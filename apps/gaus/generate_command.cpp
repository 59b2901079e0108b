// gaus generate: deterministic random dependence graphs (core/random_graph.hpp).

#include <iostream>

#include <fmt/format.h>

#include <gaus/core/random_graph.hpp>

#include "command.hpp"

namespace gaus::cli {

namespace {

struct GenerateFlags {
  RandomGraphOptions options;
  std::vector<std::string> types;
  std::string output = "-";
  std::string to;
};

void runGenerate(GenerateFlags& flags) {
  if (!flags.types.empty()) {
    flags.options.opTypes.clear();
    for (const auto& spec : flags.types) {
      auto type = parseRandomOpType(spec);
      if (!type) throw CommandError("--type " + type.error());
      flags.options.opTypes.push_back(std::move(type).value());
    }
  }
  auto generated = generateRandomGraph(flags.options);
  if (!generated) throw CommandError(generated.error());
  const Instance instance = toInstance(std::move(generated).value());
  io::Format format = io::Format::kNativeJson;
  if (!flags.to.empty()) {
    const auto parsed = io::parseFormat(flags.to);
    if (!parsed) throw CommandError(fmt::format("--to '{}': expected json, yaml or dot", flags.to));
    format = *parsed;
  } else if (flags.output.ends_with(".yaml") || flags.output.ends_with(".yml")) {
    format = io::Format::kNativeYaml;
  } else if (flags.output.ends_with(".dot")) {
    format = io::Format::kDot;
  }
  auto text = io::formatInstance(instance, format);
  if (!text) throw CommandError(text.error());
  writeOutput(flags.output, *text);
  if (flags.output != "-") {
    std::cerr << fmt::format("wrote {} ({} ops, {} edges)\n", flags.output,
                             instance.graph->numOps(), instance.graph->numEdges());
  }
}

}  // namespace

void addGenerateCommand(CLI::App& app) {
  auto flags = std::make_shared<GenerateFlags>();
  RandomGraphOptions& o = flags->options;
  CLI::App* command = app.add_subcommand(
      "generate", "Write a deterministic random graph (same options and seed, same graph)");
  command->add_option("--ops", o.ops, "Number of ops")->capture_default_str();
  command->add_option("--degree", o.averageDegree, "Average out-degree")->capture_default_str();
  command->add_option("--edge-probability", o.edgeProbability,
                      "Draw each forward pair with this probability instead (small graphs)");
  command->add_flag("--layered", o.layered, "Layered DAG (edges go to later layers)");
  command->add_option("--layers", o.layers, "Layers of a layered DAG")->capture_default_str();
  command->add_option("--layer-span", o.maxLayerSpan, "Layers an edge may skip, at most")
      ->capture_default_str();
  command
      ->add_option("--fanin", o.faninPerOp,
                   "Layered DAG: exactly this many predecessors per op past the first layer "
                   "(replaces --degree; 0 = off)")
      ->capture_default_str();
  command->add_option("--id-span", o.maxIdSpan,
                      "Free DAG: positions an edge may span in the hidden order (0 = any)");
  command->add_option("--type", flags->types,
                      "Op type NAME:MIN-MAX[:OCCUPANCY[:UNITS[:SHARE]]] (repeatable); "
                      "default ALU:1-1:1:inf");
  command->add_option("--back-edges", o.backEdges, "Loop-carried edges")->capture_default_str();
  command->add_option("--max-distance", o.maxDistance, "Largest iteration distance")
      ->capture_default_str();
  command->add_option("--weighted", o.weightedFraction, "Fraction of ops with a weight");
  command->add_option("--min-weight", o.minWeight, "Smallest weight");
  command->add_option("--max-weight", o.maxWeight, "Largest weight");
  command->add_option("--comm", o.commFraction, "Fraction of edges with communication");
  command->add_option("--seed", o.seed, "Random seed")->capture_default_str();
  command->add_option("-o,--output", flags->output, "Output file (- = stdout)")
      ->capture_default_str();
  command->add_option("--to", flags->to, "Output format: json, yaml or dot (default: extension)");
  command->callback([flags] { runGenerate(*flags); });
}

}  // namespace gaus::cli
