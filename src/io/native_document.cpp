#include "native_document.hpp"

#include <algorithm>
#include <array>
#include <span>

#include <fmt/format.h>

#include <gaus/core/option_table.hpp>
#include <gaus/core/types.hpp>
#include <gaus/io/input_error.hpp>

#include "readers.hpp"

namespace gaus::io {

namespace {

constexpr std::string_view kNativeFormat = "gaus-0.1";

// The keys of an op object, looked up once per key instead of once per field.
enum OpField : std::size_t {
  kName,
  kKind,
  kLatency,
  kReservation,
  kUses,
  kOccupancy,
  kMem,
  kWeight,
  kRegs,
  kFootprints,
  kVariableLatency,
  kStreaming,
  kSpillCost,
  kMinWarps,
  kOpFieldCount,
};
constexpr std::array<std::string_view, kOpFieldCount> kOpFieldNames = {
    "name",   "kind", "latency",    "reservation",      "uses",      "occupancy",  "mem",
    "weight", "regs", "footprints", "variable_latency", "streaming", "spill_cost", "min_warps"};

// The members of an op object by field; each key must be one of kOpFieldNames, given once.
std::array<const JsonValue*, kOpFieldCount> opFields(const JsonValue& value) {
  std::array<const JsonValue*, kOpFieldCount> field{};
  for (std::size_t i = 0; i < value.keys.size(); ++i) {
    const auto found = std::find(kOpFieldNames.begin(), kOpFieldNames.end(), value.keys[i]);
    if (found == kOpFieldNames.end()) {
      throw InputError(value.items[i].line,
                       expectedFound(fmt::format("a key of an op ({})",
                                                 option_text::listChoices(kOpFieldNames, ", ")),
                                     quoteText(value.keys[i])));
    }
    const auto slot = static_cast<std::size_t>(found - kOpFieldNames.begin());
    if (field[slot] != nullptr) {
      throw InputError(value.items[i].line,
                       expectedFound("each key of an op once",
                                     fmt::format("{} a second time", quoteText(value.keys[i]))));
    }
    field[slot] = &value.items[i];
  }
  return field;
}

}  // namespace

NativeAssembler::NativeAssembler(std::filesystem::path document)
    : document_(std::move(document)), name_(document_.stem().string()) {}

std::int32_t NativeAssembler::nameSlot(std::vector<NameUse>& uses,
                                       std::unordered_map<std::string, std::int32_t>& index,
                                       std::string_view name, std::int64_t line) {
  // Ops name few distinct resources: a short scan beats hashing in the common case.
  for (std::size_t i = 0; i < uses.size() && i < 8; ++i) {
    if (uses[i].name == name) return static_cast<std::int32_t>(i);
  }
  const auto [it, inserted] =
      index.emplace(std::string(name), static_cast<std::int32_t>(uses.size()));
  if (inserted) uses.push_back(NameUse{std::string(name), line});
  return it->second;
}

void NativeAssembler::op(const JsonValue& value) {
  const OpId op = builder_.numOps();
  if (!value.isObject()) {
    throw InputError(value.line,
                     expectedFound(fmt::format("an object for op #{}", op), value.describe()));
  }
  const std::array<const JsonValue*, kOpFieldCount> field = opFields(value);
  if (field[kName] == nullptr) {
    throw InputError(value.line,
                     expectedFound(fmt::format("a member \"name\" in op #{}", op), "none"));
  }
  const std::string& name =
      asString(*field[kName], [&] { return fmt::format("the name of op #{}", op); });
  // Messages are formatted only on failure (json_value.hpp): `what("mem")` is a callable.
  const auto what = [&name](std::string_view attribute) {
    return [&name, attribute] { return fmt::format("{} for op '{}'", attribute, name); };
  };
  const std::int32_t latency =
      field[kLatency] != nullptr ? asNonNegativeInt32(*field[kLatency], what("latency")) : 0;
  builder_.addOp(name, latency);
  opLine_.push_back(value.line);

  if (field[kKind] != nullptr) builder_.setKind(op, asString(*field[kKind], what("kind")));
  if (field[kUses] != nullptr && field[kReservation] != nullptr) {
    throw InputError(
        field[kUses]->line,
        expectedFound(fmt::format("either \"uses\" or \"reservation\" for op '{}'", name), "both"));
  }
  if (field[kOccupancy] != nullptr && field[kUses] == nullptr) {
    throw InputError(
        field[kOccupancy]->line,
        expectedFound(fmt::format("\"uses\" with \"occupancy\" for op '{}'", name), "no \"uses\""));
  }
  if (field[kUses] != nullptr) {
    const std::int32_t resource = nameSlot(
        resourceUses_, resourceSlot_, asString(*field[kUses], what("uses")), field[kUses]->line);
    const std::int32_t occupancy = field[kOccupancy] != nullptr
                                       ? asPositiveInt32(*field[kOccupancy], what("occupancy"))
                                       : std::max(1, latency);
    pendingBlocks_.emplace_back(op, ReservationBlock{resource, 0, occupancy, 1});
  }
  if (field[kReservation] != nullptr) {
    for (const JsonValue& block : asArray(*field[kReservation], what("the reservation")).items) {
      const std::string blockWhat = what("a reservation block")();
      asObject(block, blockWhat);
      checkKeys(block, {"resource", "begin", "length", "units"}, blockWhat);
      const JsonValue& resourceName = requireMember(block, "resource", blockWhat);
      ReservationBlock entry;
      entry.resource =
          nameSlot(resourceUses_, resourceSlot_,
                   asString(resourceName, what("a reservation's resource")), resourceName.line);
      if (const JsonValue* begin = block.find("begin")) {
        entry.begin = asNonNegativeInt32(*begin, what("a reservation's begin"));
      }
      if (const JsonValue* length = block.find("length")) {
        entry.length = asPositiveInt32(*length, what("a reservation's length"));
      }
      if (const JsonValue* units = block.find("units")) {
        entry.units = asPositiveInt32(*units, what("a reservation's units"));
      }
      if (static_cast<std::int64_t>(entry.begin) + entry.length > kMaxInputValue) {
        throw InputError(
            block.line, expectedFound(fmt::format("a reservation that ends by cycle {} for op '{}'",
                                                  kMaxInputValue, name),
                                      fmt::format("begin {} + length {} (integer overflow)",
                                                  entry.begin, entry.length)));
      }
      pendingBlocks_.emplace_back(op, entry);
    }
  }
  if (field[kMem] != nullptr) builder_.setMem(op, asNumber(*field[kMem], what("mem")));
  if (field[kWeight] != nullptr) builder_.setWeight(op, asNumber(*field[kWeight], what("weight")));
  if (field[kRegs] != nullptr)
    builder_.setRegs(op, asNonNegativeInt32(*field[kRegs], what("regs")));
  if (field[kFootprints] != nullptr) {
    const JsonValue& prints = asObject(*field[kFootprints], what("footprints"));
    for (std::size_t i = 0; i < prints.keys.size(); ++i) {
      const std::int32_t memory =
          nameSlot(memoryUses_, memorySlot_, prints.keys[i], prints.items[i].line);
      const std::int32_t amount = asNonNegativeInt32(prints.items[i], [&] {
        return fmt::format("footprint in memory '{}' for op '{}'", prints.keys[i], name);
      });
      pendingFootprints_.emplace_back(op, MemoryFootprint{memory, amount});
    }
  }
  if (field[kVariableLatency] != nullptr) {
    builder_.setVariableLatency(op, asBool(*field[kVariableLatency], what("variable_latency")));
  }
  if (field[kStreaming] != nullptr) {
    builder_.setStreaming(op, asBool(*field[kStreaming], what("streaming")));
  }
  if (field[kSpillCost] != nullptr) {
    builder_.setSpillCost(op, asNonNegativeInt32(*field[kSpillCost], what("spill_cost")));
  }
  if (field[kMinWarps] != nullptr) {
    const std::int32_t warps = asPositiveInt32(*field[kMinWarps], what("min_warps"));
    if (warps > kMaxWarps) {
      throw InputError(
          field[kMinWarps]->line,
          expectedFound(fmt::format("at most {} min_warps for op '{}'", kMaxWarps, name),
                        std::to_string(warps)));
    }
    builder_.setMinWarps(op, warps);
  }
}

void NativeAssembler::readEndpoint(const JsonValue& value, Endpoint& out, std::string_view part,
                                   EdgeId edge) const {
  if (value.isString()) {
    out.index = -1;
    out.name = value.text;
  } else if (value.isNumber()) {
    out.index =
        asNonNegativeInt32(value, [&] { return fmt::format("{} of edge #{}", part, edge); });
    out.name.clear();
  } else {
    throw InputError(
        value.line, expectedFound(fmt::format("an op name or index for {} of edge #{}", part, edge),
                                  value.describe()));
  }
}

void NativeAssembler::edge(const JsonValue& value) {
  DeferredEdge& edge = scratchEdge_;
  edge.attributes = EdgeAttributes{};
  edge.line = value.line;
  const EdgeId id = builder_.numEdges() + static_cast<EdgeId>(deferredEdges_.size());
  // Messages are formatted only on failure (json_value.hpp): `what("delay")` is a callable.
  const auto what = [id](std::string_view part) {
    return [id, part] { return fmt::format("{} of edge #{}", part, id); };
  };
  if (value.isArray()) {
    const auto& items = value.items;
    if (items.size() < 2 || items.size() > 4) {
      throw InputError(value.line,
                       expectedFound("an edge [from, to], [from, to, delay] or [from, to, delay, "
                                     "distance]",
                                     fmt::format("an array of {} values", items.size())));
    }
    readEndpoint(items[0], edge.from, "the source", id);
    readEndpoint(items[1], edge.to, "the target", id);
    if (items.size() >= 3 && !items[2].isNull()) {
      edge.attributes.delay = asNonNegativeInt32(items[2], what("delay"));
    }
    if (items.size() == 4) {
      edge.attributes.distance = asNonNegativeInt32(items[3], what("distance"));
    }
  } else if (value.isObject()) {
    checkKeys(value, {"from", "to", "delay", "distance", "blocking", "comm"}, "an edge");
    readEndpoint(requireMember(value, "from", "an edge"), edge.from, "the source", id);
    readEndpoint(requireMember(value, "to", "an edge"), edge.to, "the target", id);
    if (const JsonValue* delay = value.find("delay"); delay != nullptr && !delay->isNull()) {
      edge.attributes.delay = asNonNegativeInt32(*delay, what("delay"));
    }
    if (const JsonValue* distance = value.find("distance")) {
      edge.attributes.distance = asNonNegativeInt32(*distance, what("distance"));
    }
    if (const JsonValue* blocking = value.find("blocking")) {
      edge.attributes.blocking = asBool(*blocking, what("blocking"));
    }
    if (const JsonValue* comm = value.find("comm")) {
      edge.attributes.comm = asNumber(*comm, what("comm"));
    }
  } else {
    throw InputError(value.line,
                     expectedFound("an edge (an object or an array)", value.describe()));
  }
  // Ops come before edges in every document gaus writes; edges that come first wait for them.
  if (builder_.numOps() == 0) {
    deferredEdges_.push_back(edge);
  } else {
    addEdge(edge);
  }
}

void NativeAssembler::buildNameIndex() {
  if (nameIndexBuilt_) return;
  nameIndexBuilt_ = true;
  nameIndex_.reserve(static_cast<std::size_t>(builder_.numOps()));
  for (OpId op = 0; op < builder_.numOps(); ++op) {
    const auto [it, inserted] = nameIndex_.emplace(builder_.opName(op), op);
    if (!inserted) {
      throw InputError(opLine_[op],
                       expectedFound("unique op names", fmt::format("{} again (first on line {})",
                                                                    quoteText(builder_.opName(op)),
                                                                    opLine_[it->second])));
    }
  }
}

std::optional<OpId> NativeAssembler::resolve(const Endpoint& endpoint) {
  if (endpoint.index >= 0) {
    if (endpoint.index < builder_.numOps()) return static_cast<OpId>(endpoint.index);
    return std::nullopt;
  }
  buildNameIndex();
  const auto it = nameIndex_.find(endpoint.name);
  if (it == nameIndex_.end()) return std::nullopt;
  return it->second;
}

void NativeAssembler::addEdge(const DeferredEdge& edge) {
  const auto describe = [&](const Endpoint& endpoint) {
    return endpoint.index >= 0
               ? fmt::format("op index {} ({} ops)", endpoint.index, builder_.numOps())
               : fmt::format("unknown op {}", quoteText(endpoint.name));
  };
  const auto source = resolve(edge.from);
  if (!source) {
    throw InputError(edge.line,
                     expectedFound("an existing op as the edge's source", describe(edge.from)));
  }
  const auto target = resolve(edge.to);
  if (!target) {
    throw InputError(edge.line,
                     expectedFound("an existing op as the edge's target", describe(edge.to)));
  }
  EdgeAttributes attributes = edge.attributes;
  attributes.source = *source;
  attributes.target = *target;
  builder_.addEdge(attributes);
  edgeLine_.push_back(edge.line);
}

void NativeAssembler::member(std::string_view key, JsonValue&& value) {
  if (key == "format") {
    if (asString(value, "the format") != kNativeFormat) {
      throw InputError(value.line,
                       expectedFound(fmt::format("\"{}\"", kNativeFormat), value.describe()));
    }
  } else if (key == "name") {
    name_ = asString(value, "the instance name");
  } else if (key == "machine") {
    if (value.isString()) {
      const auto file = findMachineFile(value.text, document_.parent_path());
      if (!file) {
        throw InputError(value.line,
                         expectedFound(fmt::format("a machine file {} ({})", quoteText(value.text),
                                                   describeMachineSearch()),
                                       "none"));
      }
      machine_ = loadMachineFile(*file);
    } else {
      machine_ = machineFromJson(value, "machine");
    }
  } else if (key == "ops" || key == "edges") {
    asArray(value, fmt::format("\"{}\"", key));
    for (const JsonValue& item : value.items) {
      if (key == "ops") {
        op(item);
      } else {
        edge(item);
      }
    }
  } else if (key == "schedule") {
    asObject(value, "the schedule");
    checkKeys(value, {"ii", "start", "warps"}, "the schedule");
    schedule_ = std::move(value);
  } else if (key == "reference") {
    asObject(value, "the reference figures");
    for (std::size_t i = 0; i < value.keys.size(); ++i) {
      reference_[value.keys[i]] =
          asNumber(value.items[i], fmt::format("reference figure '{}'", value.keys[i]));
    }
  } else {
    throw InputError(value.line,
                     expectedFound("a top-level key (format, name, machine, ops, edges, schedule, "
                                   "reference)",
                                   quoteText(key)));
  }
}

void NativeAssembler::document(JsonValue&& root) {
  if (root.isNull()) throw InputError(root.line, expectedFound("a native document", "nothing"));
  asObject(root, "a native document");
  checkKeys(root, {"format", "name", "machine", "ops", "edges", "schedule", "reference"},
            "a native document");
  for (std::size_t i = 0; i < root.keys.size(); ++i) member(root.keys[i], std::move(root.items[i]));
}

Instance NativeAssembler::finish() && {
  Machine machine = machine_ ? std::move(*machine_) : Machine{};
  if (!machine_) machine.name = "none";
  const auto rebind = [&](const std::vector<NameUse>& uses, bool resources) {
    std::vector<std::int32_t> ids;
    for (const NameUse& use : uses) {
      const auto id = resources ? machine.findResource(use.name) : machine.findMemory(use.name);
      if (!id) {
        std::vector<std::string_view> known;
        if (resources) {
          for (const auto& r : machine.resources) known.push_back(r.name);
        } else {
          for (const auto& m : machine.memories) known.push_back(m.name);
        }
        const char* kind = resources ? "resource" : "memory";
        const char* list = resources ? "resources" : "memories";
        // How to add it: --capacity only changes a resource the machine already has.
        const std::string remedy = fmt::format(
            "; add {{\"name\": {}, \"capacity\": N}} to the machine's \"{}\"{}, or pick a "
            "machine that has it with --machine",
            quoteText(use.name), list, resources ? " (--capacity only sets one it has)" : "");
        throw InputError(
            use.firstLine,
            expectedFound(
                machine_
                    ? fmt::format("a {} of machine '{}' ({})", kind, machine.name,
                                  known.empty() ? "none" : option_text::listChoices(known, ", "))
                    : fmt::format("a machine that has {} {}", kind, quoteText(use.name)),
                fmt::format("unknown {} {}", kind, quoteText(use.name))) +
                remedy);
      }
      ids.push_back(*id);
    }
    return ids;
  };
  const auto resourceIds = rebind(resourceUses_, true);
  const auto memoryIds = rebind(memoryUses_, false);
  for (auto& [op, block] : pendingBlocks_) {
    block.resource = resourceIds[block.resource];
    builder_.addReservation(op, block);
  }
  pendingBlocks_ = {};
  for (auto& [op, footprint] : pendingFootprints_) {
    footprint.memory = memoryIds[footprint.memory];
    builder_.addFootprint(op, footprint);
  }
  pendingFootprints_ = {};
  for (const DeferredEdge& edge : deferredEdges_) addEdge(edge);
  deferredEdges_ = {};
  nameIndex_ = {};

  const std::vector<std::int64_t> opLine = std::move(opLine_);
  const std::vector<std::int64_t> edgeLine = std::move(edgeLine_);
  Instance instance = finishInstance(
      std::move(builder_), std::move(machine), name_, document_,
      [&](OpId op) { return op < static_cast<OpId>(opLine.size()) ? opLine[op] : 0; },
      [&](EdgeId e) { return e < static_cast<EdgeId>(edgeLine.size()) ? edgeLine[e] : 0; });
  if (schedule_) instance.schedule = scheduleFromJson(*schedule_, *instance.graph);
  instance.reference = std::move(reference_);
  return instance;
}

}  // namespace gaus::io
