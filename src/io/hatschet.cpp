// HatScheT graphs (github.com/SpeedyBK/hatschet, the MachSuite loops of Oppermann et al., FPL
// 2018; see ../shared/benchmarks/hatschet-machsuite/README.md): a GraphML file whose nodes name a
// resource (`uses_resource`) and whose edges carry `delay` and `distance`, plus a resource model
// "<graph>_RM.xml" with <Resource name limit latency blockingTime>; HatScheT's chained variants
// ("graph2.200MHz.graphml", the same loop at another clock) share their base graph's model
// ("graph2_RM.xml"), which the reader takes when the variant has none of its own and records in
// the instance's notes. Mapping:
// - op per node, named by its `name` data (or its id), kind = its resource, latency =
//   latency(resource);
// - a limited resource (limit >= 0) holds one unit for `blockingTime` cycles from the start
//   (blockingTime 0: no reservation); `limit` -1 or "inf" is unlimited and reserves nothing;
// - edge i -> j: delay = latency(res(i)) + delay, distance as given, so the precedence is
//   HatScheT's t_i + latency(res(i)) + delay <= t_j + distance * II (`deptype` adds nothing).
// Instances are named "<folder>/<graph>" ("aes2/graph1"). pugixml parses; node offsets give
// the lines in messages.

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <optional>
#include <pugixml.hpp>
#include <unordered_map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <gaus/core/types.hpp>
#include <gaus/io/input_error.hpp>

#include "readers.hpp"

namespace gaus::io {

namespace {

// Line numbers from byte offsets, for one parsed buffer.
class LineIndex {
 public:
  explicit LineIndex(std::string_view text) {
    for (std::size_t i = 0; i < text.size(); ++i) {
      if (text[i] == '\n') newlines_.push_back(i);
    }
  }
  std::int64_t lineOf(std::ptrdiff_t offset) const {
    if (offset < 0) return 0;
    return 1 +
           (std::lower_bound(newlines_.begin(), newlines_.end(), static_cast<std::size_t>(offset)) -
            newlines_.begin());
  }

 private:
  std::vector<std::size_t> newlines_;
};

struct XmlFile {
  std::string text;
  pugi::xml_document document;
  std::unique_ptr<LineIndex> lines;

