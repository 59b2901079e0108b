// Triton dependence-graph dumps, schema "ddg-0.1" (a Triton modulo-scheduling pass for NVIDIA
// Blackwell; see ../shared/benchmarks/triton-ddg/README.md). Every loop becomes an instance named
// "<stem>/loop<ID>". Mapping:
// - node -> op "<kind>_<id>" (the op_kind after its dialect prefix: "tc_gen5_mma_7"), latency =
//   node `latency`, min_warps carried; `pipeline` TC, TMA, SFU or CUDA is a resource of capacity
//   1 held for `occupancy` cycles from the start (occupancy 0, or pipeline NONE: no reservation);
//   `self_latency` and the super-node extras (inner_ii, prologue_latency) are not used.
// - edge -> delay = edge `latency`, distance = `distance` (the `kind` label adds nothing).
// - the machine: the four units, and memories smem / tmem from `config` when given.
// - reference: the dump's res_mii, rec_mii, min_ii and trip_count; and, from
//   "<stem>.schedule_graph.json" beside the dump, the loop's heuristic_ii, heuristic_max_stage,
//   heuristic_prologue_latency and heuristic_warp_groups (what Triton's own heuristic chose).

#include <map>
#include <unordered_map>

#include <fmt/format.h>

#include "input_error.hpp"
#include "json_parse.hpp"
#include "readers.hpp"

