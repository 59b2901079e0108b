// AIGER and-inverter graphs, binary ("aig") and ASCII ("aag"), after the format description at
// https://fmv.jku.at/aiger/FORMAT (header "aig M I L O A", literals 2*variable + complement,
// binary AND gates delta-encoded in 7-bit groups; see ../shared/benchmarks/epfl-combinational).
// Mapping (the GauS paper's view of the EPFL circuits): an op per primary input ("i0", ...,
// kind PI) and per AND gate ("a0", ..., kind AND), each with latency 1 and mem 1 (one bit per
// value) on an unlimited resource named after its kind; an edge per AND fan-in, parallel edges
// kept (the README counts both fan-ins of x AND x). Constant fan-ins (variable 0) add no edge.
// So the critical path in cycles is the number of nodes on the longest path = AIG depth + 1.
// Departures: latches, which the combinational benchmarks do not have, become ops of kind LATCH
// fed by a loop-carried edge (distance 1) from the driver of their next state; the symbol table
// and comments are skipped; AIGER 1.9's B/C/J/F sections are refused.

#include <algorithm>
#include <charconv>
#include <unordered_map>

#include <fmt/format.h>

#include <gaus/core/types.hpp>
#include <gaus/io/input_error.hpp>

#include "readers.hpp"

namespace gaus::io {

namespace {

// Binary files list no inputs (they are implied by the header); up to this many, or 16 per byte
// of the file, are believed.
constexpr std::int64_t kMaxImplicitInputs = std::int64_t{1} << 20;

struct Header {
  bool binary = false;
  std::int64_t maxVariable = 0, inputs = 0, latches = 0, outputs = 0, ands = 0;
};

class AigerReader {
 public:
  explicit AigerReader(std::string_view text) : text_(text) {}

  Header readHeader() {
    const std::string_view line = nextLine("the header \"aig M I L O A\"");
    std::vector<std::string_view> fields;
    for (std::size_t begin = 0; begin < line.size();) {
      const auto end = std::min(line.find(' ', begin), line.size());
      if (end > begin) fields.push_back(line.substr(begin, end - begin));
      begin = end + 1;
    }
    Header header;
    if (fields.empty() || (fields[0] != "aig" && fields[0] != "aag")) {
      throw InputError(1, expectedFound("an AIGER header starting with \"aig\" or \"aag\"",
                                        quoteText(line.substr(0, 40))));
    }
    header.binary = fields[0] == "aig";
    if (fields.size() < 6) {
      throw InputError(1,
                       expectedFound("5 counts after \"aig\" (M I L O A)",
                                     fmt::format("{} in {}", fields.size() - 1, quoteText(line))));
    }
    std::int64_t* counts[] = {&header.maxVariable, &header.inputs, &header.latches, &header.outputs,
                              &header.ands};
    const char* names[] = {"M", "I", "L", "O", "A"};
    for (std::size_t i = 0; i < fields.size() - 1; ++i) {
      const std::int64_t value = parseCount(fields[i + 1], i < 5 ? names[i] : "B/C/J/F");
      if (i < 5) {
        *counts[i] = value;
      } else if (value != 0) {
        throw InputError(1, expectedFound("no bad-state, constraint, justice or fairness "
                                          "properties (AIGER 1.9 B C J F)",
                                          quoteText(line)));
      }
    }
    if (header.maxVariable < header.inputs + header.latches + header.ands) {
      throw InputError(1, expectedFound(fmt::format("M >= I + L + A = {}",
                                                    header.inputs + header.latches + header.ands),
                                        fmt::format("M = {}", header.maxVariable)));
    }
    if (header.binary && header.maxVariable != header.inputs + header.latches + header.ands) {
      throw InputError(1, expectedFound(fmt::format("M = I + L + A = {} in a binary AIGER file",
                                                    header.inputs + header.latches + header.ands),
                                        fmt::format("M = {}", header.maxVariable)));
    }
    // Every line or gate takes at least two bytes, so a count the file cannot hold is refused
    // before anything is allocated for it. Binary inputs take no bytes at all; an input count far
    // beyond anything the file could use is taken for a corrupt header as well.
    const std::int64_t lines =
        (header.binary ? 0 : header.inputs) + header.latches + header.outputs + header.ands;
    const auto left = static_cast<std::int64_t>(text_.size() - position_);
    if (lines > left / 2 + 1) {
      throw InputError(1, expectedFound(fmt::format("a file long enough for the {} inputs, "
                                                    "latches, outputs and AND gates the header "
                                                    "declares",
                                                    lines),
                                        fmt::format("{} bytes after the header", left)));
    }
    const std::int64_t inputLimit = std::max<std::int64_t>(kMaxImplicitInputs, 16 * left);
    if (header.binary && header.inputs > inputLimit) {
      throw InputError(1, expectedFound(fmt::format("at most {} inputs in a binary file of {} "
                                                    "bytes",
                                                    inputLimit, text_.size()),
                                        fmt::format("I = {}", header.inputs)));
    }
    return header;
  }