  std::int64_t lineOf(const pugi::xml_node& node) const {
    return lines->lineOf(node.offset_debug());
  }
};

void loadXml(const std::filesystem::path& path, XmlFile& file) {
  file.text = readFileText(path);
  file.lines = std::make_unique<LineIndex>(file.text);
  const pugi::xml_parse_result result =
      file.document.load_buffer(file.text.data(), file.text.size());
  if (!result) {
    throw InputError(path, file.lines->lineOf(result.offset),
                     expectedFound("well-formed XML", result.description()));
  }
}

// An integer attribute or data text, within the int32 range.
std::int32_t parseInteger(std::string_view text, std::string_view what, std::int64_t line,
                          const std::filesystem::path& file) {
  std::int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error == std::errc::result_out_of_range ||
      (error == std::errc{} && (value > kMaxInputValue || value < -kMaxInputValue))) {
    throw InputError(file, line,
                     expectedFound(fmt::format("{} within the int32 range", what),
                                   fmt::format("{} (integer overflow)", quoteText(text))));
  }
  if (error != std::errc{} || end != text.data() + text.size()) {
    throw InputError(file, line,
                     expectedFound(fmt::format("an integer {}", what), quoteText(text)));
  }
  return static_cast<std::int32_t>(value);
}

struct ResourceModelEntry {
  std::int32_t latency = 0;
  std::int32_t blockingTime = 0;
  ResourceId resource = 0;
  bool limited = false;
};

std::unordered_map<std::string, ResourceModelEntry> readResourceModel(
    const std::filesystem::path& path, Machine& machine) {
  XmlFile file;
  loadXml(path, file);
  const pugi::xml_node resources = file.document.child("ModelInformation").child("Resources");
  if (!resources) {
    throw InputError(path, 1, expectedFound("<ModelInformation><Resources>", "neither"));
  }
  std::unordered_map<std::string, ResourceModelEntry> model;
  for (const pugi::xml_node& node : resources.children("Resource")) {
    const std::int64_t line = file.lineOf(node);
    const std::string name = node.attribute("name").value();
    if (name.empty()) throw InputError(path, line, expectedFound("a resource name", "none"));
    const auto attribute = [&](const char* key) -> std::string_view {
      const pugi::xml_attribute found = node.attribute(key);
      if (!found) {
        throw InputError(
            path, line,
            expectedFound(fmt::format("attribute {} of resource '{}'", key, name), "none"));
      }
      return found.value();
    };
    ResourceModelEntry entry;
    const std::string_view limit = attribute("limit");
    std::optional<std::int32_t> capacity;
    if (limit != "inf" && limit != "-1") {
      capacity = parseInteger(limit, fmt::format("limit of resource '{}'", name), line, path);
      if (*capacity < 0) {
        throw InputError(path, line,
                         expectedFound(fmt::format("a limit >= 0, -1 or inf for "
                                                   "resource '{}'",
                                                   name),
                                       quoteText(limit)));
      }
    }
    entry.latency = parseInteger(attribute("latency"),
                                 fmt::format("latency of resource '{}'", name), line, path);
    entry.blockingTime = parseInteger(
        attribute("blockingTime"), fmt::format("blockingTime of resource '{}'", name), line, path);
    if (entry.latency < 0 || entry.blockingTime < 0) {
      throw InputError(path, line,
                       expectedFound(fmt::format("a nonnegative latency and blockingTime for "
                                                 "resource '{}'",
                                                 name),
                                     fmt::format("{} and {}", entry.latency, entry.blockingTime)));
    }
    if (machine.findResource(name)) {
      throw InputError(
          path, line,
          expectedFound("each resource once", fmt::format("{} again", quoteText(name))));
    }
    entry.limited = capacity.has_value();
    entry.resource = machine.addResource(name, capacity);
    model.emplace(name, entry);
  }
  return model;
}

// The text of <data key="KEY"> under `node`, or nothing.
std::optional<std::string_view> data(const pugi::xml_node& node, const char* key) {
  for (const pugi::xml_node& child : node.children("data")) {
    if (std::string_view(child.attribute("key").value()) == key) return child.child_value();
  }
  return std::nullopt;
}

// The resource model beside `graph`: "<stem>_RM.xml", else that of the graph the stem names
// without its last ".suffix", and so on ("graph2.200MHz" -> "graph2"), as HatScheT lays out its
// chained variants. Nothing when none exists; `tried` lists the paths looked at.
std::optional<std::filesystem::path> resourceModelBeside(const std::filesystem::path& graph,
                                                         std::vector<std::string>& tried) {
  std::string stem = graph.stem().string();
  while (!stem.empty()) {
    const std::filesystem::path candidate = graph.parent_path() / (stem + "_RM.xml");
    std::error_code error;
    if (std::filesystem::is_regular_file(candidate, error)) return candidate;
    tried.push_back(candidate.string());
    const std::size_t dot = stem.rfind('.');
    if (dot == std::string::npos || dot == 0) break;
    stem.resize(dot);
  }
  return std::nullopt;
}

}  // namespace

