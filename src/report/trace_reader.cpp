// Reads the trace file of a GauS run (`-O trace=`, written by
// src/differentiable/progress_trace.cpp; docs/gaus.md): CSV with the header
// "step,horizon,ii,objective,violation,rho,best,elapsed", or JSON lines with the same names.
// Columns may come in any order; step, horizon, objective and violation are required, the others
// may be empty (CSV) or null (JSON).

#include <charconv>
#include <fstream>
#include <map>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <gaus/io/io.hpp>
#include <gaus/report/pictures.hpp>

namespace gaus::report {

namespace {

// A field that does not hold what it should; caught per line and turned into "PATH:LINE: ...".
struct FieldError {
  std::string message;
};

std::string shown(std::string_view text) {
  if (text.size() > 40) return fmt::format("\"{}...\"", text.substr(0, 40));
  return fmt::format("\"{}\"", text);
}

double parseDouble(std::string_view text, std::string_view name) {
  double value = 0.0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc{} || end != text.data() + text.size() || text.empty()) {
    throw FieldError{fmt::format("expected a number for {}, found {}", name, shown(text))};
  }
  return value;
}

std::int64_t parseInteger(std::string_view text, std::string_view name) {
  std::int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc{} || end != text.data() + text.size() || text.empty()) {
    throw FieldError{fmt::format("expected an integer for {}, found {}", name, shown(text))};
  }
  return value;
}

std::vector<std::string_view> splitCsv(std::string_view line) {
  std::vector<std::string_view> fields;
  std::size_t from = 0;
  while (true) {
    const std::size_t comma = line.find(',', from);
    fields.push_back(
        line.substr(from, comma == std::string_view::npos ? line.size() - from : comma - from));
    if (comma == std::string_view::npos) break;
    from = comma + 1;
  }
  return fields;
}

constexpr const char* kColumns[] = {"step",      "horizon", "ii",   "objective",
                                    "violation", "rho",     "best", "elapsed"};
constexpr const char* kRequired[] = {"step", "horizon", "objective", "violation"};

TracePoint fromFields(const std::map<std::string, std::string_view, std::less<>>& field) {
  const auto get = [&field](const char* name) -> std::string_view {
    const auto found = field.find(name);
    return found == field.end() ? std::string_view() : found->second;
  };
  TracePoint point;
  point.step = parseInteger(get("step"), "step");
  point.horizon = parseInteger(get("horizon"), "horizon");
  if (!get("ii").empty()) point.ii = parseInteger(get("ii"), "ii");
  point.objective = parseDouble(get("objective"), "objective");
  point.violation = parseDouble(get("violation"), "violation");
  if (!get("rho").empty()) point.rho = parseDouble(get("rho"), "rho");
  if (!get("best").empty()) point.best = parseDouble(get("best"), "best");
  if (!get("elapsed").empty()) point.elapsedSeconds = parseDouble(get("elapsed"), "elapsed");
  return point;
}

TracePoint fromJson(std::string_view line) {
  nlohmann::json record;
  try {
    record = nlohmann::json::parse(line);
  } catch (const nlohmann::json::parse_error&) {
    throw FieldError{fmt::format("expected a JSON object, found {}", shown(line))};
  }
  if (!record.is_object())
    throw FieldError{fmt::format("expected a JSON object, found {}", shown(line))};
  // The JSON values as text, so that both formats share one set of checks.
  std::map<std::string, std::string, std::less<>> text;
  for (const char* name : kColumns) {
    const auto found = record.find(name);
    if (found == record.end() || found->is_null()) continue;
    if (!found->is_number()) {
      throw FieldError{fmt::format("expected a number for {}, found {}", name, found->dump())};
    }
    text[name] = found->dump();
  }
  for (const char* name : kRequired) {
    if (!text.count(name))
      throw FieldError{fmt::format("expected a number for {}, found none", name)};
  }
  std::map<std::string, std::string_view, std::less<>> views(text.begin(), text.end());
  return fromFields(views);
}

}  // namespace

Expected<ConvergenceTrace> readConvergenceTrace(const std::filesystem::path& path) {
  const Status readable =
      io::checkInputFile(path, "a GauS trace, the file written by -O trace=FILE");
  if (!readable) return Error{readable.error()};
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string content = buffer.str();
  const bool endsWithNewline = !content.empty() && content.back() == '\n';

  std::vector<std::pair<std::int64_t, std::string_view>> lines;
  std::size_t from = 0;
  std::int64_t number = 0;
  while (from < content.size()) {
    std::size_t end = content.find('\n', from);
    if (end == std::string::npos) end = content.size();
    ++number;
    std::string_view line(content.data() + from, end - from);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.find_first_not_of(" \t") != std::string_view::npos) lines.emplace_back(number, line);
    from = end + 1;
  }
  if (lines.empty()) {
    return Error{
        fmt::format("{}: expected GauS trace records, found an empty file", path.string())};
  }

  ConvergenceTrace trace;
  trace.name = path.stem().string();
  const bool json = lines.front().second.find_first_not_of(" \t") != std::string_view::npos &&
                    lines.front().second[lines.front().second.find_first_not_of(" \t")] == '{';
  std::vector<std::string_view> header;
  std::size_t first = 0;
  if (!json) {
    header = splitCsv(lines.front().second);
    for (const char* name : kRequired) {
      if (std::find(header.begin(), header.end(), std::string_view(name)) == header.end()) {
        return Error{fmt::format(
            "{}:{}: expected a CSV header naming step, horizon, objective and violation (as "
            "-O trace=X.csv writes it), found {}",
            path.string(), lines.front().first, shown(lines.front().second))};
      }
    }
    first = 1;
  }
  for (std::size_t i = first; i < lines.size(); ++i) {
    const auto [lineNumber, line] = lines[i];
    try {
      if (json) {
        trace.points.push_back(fromJson(line));
      } else {
        const auto fields = splitCsv(line);
        if (fields.size() != header.size()) {
          throw FieldError{fmt::format("expected {} comma-separated fields, found {}",
                                       header.size(), fields.size())};
        }
        std::map<std::string, std::string_view, std::less<>> byName;
        for (std::size_t f = 0; f < fields.size(); ++f) byName[std::string(header[f])] = fields[f];
        trace.points.push_back(fromFields(byName));
      }
    } catch (const FieldError& error) {
      // A run stopped while writing leaves its last line cut short: left out, not an error.
      if (i + 1 == lines.size() && !endsWithNewline) {
        trace.truncatedLine = lineNumber;
        break;
      }
      return Error{fmt::format("{}:{}: {}", path.string(), lineNumber, error.message)};
    }
  }
  if (trace.points.empty()) {
    return Error{fmt::format("{}: expected at least one trace record after the header, found none",
                             path.string())};
  }
  return trace;
}

}  // namespace gaus::report
