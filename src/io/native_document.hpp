// Turns the members of a native document (docs/formats.md "Native format") into an Instance.
// The JSON reader feeds it while streaming (ops and edges one at a time, never a DOM of the whole
// graph); the YAML reader feeds it from the parsed tree. Members may come in any order: ops may
// name resources before the machine is read, and edges may come before the ops they name, so
// names are resolved in finish() where they cannot be resolved on arrival.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <gaus/core/graph.hpp>
#include <gaus/core/instance.hpp>
#include <gaus/core/machine.hpp>
#include <gaus/io/json_value.hpp>

namespace gaus::io {

class NativeAssembler {
 public:
  explicit NativeAssembler(std::filesystem::path document);

  // The top-level members whose arrays are streamed element by element.
  static bool streamsKey(std::string_view key) { return key == "ops" || key == "edges"; }

  void member(std::string_view key, JsonValue&& value);  // any member but ops and edges
  void op(const JsonValue& value);
  void edge(const JsonValue& value);
  // A whole document (the YAML reader): every member in document order.
  void document(JsonValue&& root);

  Instance finish() &&;

 private:
  // An edge endpoint as written: an op index or an op name.
  struct Endpoint {
    std::int64_t index = -1;
    std::string name;
  };
  struct DeferredEdge {
    Endpoint from;
    Endpoint to;
    EdgeAttributes attributes;
    std::int64_t line = 0;
  };
  // A resource or memory named by an op before the machine may be known.
  struct NameUse {
    std::string name;
    std::int64_t firstLine = 0;
  };

  std::int32_t nameSlot(std::vector<NameUse>& uses,
                        std::unordered_map<std::string, std::int32_t>& index, std::string_view name,
                        std::int64_t line);
  void readEndpoint(const JsonValue& value, Endpoint& out, std::string_view part,
                    EdgeId edge) const;
  std::optional<OpId> resolve(const Endpoint& endpoint);
  void buildNameIndex();
  void addEdge(const DeferredEdge& edge);

  std::filesystem::path document_;
  std::string name_;
  std::optional<Machine> machine_;
  GraphBuilder builder_;
  std::vector<std::int64_t> opLine_;
  std::vector<std::int64_t> edgeLine_;  // per edge of builder_, in the order they were added

  std::vector<NameUse> resourceUses_;
  std::unordered_map<std::string, std::int32_t> resourceSlot_;
  std::vector<std::pair<OpId, ReservationBlock>> pendingBlocks_;  // resource = slot
  std::vector<NameUse> memoryUses_;
  std::unordered_map<std::string, std::int32_t> memorySlot_;
  std::vector<std::pair<OpId, MemoryFootprint>> pendingFootprints_;  // memory = slot

  std::unordered_map<std::string_view, OpId> nameIndex_;  // views into builder_'s names
  bool nameIndexBuilt_ = false;
  std::vector<DeferredEdge> deferredEdges_;
  DeferredEdge scratchEdge_;

  std::optional<JsonValue> schedule_;
  std::map<std::string, double, std::less<>> reference_;
};

}  // namespace gaus::io
