// Reading and writing the results file (results.hpp; docs/formats.md "Results"). Each line is
// parsed on its own, so that one bad line (a crash mid-write, a hand edit) costs that line only.

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <gaus/core/enum_names.hpp>
#include <gaus/io/io.hpp>
#include <gaus/report/results.hpp>

namespace gaus::report {

namespace {

using Json = nlohmann::json;
using OrderedJson = nlohmann::ordered_json;

// A field that does not hold what the format says; the line is skipped with this reason.
struct FieldError {
  std::string message;
};

constexpr std::size_t kShownCharacters = 60;

std::string describe(const Json& value) {
  std::string text = value.dump();
  if (text.size() > kShownCharacters) text = text.substr(0, kShownCharacters) + "...";
  return text;
}

const Json* member(const Json& object, std::string_view key) {
  const auto found = object.find(key);
  if (found == object.end() || found->is_null()) return nullptr;
  return &*found;
}

std::string stringField(const Json& object, std::string_view key, std::string_view where = {}) {
  const Json* value = member(object, key);
  if (!value) return {};
  if (!value->is_string()) {
    throw FieldError{
        fmt::format("expected a string for {}{}, found {}", where, key, describe(*value))};
  }
  return value->get<std::string>();
}

std::optional<double> numberField(const Json& object, std::string_view key,
                                  std::string_view where = {}) {
  const Json* value = member(object, key);
  if (!value) return std::nullopt;
  if (!value->is_number() || !std::isfinite(value->get<double>())) {
    throw FieldError{
        fmt::format("expected a number for {}{}, found {}", where, key, describe(*value))};
  }
  return value->get<double>();
}

std::optional<std::int64_t> integerField(const Json& object, std::string_view key,
                                         std::string_view where = {}) {
  const Json* value = member(object, key);
  if (!value) return std::nullopt;
  if (value->is_number_integer()) return value->get<std::int64_t>();
  if (value->is_number_float()) {
    const double number = value->get<double>();
    if (std::isfinite(number) && number == std::floor(number) && std::abs(number) < 9e15) {
      return static_cast<std::int64_t>(number);
    }
  }
  throw FieldError{
      fmt::format("expected an integer for {}{}, found {}", where, key, describe(*value))};
}

bool boolField(const Json& object, std::string_view key) {
  const Json* value = member(object, key);
  if (!value) return false;
  if (!value->is_boolean()) {
    throw FieldError{fmt::format("expected true or false for {}, found {}", key, describe(*value))};
  }
  return value->get<bool>();
}

const Json* objectField(const Json& object, std::string_view key) {
  const Json* value = member(object, key);
  if (value && !value->is_object()) {
    throw FieldError{fmt::format("expected an object for {}, found {}", key, describe(*value))};
  }
  return value;
}

RunStatus statusField(const Json& object, std::string_view key, std::string_view where = {}) {
  const std::string text = stringField(object, key, where);
  const auto status = parseRunStatus(text);
  if (!status) {
    throw FieldError{fmt::format(
        "expected {}{} to be optimal, feasible, infeasible, timeout, unknown, error, crashed or "
        "out_of_memory, found {}",
        where, key, text.empty() ? std::string("none") : fmt::format("\"{}\"", text))};
  }
  return *status;
}

ResultAttempt parseAttempt(const Json& value, std::size_t index) {
  const std::string where = fmt::format("attempts[{}].", index);
  if (!value.is_object()) {
    throw FieldError{
        fmt::format("expected an object for attempts[{}], found {}", index, describe(value))};
  }
  ResultAttempt attempt;
  attempt.phase = stringField(value, "phase", where);
  attempt.ii = integerField(value, "ii", where);
  attempt.latency = integerField(value, "latency", where);
  attempt.horizon = integerField(value, "horizon", where);
  if (member(value, "status")) attempt.status = statusField(value, "status", where);
  attempt.seconds = numberField(value, "seconds", where);
  attempt.bound = numberField(value, "bound", where);
  attempt.detail = stringField(value, "detail", where);
  return attempt;
}

std::vector<std::pair<std::string, double>> figuresField(const Json& object, std::string_view key) {
  std::vector<std::pair<std::string, double>> figures;
  if (const Json* values = objectField(object, key)) {
    const std::string where = fmt::format("{}.", key);
    for (const auto& [name, value] : values->items()) {
      const auto number = numberField(*values, name, where);
      if (!number) {
        throw FieldError{
            fmt::format("expected a number for {}{}, found {}", where, name, describe(value))};
      }
      figures.emplace_back(name, *number);
    }
  }
  return figures;
}

std::vector<ResultAttempt> attemptsField(const Json& object) {
  std::vector<ResultAttempt> attempts;
  if (const Json* values = member(object, "attempts")) {
    if (!values->is_array()) {
      throw FieldError{fmt::format("expected an array for attempts, found {}", describe(*values))};
    }
    for (std::size_t i = 0; i < values->size(); ++i)
      attempts.push_back(parseAttempt((*values)[i], i));
  }
  return attempts;
}

// The fields of a record's method run, "gaus-result-2" (and `--json`) shape.
ResultFields parseFields(const Json& json) {
  ResultFields fields;
  fields.method = stringField(json, "method");
  fields.status = statusField(json, "status");
  fields.message = stringField(json, "message");
  if (const Json* objective = objectField(json, "objective")) {
    const auto value = numberField(*objective, "value", "objective.");
    if (!value) throw FieldError{"expected a number for objective.value, found none"};
    fields.objective = ResultObjective{stringField(*objective, "name", "objective."), *value};
  }
  fields.seconds = numberField(json, "seconds");
  fields.iterations = integerField(json, "iterations").value_or(0);
  fields.solverCalls = integerField(json, "solver_calls").value_or(0);
  if (const Json* bounds = objectField(json, "bounds")) {
    fields.lowerBound = numberField(*bounds, "lower_bound", "bounds.");
    fields.gap = numberField(*bounds, "gap", "bounds.");
    fields.lowerBoundArgument = stringField(*bounds, "argument", "bounds.");
    fields.iiProvenOptimal = boolField(*bounds, "ii_proven_optimal");
    fields.latencyProvenOptimal = boolField(*bounds, "latency_proven_optimal");
    if (const auto mii = integerField(*bounds, "mii", "bounds.")) {
      fields.mii = MiiBound{*mii, integerField(*bounds, "res_mii", "bounds.").value_or(0),
                            integerField(*bounds, "rec_mii", "bounds.").value_or(0),
                            stringField(*bounds, "ii_bound", "bounds.")};
    }
  }
  if (const Json* options = objectField(json, "options")) {
    for (const auto& [name, value] : options->items()) {
      fields.options.emplace_back(name,
                                  value.is_string() ? value.get<std::string>() : value.dump());
    }
  }
  fields.figures = figuresField(json, "extra");
  fields.attempts = attemptsField(json);
  fields.verified = boolField(json, "verified");
  return fields;
}

// A "gaus-result-1" line's result: the same fields, with the bound, its argument and the figures
// at the top level (its proven_optimal always said what its status says).
ResultFields parseFieldsV1(const Json& line) {
  ResultFields fields = parseFields(line);
  fields.lowerBound = numberField(line, "lower_bound");
  fields.lowerBoundArgument = stringField(line, "bound_argument");
  fields.figures = figuresField(line, "figures");
  return fields;
}

ResultRecord parseRecord(const Json& line) {
  if (!line.is_object()) {
    throw FieldError{fmt::format("expected a JSON object, found {}", describe(line))};
  }
  const std::string format = stringField(line, "format");
  if (!format.empty() && format != kResultFormat && format != kResultFormatV1) {
    throw FieldError{fmt::format("expected format \"{}\" (or \"{}\"), found \"{}\"", kResultFormat,
                                 kResultFormatV1, format)};
  }
  ResultRecord record;
  static_cast<ResultFields&>(record) =
      format == kResultFormatV1 ? parseFieldsV1(line) : parseFields(line);
  record.runId = stringField(line, "run_id");
  record.experiment = stringField(line, "experiment");
  record.label = stringField(line, "label");
  if (record.label.empty()) record.label = record.method;
  if (record.label.empty()) throw FieldError{"expected a method or a label, found neither"};
  if (const Json* graph = objectField(line, "graph")) {
    record.graph.id = stringField(*graph, "id", "graph.");
    record.graph.path = stringField(*graph, "path", "graph.");
    record.graph.hash = stringField(*graph, "hash", "graph.");
    record.graph.ops = integerField(*graph, "ops", "graph.");
    record.graph.edges = integerField(*graph, "edges", "graph.");
  }
  if (record.graph.id.empty()) record.graph.id = record.graph.path;
  if (record.graph.id.empty()) throw FieldError{"expected graph.id (or graph.path), found none"};
  if (const Json* problem = objectField(line, "problem")) {
    record.problem.kind = stringField(*problem, "kind", "problem.");
    record.problem.machine = stringField(*problem, "machine", "problem.");
    record.problem.horizon = integerField(*problem, "horizon", "problem.");
    record.problem.ii = integerField(*problem, "ii", "problem.");
  }
  record.reference = numberField(line, "reference");
  record.peakRssBytes = integerField(line, "peak_rss_bytes");
  record.jobs = integerField(line, "jobs");
  if (const std::string file = stringField(line, "schedule_file"); !file.empty())
    record.scheduleFile = file;
  if (const std::string file = stringField(line, "trace_file"); !file.empty())
    record.traceFile = file;
  record.seed = integerField(line, "seed");
  record.repeat = integerField(line, "repeat");
  record.version = stringField(line, "version");
  record.host = stringField(line, "host");
  record.startedAt = stringField(line, "started_at");
  return record;
}

template <class AnyJson, typename T>
AnyJson orNullOf(const std::optional<T>& value) {
  return value ? AnyJson(*value) : AnyJson(nullptr);
}

template <typename T>
OrderedJson orNull(const std::optional<T>& value) {
  return orNullOf<OrderedJson>(value);
}

}  // namespace

// A run's status as the results file spells it.
constexpr auto kRunStatusNames = makeEnumNames<RunStatus>({
    {RunStatus::kOptimal, "optimal"},
    {RunStatus::kFeasible, "feasible"},
    {RunStatus::kInfeasible, "infeasible"},
    {RunStatus::kTimeout, "timeout"},
    {RunStatus::kUnknown, "unknown"},
    {RunStatus::kError, "error"},
    {RunStatus::kCrashed, "crashed"},
    {RunStatus::kOutOfMemory, "out_of_memory"},
});

std::string_view toString(RunStatus status) {
  return kRunStatusNames.name(status);
}

std::optional<RunStatus> parseRunStatus(std::string_view text) {
  return kRunStatusNames.parse(text);
}

bool isSuccess(RunStatus status) {
  return status == RunStatus::kOptimal || status == RunStatus::kFeasible;
}

bool isFailure(const ResultRecord& record) {
  if (record.status == RunStatus::kError || record.status == RunStatus::kCrashed ||
      record.status == RunStatus::kOutOfMemory) {
    return true;
  }
  return !record.verified && record.status != RunStatus::kInfeasible;
}

Expected<ResultRecord> parseResultRecord(std::string_view line) {
  Json parsed;
  try {
    parsed = Json::parse(line);
  } catch (const Json::parse_error&) {
    return Error{
        "expected one JSON object on the line, found text that does not parse (a line cut "
        "short by a crash?)"};
  }
  try {
    return parseRecord(parsed);
  } catch (const FieldError& error) {
    return Error{error.message};
  }
}

Expected<ResultsFile> readResults(const std::filesystem::path& path) {
  const Status readable = io::checkInputFile(
      path, fmt::format("a results file: JSON lines, one \"{}\" record per run", kResultFormat));
  if (!readable) return Error{readable.error()};
  std::ifstream in(path, std::ios::binary);
  ResultsFile results;
  results.path = path;
  std::vector<ResultRecord> all;
  std::string line;
  std::int64_t number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    auto record = parseResultRecord(line);
    if (!record) {
      results.skipped.push_back({number, record.error()});
      continue;
    }
    record->line = number;
    if (record->runId.empty()) record->runId = fmt::format("line {}", number);
    all.push_back(std::move(record).value());
  }
  // A run_id seen again is a re-run (a resumed experiment): the last line stands.
  std::map<std::string, std::size_t, std::less<>> lastLine;
  for (std::size_t i = 0; i < all.size(); ++i) lastLine[all[i].runId] = i;
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (lastLine[all[i].runId] == i) {
      results.records.push_back(std::move(all[i]));
    } else {
      ++results.replacedRecords;
    }
  }
  if (results.records.empty()) {
    if (!results.skipped.empty()) {
      return Error{fmt::format("{}:{}: {}", path.string(), results.skipped.front().line,
                               results.skipped.front().reason)};
    }
    return Error{
        fmt::format("{}: expected at least one result record (one JSON object per "
                    "line), found none",
                    path.string())};
  }
  return results;
}

