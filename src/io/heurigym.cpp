// HeuriGym operator scheduling (github.com/cornell-zhang/heurigym, operator_scheduling; see
// ../shared/benchmarks/heurigym-operator-scheduling/README.md):
//   {"name", "delay": {type: cycles}, "resource": {type: units}, "nodes": [[id, type], ...],
//    "edges": [[src, dst, label], ...]}
// Each type becomes a resource with `resource[type]` units; an op of the type has latency
// delay[type] and holds one unit for its whole delay (the benchmark's units are not pipelined),
// and an edge's delay is the latency of its source (t_i + delay_i <= t_j). The instance is named
// after the file ("hal" for hal.json, as in baseline.json and the README; the "name" inside the
// file differs). A baseline.json in the file's folder or a folder above gives
// reference["baseline_latency"].

#include <unordered_map>

#include <fmt/format.h>

#include <gaus/core/option_table.hpp>
#include <gaus/io/input_error.hpp>

#include "json_parse.hpp"
#include "readers.hpp"

namespace gaus::io {

namespace {

// A node id as text: the benchmark writes strings; integers are accepted as well.
std::string idText(const JsonValue& value, std::string_view what) {
  if (value.isString()) return value.text;
  if (value.kind == JsonValue::Kind::kInteger) return std::to_string(value.integer);
  throw InputError(value.line,
                   expectedFound(fmt::format("a string or integer {}", what), value.describe()));
}

const JsonValue& tuple(const JsonValue& value, std::size_t minimum, std::string_view what) {
  if (!value.isArray() || value.items.size() < minimum) {
    throw InputError(value.line,
                     expectedFound(what, value.isArray() ? fmt::format("an array of {} values",
                                                                       value.items.size())
                                                         : value.describe()));
  }
  return value;
}

std::optional<double> findBaseline(const std::filesystem::path& path, const std::string& name) {
  std::error_code error;
  for (auto folder = std::filesystem::absolute(path, error).parent_path();;
       folder = folder.parent_path()) {
    const auto candidate = folder / "baseline.json";
    if (std::filesystem::is_regular_file(candidate, error)) {
      try {
        const JsonValue baseline = parseJson(readFileText(candidate));
        asObject(baseline, "baseline.json");
        const JsonValue* figure = baseline.find(name);
        if (figure == nullptr) return std::nullopt;
        return static_cast<double>(
            asNonNegativeInt32(*figure, fmt::format("baseline latency of '{}'", name)));
      } catch (const InputError& failure) {
        if (!failure.file().empty()) throw;
        throw InputError(candidate, failure.line(), failure.what());
      }
    }
    if (folder == folder.parent_path() || folder.empty()) return std::nullopt;
  }
}

}  // namespace

std::vector<Instance> readHeuriGym(const std::filesystem::path& path) {
  const JsonValue document = parseJson(readFileText(path));
  asObject(document, "a HeuriGym instance");
  const JsonValue& delays =
      asObject(requireMember(document, "delay", "a HeuriGym instance"), "\"delay\"");
  const JsonValue& units =
      asObject(requireMember(document, "resource", "a HeuriGym instance"), "\"resource\"");
  const JsonValue& nodes =
      asArray(requireMember(document, "nodes", "a HeuriGym instance"), "\"nodes\"");
  const JsonValue& edges =
      asArray(requireMember(document, "edges", "a HeuriGym instance"), "\"edges\"");

  Machine machine;
  machine.name = "heurigym";
  for (std::size_t i = 0; i < units.keys.size(); ++i) {
    machine.addResource(units.keys[i],
                        asNonNegativeInt32(units.items[i], fmt::format("unit count for type {}",
                                                                       quoteText(units.keys[i]))));
  }
  struct TypeInfo {
    std::int32_t delay = 0;
    ResourceId resource = 0;
  };
  std::unordered_map<std::string, TypeInfo> types;
  for (std::size_t i = 0; i < delays.keys.size(); ++i) {
    const std::string& type = delays.keys[i];
    const auto resource = machine.findResource(type);
    if (!resource) {
      throw InputError(
          delays.items[i].line,
          expectedFound(fmt::format("a unit count for type {} in \"resource\"", quoteText(type)),
                        "none"));
    }
    types[type] = TypeInfo{
        asNonNegativeInt32(delays.items[i], fmt::format("delay for type {}", quoteText(type))),
        *resource};
  }

  const std::string name = path.stem().string();
  GraphBuilder builder(name);
  builder.reserve(nodes.items.size(), edges.items.size());
  std::unordered_map<std::string, OpId> opById;
  std::vector<std::int64_t> opLine;
  for (const JsonValue& node : nodes.items) {
    tuple(node, 2, "a node [id, type]");
    const std::string id = idText(node.items[0], "node id");
    const std::string& type =
        asString(node.items[1], fmt::format("type of node {}", quoteText(id)));
    const auto info = types.find(type);
    if (info == types.end()) {
      throw InputError(node.items[1].line,
                       expectedFound(fmt::format("an op type of \"delay\" ({})",
                                                 option_text::listChoices(delays.keys, ", ")),
                                     fmt::format("unknown op type {}", quoteText(type))));
    }
    const OpId op = builder.addOp(id, info->second.delay);
    builder.setKind(op, type);
    if (info->second.delay > 0) {
      builder.addReservation(op, ReservationBlock{info->second.resource, 0, info->second.delay, 1});
    }
    opById.emplace(id, op);
    opLine.push_back(node.line);
  }
  for (const JsonValue& edge : edges.items) {
    tuple(edge, 2, "an edge [source, target, label]");
    OpId ends[2] = {0, 0};
    for (int end = 0; end < 2; ++end) {
      const std::string id = idText(edge.items[end], end == 0 ? "edge source" : "edge target");
      const auto it = opById.find(id);
      if (it == opById.end()) {
        throw InputError(
            edge.items[end].line,
            expectedFound(fmt::format("a node id as the edge's {}", end == 0 ? "source" : "target"),
                          fmt::format("unknown node {}", quoteText(id))));
      }
      ends[end] = it->second;
    }
    builder.addEdge(ends[0], ends[1]);
  }
  Instance instance = finishInstance(std::move(builder), std::move(machine), name, path,
                                     [&](OpId op) { return opLine[op]; });
  if (const auto baseline = findBaseline(path, name)) {
    instance.reference["baseline_latency"] = *baseline;
  }
  std::vector<Instance> instances;
  instances.push_back(std::move(instance));
  return instances;
}

}  // namespace gaus::io
