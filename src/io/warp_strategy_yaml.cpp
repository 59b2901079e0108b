// Warp-strategy files (docs/formats.md "Warp strategy"): the roles a kernel author gives the ops
// of a loop, matched by name against the graph and placed on the machine's warps.

#include <fmt/format.h>

#include <gaus/io/input_error.hpp>
#include <gaus/io/io.hpp>

#include "json_parse.hpp"
#include "readers.hpp"
#include "yaml_document.hpp"

namespace gaus::io {

namespace {

OpId opNamed(const JsonValue& value, const Graph& graph, std::string_view what) {
  const std::string& name = asString(value, what);
  const std::optional<OpId> op = graph.findOp(name);
  if (!op) {
    throw InputError(value.line, expectedFound(fmt::format("{} of graph '{}'", what, graph.name()),
                                               quoteText(name)));
  }
  return *op;
}

std::vector<OpId> opList(const JsonValue& value, const Graph& graph, std::string_view what) {
  std::vector<OpId> ops;
  for (const JsonValue& item : asArray(value, what).items)
    ops.push_back(opNamed(item, graph, what));
  return ops;
}

StrategyRole roleFromJson(const JsonValue& entry, const Graph& graph) {
  asObject(entry, "a role");
  checkKeys(entry, {"name", "warps", "first_warp", "ops", "order", "stages"}, "a role");
  StrategyRole role;
  role.name = asString(requireMember(entry, "name", "a role"), "the name of a role");
  const std::string what = fmt::format("role '{}'", role.name);
  role.warps =
      asPositiveInt32(requireMember(entry, "warps", what), fmt::format("warp count of {}", what));
  if (const JsonValue* first = entry.find("first_warp")) {
    role.firstWarp = asNonNegativeInt32(*first, fmt::format("first warp of {}", what));
  }
  if (const JsonValue* ops = entry.find("ops")) {
    role.ops = opList(*ops, graph, fmt::format("an op of {}", what));
  }
  if (const JsonValue* order = entry.find("order")) {
    role.order = opList(*order, graph, fmt::format("an op in the order of {}", what));
  }
  if (const JsonValue* stages = entry.find("stages")) {
    asObject(*stages, fmt::format("the stages of {} (op: stage)", what));
    for (std::size_t i = 0; i < stages->keys.size(); ++i) {
      JsonValue name;
      name.reset(JsonValue::Kind::kString, stages->items[i].line);
      name.text = stages->keys[i];
      const OpId op = opNamed(name, graph, fmt::format("an op in the stages of {}", what));
      role.stages.emplace_back(
          op, asNonNegativeInt32(stages->items[i],
                                 fmt::format("stage of op '{}' in {}", stages->keys[i], what)));
    }
  }
  return role;
}

WarpStrategy strategyFromJson(const JsonValue& document, const Graph& graph, const Machine& machine,
                              std::string name) {
  asObject(document, "a warp strategy");
  checkKeys(document, {"graph", "roles"}, "a warp strategy");
  if (const JsonValue* graphName = document.find("graph")) {
    if (asString(*graphName, "the graph name") != graph.name()) {
      throw InputError(graphName->line,
                       expectedFound(fmt::format("a strategy of graph '{}'", graph.name()),
                                     fmt::format("one of {}", quoteText(graphName->text))));
    }
  }
  WarpStrategy strategy;
  strategy.name = std::move(name);
  const JsonValue& roles = requireMember(document, "roles", "a warp strategy");
  for (const JsonValue& entry : asArray(roles, "the roles").items) {
    strategy.roles.push_back(roleFromJson(entry, graph));
  }
  if (strategy.roles.empty()) {
    throw InputError(roles.line, expectedFound("at least one role", "none"));
  }
  auto placed = placeStrategy(std::move(strategy), graph, machine);
  if (!placed) {
    // At the line of the last role the refusal names ("... role 'mma' ..."), else the roles'.
    std::int64_t line = roles.line;
    for (const JsonValue& entry : roles.items) {
      const std::string role = fmt::format("role '{}'", entry.find("name")->text);
      if (placed.error().find(role) != std::string::npos) {
        line = entry.line;
      }
    }
    throw InputError(line, placed.error());
  }
  return std::move(placed).value();
}

}  // namespace

Expected<WarpStrategy> readWarpStrategy(const std::filesystem::path& path, const Graph& graph,
                                        const Machine& machine) {
  try {
    const std::string text = readFileText(path);
    const JsonValue document = path.extension() == ".json" ? parseJson(text) : parseYaml(text);
    return strategyFromJson(document, graph, machine, path.stem().string());
  } catch (const InputError& error) {
    return Error{error.describe(path)};
  } catch (const std::exception& error) {
    return Error{locate(path, 0, error.what())};
  }
}

}  // namespace gaus::io