std::string fileNameOf(std::string_view runId) {
  std::string name;
  for (const char c : runId) {
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                       c == '.' || c == '-' || c == '_';
    name += plain ? c : '_';
  }
  return name.empty() ? std::string("run") : name;
}

namespace {

// One writer for both JSON kinds: results files keep the order written, `--json` sorts.
template <class AnyJson>
void writeFields(const ResultFields& fields, AnyJson& json) {
  json["method"] = fields.method;
  json["status"] = toString(fields.status);
  json["message"] = fields.message;
  json["objective"] = fields.objective ? AnyJson{{"name", fields.objective->name},
                                                 {"value", fields.objective->value}}
                                       : AnyJson(nullptr);
  json["seconds"] = orNullOf<AnyJson>(fields.seconds);
  json["iterations"] = fields.iterations;
  json["solver_calls"] = fields.solverCalls;
  AnyJson bounds;
  bounds["lower_bound"] = orNullOf<AnyJson>(fields.lowerBound);
  bounds["gap"] = orNullOf<AnyJson>(fields.gap);
  bounds["ii_proven_optimal"] = fields.iiProvenOptimal;
  bounds["latency_proven_optimal"] = fields.latencyProvenOptimal;
  if (fields.mii) {
    bounds["ii_bound"] = fields.mii->reason;
    bounds["mii"] = fields.mii->value;
    bounds["res_mii"] = fields.mii->resMii;
    bounds["rec_mii"] = fields.mii->recMii;
  }
  if (!fields.lowerBoundArgument.empty()) bounds["argument"] = fields.lowerBoundArgument;
  json["bounds"] = bounds;
  AnyJson options = AnyJson::object();
  for (const auto& [name, value] : fields.options) options[name] = value;
  json["options"] = options;
  AnyJson figures = AnyJson::object();
  // JSON has no infinity or NaN (they would be written as null, which the reader refuses).
  for (const auto& [name, value] : fields.figures) {
    if (std::isfinite(value)) figures[name] = value;
  }
  json["extra"] = figures;
  AnyJson attempts = AnyJson::array();
  for (const auto& attempt : fields.attempts) {
    attempts.push_back(
        {{"phase", attempt.phase},
         {"ii", orNullOf<AnyJson>(attempt.ii)},
         {"latency", orNullOf<AnyJson>(attempt.latency)},
         {"horizon", orNullOf<AnyJson>(attempt.horizon)},
         {"status", attempt.status ? AnyJson(toString(*attempt.status)) : AnyJson(nullptr)},
         {"seconds", orNullOf<AnyJson>(attempt.seconds)},
         {"bound", orNullOf<AnyJson>(attempt.bound)},
         {"detail", attempt.detail}});
  }
  json["attempts"] = attempts;
  json["verified"] = fields.verified;
}

}  // namespace

