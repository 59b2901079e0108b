// gaus convert IN OUT: any readable input to native JSON / YAML or DOT.

#include <iostream>

#include <fmt/format.h>

#include "command.hpp"

namespace gaus::cli {

namespace {

struct ConvertFlags {
  std::string input;
  std::string output;
  std::string to;
  InputFlags inputFlags;
};

io::Format outputFormat(const ConvertFlags& flags) {
  if (!flags.to.empty()) {
    const auto format = io::parseFormat(flags.to);
    if (!format || (*format != io::Format::kNativeJson && *format != io::Format::kNativeYaml &&
                    *format != io::Format::kDot)) {
      throw CommandError(fmt::format("--to '{}': expected json, yaml or dot", flags.to));
    }
    return *format;
  }
  if (flags.output.ends_with(".yaml") || flags.output.ends_with(".yml")) {
    return io::Format::kNativeYaml;
  }
  if (flags.output.ends_with(".dot")) return io::Format::kDot;
  if (flags.output.ends_with(".json") || flags.output == "-") return io::Format::kNativeJson;
  throw CommandError(
      fmt::format("{}: cannot tell the output format from the extension; use "
                  "--to json|yaml|dot",
                  flags.output));
}

void runConvert(const ConvertFlags& flags) {
  const io::Format format = outputFormat(flags);
  const Instance instance = loadInstance(flags.input, flags.inputFlags);
  auto text = io::formatInstance(instance, format);
  if (!text) throw CommandError(text.error());
  writeOutput(flags.output, *text);
  if (flags.output != "-") {
    std::cerr << fmt::format("wrote {} ({}, {} ops, {} edges)\n", flags.output,
                             io::toString(format), instance.graph->numOps(),
                             instance.graph->numEdges());
  }
}

}  // namespace

void addConvertCommand(CLI::App& app) {
  auto flags = std::make_shared<ConvertFlags>();
  CLI::App* command =
      app.add_subcommand("convert", "Convert any readable graph to native JSON/YAML or DOT");
  command->add_option("input", flags->input, "Input graph (FILE#N picks one loop)")->required();
  command->add_option("output", flags->output, "Output file (- = stdout)")->required();
  command->add_option("--to", flags->to, "json, yaml or dot (default: from the extension)");
  flags->inputFlags.addTo(*command);
  command->callback([flags] { runConvert(*flags); });
}

}  // namespace gaus::cli
