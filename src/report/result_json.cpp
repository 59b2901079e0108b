// The JSON views of report/result_json.hpp.

#include <algorithm>
#include <string>

#include <gaus/core/gap.hpp>
#include <gaus/core/option_table.hpp>
#include <gaus/core/warp_roles.hpp>
#include <gaus/io/io.hpp>
#include <gaus/report/result_json.hpp>
#include <gaus/report/results.hpp>

namespace gaus::report {

namespace {

template <class Value>
nlohmann::json optionalToJson(const std::optional<Value>& value) {
  return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

// An option's default as JSON of its type: true, 50, 0.01, "auto", ["a", "b"], or null for an
// option unset by default ("none") and for a default that depends on the machine.
nlohmann::json typedDefault(const OptionDoc& option) {
  const std::string& text = option.defaultValue;
  if (!option.defaultRule.empty() || text == "none") return nullptr;
  if (option.type == "boolean") {
    if (const auto value = option_text::parseBoolean(text)) return *value;
  } else if (option.type.starts_with("integer")) {
    if (const auto value = option_text::parseInteger(text)) return *value;
  } else if (option.type.starts_with("number")) {
    if (const auto value = option_text::parseNumber(text)) return *value;
  } else if (option.type == "list") {
    nlohmann::json items = nlohmann::json::array();
    for (std::size_t from = 0; from < text.size();) {
      const std::size_t comma = std::min(text.find(',', from), text.size());
      items.push_back(text.substr(from, comma - from));
      from = comma + 1;
    }
    return items;
  }
  return text;
}

// {"min": 0, "min_exclusive": true, "max": null, "max_exclusive": false}; null when any value is
// allowed.
nlohmann::json rangeToJson(const NumericRange& range) {
  if (!range.min && !range.max) return nullptr;
  return {{"min", optionalToJson(range.min)},
          {"min_exclusive", range.minExclusive},
          {"max", optionalToJson(range.max)},
          {"max_exclusive", range.maxExclusive}};
}

}  // namespace

nlohmann::json metricsToJson(const Machine& machine, const ScheduleMetrics& metrics) {
  nlohmann::json json;
  json["latency"] = metrics.latency;
  json["stages"] = optionalToJson(metrics.stages);
  nlohmann::json usage = nlohmann::json::object();
  for (std::size_t r = 0; r < metrics.peakUsage.size() && r < machine.resources.size(); ++r) {
    usage[machine.resources[r].name] = metrics.peakUsage[r];
  }
  json["peak_usage"] = usage;
  json["peak_live_memory"] = metrics.peakLiveMemory;
  nlohmann::json footprint = nlohmann::json::object();
  for (std::size_t m = 0; m < metrics.peakMemoryFootprint.size() && m < machine.memories.size();
       ++m) {
    footprint[machine.memories[m].name] = metrics.peakMemoryFootprint[m];
  }
  json["peak_memory_footprint"] = footprint;
  return json;
}

nlohmann::json verificationToJson(const Machine& machine, const VerificationReport& report) {
  nlohmann::json json;
  json["verified"] = report.ok();
  json["violation_count"] = report.totalViolations;
  nlohmann::json byFamily = nlohmann::json::object();
  for (std::size_t f = 0; f < kNumConstraintFamilies; ++f) {
    if (report.countByFamily[f] > 0) {
      byFamily[std::string(toString(static_cast<ConstraintFamily>(f)))] = report.countByFamily[f];
    }
  }
  json["violations_by_family"] = byFamily;
  nlohmann::json messages = nlohmann::json::array();
  for (const auto& violation : report.violations) messages.push_back(violation.message);
  json["violations"] = messages;
  json["unchecked_loop_carried_edges"] = report.uncheckedLoopCarriedEdges;
  if (report.ok() || report.count(ConstraintFamily::kShape) == 0) {
    json["metrics"] = metricsToJson(machine, report.metrics);
  }
  return json;
}

ResultAttempt resultAttempt(const Attempt& attempt) {
  ResultAttempt recorded;
  recorded.phase = attempt.phase;
  recorded.ii = attempt.ii;
  recorded.latency = attempt.latency;
  recorded.horizon = attempt.horizon;
  recorded.status = parseRunStatus(attempt.statusText());
  recorded.seconds = attempt.seconds;
  recorded.bound = attempt.bound;
  recorded.detail = attempt.detail;
  return recorded;
}

std::optional<std::string_view> iiProofReach(const Result& result) {
  const auto everyLength = result.figures.get("ii_proven_every_length");
  const auto withinLatency = result.figures.get("ii_proof_latency");
  if (!everyLength && !withinLatency) return std::nullopt;
  if (everyLength.value_or(0) > 0) return "every_length";
  if (withinLatency.value_or(0) > 0) return "within_stage_count";
  return "none";
}

ResultFields resultFields(const Result& result, std::string_view method) {
  ResultFields fields;
  fields.method = std::string(method);
  // Every status text of a result is a run status (results.hpp's superset).
  fields.status = parseRunStatus(result.statusText()).value_or(RunStatus::kUnknown);
  fields.message = result.message;
  if (result.objective) fields.objective = {result.objectiveName, *result.objective};
  fields.seconds = result.stats.seconds;
  fields.iterations = result.stats.iterations;
  fields.solverCalls = result.stats.solverCalls;
  fields.lowerBound = result.bounds.lowerBound;
  fields.gap = resultGap(result);
  fields.lowerBoundArgument = result.bounds.lowerBoundArgument;
  fields.iiProvenOptimal = result.bounds.iiProvenOptimal;
  fields.latencyProvenOptimal = result.bounds.latencyProvenOptimal;
  fields.mii = result.bounds.mii;
  fields.options = result.options;
  for (const auto& [name, value] : result.figures.values())
    fields.figures.emplace_back(name, value);
  for (const Attempt& attempt : result.attempts) fields.attempts.push_back(resultAttempt(attempt));
  fields.verified = result.verified();
  return fields;
}

nlohmann::json warpRolesToJson(const Instance& instance, const Schedule& schedule) {
  const Graph& graph = *instance.graph;
  nlohmann::json json = nlohmann::json::array();
  for (const auto& role : warpRoles(graph, *instance.machine, schedule)) {
    nlohmann::json ops = nlohmann::json::array();
    for (OpId op : role.ops) ops.push_back(graph.opName(op));
    nlohmann::json warps = nlohmann::json::array();
    for (int w = 0; w < kMaxWarps; ++w) {
      if ((role.warps >> w) & 1U) warps.push_back(w);
    }
    json.push_back({{"warps", warps},
                    {"units", role.units},
                    {"variable_latency", role.variableLatency},
                    {"ops", ops}});
  }
  return json;
}

nlohmann::json bufferUsageToJson(const Instance& instance, const Schedule& schedule) {
  nlohmann::json json = nlohmann::json::array();
  for (const auto& buffer : bufferUsage(*instance.graph, schedule)) {
    json.push_back({{"op", instance.graph->opName(buffer.op)},
                    {"memory", instance.machine->memories[buffer.memory].name},
                    {"amount", buffer.amount},
                    {"buffers", buffer.buffers}});
  }
  return json;
}

nlohmann::json methodRunToJson(const Instance& instance, const Result& result,
                               const MethodRunJson& run) {
  nlohmann::json json;
  writeResultFields(resultFields(result, run.method), json);
  json["instance"] = instance.name;
  json["kind"] = std::string(toString(run.kind));
  nlohmann::json notes = nlohmann::json::object();
  for (const auto& [title, text] : result.notes) notes[title] = text;
  json["notes"] = notes;
  if (!run.ignoredSettings.empty()) json["ignored_settings"] = run.ignoredSettings;
  if (const auto reach = iiProofReach(result)) {
    json["ii_proof"] = std::string(*reach);
    if (*reach == "within_stage_count") {
      json["ii_proof_latency"] = static_cast<std::int64_t>(*result.figures.get("ii_proof_latency"));
      json["ii_proof_stages"] =
          static_cast<std::int64_t>(result.figures.get("ii_proof_stages").value_or(0));
    }
  }
  const Schedule* schedule = result.schedule ? &*result.schedule : nullptr;
  if (schedule) {
    json["ii"] = optionalToJson(schedule->ii);
    // The schedule in its file format (docs/formats.md "Schedule JSON"), as -o writes it.
    json["schedule"] = nlohmann::json::parse(io::formatSchedule(*instance.graph, *schedule));
  }
  if (result.verification) {
    json["verification"] = verificationToJson(*instance.machine, *result.verification);
  }
  if (run.warpViews && schedule != nullptr && schedule->ii && schedule->warps) {
    json["roles"] = warpRolesToJson(instance, *schedule);
    json["buffers"] = bufferUsageToJson(instance, *schedule);
  }
  return json;
}

nlohmann::json methodsToJson(const MethodRegistry& registry) {
  nlohmann::json methods = nlohmann::json::array();
  for (const auto& name : registry.names()) {
    const MethodInfo& method = *registry.find(name);
    nlohmann::json kinds = nlohmann::json::array();
    for (ProblemKind kind : method.kinds) kinds.push_back(std::string(toString(kind)));
    nlohmann::json options = nlohmann::json::array();
    for (const auto& option : method.options) {
      nlohmann::json entry = {{"name", option.name},
                              {"type", option.type},
                              {"choices", option.choices},
                              {"default", typedDefault(option)},
                              {"range", rangeToJson(option.range)},
                              {"doc", option.description}};
      if (!option.defaultRule.empty()) entry["default_rule"] = option.defaultRule;
      options.push_back(std::move(entry));
    }
    nlohmann::json figures = nlohmann::json::array();
    for (const auto& figure : method.figures) {
      figures.push_back(
          {{"name", figure.name}, {"unit", figure.unit}, {"doc", figure.description}});
    }
    nlohmann::json entry = {{"name", name},
                            {"summary", method.summary},
                            {"kinds", kinds},
                            {"options", options},
                            {"figures", figures}};
    if (method.unavailable) entry["unavailable"] = *method.unavailable;
    methods.push_back(std::move(entry));
  }
  return methods;
}

}  // namespace gaus::report
