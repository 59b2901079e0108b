// gaus codegen GRAPH SCHEDULE --target text|layout|cuda|selftest|cpu|trace -o DIR: turns a
// verified modulo schedule (with or without warps) into the pipelined, warp-specialized loop it
// describes (docs/codegen.md). GRAPH may be a built-in kernel name, as for gaus twill.

#include <iostream>

#include <fmt/format.h>

#include <gaus/codegen/pipeline.hpp>
#include <gaus/codegen/targets.hpp>
#include <gaus/core/option_table.hpp>

#include "command.hpp"

namespace gaus::cli {

namespace {

struct CodegenFlags {
  std::string graph;
  std::string schedule;
  InputFlags input;
  std::string target = "text";
  std::string output;
  std::int64_t trips = 10;
  std::string seedFault;
};

void runCodegen(const CodegenFlags& flags) {
  const auto target = codegen::kTargetNames.parse(flags.target);
  if (!target) {
    throw CommandError(fmt::format("--target '{}': expected {}", flags.target,
                                   option_text::listChoices(codegen::kTargetNames.names())));
  }
  const bool oneFile = *target == codegen::Target::kText || *target == codegen::Target::kLayout;
  if (flags.output.empty() && !oneFile) {
    throw CommandError(
        fmt::format("--target {} writes several files: give a folder with -o DIR", flags.target));
  }
  if (flags.trips < 0 || flags.trips > 1000000) {
    throw CommandError(fmt::format("--trips {}: expected 0 to 1000000", flags.trips));
  }
  const Instance instance = loadInstance(flags.graph, flags.input);
  auto schedule = io::readSchedule(flags.schedule, *instance.graph);
  if (!schedule) throw CommandError(schedule.error());
  auto pipeline = codegen::buildPipeline(instance, *schedule);
  if (!pipeline) throw CommandError(fmt::format("{}: {}", flags.schedule, pipeline.error()));
  if (!flags.seedFault.empty()) {
    const auto fault = codegen::kProtocolFaultNames.parse(flags.seedFault);
    if (!fault) {
      throw CommandError(
          fmt::format("--seed-fault '{}': expected {}", flags.seedFault,
                      option_text::listChoices(codegen::kProtocolFaultNames.names())));
    }
    if (const Status seeded = codegen::seedFault(*pipeline, *fault); !seeded) {
      throw CommandError(seeded.error());
    }
  }
  codegen::TargetOptions options;
  options.scheduleSource = flags.schedule;
  options.traceTrips = flags.trips;
  auto files = codegen::generate(*pipeline, *target, options);
  if (!files) throw CommandError(fmt::format("{}: {}", instance.name, files.error()));
  if (flags.output.empty()) {
    std::cout << files->front().content;
    return;
  }
  if (const Status written = codegen::writeFiles(flags.output, *files); !written) {
    throw CommandError(written.error());
  }
  for (const auto& file : *files) {
    std::cout << (std::filesystem::path(flags.output) / file.name).string() << '\n';
  }
}

}  // namespace

void addCodegenCommand(CLI::App& app) {
  auto flags = std::make_shared<CodegenFlags>();
  CLI::App* command = app.add_subcommand(
      "codegen",
      "Generate the pipelined, warp-specialized loop of a modulo schedule: a listing, a CUDA "
      "skeleton, a self-checking CPU program or a trace");
  command
      ->add_option("graph", flags->graph,
                   "Loop body: a graph file, or a built-in kernel name (configs/kernels)")
      ->required();
  command->add_option("schedule", flags->schedule, "Schedule JSON with ii (and warps)")->required();
  flags->input.addTo(*command);
  command
      ->add_option("--target", flags->target,
                   option_text::listChoices(codegen::kTargetNames.names()))
      ->capture_default_str();
  command->add_option("-o,--output", flags->output,
                      "Folder to write into (text and layout: printed when absent)");
  command->add_option("--trips", flags->trips, "trace: iterations drawn and run on the CPU")
      ->capture_default_str();
  command->add_option("--seed-fault", flags->seedFault,
                      "Write a broken copy that the checks must catch: " +
                          option_text::listChoices(codegen::kProtocolFaultNames.names()));
  command->callback([flags] { runCodegen(*flags); });
}

}  // namespace gaus::cli