std::vector<Instance> readHatschet(const std::filesystem::path& path, const ReadOptions& options) {
  XmlFile file;
  loadXml(path, file);
  std::error_code error;
  std::filesystem::path modelPath;
  if (options.resourceModel) {
    modelPath = *options.resourceModel;
    if (!std::filesystem::is_regular_file(modelPath, error)) {
      throw InputError(0, expectedFound(fmt::format("the resource model {} (given with "
                                                    "--resources)",
                                                    modelPath.string()),
                                        "no such file"));
    }
  } else {
    std::vector<std::string> tried;
    const auto beside = resourceModelBeside(path, tried);
    if (!beside) {
      throw InputError(0,
                       expectedFound(fmt::format("the resource model {} (beside the graph; or pass "
                                                 "--resources)",
                                                 fmt::join(tried, " or ")),
                                     "no such file"));
    }
    modelPath = *beside;
  }
  Machine machine;
  machine.name = modelPath.stem().string();
  const auto model = readResourceModel(modelPath, machine);

  const pugi::xml_node graph = file.document.child("graphml").child("graph");
  if (!graph) throw InputError(1, expectedFound("<graphml><graph>", "neither"));
  const std::string folder =
      std::filesystem::absolute(path, error).parent_path().filename().string();
  const std::string name =
      folder.empty() ? path.stem().string() : fmt::format("{}/{}", folder, path.stem().string());
  GraphBuilder builder(name);
  std::unordered_map<std::string, OpId> opByNodeId;
  std::vector<std::int64_t> opLine;
  std::vector<std::int32_t> latencyOf;
  for (const pugi::xml_node& node : graph.children("node")) {
    const std::int64_t line = file.lineOf(node);
    const std::string id = node.attribute("id").value();
    if (id.empty()) throw InputError(line, expectedFound("a node id", "none"));
    const auto resourceName = data(node, "uses_resource");
    if (!resourceName) {
      throw InputError(
          line, expectedFound(fmt::format("<data key=\"uses_resource\"> in node {}", id), "none"));
    }
    const auto entry = model.find(std::string(*resourceName));
    if (entry == model.end()) {
      throw InputError(line,
                       expectedFound(fmt::format("a resource of {}", modelPath.filename().string()),
                                     fmt::format("unknown resource {}", quoteText(*resourceName))));
    }
    const auto opName = data(node, "name");
    const OpId op = builder.addOp(std::string(opName ? *opName : id), entry->second.latency);
    builder.setKind(op, *resourceName);
    if (entry->second.limited && entry->second.blockingTime > 0) {
      builder.addReservation(
          op, ReservationBlock{entry->second.resource, 0, entry->second.blockingTime, 1});
    }
    if (!opByNodeId.emplace(id, op).second) {
      throw InputError(line,
                       expectedFound("unique node ids", fmt::format("id {} again", quoteText(id))));
    }
    opLine.push_back(line);
    latencyOf.push_back(entry->second.latency);
  }
  for (const pugi::xml_node& edge : graph.children("edge")) {
    const std::int64_t line = file.lineOf(edge);
    OpId ends[2] = {0, 0};
    const char* keys[2] = {"source", "target"};
    for (int end = 0; end < 2; ++end) {
      const std::string id = edge.attribute(keys[end]).value();
      const auto it = opByNodeId.find(id);
      if (it == opByNodeId.end()) {
        throw InputError(line, expectedFound(fmt::format("a node id as the edge's {}", keys[end]),
                                             fmt::format("unknown node {}", quoteText(id))));
      }
      ends[end] = it->second;
    }
    const auto delayText = data(edge, "delay");
    const auto distanceText = data(edge, "distance");
    const std::int32_t delay = delayText ? parseInteger(*delayText, "edge delay", line, path) : 0;
    const std::int32_t distance =
        distanceText ? parseInteger(*distanceText, "edge distance", line, path) : 0;
    if (distance < 0) {
      throw InputError(line,
                       expectedFound("a nonnegative edge distance", std::to_string(distance)));
    }
    const std::int64_t total = static_cast<std::int64_t>(latencyOf[ends[0]]) + delay;
    if (total < 0 || total > kMaxInputValue) {
      throw InputError(line,
                       expectedFound("latency(source) + delay >= 0 and within the int32 range",
                                     fmt::format("{} + {}", latencyOf[ends[0]], delay)));
    }
    builder.addEdge(ends[0], ends[1], static_cast<std::int32_t>(total), distance);
  }
  std::vector<Instance> instances;
  instances.push_back(finishInstance(std::move(builder), std::move(machine), name, path,
                                     [&](OpId op) { return opLine[op]; }));
  if (!options.resourceModel && modelPath.filename() != path.stem().string() + "_RM.xml") {
    instances.back().notes.push_back(
        fmt::format("resource model {}: {} has none of its own (HatScheT's chained variants share "
                    "their base graph's; --resources picks another)",
                    modelPath.string(), path.filename().string()));
  }
  return instances;
}

}  // namespace gaus::io