namespace gaus::io {

namespace {

constexpr std::string_view kUnits[] = {"TC", "TMA", "SFU", "CUDA"};

std::string dumpStem(const std::filesystem::path& path) {
  std::string stem = path.filename().string();
  for (std::string_view suffix : {".ddg.json", ".json"}) {
    if (stem.size() > suffix.size() && stem.ends_with(suffix)) {
      return stem.substr(0, stem.size() - suffix.size());
    }
  }
  return stem;
}

// The figures of Triton's heuristic schedule per loop id, from schedule_graph.json.
std::unordered_map<std::int64_t, std::map<std::string, double, std::less<>>> readHeuristic(
    const std::filesystem::path& path) {
  std::unordered_map<std::int64_t, std::map<std::string, double, std::less<>>> figures;
  try {
    const JsonValue document = parseJson(readFileText(path));
    asObject(document, "a Triton schedule graph");
    const JsonValue& loops =
        asArray(requireMember(document, "loops", "a Triton schedule graph"), "\"loops\"");
    for (const JsonValue& loop : loops.items) {
      asObject(loop, "a loop");
      const std::int32_t id =
          asNonNegativeInt32(requireMember(loop, "loop_id", "a loop"), "loop id");
      auto& loopFigures = figures[id];
      const JsonValue& schedule =
          asObject(requireMember(loop, "schedule_loop", "a loop"), "\"schedule_loop\"");
      loopFigures["heuristic_ii"] =
          asPositiveInt32(requireMember(schedule, "II", "\"schedule_loop\""), "II");
      if (const JsonValue* stage = schedule.find("max_stage")) {
        loopFigures["heuristic_max_stage"] = asNonNegativeInt32(*stage, "max_stage");
      }
      if (const JsonValue* prologue = schedule.find("prologue_latency")) {
        loopFigures["heuristic_prologue_latency"] =
            asNonNegativeInt32(*prologue, "prologue_latency");
      }
      if (const JsonValue* groups = loop.find("warp_groups")) {
        loopFigures["heuristic_warp_groups"] =
            static_cast<double>(asArray(*groups, "\"warp_groups\"").items.size());
      }
    }
  } catch (const InputError& error) {
    if (!error.file().empty()) throw;
    throw InputError(path, error.line(), error.what());
  }
  return figures;
}

Instance readLoop(const JsonValue& loop, const Machine& machine, const std::string& stem,
                  const std::filesystem::path& path) {
  asObject(loop, "a loop");
  const std::int32_t loopId =
      asNonNegativeInt32(requireMember(loop, "loop_id", "a loop"), "loop id");
  const std::string name = fmt::format("{}/loop{}", stem, loopId);
  const std::string where = fmt::format("loop {}", loopId);
  const JsonValue& ddg = asObject(requireMember(loop, "ddg", where), "\"ddg\"");
  const JsonValue& nodes = asArray(requireMember(ddg, "nodes", "\"ddg\""), "\"nodes\"");
  const JsonValue& edges = asArray(requireMember(ddg, "edges", "\"ddg\""), "\"edges\"");

  GraphBuilder builder(name);
  builder.reserve(nodes.items.size(), edges.items.size());
  std::unordered_map<std::int32_t, OpId> opByNodeId;
  std::vector<std::int64_t> opLine;
  for (const JsonValue& node : nodes.items) {
    asObject(node, "a node");
    const std::int32_t id = asNonNegativeInt32(requireMember(node, "id", "a node"), "node id");
    const std::string what = fmt::format("node {}", id);
    const std::string& kind =
        asString(requireMember(node, "op_kind", what), fmt::format("op_kind of {}", what));
    const std::string& pipeline =
        asString(requireMember(node, "pipeline", what), fmt::format("pipeline of {}", what));
    const std::int32_t latency = asNonNegativeInt32(requireMember(node, "latency", what),
                                                    fmt::format("latency of {}", what));
    const std::int32_t occupancy =
        node.find("occupancy") != nullptr
            ? asNonNegativeInt32(*node.find("occupancy"), fmt::format("occupancy of {}", what))
            : 0;
    const auto dot = kind.rfind('.');
    const OpId op = builder.addOp(
        fmt::format("{}_{}", dot == std::string::npos ? kind : kind.substr(dot + 1), id), latency);
    builder.setKind(op, kind);
    if (pipeline != "NONE") {
      const auto unit = machine.findResource(pipeline);
      if (!unit) {
        throw InputError(node.find("pipeline")->line,
                         expectedFound("a pipeline TC, TMA, SFU, CUDA or NONE",
                                       fmt::format("unknown pipeline {}", quoteText(pipeline))));
      }
      if (occupancy > 0) builder.addReservation(op, ReservationBlock{*unit, 0, occupancy, 1});
    }
    if (const JsonValue* warps = node.find("min_warps")) {
      const std::int32_t minWarps = asPositiveInt32(*warps, fmt::format("min_warps of {}", what));
      if (minWarps > kMaxWarps) {
        throw InputError(warps->line, expectedFound(fmt::format("at most {} min_warps", kMaxWarps),
                                                    std::to_string(minWarps)));
      }
      builder.setMinWarps(op, minWarps);
    }
    if (!opByNodeId.emplace(id, op).second) {
      throw InputError(node.line, expectedFound("unique node ids", fmt::format("id {} again", id)));
    }
    opLine.push_back(node.line);
  }
  for (const JsonValue& edge : edges.items) {
    asObject(edge, "an edge");
    OpId ends[2] = {0, 0};
    const char* keys[2] = {"src", "dst"};
    for (int end = 0; end < 2; ++end) {
      const JsonValue& id = requireMember(edge, keys[end], "an edge");
      const auto it = opByNodeId.find(asNonNegativeInt32(id, fmt::format("edge {}", keys[end])));
      if (it == opByNodeId.end()) {
        throw InputError(id.line, expectedFound(fmt::format("a node id of {} as the edge's {}",
                                                            where, keys[end]),
                                                fmt::format("unknown node {}", id.describe())));
      }
      ends[end] = it->second;
    }
    const std::int32_t delay =
        asNonNegativeInt32(requireMember(edge, "latency", "an edge"), "edge latency");
    const std::int32_t distance = edge.find("distance") != nullptr
                                      ? asNonNegativeInt32(*edge.find("distance"), "edge distance")
                                      : 0;
    builder.addEdge(ends[0], ends[1], delay, distance);
  }
  Instance instance =
      finishInstance(std::move(builder), machine, name, path, [&](OpId op) { return opLine[op]; });
  for (const char* figure : {"res_mii", "rec_mii", "min_ii", "trip_count"}) {
    if (const JsonValue* value = loop.find(figure); value != nullptr && !value->isNull()) {
      instance.reference[figure] = asNonNegativeInt32(*value, figure);
    }
  }
  return instance;
}

}  // namespace

std::vector<Instance> readTritonDdg(const std::filesystem::path& path) {
  const JsonValue document = parseJson(readFileText(path));
  asObject(document, "a Triton ddg dump");
  const JsonValue& schema = requireMember(document, "schema_version", "a Triton ddg dump");
  if (asString(schema, "schema_version") != "ddg-0.1") {
    throw InputError(schema.line, expectedFound("schema_version \"ddg-0.1\"", schema.describe()));
  }
  Machine machine;
  machine.name = "triton";
  for (std::string_view unit : kUnits) machine.addResource(unit, 1);
  if (const JsonValue* config = document.find("config")) {
    asObject(*config, "\"config\"");
    if (const JsonValue* smem = config->find("smem_budget_bytes")) {
      machine.memories.push_back(Memory{"smem", asNonNegativeInt32(*smem, "smem_budget_bytes")});
    }
    if (const JsonValue* tmem = config->find("tmem_budget_bytes")) {
      machine.memories.push_back(Memory{"tmem", asNonNegativeInt32(*tmem, "tmem_budget_bytes")});
    }
  }
  const std::string stem = dumpStem(path);
  const JsonValue& loops =
      asArray(requireMember(document, "loops", "a Triton ddg dump"), "\"loops\"");
  if (loops.items.empty()) throw InputError(loops.line, expectedFound("at least one loop", "none"));

  std::unordered_map<std::int64_t, std::map<std::string, double, std::less<>>> heuristic;
  const auto schedulePath = path.parent_path() / (stem + ".schedule_graph.json");
  std::error_code error;
  if (std::filesystem::is_regular_file(schedulePath, error))
    heuristic = readHeuristic(schedulePath);

  std::vector<Instance> instances;
  for (const JsonValue& loop : loops.items) {
    Instance instance = readLoop(loop, machine, stem, path);
    const std::int64_t id = asNonNegativeInt32(*loop.find("loop_id"), "loop id");
    if (const auto it = heuristic.find(id); it != heuristic.end()) {
      instance.reference.insert(it->second.begin(), it->second.end());
    }
    instances.push_back(std::move(instance));
  }
  return instances;
}

}  // namespace gaus::io
