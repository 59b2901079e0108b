// networkx GML, as in the GS-Schedule random workloads
// (../shared/benchmarks/gs-schedule-icml24-rw):
//   graph [ directed 1  node [ id K label "K" parameter P ]  edge [ source U target V parameter Q ]
//   ]
// GML is a list of `key value` pairs where a value is an integer, a real, a "string" or a nested
// [ list ]; keys may repeat (every node and edge is a `node`/`edge` pair of the graph list).
// Mapping: an op per node, named by its label (or its id), with latency 1 and no resources, so
// the critical path in cycles is the number of nodes on the longest path (the README's depth);
// node `parameter` becomes the op's weight and mem (GauS formulation A); edge `parameter`
// becomes the edge's comm, binarized to 1 when positive unless ReadOptions::binarizeComm is off.
// Keys the model has no use for are skipped. The tokenizer is hand-written to report lines.

#include <charconv>
#include <cstdlib>
#include <unordered_map>

#include <fmt/format.h>

#include <gaus/io/input_error.hpp>

#include "readers.hpp"

namespace gaus::io {

namespace {

constexpr int kMaxNesting = 64;

class GmlParser {
 public:
  explicit GmlParser(std::string_view text) : text_(text) {}

  // The whole file as an object whose keys may repeat.
  JsonValue parseDocument() {
    JsonValue root;
    root.kind = JsonValue::Kind::kObject;
    root.line = 1;
    parseList(root, 0, 0);
    return root;
  }

 private:
  void skipSpaceAndComments() {
    while (position_ < text_.size()) {
      const char c = text_[position_];
      if (c == '\n') {
        ++line_;
        ++position_;
      } else if (c == ' ' || c == '\t' || c == '\r') {
        ++position_;
      } else if (c == '#') {
        while (position_ < text_.size() && text_[position_] != '\n') ++position_;
      } else {
        return;
      }
    }
  }

  static bool isKeyStart(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
  }
  static bool isKeyChar(char c) { return isKeyStart(c) || (c >= '0' && c <= '9'); }

  std::string describeHere() const {
    if (position_ >= text_.size()) return "the end of the file";
    const char c = text_[position_];
    std::size_t end = position_ + 1;
    while (end < text_.size() && end - position_ < 20 && isKeyChar(text_[end]) && isKeyChar(c)) {
      ++end;
    }
    return quoteText(text_.substr(position_, end - position_));
  }

  // Reads `key value` pairs into `list` until ']' (depth > 0) or the end of the file (depth 0).
  void parseList(JsonValue& list, int depth, std::int64_t openedOn) {
    while (true) {
      skipSpaceAndComments();
      if (position_ >= text_.size()) {
        if (depth == 0) return;
        throw InputError(
            line_, expectedFound(fmt::format("']' to close the list opened on line {}", openedOn),
                                 "the end of the file"));
      }
      if (text_[position_] == ']') {
        if (depth == 0) throw InputError(line_, expectedFound("a key", "']' with no open list"));
        ++position_;
        return;
      }
      if (!isKeyStart(text_[position_])) {
        throw InputError(line_, expectedFound("a key", describeHere()));
      }
      const std::size_t keyBegin = position_;
      while (position_ < text_.size() && isKeyChar(text_[position_])) ++position_;
      list.keys.emplace_back(text_.substr(keyBegin, position_ - keyBegin));
      list.items.emplace_back();
      parseValue(list.items.back(), list.keys.back(), depth);
    }
  }

  void parseValue(JsonValue& value, const std::string& key, int depth) {
    skipSpaceAndComments();
    value.line = line_;
    if (position_ >= text_.size() || text_[position_] == ']') {
      throw InputError(line_,
                       expectedFound(fmt::format("a value after key '{}'", key), describeHere()));
    }
    const char c = text_[position_];
    if (c == '[') {
      if (depth + 1 > kMaxNesting) {
        throw InputError(line_, expectedFound(fmt::format("at most {} nested lists", kMaxNesting),
                                              "deeper nesting"));
      }
      ++position_;
      value.kind = JsonValue::Kind::kObject;
      parseList(value, depth + 1, value.line);
    } else if (c == '"') {
      parseString(value);
    } else if (c == '-' || c == '+' || c == '.' || (c >= '0' && c <= '9')) {
      parseNumber(value, key);
    } else {
      throw InputError(line_,
                       expectedFound(fmt::format("a value after key '{}'", key), describeHere()));
    }
  }

  void parseString(JsonValue& value) {
    const std::int64_t openedOn = line_;
    ++position_;
    value.kind = JsonValue::Kind::kString;
    while (position_ < text_.size() && text_[position_] != '"') {
      const char c = text_[position_];
      if (c == '\n') ++line_;
      if (c == '&') {
        // networkx writes &quot; &amp; &lt; &gt; and numeric entities for special characters.
        const auto semicolon = text_.find(';', position_);
        if (semicolon != std::string_view::npos && semicolon - position_ <= 10) {
          const std::string_view entity = text_.substr(position_ + 1, semicolon - position_ - 1);
          char decoded = 0;
          if (entity == "quot") decoded = '"';
          if (entity == "amp") decoded = '&';
          if (entity == "lt") decoded = '<';
          if (entity == "gt") decoded = '>';
          if (entity == "apos") decoded = '\'';
          if (entity.size() > 1 && entity[0] == '#') {
            unsigned code = 0;
            const bool hex = entity[1] == 'x' || entity[1] == 'X';
            const auto digits = entity.substr(hex ? 2 : 1);
            const auto [end, error] =
                std::from_chars(digits.data(), digits.data() + digits.size(), code, hex ? 16 : 10);
            if (error == std::errc{} && end == digits.data() + digits.size() && code > 0 &&
                code < 0x80) {
              decoded = static_cast<char>(code);
            }
          }
          if (decoded != 0) {
            value.text += decoded;
            position_ = semicolon + 1;
            continue;
          }
        }
      }
      value.text += c;
      ++position_;
    }
    if (position_ >= text_.size()) {
      throw InputError(
          line_, expectedFound(fmt::format("'\"' to close the string opened on line {}", openedOn),
                               "the end of the file"));
    }
    ++position_;
  }

