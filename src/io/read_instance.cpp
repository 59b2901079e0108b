// The entry points of gaus/io/io.hpp: dispatch by format, the "#SELECTOR" of readInstance, and
// the writers. Every reader's InputError becomes an Error here, so no exception leaves the module.

#include <charconv>
#include <new>

#include <fmt/format.h>

#include <gaus/core/option_table.hpp>
#include <gaus/io/input_error.hpp>
#include <gaus/io/io.hpp>

#include "readers.hpp"

namespace gaus::io {

namespace {

std::vector<Instance> readByFormat(const std::filesystem::path& path, Format format,
                                   const ReadOptions& options) {
  switch (format) {
    case Format::kNativeJson:
      return readNativeJson(path);
    case Format::kNativeYaml:
      return readNativeYaml(path);
    case Format::kHeuriGym:
      return readHeuriGym(path);
    case Format::kGml:
      return readGml(path, options);
    case Format::kAigerBinary:
    case Format::kAigerAscii:
      return readAiger(path);
    case Format::kTritonDdg:
      return readTritonDdg(path);
    case Format::kHatschetGraphml:
      return readHatschet(path, options);
    case Format::kDot:
      break;
  }
  throw InputError(0,
                   expectedFound("a readable format", "DOT, which gaus writes but does not read"));
}

std::string instanceList(const std::vector<Instance>& instances) {
  std::string list;
  for (std::size_t i = 0; i < instances.size(); ++i) {
    list += fmt::format("{}#{} {}", i == 0 ? "" : ", ", i, instances[i].name);
  }
  return list;
}

}  // namespace

namespace {

// A path that names no file may name a built-in kernel ("fa_fwd_hopper" for
// configs/kernels/fa_fwd_hopper.yaml), in every subcommand alike. A bare name that is neither is
// reported with the kernels there are.
Expected<std::filesystem::path> resolveInputPath(const std::filesystem::path& path) {
  std::error_code error;
  if (std::filesystem::exists(path, error)) return path;
  if (const auto kernel = findKernelFile(path.string())) return *kernel;
  if (path.has_parent_path() || path.has_extension()) return path;  // the reader says "no file"
  const std::vector<std::string> kernels = builtInKernelNames();
  return Error{fmt::format(
      "{}: no such file, and no built-in kernel of that name{} (expected a graph file or one of: "
      "{})",
      path.string(), option_text::didYouMean(path.string(), kernels),
      kernels.empty() ? std::string("none found in configs/kernels")
                      : option_text::listChoices(kernels))};
}

}  // namespace

Expected<std::vector<Instance>> readInstances(const std::filesystem::path& spec,
                                              const ReadOptions& options) {
  const auto resolved = resolveInputPath(spec);
  if (!resolved) return Error{resolved.error()};
  const std::filesystem::path& path = *resolved;
  try {
    Format format{};
    if (options.format) {
      format = *options.format;
    } else {
      auto sniffed = sniffFormat(path);
      if (!sniffed) return Error{sniffed.error()};
      format = *sniffed;
    }
    return readByFormat(path, format, options);
  } catch (const InputError& error) {
    return Error{error.describe(path)};
  } catch (const std::bad_alloc&) {
    return Error{locate(path, 0, "out of memory while reading the file")};
  } catch (const std::exception& error) {
    return Error{locate(path, 0, error.what())};
  }
}

Expected<Instance> readNativeJsonText(std::string_view text, const std::filesystem::path& source) {
  try {
    return std::move(readNativeJsonDocument(text, source).front());
  } catch (const InputError& error) {
    return Error{error.describe(source)};
  } catch (const std::bad_alloc&) {
    return Error{locate(source, 0, "out of memory while reading the document")};
  } catch (const std::exception& error) {
    return Error{locate(source, 0, error.what())};
  }
}

Expected<Instance> readInstance(std::string_view spec, const ReadOptions& options) {
  std::filesystem::path path{std::string(spec)};
  std::optional<std::string> selector;
  std::error_code error;
  // A '#' starts a selector unless the whole spec names an existing file.
  if (const auto hash = spec.rfind('#');
      hash != std::string_view::npos && !std::filesystem::exists(path, error)) {
    path = std::string(spec.substr(0, hash));
    selector = std::string(spec.substr(hash + 1));
  }
  auto instances = readInstances(path, options);
  if (!instances) return Error{instances.error()};
  auto& all = *instances;
  if (!selector) {
    if (all.size() == 1) return std::move(all.front());
    return Error{
        locate(path, 0,
               expectedFound("one instance, or a selector FILE#INDEX or FILE#NAME",
                             fmt::format("{} instances: {}", all.size(), instanceList(all))))};
  }
  std::size_t index = 0;
  const auto [end, parsed] =
      std::from_chars(selector->data(), selector->data() + selector->size(), index);
  if (parsed == std::errc{} && end == selector->data() + selector->size()) {
    if (index < all.size()) return std::move(all[index]);
  } else {
    for (auto& instance : all) {
      const auto slash = instance.name.rfind('/');
      const std::string_view shortName = slash == std::string::npos
                                             ? std::string_view(instance.name)
                                             : std::string_view(instance.name).substr(slash + 1);
      if (instance.name == *selector || shortName == *selector) return std::move(instance);
    }
  }
  return Error{
      locate(path, 0,
             expectedFound(fmt::format("an instance index or name ({})", instanceList(all)),
                           fmt::format("selector {}", quoteText(*selector))))};
}

Expected<std::string> formatInstance(const Instance& instance, Format format) {
  try {
    switch (format) {
      case Format::kNativeJson:
        return formatNativeDocument(instance, false);
      case Format::kNativeYaml:
        return formatNativeDocument(instance, true);
      case Format::kDot:
        return formatDotGraph(instance);
      default:
        break;
    }
  } catch (const InputError& error) {
    return Error{fmt::format("instance '{}': {}", instance.name, error.what())};
  }
  return Error{
      fmt::format("cannot write format {}: gaus writes json, yaml and dot", toString(format))};
}

Status writeInstance(const std::filesystem::path& path, const Instance& instance, Format format) {
  auto text = formatInstance(instance, format);
  if (!text) return Error{fmt::format("{}: {}", path.string(), text.error())};
  return writeFileAtomically(path, *text);
}

}  // namespace gaus::io