void writeResultFields(const ResultFields& fields, OrderedJson& json) {
  writeFields(fields, json);
}

void writeResultFields(const ResultFields& fields, nlohmann::json& json) {
  writeFields(fields, json);
}

Expected<ResultFields> readResultFields(const nlohmann::json& json) {
  try {
    return parseFields(json);
  } catch (const FieldError& error) {
    return Error{error.message};
  }
}

std::string formatResultRecord(const ResultRecord& record) {
  OrderedJson line;
  line["format"] = kResultFormat;
  line["run_id"] = record.runId;
  line["experiment"] = record.experiment;
  line["label"] = record.label;
  line["graph"] = {{"id", record.graph.id},
                   {"path", record.graph.path},
                   {"hash", record.graph.hash},
                   {"ops", orNull(record.graph.ops)},
                   {"edges", orNull(record.graph.edges)}};
  line["problem"] = {{"kind", record.problem.kind},
                     {"machine", record.problem.machine},
                     {"horizon", orNull(record.problem.horizon)},
                     {"ii", orNull(record.problem.ii)}};
  writeResultFields(record, line);
  line["reference"] = orNull(record.reference);
  line["peak_rss_bytes"] = orNull(record.peakRssBytes);
  line["jobs"] = orNull(record.jobs);
  line["schedule_file"] = orNull(record.scheduleFile);
  if (record.traceFile) line["trace_file"] = *record.traceFile;
  line["seed"] = orNull(record.seed);
  line["repeat"] = orNull(record.repeat);
  line["version"] = record.version;
  line["host"] = record.host;
  line["started_at"] = record.startedAt;
  return line.dump();
}

}  // namespace gaus::report
