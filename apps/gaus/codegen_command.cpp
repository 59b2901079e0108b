// gaus codegen GRAPH SCHEDULE --target text|layout|cuda|selftest|cpu|trace -o DIR: turns a
// verified modulo schedule (with or without warps) into the pipelined, warp-specialized loop it
// describes (docs/codegen.md). GRAPH may be a built-in kernel name, as for gaus twill.

#include <algorithm>
#include <iostream>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include <gaus/codegen/pipeline.hpp>
#include <gaus/codegen/targets.hpp>
#include <gaus/core/option_table.hpp>

#include "command.hpp"

namespace gaus::cli {

namespace {

// What each target writes (for --help) and what to do next with it (printed after writing,
// {dir} the output folder and {id} the kernel's identifier). A new target adds its row.
struct TargetUse {
  codegen::Target target;
  std::string_view writes;
  std::string_view next;  // empty: nothing to run
};
constexpr TargetUse kTargetUses[] = {
    {codegen::Target::kText,
     "the software pipeline per warp role, cycle by cycle with every wait and arrive: printed, "
     "or {id}.listing.txt with -o",
     ""},
    {codegen::Target::kLayout,
     "the memory layout as JSON (every ring's memory, base offset, slots and stride; the "
     "barriers; each memory's total against its capacity): printed, or {id}.layout.json with -o",
     ""},
    {codegen::Target::kCuda,
     "{id}_pipeline.cu (the warp-specialized kernel for sm_90a / sm_100a) and {id}_ops.cuh (the "
     "op functions you define)",
     "compile: nvcc -arch=sm_90a -c {dir}/{id}_pipeline.cu (sm_100a for a Blackwell machine), "
     "with your op definitions"},
    {codegen::Target::kCpu,
     "{id}_pipeline.cpp (one thread per role, running the same protocol and checking it) and "
     "gaus_protocol_runtime.hpp",
     "build and run: c++ -std=c++20 -O1 -pthread {dir}/{id}_pipeline.cpp -o {id}_pipeline && "
     "./{id}_pipeline --trips 50"},
    {codegen::Target::kTrace,
     "{id}.trace.json: a Chrome/Perfetto trace of --trips iterations of the schedule and of a "
     "CPU run",
     "open it in https://ui.perfetto.dev or chrome://tracing"},
    {codegen::Target::kSelfTest,
     "the cuda target's files and {id}_selftest.cu: the pipeline run on the GPU with op bodies "
     "that check every hand-over (docs/codegen.md, \"Self-test\")",
     "build and run on the GPU: nvcc -arch=sm_90a -std=c++17 -O2 -o {dir}/selftest "
     "{dir}/{id}_selftest.cu && {dir}/selftest (sm_100a for a Blackwell machine)"},
};

static_assert(std::size(kTargetUses) == codegen::kTargetNames.entries().size(),
              "every target of codegen::kTargetNames needs its row in kTargetUses");

const TargetUse& useOf(codegen::Target target) {
  return *std::find_if(std::begin(kTargetUses), std::end(kTargetUses),
                       [target](const TargetUse& use) { return use.target == target; });
}

std::string targetsHelp() {
  std::string text = "Targets (--target), {id} being the kernel's name:\n";
  std::size_t width = 0;
  for (const TargetUse& use : kTargetUses) {
    width = std::max(width, codegen::kTargetNames.name(use.target).size());
  }
  for (const TargetUse& use : kTargetUses) {
    text += fmt::format("  {:<{}} {}\n", codegen::kTargetNames.name(use.target), width, use.writes);
  }
  return text;
}

struct CodegenFlags {
  std::string graph;
  std::string schedule;
  InputFlags input;
  std::string target = "text";
  std::string output;
  std::int64_t trips = 10;
  std::string seedFault;
};

// The value of a choice flag in its name table, or an error naming the flag, the nearest name
// and every choice.
template <class NameTable>
auto parseChoice(const NameTable& table, std::string_view flag, const std::string& value) {
  const auto parsed = table.parse(value);
  if (!parsed) {
    const std::vector<std::string> names = table.names();
    throw CommandError(fmt::format("{} '{}'{}: expected {}", flag, value,
                                   option_text::didYouMean(value, names),
                                   option_text::listChoices(names)));
  }
  return *parsed;
}

void runCodegen(const CodegenFlags& flags) {
  const codegen::Target target = parseChoice(codegen::kTargetNames, "--target", flags.target);
  const bool oneFile = target == codegen::Target::kText || target == codegen::Target::kLayout;
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
    const codegen::ProtocolFault fault =
        parseChoice(codegen::kProtocolFaultNames, "--seed-fault", flags.seedFault);
    if (const Status seeded = codegen::seedFault(*pipeline, fault); !seeded) {
      throw CommandError(seeded.error());
    }
  }
  codegen::TargetOptions options;
  options.scheduleSource = flags.schedule;
  options.traceTrips = flags.trips;
  auto files = codegen::generate(*pipeline, target, options);
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
  if (const std::string_view next = useOf(target).next; !next.empty()) {
    std::cout << fmt::format(fmt::runtime(next), fmt::arg("dir", flags.output),
                             fmt::arg("id", pipeline->identifier))
              << '\n';
  }
}

}  // namespace

void addCodegenCommand(CLI::App& app) {
  auto flags = std::make_shared<CodegenFlags>();
  CLI::App* command = app.add_subcommand(
      "codegen",
      "Generate the pipelined, warp-specialized loop of a modulo schedule: a listing, a CUDA "
      "skeleton, a GPU self-test, a self-checking CPU program, the memory layout or a trace");
  command
      ->add_option("graph", flags->graph,
                   "Loop body: a graph file, or a built-in kernel name (configs/kernels)")
      ->required();
  command->add_option("schedule", flags->schedule, "Schedule JSON with ii (and warps)")->required();
  flags->input.addTo(*command);
  command
      ->add_option(
          "--target", flags->target,
          option_text::listChoices(codegen::kTargetNames.names()) + " (below: what each writes)")
      ->capture_default_str();
  command->add_option("-o,--output", flags->output,
                      "Folder to write into (text and layout: printed when absent)");
  command->add_option("--trips", flags->trips, "trace: iterations drawn and run on the CPU")
      ->capture_default_str();
  command->footer(targetsHelp());
  command->add_option("--seed-fault", flags->seedFault,
                      "Write a broken copy that the checks must catch: " +
                          option_text::listChoices(codegen::kProtocolFaultNames.names()));
  command->callback([flags] { runCodegen(*flags); });
}

}  // namespace gaus::cli
