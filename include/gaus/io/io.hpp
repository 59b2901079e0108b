// Reading and writing graphs, machines and schedules. Every reader reports bad input as an
// Error whose message names the file, the line (where the format has lines) and what was
// expected: "hal.json:12: expected an integer delay for type 'mul', found \"two\"". Writers
// replace their output atomically (temporary file + rename), so a failed write never leaves a
// partial file. See docs/formats.md for every format.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <gaus/core/expected.hpp>
#include <gaus/core/instance.hpp>
#include <gaus/core/machine.hpp>
#include <gaus/core/schedule.hpp>
#include <gaus/core/warp_strategy.hpp>

namespace gaus::io {

enum class Format {
  kNativeJson,       // gaus graph + machine (+ schedule), docs/formats.md
  kNativeYaml,       // the same structure in YAML
  kHeuriGym,         // HeuriGym operator scheduling JSON
  kGml,              // networkx GML (GS-Schedule random workloads)
  kAigerBinary,      // AIGER "aig"
  kAigerAscii,       // AIGER "aag"
  kTritonDdg,        // Triton ddg-0.1 JSON, one instance per loop
  kHatschetGraphml,  // HatScheT GraphML + _RM.xml resource model
  kDot,              // Graphviz DOT (write only)
};

std::string_view toString(Format format);
std::optional<Format> parseFormat(std::string_view name);  // "json", "yaml", "heurigym", ...

struct ReadOptions {
  std::optional<Format> format;  // unset: sniffed from the extension and the content
  // HatScheT: the resource model file; unset: "<graph stem>_RM.xml" beside the graph.
  std::optional<std::filesystem::path> resourceModel;
  // GML: edge `parameter` > 0 becomes comm 1 (GS-Schedule's binarization); off keeps the raw
  // value as the comm weight.
  bool binarizeComm = true;
};

// Sniffs the format: the extension first (.aig, .aag, .gml, .graphml, .yaml/.yml, .dot), then,
// for .json, the content (a "schema_version": "ddg-0.1" key, HeuriGym's "delay"/"resource"/
// "nodes" keys, or the native "format" key).
Expected<Format> sniffFormat(const std::filesystem::path& path);

// Reads every instance in a file: one for most formats, one per loop for Triton dumps. A path
// that names no file but a built-in kernel ("toy_fa", findKernelFile) reads that kernel.
Expected<std::vector<Instance>> readInstances(const std::filesystem::path& path,
                                              const ReadOptions& options = {});

// Reads one instance. `spec` is a path, optionally followed by "#SELECTOR" choosing one of
// several instances by index or name ("case5_addmm_bias.ddg.json#1", "...#loop1"). A file with
// several instances and no selector is an error that lists them.
Expected<Instance> readInstance(std::string_view spec, const ReadOptions& options = {});

// A native JSON document held in memory (a graph a program built: Python's gaus.Graph(dict)),
// read as readInstance reads a file. `source` stands for the file: messages name it, and a
// machine the document names is found from its folder.
Expected<Instance> readNativeJsonText(std::string_view text, const std::filesystem::path& source);

// A machine description in YAML (configs/machines/*.yaml), or JSON for a .json file.
Expected<Machine> readMachine(const std::filesystem::path& path);
// A machine description held in memory as JSON; `source` names it in messages.
Expected<Machine> readMachineJsonText(std::string_view text, const std::filesystem::path& source);

// The instance on another machine (rebindMachine: ops keep their resources by name), or an error
// naming the instance's file, what the machine lacks and the shipped machines that have it all:
// `--machine` of every command.
Expected<Instance> moveToMachine(const Instance& instance, const Machine& machine);

// A machine given by a path or by name ("hls_small" for configs/machines/hls_small.yaml), found
// the way a document's "machine": "NAME" is (docs/formats.md "machine"), starting from `folder`:
// for `--machine` options.
Expected<Machine> findMachine(std::string_view reference,
                              const std::filesystem::path& folder = ".");

// A built-in kernel given by a path or by name ("toy_fa" for configs/kernels/toy_fa.yaml), found
// like machines (in configs/kernels/ instead of configs/machines/): for `gaus twill KERNEL`.
std::optional<std::filesystem::path> findKernelFile(std::string_view reference,
                                                    const std::filesystem::path& folder = ".");

// The names of the built-in kernels: the stems of the YAML files in every configs/kernels/
// folder findKernelFile searches from `folder`, sorted, each once.
std::vector<std::string> builtInKernelNames(const std::filesystem::path& folder = ".");

// The names of the machines findMachine finds by name from `folder` (configs/machines/), sorted.
std::vector<std::string> builtInMachineNames(const std::filesystem::path& folder = ".");

// Text of an instance in a writable format (native JSON or YAML, or DOT). Fails for a format
// gaus does not write and for values JSON cannot hold (a non-finite weight).
Expected<std::string> formatInstance(const Instance& instance, Format format);

// Writes an instance atomically in the given format (native JSON or YAML, or DOT).
Status writeInstance(const std::filesystem::path& path, const Instance& instance, Format format);

// Schedules as JSON (docs/formats.md "Schedule JSON"): {"format": "gaus-schedule-0.1", "graph":
// "toy_fa", "ii": 2, "start": {"S": 0, ...}, "warps": {"S": [1], ...}}, ii and warps optional.
// Reading matches ops by name against the graph: every op needs a start, and an unknown op is an
// error naming it.
std::string formatSchedule(const Graph& graph, const Schedule& schedule);
Expected<Schedule> readSchedule(const std::filesystem::path& path, const Graph& graph);
Status writeSchedule(const std::filesystem::path& path, const Graph& graph,
                     const Schedule& schedule);

// A warp strategy (docs/formats.md "Warp strategy"): roles with their warp counts and ops, by
// name, placed on the machine's warps (core placeStrategy). An op the graph does not have, a
// strategy of another graph or one that cannot hold on the machine is an error naming the line.
Expected<WarpStrategy> readWarpStrategy(const std::filesystem::path& path, const Graph& graph,
                                        const Machine& machine);

// The one rule of every reader of an input file, checked before it parses anything: "PATH: no
// such file" (with " (expected WHAT)" when `what` says what the file should hold), "PATH:
// expected a regular file, found a directory or device", or "PATH: cannot open the file:
// REASON". A missing file is never reported as a file in the wrong format.
Status checkInputFile(const std::filesystem::path& path, std::string_view what = {});

// Replaces `path` with `content` through a temporary file in the same folder and a rename.
Status writeFileAtomically(const std::filesystem::path& path, std::string_view content);

}  // namespace gaus::io
