// The JSON views of what a method returns, of a verification and of the method catalog: what
// `gaus schedule --json`, `gaus twill --json`, `gaus verify --json` and `gaus methods --json`
// print, and what the Python module (python/, docs/python.md) hands back as dicts. One view for
// every caller, so the command line and Python say the same.
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include <gaus/core/instance.hpp>
#include <gaus/core/result.hpp>
#include <gaus/core/verify.hpp>
#include <gaus/methods/registry.hpp>
#include <gaus/report/results.hpp>

namespace gaus::report {

// {"latency", "stages", "peak_usage": {resource: n}, "peak_live_memory",
// "peak_memory_footprint": {memory: n}}.
nlohmann::json metricsToJson(const Machine& machine, const ScheduleMetrics& metrics);
// {"verified", "violation_count", "violations_by_family", "violations": [message],
// "unchecked_loop_carried_edges", "metrics"} (metrics when the schedule has the graph's shape).
nlohmann::json verificationToJson(const Machine& machine, const VerificationReport& report);
// What a result says, as `--json` and a results record both write it (results.hpp).
ResultFields resultFields(const Result& result, std::string_view method);
ResultAttempt resultAttempt(const Attempt& attempt);
// How far a proof of the minimal II reaches, from Twill's figures ii_proven_every_length and
// ii_proof_latency: "every_length", "within_stage_count", "none"; nullopt for a result that
// reports neither (not Twill's).
std::optional<std::string_view> iiProofReach(const Result& result);

// The warp roles of a warp-specialized schedule: [{"warps", "units", "variable_latency",
// "ops"}] (core/warp_roles.hpp).
nlohmann::json warpRolesToJson(const Instance& instance, const Schedule& schedule);
// The buffers its values need: [{"op", "memory", "amount", "buffers"}].
nlohmann::json bufferUsageToJson(const Instance& instance, const Schedule& schedule);

// One method run as `gaus schedule --json`, `gaus twill --json`, Python's gaus.schedule() and
// gaus.twill() return it: the result's fields (ResultFields: status, objective, bounds, options,
// figures as "extra", attempts, verified), the instance, the problem kind, the notes, how far a
// proof of the minimal II reaches ("ii_proof", from Twill's figures), the II, the schedule in its
// file format (docs/formats.md "Schedule JSON"), the verification, the settings the method
// ignored when there are any (Python's Result.ignored_settings; the commands say them on stderr
// before the run and give none here) and, with `warpViews` (gaus twill, Python), the roles and
// buffers of a warp-specialized schedule.
struct MethodRunJson {
  std::string_view method;
  ProblemKind kind = ProblemKind::kLatency;
  std::vector<std::string> ignoredSettings;
  bool warpViews = false;
};
nlohmann::json methodRunToJson(const Instance& instance, const Result& result,
                               const MethodRunJson& run);

// Every method of the registry: [{"name", "summary", "kinds", "options": [{"name", "type",
// "choices", "default", "range", "doc", "default_rule"?}], "figures": [{"name", "unit",
// "doc"}]}]. A default is JSON of its type, null when unset or when it depends on the machine
// (default_rule then says how it is found), so the output is the same on every machine. A method
// whose engine plugin did not load has "unavailable" with the reason.
nlohmann::json methodsToJson(const MethodRegistry& registry);

}  // namespace gaus::report
