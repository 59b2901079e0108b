// The per-format readers and writers behind the entry points of gaus/io/io.hpp, and the pieces
// they share. Readers throw InputError (input_error.hpp); read_instance.cpp turns it into an Error.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <gaus/core/graph.hpp>
#include <gaus/core/instance.hpp>
#include <gaus/core/machine.hpp>
#include <gaus/core/schedule.hpp>
#include <gaus/io/io.hpp>
#include <gaus/io/json_value.hpp>

#include "document_writer.hpp"

namespace gaus::io {

// ---- readers, one per format (each file under src/io names its format) ----
std::vector<Instance> readNativeJson(const std::filesystem::path& path);
// The same document held in memory; `path` names it in messages and is where it finds machines.
std::vector<Instance> readNativeJsonDocument(std::string_view text,
                                             const std::filesystem::path& path);
std::vector<Instance> readNativeYaml(const std::filesystem::path& path);
std::vector<Instance> readHeuriGym(const std::filesystem::path& path);
std::vector<Instance> readGml(const std::filesystem::path& path, const ReadOptions& options);
std::vector<Instance> readAiger(const std::filesystem::path& path);
std::vector<Instance> readTritonDdg(const std::filesystem::path& path);
std::vector<Instance> readHatschet(const std::filesystem::path& path, const ReadOptions& options);

// ---- writers ----
// The native document as JSON or as its YAML twin (native_writer.cpp). Throws InputError for
// values the format cannot hold (a non-finite weight).
std::string formatNativeDocument(const Instance& instance, bool yaml);
std::string formatDotGraph(const Instance& instance);

// ---- shared pieces ----
// The whole file as text; throws InputError naming the file when it cannot be read.
std::string readFileText(const std::filesystem::path& path);

// The last step of every reader: builds the graph and rejects what no method can use, each with
// the file and, where `opLine` (or for the cycle `edgeLine`, by edge in the order the builder got
// them) knows it, the line: duplicate op names, an empty graph, a cycle of distance-0 edges (at
// its edge that goes back in the order the ops were given).
Instance finishInstance(GraphBuilder&& builder, Machine machine, std::string name,
                        const std::filesystem::path& source,
                        const std::function<std::int64_t(OpId)>& opLine = {},
                        const std::function<std::int64_t(EdgeId)>& edgeLine = {});

// A machine object (docs/formats.md "machine"); `defaultName` when it has no "name".
Machine machineFromJson(const JsonValue& value, std::string_view defaultName);
// A machine file (YAML, or JSON by extension); errors name that file.
Machine loadMachineFile(const std::filesystem::path& path);
// Where a configuration file named by a string lives: `reference` as a path from
// `documentFolder` (with or without .yaml), else NAME.yaml in configs/<subfolder>/ of the
// document's folder or any folder above it, else in $GAUS_CONFIG_DIR/<subfolder> (a
// colon-separated list), else in the source tree's configs/<subfolder>.
std::optional<std::filesystem::path> findConfigFile(std::string_view subfolder,
                                                    std::string_view reference,
                                                    const std::filesystem::path& documentFolder);
// findConfigFile for machines (configs/machines).
std::optional<std::filesystem::path> findMachineFile(std::string_view reference,
                                                     const std::filesystem::path& documentFolder);
// The search above in words, for messages.
std::string describeMachineSearch();

// The schedule object {ii, start, warps} of a native document or a schedule file, matched to the
// graph by op name: every op needs a start; unknown ops are errors.
Schedule scheduleFromJson(const JsonValue& value, const Graph& graph);
// Writes the schedule's members (ii, start, warps) into the current mapping of `writer`.
void writeScheduleFields(DocumentWriter& writer, const Graph& graph, const Schedule& schedule);

}  // namespace gaus::io