  // The next line (without its newline); throws at the end of the file.
  std::string_view nextLine(std::string_view expected) {
    if (position_ >= text_.size())
      throw InputError(line_, expectedFound(expected, "the end of the file"));
    const auto end = std::min(text_.find('\n', position_), text_.size());
    const std::string_view line = text_.substr(position_, end - position_);
    position_ = end + 1;
    ++line_;
    return line;
  }
  std::int64_t line() const { return line_; }

  // Whitespace-separated unsigned numbers of the next line.
  std::vector<std::int64_t> numbers(std::size_t count, std::string_view expected,
                                    std::size_t optional = 0) {
    const std::string_view text = nextLine(expected);
    std::vector<std::int64_t> values;
    for (std::size_t begin = 0; begin < text.size();) {
      const auto end = std::min(text.find(' ', begin), text.size());
      if (end > begin) values.push_back(parseCount(text.substr(begin, end - begin), expected));
      begin = end + 1;
    }
    if (values.size() < count || values.size() > count + optional) {
      throw InputError(line_, expectedFound(expected, quoteText(text)));
    }
    return values;
  }

  // One delta of a binary AND gate: 7-bit groups, low group first, high bit = more follows.
  std::int64_t delta(std::int64_t gate) {
    std::uint64_t value = 0;
    for (int shift = 0;; shift += 7) {
      if (position_ >= text_.size()) {
        throw InputError(
            0, expectedFound(fmt::format("the delta of AND gate {} (byte {})", gate, position_),
                             "the end of the file (truncated delta stream)"));
      }
      const auto byte = static_cast<std::uint8_t>(text_[position_++]);
      if (shift > 28 || (shift == 28 && (byte & 0x7f) > 0x07)) {
        throw InputError(0, expectedFound(fmt::format("a delta of AND gate {} below 2^31", gate),
                                          fmt::format("a longer one at byte {}", position_ - 1)));
      }
      value |= static_cast<std::uint64_t>(byte & 0x7f) << shift;
      if ((byte & 0x80) == 0) return static_cast<std::int64_t>(value);
    }
  }

 private:
  std::int64_t parseCount(std::string_view field, std::string_view what) const {
    std::uint64_t value = 0;
    const auto [end, error] = std::from_chars(field.data(), field.data() + field.size(), value);
    const bool whole = end == field.data() + field.size();
    if (error == std::errc::result_out_of_range ||
        (error == std::errc{} && whole && value > static_cast<std::uint64_t>(kMaxInputValue))) {
      throw InputError(line_ == 0 ? 1 : line_,
                       expectedFound(fmt::format("{} within the int32 range", what),
                                     fmt::format("{} (integer overflow)", quoteText(field))));
    }
    if (error != std::errc{} || !whole) {
      throw InputError(
          line_ == 0 ? 1 : line_,
          expectedFound(fmt::format("an unsigned number for {}", what), quoteText(field)));
    }
    return static_cast<std::int64_t>(value);
  }

