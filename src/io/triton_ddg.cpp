// Triton dependence-graph dumps, schema "ddg-0.1" (a Triton modulo-scheduling pass; see
// ../shared/benchmarks/triton-ddg/README.md). Every loop becomes an instance named
// "<stem>/loop<ID>". Mapping:
// - node -> op "<kind>_<id>" (the op_kind after its dialect prefix: "tc_gen5_mma_7"), latency =
//   node `latency`, min_warps carried; `pipeline` TC, TMA, SFU, CUDA (or TMEM) is a resource of
//   the machine held for `occupancy` cycles from the start (occupancy 0, or pipeline NONE: no
//   reservation); `self_latency` and the super-node extras (inner_ii, prologue_latency) are not
//   used.
// - edge -> delay = edge `latency`, distance = `distance` (the `kind` label adds nothing).
// - the machine: configs/machines/triton_blackwell.yaml or triton_hopper.yaml, the one for the
//   dump's architecture (dumpArchitecture), with the memory budgets of `config` when given and,
//   per loop, the warps of Triton's own warp groups from the companion file.
// - reference: the dump's res_mii, rec_mii, min_ii and trip_count; and, from
//   "<stem>.schedule_graph.json" beside the dump, the loop's heuristic_ii, heuristic_max_stage,
//   heuristic_prologue_latency, heuristic_warp_groups and heuristic_warps (what Triton's own
//   heuristic chose).

#include <map>
#include <unordered_map>

#include <fmt/format.h>

#include <gaus/core/types.hpp>
#include <gaus/io/input_error.hpp>

#include "json_parse.hpp"
#include "readers.hpp"

