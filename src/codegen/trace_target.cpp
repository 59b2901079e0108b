// The trace target: the schedule and a CPU run of its protocol as Chrome trace-event JSON (the
// "JSON Array/Object Format" of the Trace Event Format document; Perfetto and chrome://tracing
// open it). Process 1 draws the schedule, 1 us per cycle: a track per warp role and a track per
// unit instance; process 2 draws the in-process CPU run in real microseconds, a track per role.
// Each op instance is one complete ("X") slice named after the op, with its iteration, stage
// and cycle as arguments and a colour per iteration (cname; Perfetto colours by name instead).
// Slices that overlap on one track would break the nesting the format expects, so a role or a
// unit gets extra lanes ("consumer_wg1 #2") for instances that overlap in time.

#include <algorithm>
#include <array>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <gaus/codegen/protocol_executor.hpp>
#include <gaus/codegen/targets.hpp>

namespace gaus::codegen {

namespace {

// Colours of the trace viewer's reserved palette, one per iteration (cycled).
constexpr std::array<std::string_view, 10> kIterationColours = {"thread_state_running",
                                                                "rail_response",
                                                                "thread_state_iowait",
                                                                "rail_animation",
                                                                "rail_load",
                                                                "good",
                                                                "yellow",
                                                                "olive",
                                                                "rail_idle",
                                                                "bad"};

std::string colourOf(std::int64_t iteration) {
  return std::string(
      kIterationColours[static_cast<std::size_t>(iteration) % kIterationColours.size()]);
}

// Greedy lanes of one track: the first lane free at `begin`.
class Lanes {
 public:
  std::size_t take(Cycle begin, Cycle end) {
    for (std::size_t lane = 0; lane < busyUntil_.size(); ++lane) {
      if (busyUntil_[lane] <= begin) {
        busyUntil_[lane] = end;
        return lane;
      }
    }
    busyUntil_.push_back(end);
    return busyUntil_.size() - 1;
  }
  std::size_t count() const { return busyUntil_.size(); }

 private:
  std::vector<Cycle> busyUntil_;
};

nlohmann::json metadata(std::string_view what, int pid, std::optional<int> tid,
                        const nlohmann::json& value) {
  nlohmann::json event{{"name", what}, {"ph", "M"}, {"pid", pid}, {"args", value}};
  if (tid) event["tid"] = *tid;
  return event;
}

class TraceWriter {
 public:
  explicit TraceWriter(const Pipeline& pipeline) : pipeline_(pipeline) {}

  nlohmann::json document(std::int64_t trips, const ProtocolRun& run) {
    scheduleProcess(trips);
    runProcess(run);
    nlohmann::json json;
    json["displayTimeUnit"] = "ns";
    json["traceEvents"] = std::move(events_);
    json["otherData"] = {{"kernel", pipeline_.name},
                         {"ii", pipeline_.ii},
                         {"stages", pipeline_.stages},
                         {"trips", trips},
                         {"process 1", "the schedule, 1 us per cycle"},
                         {"process 2", "a CPU run of the protocol, in microseconds"}};
    return json;
  }

 private:
  void slice(int pid, int tid, std::string_view name, double ts, double dur, std::int64_t iteration,
             nlohmann::json args) {
    args["iteration"] = iteration;
    events_.push_back({{"name", name},
                       {"cat", "op"},
                       {"ph", "X"},
                       {"pid", pid},
                       {"tid", tid},
                       {"ts", ts},
                       {"dur", dur},
                       {"cname", colourOf(iteration)},
                       {"args", std::move(args)}});
  }

