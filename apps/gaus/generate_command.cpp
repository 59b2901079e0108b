// gaus generate: deterministic random dependence graphs (core/random_graph.hpp) and, with
// --circuit, and-inverter graphs with a given profile (core/random_circuit.hpp).

#include <iostream>

#include <fmt/format.h>

#include <gaus/core/option_table.hpp>
#include <gaus/core/random_circuit.hpp>
#include <gaus/core/random_graph.hpp>

#include "command.hpp"

namespace gaus::cli {

namespace {

// --circuit: the profile, the family whose fitted parameters are the defaults, and the
// parameters given one by one.
struct CircuitFlags {
  bool enabled = false;
  RandomCircuitOptions options;
  std::string family = "epfl";
  std::optional<double> level1PerInput, widthDecay, widthNoise, widthCorrelation, inputReads,
      sameLevelFanin, outputsOnLastLevel, innerOutputDepth, heightFraction;
  std::optional<std::int32_t> criticalGates;
  std::vector<CLI::Option*> own;  // flags that only --circuit takes
};

struct GenerateFlags {
  RandomGraphOptions options;
  std::vector<std::string> types;
  std::string output = "-";
  std::string to;
  CircuitFlags circuit;
  std::vector<CLI::Option*> graphOnly;  // flags of the random graphs, refused with --circuit
};

// The generated graph: a random circuit with --circuit, else a random graph.
RandomInstance generateFromFlags(GenerateFlags& flags) {
  CircuitFlags& circuit = flags.circuit;
  for (const CLI::Option* option : circuit.enabled ? flags.graphOnly : circuit.own) {
    if (option->count() == 0) continue;
    throw CommandError(circuit.enabled
                           ? fmt::format("{} shapes random graphs, not --circuit (a circuit's "
                                         "size is --inputs and --ands)",
                                         option->get_name())
                           : fmt::format("{} needs --circuit", option->get_name()));
  }
  if (circuit.enabled) {
    const auto family = kCircuitFamilyNames.parse(circuit.family);
    if (!family) {
      throw CommandError(fmt::format("--family '{}': expected {}", circuit.family,
                                     option_text::listChoices(kCircuitFamilyNames.names())));
    }
    CircuitParameters& p = circuit.options.parameters;
    p = circuitFamilyParameters(*family);
    const auto set = [](double& field, const std::optional<double>& given) {
      if (given) field = *given;
    };
    set(p.level1PerInput, circuit.level1PerInput);
    set(p.widthDecay, circuit.widthDecay);
    set(p.widthNoise, circuit.widthNoise);
    set(p.widthCorrelation, circuit.widthCorrelation);
    set(p.inputReads, circuit.inputReads);
    set(p.sameLevelFanin, circuit.sameLevelFanin);
    set(p.outputsOnLastLevel, circuit.outputsOnLastLevel);
    set(p.innerOutputDepth, circuit.innerOutputDepth);
    set(p.heightFraction, circuit.heightFraction);
    if (circuit.criticalGates) p.criticalGates = *circuit.criticalGates;
    circuit.options.seed = flags.options.seed;
    auto generated = generateRandomCircuit(circuit.options);
    if (!generated) throw CommandError(generated.error());
    return std::move(generated).value();
  }
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
  return std::move(generated).value();
}

void runGenerate(GenerateFlags& flags) {
  const Instance instance = toInstance(generateFromFlags(flags));
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

// The flags of --circuit (docs/random_graphs.md, "Circuits").
void addCircuitFlags(CLI::App& command, CircuitFlags& circuit) {
  RandomCircuitOptions& c = circuit.options;
  const CircuitParameters fitted = circuitFamilyParameters(CircuitFamily::kEpfl);
  const auto own = [&](CLI::Option* option) {
    option->group("Circuit (--circuit)");
    circuit.own.push_back(option);
    return option;
  };
  command
      .add_flag("--circuit", circuit.enabled,
                "An and-inverter graph with the profile below, shaped like the EPFL circuits")
      ->group("Circuit (--circuit)");
  own(command.add_option("--inputs", c.inputs, "Primary inputs"))->capture_default_str();
  own(command.add_option("--ands", c.ands, "AND gates (two distinct fan-ins each)"))
      ->capture_default_str();
  own(command.add_option("--depth", c.depth, "Levels: the longest path has depth + 1 nodes"))
      ->capture_default_str();
  own(command.add_option("--outputs", c.outputs,
                         "Gates no gate reads (default: as many as inputs, within the bounds)"));
  own(command.add_option("--components", c.components, "Weakly connected components"))
      ->capture_default_str();
  own(command.add_option("--component-gates", c.componentGates,
                         "Mean gates of each component beyond the first"))
      ->capture_default_str();
  own(command.add_option("--family", circuit.family,
                         "Shared circuits the defaults below are fitted to: epfl (all 11), "
                         "arithmetic or control"))
      ->capture_default_str();
  const auto parameter = [&](const char* name, std::optional<double>& field, double value,
                             const char* what) {
    own(command.add_option(name, field, fmt::format("{} (epfl: {})", what, value)));
  };
  parameter("--level1-per-input", circuit.level1PerInput, fitted.level1PerInput,
            "Gates on level 1 per input");
  parameter("--width-decay", circuit.widthDecay, fitted.widthDecay,
            "Level widths fall as exp(-decay x), x from 0 (level 2) to 1 (last level)");
  parameter("--width-noise", circuit.widthNoise, fitted.widthNoise,
            "Standard deviation of the log level width around that trend");
  parameter("--width-correlation", circuit.widthCorrelation, fitted.widthCorrelation,
            "Correlation of that noise between adjacent levels");
  parameter("--input-reads", circuit.inputReads, fitted.inputReads,
            "Fraction of gates past level 1 whose second fan-in is an input");
  parameter("--same-level-fanin", circuit.sameLevelFanin, fitted.sameLevelFanin,
            "Fraction of the other second fan-ins on the first fan-in's level");
  parameter("--outputs-on-last-level", circuit.outputsOnLastLevel, fitted.outputsOnLastLevel,
            "Fraction of the outputs on the last level");
  parameter("--inner-output-depth", circuit.innerOutputDepth, fitted.innerOutputDepth,
            "Mean level / depth of the other outputs");
  own(command.add_option(
      "--critical-gates", circuit.criticalGates,
      fmt::format("Gates per level on a longest path (epfl: {})", fitted.criticalGates)));
  parameter("--height-fraction", circuit.heightFraction, fitted.heightFraction,
            "Mean height / (depth - level) of the other gates that are read (1: no slack)");
}

}  // namespace

void addGenerateCommand(CLI::App& app) {
  auto flags = std::make_shared<GenerateFlags>();
  RandomGraphOptions& o = flags->options;
  CLI::App* command = app.add_subcommand(
      "generate", "Write a deterministic random graph (same options and seed, same graph)");
  auto& graphOnly = flags->graphOnly;
  graphOnly.push_back(command->add_option("--ops", o.ops, "Number of ops")->capture_default_str());
  graphOnly.push_back(command->add_option("--degree", o.averageDegree, "Average out-degree")
                          ->capture_default_str());
  graphOnly.push_back(
      command->add_option("--edge-probability", o.edgeProbability,
                          "Draw each forward pair with this probability instead (small graphs)"));
  graphOnly.push_back(
      command->add_flag("--layered", o.layered, "Layered DAG (edges go to later layers)"));
  graphOnly.push_back(
      command->add_option("--layers", o.layers, "Layers of a layered DAG")->capture_default_str());
  graphOnly.push_back(
      command->add_option("--layer-span", o.maxLayerSpan, "Layers an edge may skip, at most")
          ->capture_default_str());
  graphOnly.push_back(
      command
          ->add_option("--fanin", o.faninPerOp,
                       "Layered DAG: exactly this many predecessors per op past the first layer "
                       "(replaces --degree; 0 = off)")
          ->capture_default_str());
  graphOnly.push_back(
      command->add_option("--id-span", o.maxIdSpan,
                          "Free DAG: positions an edge may span in the hidden order (0 = any)"));
  graphOnly.push_back(command->add_option("--type", flags->types,
                                          "Op type NAME:MIN-MAX[:OCCUPANCY[:UNITS[:SHARE]]] "
                                          "(repeatable); default ALU:1-1:1:inf"));
  graphOnly.push_back(command->add_option("--back-edges", o.backEdges, "Loop-carried edges")
                          ->capture_default_str());
  graphOnly.push_back(
      command->add_option("--max-distance", o.maxDistance, "Largest iteration distance")
          ->capture_default_str());
  graphOnly.push_back(
      command->add_option("--weighted", o.weightedFraction, "Fraction of ops with a weight"));
  graphOnly.push_back(command->add_option("--min-weight", o.minWeight, "Smallest weight"));
  graphOnly.push_back(command->add_option("--max-weight", o.maxWeight, "Largest weight"));
  graphOnly.push_back(
      command->add_option("--comm", o.commFraction, "Fraction of edges with communication"));
  command->add_option("--seed", o.seed, "Random seed")->capture_default_str();
  command->add_option("-o,--output", flags->output, "Output file (- = stdout)")
      ->capture_default_str();
  command->add_option("--to", flags->to, "Output format: json, yaml or dot (default: extension)");
  addCircuitFlags(*command, flags->circuit);
  command->callback([flags] { runGenerate(*flags); });
}

}  // namespace gaus::cli