namespace gaus::io {

namespace {

std::string dumpStem(const std::filesystem::path& path) {
  std::string stem = path.filename().string();
  for (std::string_view suffix : {".ddg.json", ".json"}) {
    if (stem.size() > suffix.size() && stem.ends_with(suffix)) {
      return stem.substr(0, stem.size() - suffix.size());
    }
  }
  return stem;
}

// What Triton's own heuristic chose for one loop (schedule_graph.json).
struct HeuristicLoop {
  std::map<std::string, double, std::less<>> figures;
  std::int32_t warps = 0;  // the warps of all its warp groups together
};

// The loop's warp groups: each {id, num_warps, pipelines}. Returns the warps they hold.
std::int32_t readWarpGroups(const JsonValue& groups) {
  std::int64_t warps = 0;
  for (const JsonValue& group : asArray(groups, "\"warp_groups\"").items) {
    asObject(group, "a warp group");
    const std::int32_t id =
        asNonNegativeInt32(requireMember(group, "id", "a warp group"), "warp group id");
    const std::string where = fmt::format("warp group {}", id);
    const auto what = [&](std::string_view field) { return fmt::format("{} of {}", field, where); };
    warps += asPositiveInt32(requireMember(group, "num_warps", where),
                             [&] { return what("num_warps"); });
    for (const JsonValue& pipeline : asArray(requireMember(group, "pipelines", where), [&] {
                                       return what("pipelines");
                                     }).items) {
      asString(pipeline, [&] { return what("a pipeline name"); });
    }
  }
  if (warps < 1 || warps > kMaxWarps) {
    throw InputError(groups.line,
                     expectedFound(fmt::format("warp groups holding 1 to {} warps", kMaxWarps),
                                   fmt::format("{} warps", warps)));
  }
  return static_cast<std::int32_t>(warps);
}

// Triton's heuristic schedule per loop id, from schedule_graph.json: its figures and the warps
// of its warp groups (the machine's warp count for that loop).
std::unordered_map<std::int64_t, HeuristicLoop> readHeuristic(const std::filesystem::path& path) {
  std::unordered_map<std::int64_t, HeuristicLoop> heuristic;
  try {
    const JsonValue document = parseJson(readFileText(path));
    asObject(document, "a Triton schedule graph");
    const JsonValue& loops =
        asArray(requireMember(document, "loops", "a Triton schedule graph"), "\"loops\"");
    for (const JsonValue& loop : loops.items) {
      asObject(loop, "a loop");
      const std::int32_t id =
          asNonNegativeInt32(requireMember(loop, "loop_id", "a loop"), "loop id");
      const std::string where = fmt::format("loop {}", id);
      HeuristicLoop& found = heuristic[id];
      const JsonValue& schedule =
          asObject(requireMember(loop, "schedule_loop", where), "\"schedule_loop\"");
      found.figures["heuristic_ii"] =
          asPositiveInt32(requireMember(schedule, "II", "\"schedule_loop\""), "II");
      if (const JsonValue* stage = schedule.find("max_stage")) {
        found.figures["heuristic_max_stage"] = asNonNegativeInt32(*stage, "max_stage");
      }
      if (const JsonValue* prologue = schedule.find("prologue_latency")) {
        found.figures["heuristic_prologue_latency"] =
            asNonNegativeInt32(*prologue, "prologue_latency");
      }
      const JsonValue& groups = requireMember(loop, "warp_groups", where);
      found.warps = readWarpGroups(groups);
      found.figures["heuristic_warp_groups"] = static_cast<double>(groups.items.size());
      found.figures["heuristic_warps"] = found.warps;
    }
  } catch (const InputError& error) {
    if (!error.file().empty()) throw;
    throw InputError(path, error.line(), error.what());
  }
  return heuristic;
}

// Which GPU the dump was made for. ddg-0.1 names no target, so the ops and the budgets decide:
// tensor memory (a tmem budget, tmem_* ops) and tcgen05 MMAs (tc_gen5_mma) exist on Blackwell
// only; a dump with neither is for Hopper.
std::string_view dumpArchitecture(const JsonValue& document) {
  if (const JsonValue* config = document.find("config")) {
    if (const JsonValue* tmem = config->find("tmem_budget_bytes");
        tmem != nullptr && tmem->kind == JsonValue::Kind::kInteger && tmem->integer > 0) {
      return "blackwell";
    }
  }
  if (const JsonValue* loops = document.find("loops"); loops != nullptr && loops->isArray()) {
    for (const JsonValue& loop : loops->items) {
      const JsonValue* ddg = loop.isObject() ? loop.find("ddg") : nullptr;
      const JsonValue* nodes = ddg != nullptr && ddg->isObject() ? ddg->find("nodes") : nullptr;
      if (nodes == nullptr || !nodes->isArray()) continue;
      for (const JsonValue& node : nodes->items) {
        const JsonValue* kind = node.isObject() ? node.find("op_kind") : nullptr;
        if (kind != nullptr && kind->isString() &&
            (kind->text.starts_with("ttng.tc_gen5") || kind->text.starts_with("ttng.tmem_"))) {
          return "blackwell";
        }
      }
    }
  }
  return "hopper";
}

// The default machine of the dump's architecture (configs/machines/triton_<arch>.yaml, found
// the way a document's machine is), with the dump's memory budgets.
Machine dumpMachine(const JsonValue& document, const std::filesystem::path& path) {
  const std::string name = fmt::format("triton_{}", dumpArchitecture(document));
  const auto file = findMachineFile(name, path.parent_path());
  if (!file) {
    throw InputError(0, expectedFound(fmt::format("the machine file {}.yaml of the dump's "
                                                  "architecture ({})",
                                                  name, describeMachineSearch()),
                                      "none"));
  }
  Machine machine = loadMachineFile(*file);
  if (const JsonValue* config = document.find("config")) {
    asObject(*config, "\"config\"");
    for (const auto& [key, memory] :
         {std::pair{"smem_budget_bytes", "smem"}, std::pair{"tmem_budget_bytes", "tmem"}}) {
      const JsonValue* budget = config->find(key);
      if (budget == nullptr) continue;
      const std::int32_t capacity = asNonNegativeInt32(*budget, key);
      if (const auto id = machine.findMemory(memory)) {
        machine.memories[*id].capacity = capacity;
      } else {
        machine.memories.push_back(Memory{memory, capacity});
      }
    }
  }
  return machine;
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
        std::string known;
        for (const Resource& resource : machine.resources) known += resource.name + ", ";
        throw InputError(node.find("pipeline")->line,
                         expectedFound(fmt::format("a pipeline of machine '{}' ({}or NONE)",
                                                   machine.name, known),
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
  const Machine machine = dumpMachine(document, path);
  const std::string stem = dumpStem(path);
  const JsonValue& loops =
      asArray(requireMember(document, "loops", "a Triton ddg dump"), "\"loops\"");
  if (loops.items.empty()) throw InputError(loops.line, expectedFound("at least one loop", "none"));

  std::unordered_map<std::int64_t, HeuristicLoop> heuristic;
  const auto schedulePath = path.parent_path() / (stem + ".schedule_graph.json");
  std::error_code error;
  if (std::filesystem::is_regular_file(schedulePath, error))
    heuristic = readHeuristic(schedulePath);

  std::vector<Instance> instances;
  for (const JsonValue& loop : loops.items) {
    asObject(loop, "a loop");
    const std::int64_t id = asNonNegativeInt32(requireMember(loop, "loop_id", "a loop"), "loop id");
    const auto found = heuristic.find(id);
    if (found == heuristic.end()) {
      instances.push_back(readLoop(loop, machine, stem, path));
      continue;
    }
    // The loop runs on the warps of Triton's own warp groups for it.
    Machine loopMachine = machine;
    loopMachine.warps = found->second.warps;
    Instance instance = readLoop(loop, loopMachine, stem, path);
    instance.reference.insert(found->second.figures.begin(), found->second.figures.end());
    instances.push_back(std::move(instance));
  }
  return instances;
}

}  // namespace gaus::io