  void parseNumber(JsonValue& value, const std::string& key) {
    const std::size_t begin = position_;
    while (position_ < text_.size() &&
           std::string_view("+-.0123456789eE").find(text_[position_]) != std::string_view::npos) {
      ++position_;
    }
    const std::string token(text_.substr(begin, position_ - begin));
    if (position_ < text_.size() && isKeyChar(text_[position_])) {
      throw InputError(line_, expectedFound(fmt::format("a number after key '{}'", key),
                                            quoteText(text_.substr(begin, position_ + 1 - begin))));
    }
    const char* first = token.data() + (token[0] == '+' ? 1 : 0);
    const char* last = token.data() + token.size();
    std::int64_t integer = 0;
    if (const auto [end, error] = std::from_chars(first, last, integer);
        error == std::errc{} && end == last) {
      value.kind = JsonValue::Kind::kInteger;
      value.integer = integer;
      return;
    }
    char* end = nullptr;
    const double number = std::strtod(token.c_str(), &end);
    if (end != token.c_str() + token.size()) {
      throw InputError(
          line_, expectedFound(fmt::format("a number after key '{}'", key), quoteText(token)));
    }
    // Integers beyond int64 land here too: kept as a float, which the integer accessors reject
    // as an overflow.
    value.kind = JsonValue::Kind::kFloat;
    value.number = number;
    value.text = token;
  }

  std::string_view text_;
  std::size_t position_ = 0;
  std::int64_t line_ = 1;
};

}  // namespace

std::vector<Instance> readGml(const std::filesystem::path& path, const ReadOptions& options) {
  const std::string text = readFileText(path);
  const JsonValue document = GmlParser(text).parseDocument();
  const JsonValue* graphList = document.find("graph");
  if (graphList == nullptr) {
    throw InputError(1, expectedFound("a GML list \"graph [ ... ]\"", "none"));
  }
  asObject(*graphList, "\"graph\"");

  const std::string name = path.stem().string();
  GraphBuilder builder(name);
  std::unordered_map<std::int64_t, OpId> opByNodeId;
  std::vector<std::int64_t> opLine;
  const JsonValue* directed = nullptr;
  std::vector<const JsonValue*> edgeLists;
  for (std::size_t i = 0; i < graphList->keys.size(); ++i) {
    const std::string& key = graphList->keys[i];
    const JsonValue& value = graphList->items[i];
    if (key == "directed") {
      directed = &value;
    } else if (key == "node") {
      asObject(value, "a node");
      const JsonValue& id = requireMember(value, "id", "a node");
      const std::int32_t nodeId = asInt32(id, "node id");
      std::string opName;
      if (const JsonValue* label = value.find("label")) {
        opName = label->isString() ? label->text : std::to_string(asInt32(*label, "node label"));
      } else {
        opName = std::to_string(nodeId);
      }
      const OpId op = builder.addOp(opName, 1);
      if (const JsonValue* parameter = value.find("parameter")) {
        const double weight = asNumber(*parameter, fmt::format("parameter of node {}", nodeId));
        builder.setWeight(op, weight);
        builder.setMem(op, weight);
      }
      if (!opByNodeId.emplace(nodeId, op).second) {
        throw InputError(
            id.line, expectedFound("unique node ids", fmt::format("id {} a second time", nodeId)));
      }
      opLine.push_back(value.line);
    } else if (key == "edge") {
      edgeLists.push_back(&asObject(value, "an edge"));
    }
  }
  if (directed == nullptr || asInt32(*directed, "\"directed\"") != 1) {
    throw InputError(directed != nullptr ? directed->line : graphList->line,
                     expectedFound("\"directed 1\" (a dependence graph has directed edges)",
                                   directed != nullptr ? "directed " + directed->describe()
                                                       : "no \"directed\" key (undirected)"));
  }
  for (const JsonValue* edge : edgeLists) {
    OpId ends[2] = {0, 0};
    const char* keys[2] = {"source", "target"};
    for (int end = 0; end < 2; ++end) {
      const JsonValue& id = requireMember(*edge, keys[end], "an edge");
      const std::int32_t nodeId = asInt32(id, fmt::format("edge {}", keys[end]));
      const auto it = opByNodeId.find(nodeId);
      if (it == opByNodeId.end()) {
        throw InputError(id.line,
                         expectedFound(fmt::format("a node id as the edge's {}", keys[end]),
                                       fmt::format("unknown node {}", nodeId)));
      }
      ends[end] = it->second;
    }
    const EdgeId e = builder.addEdge(ends[0], ends[1]);
    if (const JsonValue* parameter = edge->find("parameter")) {
      const double comm = asNumber(*parameter, "edge parameter");
      builder.setEdgeComm(e, options.binarizeComm ? (comm > 0 ? 1.0 : 0.0) : comm);
    }
  }
  Machine machine;
  machine.name = "gml";
  std::vector<Instance> instances;
  instances.push_back(finishInstance(std::move(builder), std::move(machine), name, path,
                                     [&](OpId op) { return opLine[op]; }));
  return instances;
}

}  // namespace gaus::io