  std::string_view text_;
  std::size_t position_ = 0;
  std::int64_t line_ = 0;
};

// An operand literal must name a variable within the header's M.
void checkLiteral(const Header& header, std::int64_t literal, std::int64_t line) {
  if (literal / 2 > header.maxVariable) {
    throw InputError(line,
                     expectedFound(fmt::format("a literal at most {}", 2 * header.maxVariable + 1),
                                   std::to_string(literal)));
  }
}

// An AND gate: its operand literals, its line (0 in a binary file) and its op.
struct Gate {
  std::int64_t rhs0 = 0, rhs1 = 0, line = 0;
  OpId op = 0;
};

// Reads AND gate `i` into `gate` (its operands and line) and returns its lhs literal: from the
// two deltas of a binary file, or from the line "lhs rhs0 rhs1" of an ASCII one.
std::int64_t readGate(AigerReader& reader, const Header& header, std::int64_t i, Gate& gate) {
  if (!header.binary) {
    const auto fields = reader.numbers(3, "an AND gate line \"lhs rhs0 rhs1\"");
    gate.rhs0 = fields[1];
    gate.rhs1 = fields[2];
    gate.line = reader.line();
    checkLiteral(header, gate.rhs0, gate.line);
    checkLiteral(header, gate.rhs1, gate.line);
    return fields[0];
  }
  const std::int64_t lhs = 2 * (header.inputs + header.latches + i + 1);
  const std::int64_t delta0 = reader.delta(i);
  const std::int64_t delta1 = reader.delta(i);
  if (delta0 < 1 || delta0 > lhs || delta1 > lhs - delta0) {
    throw InputError(0, expectedFound(fmt::format("deltas of AND gate {} (lhs {}) with "
                                                  "lhs > rhs0 >= rhs1 >= 0",
                                                  i, lhs),
                                      fmt::format("deltas {} and {}", delta0, delta1)));
  }
  gate.rhs0 = lhs - delta0;
  gate.rhs1 = gate.rhs0 - delta1;
  return lhs;
}

}  // namespace

std::vector<Instance> readAiger(const std::filesystem::path& path) {
  const std::string text = readFileText(path);
  AigerReader reader(text);
  const Header header = reader.readHeader();

  const std::string name = path.stem().string();
  Machine machine;
  machine.name = "aiger";
  const ResourceId piUnit = machine.addResource("PI", std::nullopt);
  const ResourceId andUnit = machine.addResource("AND", std::nullopt);
  const ResourceId latchUnit =
      header.latches > 0 ? machine.addResource("LATCH", std::nullopt) : ResourceId{-1};

  GraphBuilder builder(name);
  builder.reserve(static_cast<std::size_t>(header.inputs + header.latches + header.ands),
                  static_cast<std::size_t>(2 * header.ands + header.latches));
  const auto addNode = [&](std::string opName, const char* kind, ResourceId unit) {
    const OpId op = builder.addOp(std::move(opName), 1);
    builder.setKind(op, kind);
    builder.addReservation(op, ReservationBlock{unit, 0, 1, 1});
    builder.setMem(op, 1.0);
    return op;
  };
  // Variable -> op. Binary files number variables densely (inputs, latches, gates); ASCII files
  // may use any variable up to M, so a map holds them.
  std::unordered_map<std::int64_t, OpId> opOfVariable;
  std::vector<std::int64_t> opLine;
  const auto define = [&](std::int64_t literal, OpId op, std::int64_t line) {
    if (literal < 2 || literal % 2 != 0 || literal / 2 > header.maxVariable) {
      throw InputError(line, expectedFound(fmt::format("an even literal in [2, {}] for a "
                                                       "definition",
                                                       2 * header.maxVariable),
                                           std::to_string(literal)));
    }
    if (!opOfVariable.emplace(literal / 2, op).second) {
      throw InputError(line, expectedFound("each variable defined once",
                                           fmt::format("variable {} again", literal / 2)));
    }
    opLine.push_back(line);
  };

  for (std::int64_t i = 0; i < header.inputs; ++i) {
    std::int64_t literal = 2 * (i + 1);
    std::int64_t line = 0;
    if (!header.binary) {
      literal = reader.numbers(1, "an input literal")[0];
      line = reader.line();
    }
    define(literal, addNode(fmt::format("i{}", i), "PI", piUnit), line);
  }
  std::vector<std::pair<std::int64_t, OpId>> latchNext;  // next-state literal, latch op
  for (std::int64_t i = 0; i < header.latches; ++i) {
    const auto fields = reader.numbers(
        header.binary ? 1 : 2,
        header.binary ? "a latch line \"next [init]\"" : "a latch line \"lit next [init]\"", 1);
    const std::int64_t literal = header.binary ? 2 * (header.inputs + i + 1) : fields[0];
    const std::int64_t next = header.binary ? fields[0] : fields[1];
    checkLiteral(header, next, reader.line());
    const OpId op = addNode(fmt::format("l{}", i), "LATCH", latchUnit);
    define(literal, op, reader.line());
    latchNext.emplace_back(next, op);
  }
  for (std::int64_t i = 0; i < header.outputs; ++i) {
    checkLiteral(header, reader.numbers(1, "an output literal")[0], reader.line());
  }
  std::vector<Gate> gates(static_cast<std::size_t>(header.ands));
  for (std::int64_t i = 0; i < header.ands; ++i) {
    Gate& gate = gates[static_cast<std::size_t>(i)];
    const std::int64_t lhs = readGate(reader, header, i, gate);
    gate.op = addNode(fmt::format("a{}", i), "AND", andUnit);
    define(lhs, gate.op, gate.line);
  }

  const auto driver = [&](std::int64_t literal, std::int64_t line) -> std::optional<OpId> {
    if (literal / 2 == 0) return std::nullopt;  // the constant
    const auto it = opOfVariable.find(literal / 2);
    if (it == opOfVariable.end()) {
      throw InputError(line, expectedFound("a literal of an input, latch or AND gate",
                                           fmt::format("{} (variable {} is never defined)", literal,
                                                       literal / 2)));
    }
    return it->second;
  };
  for (const Gate& gate : gates) {
    for (const std::int64_t fanIn : {gate.rhs0, gate.rhs1}) {
      if (const auto source = driver(fanIn, gate.line)) builder.addEdge(*source, gate.op);
    }
  }
  for (const auto& [next, latch] : latchNext) {
    if (const auto source = driver(next, 0)) builder.addEdge(*source, latch, std::nullopt, 1);
  }
  std::vector<Instance> instances;
  instances.push_back(finishInstance(std::move(builder), std::move(machine), name, path,
                                     [&](OpId op) { return opLine[op]; }));
  return instances;
}

}  // namespace gaus::io