  void scheduleProcess(std::int64_t trips) {
    const Graph& graph = *pipeline_.graph;
    const Machine& machine = *pipeline_.machine;
    constexpr int kPid = 1;
    events_.push_back(metadata("process_name", kPid, std::nullopt,
                               {{"name", fmt::format("schedule of {} (II {}, 1 us = 1 cycle)",
                                                     pipeline_.name, pipeline_.ii)}}));
    std::vector<OpInstance> instances = expandInstances(pipeline_, trips);
    std::stable_sort(instances.begin(), instances.end(),
                     [](const OpInstance& a, const OpInstance& b) { return a.cycle < b.cycle; });
    // Tracks: lane l of role r is tid 1 + r * 1000 + l; lane l of resource u is 1000000 + u *
    // 1000 + l. Names are given once per used lane.
    std::vector<Lanes> roleLanes(pipeline_.roles.size());
    std::vector<Lanes> unitLanes(machine.resources.size());
    for (const OpInstance& instance : instances) {
      const Cycle duration = std::max<Cycle>(1, graph.duration(instance.op));
      const std::size_t lane = roleLanes[static_cast<std::size_t>(instance.role)].take(
          instance.cycle, instance.cycle + duration);
      const nlohmann::json args{
          {"stage", instance.stage},
          {"cycle", instance.cycle},
          {"role", pipeline_.roles[static_cast<std::size_t>(instance.role)].name},
          {"section", std::string(toString(instance.section))}};
      slice(kPid, 1 + instance.role * 1000 + static_cast<int>(lane), graph.opName(instance.op),
            static_cast<double>(instance.cycle), static_cast<double>(duration), instance.iteration,
            args);
      for (const auto& block : graph.reservation(instance.op)) {
        for (std::int32_t unit = 0; unit < block.units; ++unit) {
          const Cycle begin = instance.cycle + block.begin;
          const std::size_t unitLane =
              unitLanes[static_cast<std::size_t>(block.resource)].take(begin, begin + block.length);
          slice(kPid, 1000000 + block.resource * 1000 + static_cast<int>(unitLane),
                graph.opName(instance.op), static_cast<double>(begin),
                static_cast<double>(block.length), instance.iteration, args);
        }
      }
    }
    for (std::size_t r = 0; r < roleLanes.size(); ++r) {
      for (std::size_t lane = 0; lane < roleLanes[r].count(); ++lane) {
        const int tid = 1 + static_cast<int>(r) * 1000 + static_cast<int>(lane);
        const std::string name = fmt::format("role {}{}", pipeline_.roles[r].name,
                                             lane == 0 ? "" : fmt::format(" #{}", lane + 1));
        events_.push_back(metadata("thread_name", kPid, tid, {{"name", name}}));
        events_.push_back(metadata("thread_sort_index", kPid, tid, {{"sort_index", tid}}));
      }
    }
    for (std::size_t u = 0; u < unitLanes.size(); ++u) {
      for (std::size_t lane = 0; lane < unitLanes[u].count(); ++lane) {
        const int tid = 1000000 + static_cast<int>(u) * 1000 + static_cast<int>(lane);
        const std::string name = fmt::format("unit {} #{}", machine.resources[u].name, lane + 1);
        events_.push_back(metadata("thread_name", kPid, tid, {{"name", name}}));
        events_.push_back(metadata("thread_sort_index", kPid, tid, {{"sort_index", tid}}));
      }
    }
  }

  void runProcess(const ProtocolRun& run) {
    constexpr int kPid = 2;
    events_.push_back(
        metadata("process_name", kPid, std::nullopt,
                 {{"name", fmt::format("CPU run of the protocol of {} (us)", pipeline_.name)}}));
    for (std::size_t r = 0; r < pipeline_.roles.size(); ++r) {
      const int tid = 1 + static_cast<int>(r);
      events_.push_back(
          metadata("thread_name", kPid, tid, {{"name", "role " + pipeline_.roles[r].name}}));
      events_.push_back(metadata("thread_sort_index", kPid, tid, {{"sort_index", tid}}));
    }
    for (const auto& event : run.trace) {
      slice(kPid, 1 + event.role, pipeline_.graph->opName(event.op), event.beginMicroseconds,
            std::max(0.001, event.endMicroseconds - event.beginMicroseconds), event.iteration,
            {{"sequence", event.sequence}});
    }
  }

  const Pipeline& pipeline_;
  nlohmann::json events_ = nlohmann::json::array();
};

}  // namespace

Expected<std::string> renderTrace(const Pipeline& pipeline, const TargetOptions& options) {
  ProtocolRunOptions runOptions;
  runOptions.trips = options.traceTrips;
  const ProtocolRun run = runProtocol(pipeline, runOptions);
  if (!run.ok()) {
    return Error{fmt::format("the CPU run of the protocol of {} failed its checks: {}",
                             pipeline.name, run.report)};
  }
  return TraceWriter(pipeline).document(options.traceTrips, run).dump(1) + "\n";
}

}  // namespace gaus::codegen
