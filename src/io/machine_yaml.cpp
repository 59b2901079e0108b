// Machine descriptions (docs/formats.md "machine"): the object inside a native document and the
// machine files of configs/machines/, plus the search for a machine named by a string.

#include <cstdlib>
#include <set>

#include <fmt/format.h>

#include <gaus/core/option_table.hpp>
#include <gaus/core/types.hpp>
#include <gaus/io/input_error.hpp>

#include "json_parse.hpp"
#include "readers.hpp"
#include "yaml_document.hpp"

#ifndef GAUS_SOURCE_CONFIG_DIR
#define GAUS_SOURCE_CONFIG_DIR ""
#endif

namespace gaus::io {

namespace {

std::string namedEntry(const JsonValue& entry, std::string_view what) {
  asObject(entry, what);
  checkKeys(entry, {"name", "capacity"}, what);
  return asString(requireMember(entry, "name", what), fmt::format("the name of {}", what));
}

}  // namespace

Machine machineFromJson(const JsonValue& value, std::string_view defaultName) {
  asObject(value, "the machine");
  checkKeys(value,
            {"name", "resources", "memories", "warps", "threads_per_warp", "register_limit",
             "register_file", "variable_latency_warp", "warp_issue_width"},
            "the machine");
  Machine machine;
  const JsonValue* name = value.find("name");
  machine.name = name != nullptr ? asString(*name, "the machine name") : std::string(defaultName);
  if (const JsonValue* resources = value.find("resources")) {
    for (const JsonValue& entry : asArray(*resources, "the machine's resources").items) {
      const std::string resourceName = namedEntry(entry, "a resource");
      if (machine.findResource(resourceName)) {
        throw InputError(
            entry.line,
            expectedFound("each resource once", fmt::format("{} again", quoteText(resourceName))));
      }
      std::optional<std::int32_t> capacity;
      if (const JsonValue* given = entry.find("capacity"); given != nullptr && !given->isNull()) {
        capacity =
            asNonNegativeInt32(*given, fmt::format("capacity of resource '{}'", resourceName));
      }
      machine.resources.push_back(Resource{resourceName, capacity});
    }
  }
  if (const JsonValue* memories = value.find("memories")) {
    for (const JsonValue& entry : asArray(*memories, "the machine's memories").items) {
      const std::string memoryName = namedEntry(entry, "a memory");
      if (machine.findMemory(memoryName)) {
        throw InputError(entry.line, expectedFound("each memory once",
                                                   fmt::format("{} again", quoteText(memoryName))));
      }
      const std::int32_t capacity =
          asNonNegativeInt32(requireMember(entry, "capacity", "a memory"),
                             fmt::format("capacity of memory '{}'", memoryName));
      machine.memories.push_back(Memory{memoryName, capacity});
    }
  }
  if (const JsonValue* warps = value.find("warps")) {
    machine.warps = asPositiveInt32(*warps, "warp count");
    if (machine.warps > kMaxWarps) {
      throw InputError(warps->line, expectedFound(fmt::format("at most {} warps", kMaxWarps),
                                                  std::to_string(machine.warps)));
    }
  }
  if (const JsonValue* threads = value.find("threads_per_warp")) {
    machine.threadsPerWarp = asPositiveInt32(*threads, "threads per warp");
    if (machine.threadsPerWarp != 32 && machine.threadsPerWarp != 128) {
      throw InputError(threads->line,
                       expectedFound("32 or 128 threads per warp (a warp or a warp group)",
                                     std::to_string(machine.threadsPerWarp)));
    }
  }
  if (const JsonValue* limit = value.find("register_limit"); limit != nullptr && !limit->isNull()) {
    machine.registerLimit = asNonNegativeInt32(*limit, "register limit");
  }
  if (const JsonValue* file = value.find("register_file"); file != nullptr && !file->isNull()) {
    machine.registerFile = asNonNegativeInt32(*file, "register file size");
  }
  if (const JsonValue* warp = value.find("variable_latency_warp");
      warp != nullptr && !warp->isNull()) {
    const std::int32_t index = asNonNegativeInt32(*warp, "variable-latency warp");
    if (index >= machine.warps) {
      throw InputError(warp->line, expectedFound(fmt::format("a warp index below the warp count {}",
                                                             machine.warps),
                                                 std::to_string(index)));
    }
    machine.variableLatencyWarp = index;
  }
  if (const JsonValue* width = value.find("warp_issue_width");
      width != nullptr && !width->isNull()) {
    machine.warpIssueWidth = asNonNegativeInt32(*width, "warp issue width");
    if (*machine.warpIssueWidth == 0) {
      throw InputError(width->line, expectedFound("a positive warp issue width", "0"));
    }
  }
  return machine;
}

Machine loadMachineFile(const std::filesystem::path& path) {
  try {
    const std::string text = readFileText(path);
    const JsonValue document = path.extension() == ".json" ? parseJson(text) : parseYaml(text);
    return machineFromJson(document, path.stem().string());
  } catch (const InputError& error) {
    if (!error.file().empty()) throw;
    throw InputError(path, error.line(), error.what());
  }
}

namespace {

// configs/<subfolder>/ of the document's project (its folder or any folder above it), of
// $GAUS_CONFIG_DIR and of the source tree, in the order they are searched.
std::vector<std::filesystem::path> configFolders(std::string_view subfolder,
                                                 const std::filesystem::path& documentFolder) {
  namespace fs = std::filesystem;
  std::vector<fs::path> folders;
  fs::path folder = fs::absolute(documentFolder).lexically_normal();
  while (true) {
    folders.push_back(folder / "configs" / subfolder);
    if (folder == folder.parent_path() || folder.empty()) break;
    folder = folder.parent_path();
  }
  if (const char* configDirs = std::getenv("GAUS_CONFIG_DIR")) {
    std::string_view rest(configDirs);
    while (!rest.empty()) {
      const auto colon = rest.find(':');
      const std::string_view entry = rest.substr(0, colon);
      if (!entry.empty()) folders.push_back(fs::path(entry) / subfolder);
      rest = colon == std::string_view::npos ? std::string_view{} : rest.substr(colon + 1);
    }
  }
  if (std::string_view(GAUS_SOURCE_CONFIG_DIR).size() > 0) {
    folders.push_back(fs::path(GAUS_SOURCE_CONFIG_DIR) / subfolder);
  }
  return folders;
}

}  // namespace

std::optional<std::filesystem::path> findConfigFile(std::string_view subfolder,
                                                    std::string_view reference,
                                                    const std::filesystem::path& documentFolder) {
  namespace fs = std::filesystem;
  const fs::path given(reference);
  // A reference names a file as given, or a machine by its name without the extension.
  const auto candidates = [&](const fs::path& folder) {
    std::vector<fs::path> paths{folder / given};
    if (!given.has_extension()) {
      paths.push_back(folder / fs::path(std::string(reference) + ".yaml"));
      paths.push_back(folder / fs::path(std::string(reference) + ".yml"));
    }
    return paths;
  };
  std::vector<fs::path> folders;
  if (given.is_absolute()) {
    folders.emplace_back();
  } else {
    folders.push_back(documentFolder);
    const auto configs = configFolders(subfolder, documentFolder);
    folders.insert(folders.end(), configs.begin(), configs.end());
  }
  for (const fs::path& folder : folders) {
    for (const fs::path& candidate : candidates(folder)) {
      std::error_code error;
      if (fs::is_regular_file(candidate, error)) return candidate;
    }
  }
  return std::nullopt;
}

std::optional<std::filesystem::path> findMachineFile(std::string_view reference,
                                                     const std::filesystem::path& documentFolder) {
  return findConfigFile("machines", reference, documentFolder);
}

std::string describeMachineSearch() {
  std::string text =
      "looked for it from the document's folder, in configs/machines/ of that folder and of "
      "each folder above it, in $GAUS_CONFIG_DIR/machines";
  if (std::string_view(GAUS_SOURCE_CONFIG_DIR).size() > 0) {
    text += fmt::format(" and in {}/machines", GAUS_SOURCE_CONFIG_DIR);
  }
  return text;
}

Expected<Machine> readMachine(const std::filesystem::path& path) {
  try {
    return loadMachineFile(path);
  } catch (const InputError& error) {
    return Error{error.describe(path)};
  } catch (const std::exception& error) {
    return Error{locate(path, 0, error.what())};
  }
}

Expected<Machine> readMachineJsonText(std::string_view text, const std::filesystem::path& source) {
  try {
    return machineFromJson(parseJson(text), source.stem().string());
  } catch (const InputError& error) {
    return Error{error.describe(source)};
  } catch (const std::exception& error) {
    return Error{locate(source, 0, error.what())};
  }
}

std::optional<std::filesystem::path> findKernelFile(std::string_view reference,
                                                    const std::filesystem::path& folder) {
  return findConfigFile("kernels", reference, folder);
}

namespace {

// The stems of the YAML files in every configs/<subfolder>/ folder findConfigFile searches from
// `folder`, sorted, each once.
std::vector<std::string> configNames(std::string_view subfolder,
                                     const std::filesystem::path& folder) {
  namespace fs = std::filesystem;
  std::set<std::string> names;
  for (const fs::path& configs : configFolders(subfolder, folder)) {
    std::error_code error;
    for (fs::directory_iterator it(configs, error), end; !error && it != end; it.increment(error)) {
      const fs::path& path = it->path();
      if (path.extension() == ".yaml" || path.extension() == ".yml") {
        names.insert(path.stem().string());
      }
    }
  }
  return {names.begin(), names.end()};
}

}  // namespace

std::vector<std::string> builtInKernelNames(const std::filesystem::path& folder) {
  return configNames("kernels", folder);
}

std::vector<std::string> builtInMachineNames(const std::filesystem::path& folder) {
  return configNames("machines", folder);
}

Expected<Machine> findMachine(std::string_view reference, const std::filesystem::path& folder) {
  const auto file = findMachineFile(reference, folder);
  if (!file) {
    return Error{fmt::format("machine {}: expected a machine file ({}), found none{}",
                             quoteText(reference), describeMachineSearch(),
                             option_text::didYouMean(reference, builtInMachineNames(folder)))};
  }
  return readMachine(*file);
}

namespace {

// The shipped machines the instance can be rebound to (each resource and memory it uses is
// there by name), for the message when the one asked for lacks something.
std::string machinesThatFit(const Instance& instance) {
  std::vector<std::string> names;
  for (const auto& name : builtInMachineNames()) {
    const auto machine = findMachine(name);
    if (machine && rebindMachine(instance, *machine)) names.push_back(name);
  }
  return names.empty() ? "none of the shipped machines has them all"
                       : "machines that have them all: " + option_text::listChoices(names, ", ");
}

}  // namespace

Expected<Instance> moveToMachine(const Instance& instance, const Machine& machine) {
  auto rebound = rebindMachine(instance, machine);
  if (!rebound) {
    return Error{fmt::format("{}: {} ({})", instance.sourcePath, rebound.error(),
                             machinesThatFit(instance))};
  }
  return rebound;
}

}  // namespace gaus::io
