// A batch over MPI ranks (experiment_runner.hpp). Rank 0 reads the configuration, surveys the
// graphs, sends the survey to every rank (all of them then make the same plan, so that a run is
// sent as its index), hands out one run per free rank (dynamic dispatch: a rank asks for no
// more than it runs, so long and short runs balance), and records what comes back. The other
// ranks run each task in a child process exactly as `gaus run` does on one machine and send the
// record (and the schedule) to rank 0.
//
// Ending: rank 0 sends STOP to every rank and waits for each one's BYE, recording any result
// that arrives before it. A rank interrupted on its own (its node's SIGTERM) stops its run and
// says BYE at once; rank 0 gives its run to another rank. Waiting ranks poll with MPI_Iprobe
// and sleep, so that an idle rank does not spin the core a run on the same node needs.

#include <cstdlib>

#include <gaus/experiment/experiment_runner.hpp>

#ifdef GAUS_HAVE_MPI
#include <array>
#include <map>
#include <set>
#include <thread>
#include <unistd.h>

#include <fmt/format.h>
#include <mpi.h>
#include <nlohmann/json.hpp>

#include "batch.hpp"
#endif

namespace gaus::experiment {

bool launchedByMpi() {
  // OpenMPI's mpirun, PMIx launchers (srun --mpi=pmix, prterun), PMI-1/2 launchers (MPICH,
  // srun --mpi=pmi2).
  for (const char* variable : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"}) {
    if (std::getenv(variable) != nullptr) return true;
  }
  return false;
}

#ifndef GAUS_HAVE_MPI

bool hasMpiSupport() {
  return false;
}

Expected<BatchOutcome> runExperimentOverMpi(const std::filesystem::path&, const MethodRegistry&,
                                            const RunnerOptions&) {
  return Error{
      "gaus was built without MPI (OpenMPI was not found when it was configured): run `gaus "
      "run` without mpirun, or install libopenmpi-dev and build again"};
}

#else

bool hasMpiSupport() {
  return true;
}

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

enum Tag : int { kTagSurvey = 1, kTagTask, kTagResult, kTagStop, kTagBye };
constexpr auto kPollInterval = std::chrono::milliseconds(5);
constexpr int kHostNameLength = 256;

// MPI_Init at construction, MPI_Finalize at destruction.
class MpiSession {
 public:
  MpiSession() { MPI_Init(nullptr, nullptr); }
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;
  ~MpiSession() { MPI_Finalize(); }
};

void sendText(int to, Tag tag, const std::string& text) {
  MPI_Send(text.data(), static_cast<int>(text.size()), MPI_CHAR, to, tag, MPI_COMM_WORLD);
}

// A message from `source` with `tag` when one has arrived, received.
std::optional<std::pair<int, std::string> > receiveIfArrived(int source, int tag) {
  int arrived = 0;
  MPI_Status status;
  MPI_Iprobe(source, tag, MPI_COMM_WORLD, &arrived, &status);
  if (arrived == 0) return std::nullopt;
  int count = 0;
  MPI_Get_count(&status, MPI_CHAR, &count);
  std::string text(static_cast<std::size_t>(count), '\0');
  MPI_Recv(text.data(), count, MPI_CHAR, status.MPI_SOURCE, status.MPI_TAG, MPI_COMM_WORLD,
           MPI_STATUS_IGNORE);
  return std::pair{status.MPI_SOURCE, std::move(text)};
}

std::string broadcastText(int rank, std::string text) {
  long long size = static_cast<long long>(text.size());
  MPI_Bcast(&size, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
  if (rank != 0) text.assign(static_cast<std::size_t>(size), '\0');
  MPI_Bcast(text.data(), static_cast<int>(size), MPI_CHAR, 0, MPI_COMM_WORLD);
  return text;
}

// How many ranks other than 0 run on each rank's host: the runs that share its cores.
std::vector<std::int32_t> workersPerHost(int size) {
  std::array<char, kHostNameLength> name{};
  ::gethostname(name.data(), name.size() - 1);
  std::vector<char> all(static_cast<std::size_t>(kHostNameLength) * size);
  MPI_Allgather(name.data(), kHostNameLength, MPI_CHAR, all.data(), kHostNameLength, MPI_CHAR,
                MPI_COMM_WORLD);
  std::map<std::string, std::int32_t> count;
  std::vector<std::string> hosts;
  for (int r = 0; r < size; ++r) {
    hosts.emplace_back(all.data() + static_cast<std::size_t>(r) * kHostNameLength);
    if (r != 0) ++count[hosts.back()];
  }
  std::vector<std::int32_t> workers;
  for (int r = 0; r < size; ++r) workers.push_back(std::max(1, count[hosts[r]]));
  return workers;
}

std::string fingerprint(const RunPlan& plan) {
  std::string ids;
  for (const PlannedRun& run : plan.runs) ids += run.id + '\n';
  return textHash(ids);
}

// ---- rank 0 ----

Expected<BatchOutcome> dispatch(Batch& batch, const std::vector<std::int32_t>& workers, int size) {
  const InterruptGuard guard;
  std::map<int, RunTask> working;
  std::set<int> live;
  for (int r = 1; r < size; ++r) live.insert(r);
  std::string lastGone;
  const auto handle = [&](int source, int tag, const std::string& text) -> Status {
    if (tag == kTagBye) {
      if (const auto lost = working.find(source); lost != working.end()) {
        batch.release(lost->second);
        working.erase(lost);
      }
      live.erase(source);
      if (!text.empty()) {
        lastGone = fmt::format("rank {}: {}", source, text);
        batch.progress().note(lastGone);
      }
      return Done{};
    }
    const Json json = Json::parse(text, nullptr, false);
    auto record = report::parseResultRecord(json.value("record", std::string()));
    if (!record)
      return Error{
          fmt::format("rank {} sent a record that does not read: {}", source, record.error())};
    RunOutput output{std::move(record).value(), std::nullopt, std::nullopt};
    if (json["schedule"].is_string()) output.schedule = json["schedule"].get<std::string>();
    if (json["trace"].is_string()) output.trace = json["trace"].get<std::string>();
    const std::size_t run = json["run"].get<std::size_t>();
    working.erase(source);
    return batch.record(run, std::move(output));
  };
  bool interrupted = false;
  Status failure = Done{};
  while (!batch.finished()) {
    if (guard.interrupted()) {
      interrupted = true;
      break;
    }
    for (const int rank : live) {
      if (working.count(rank) > 0) continue;
      auto task = batch.nextReady(workers[static_cast<std::size_t>(rank)]);
      if (!task) break;
      Json message = {{"run", task->run},
                      {"jobs", task->jobs},
                      {"start_id", task->startRunId},
                      {"start", task->startSchedule ? Json(*task->startSchedule) : Json(nullptr)}};
      sendText(rank, kTagTask, message.dump());
      working.emplace(rank, std::move(*task));
    }
    if (live.empty()) {
      failure = Error{fmt::format("every MPI rank left the batch (the last: {})", lastGone)};
      break;
    }
    bool received = false;
    for (const int tag : {kTagResult, kTagBye}) {
      if (auto message = receiveIfArrived(MPI_ANY_SOURCE, tag)) {
        received = true;
        if (auto handled = handle(message->first, tag, message->second); !handled) {
          failure = handled;
          break;
        }
      }
    }
    if (!failure) break;
    batch.progress().tick();
    if (!received) std::this_thread::sleep_for(kPollInterval);
  }
  // Every rank gets STOP; those still here answer BYE, after any result they had finished.
  for (int r = 1; r < size; ++r) sendText(r, kTagStop, "");
  while (!live.empty()) {
    bool received = false;
    for (const int tag : {kTagResult, kTagBye}) {
      if (auto message = receiveIfArrived(MPI_ANY_SOURCE, tag)) {
        received = true;
        if (auto handled = handle(message->first, tag, message->second); !handled && failure) {
          failure = handled;
        }
      }
    }
    if (!received) std::this_thread::sleep_for(kPollInterval);
  }
  if (!failure) return Error{failure.error()};
  return batch.finish(interrupted);
}

// ---- the other ranks ----

BatchOutcome serve(const ExperimentConfig& config, const RunPlan& plan,
                   const MethodRegistry& registry, const fs::path& scratch,
                   std::optional<std::int64_t> memoryLimit) {
  const InterruptGuard guard;
  struct Running {
    RunTask task;
    ChildProcess process;
  };
  std::optional<Running> running;
  const RunFiles files{scratch / "run"};
  bool saidBye = false;
  const auto sayBye = [&](const std::string& why) {
    if (running) running->process.stop();
    running.reset();
    sendText(0, kTagBye, why);
    saidBye = true;
  };
  while (true) {
    if (guard.interrupted() && !saidBye) sayBye("interrupted");
    if (receiveIfArrived(0, kTagStop)) {
      if (!saidBye) sayBye("");
      break;
    }
    if (saidBye) {
      std::this_thread::sleep_for(kPollInterval);
      continue;
    }
    if (auto message = receiveIfArrived(0, kTagTask)) {
      const Json json = Json::parse(message->second);
      RunTask task;
      task.config = &config;
      task.plan = &plan;
      task.run = json["run"].get<std::size_t>();
      task.jobs = json["jobs"].get<std::int64_t>();
      task.startRunId = json["start_id"].get<std::string>();
      if (json["start"].is_string()) task.startSchedule = json["start"].get<std::string>();
      std::error_code ignored;
      fs::remove_all(files.folder, ignored);
      fs::create_directories(files.folder, ignored);
      auto process =
          ChildProcess::start([&] { return runInChildProcess(task, registry, files); },
                              {memoryLimit, task.planned().deadlineSeconds}, files.log());
      if (!process) {
        sayBye(process.error());
        continue;
      }
      running.emplace(Running{std::move(task), std::move(process).value()});
    }
    if (running) {
      if (const auto end = running->process.poll()) {
        const RunOutput output = finishRun(running->task, registry, *end, files, memoryLimit);
        const Json result = {{"run", running->task.run},
                             {"record", report::formatResultRecord(output.record)},
                             {"schedule", output.schedule ? Json(*output.schedule) : Json(nullptr)},
                             {"trace", output.trace ? Json(*output.trace) : Json(nullptr)}};
        sendText(0, kTagResult, result.dump());
        running.reset();
        continue;
      }
    }
    std::this_thread::sleep_for(kPollInterval);
  }
  BatchOutcome outcome;
  outcome.worker = true;
  return outcome;
}

}  // namespace

Expected<BatchOutcome> runExperimentOverMpi(const fs::path& configPath,
                                            const MethodRegistry& registry,
                                            const RunnerOptions& options) {
  const MpiSession session;
  int rank = 0;
  int size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const std::vector<std::int32_t> workers = workersPerHost(size);
  auto config = readExperimentConfig(configPath, registry);
  if (size == 1) {
    if (!config) return Error{config.error()};
    return runExperiment(*config, registry, options);
  }
  if (rank == 0) {
    // An empty survey tells the other ranks that there is nothing to run.
    if (!config) {
      broadcastText(rank, "");
      return Error{config.error()};
    }
    auto batch = Batch::prepare(*config, registry, options, size - 1);
    if (!batch || options.dryRun) {
      broadcastText(rank, "");
      if (!batch) return Error{batch.error()};
      batch->printMatrix(batch->out(), options.listRuns);
      BatchOutcome outcome;
      outcome.runs = static_cast<std::int64_t>(batch->plan().runs.size());
      return outcome;
    }
    const Json survey = {{"survey", formatSurvey(batch->plan().graphs)},
                         {"fingerprint", fingerprint(batch->plan())}};
    broadcastText(rank, survey.dump());
    return dispatch(*batch, workers, size);
  }
  const std::string text = broadcastText(rank, "");
  BatchOutcome quiet;
  quiet.worker = true;
  if (text.empty()) return quiet;
  auto scratch = ScratchFolder::create();
  const Json survey = Json::parse(text);
  // Every rank must plan the same runs: a configuration or graph folder that reads differently
  // on this node would make run indices mean other runs.
  std::string problem;
  std::optional<RunPlan> plan;
  if (!config) {
    problem = config.error();
  } else if (!scratch) {
    problem = scratch.error();
  } else if (auto planned = planFromSurvey(*config, registry, survey["survey"].get<std::string>(),
                                           threadsPerRun(workers[static_cast<std::size_t>(rank)]));
             !planned) {
    problem = planned.error();
  } else if (fingerprint(*planned) != survey["fingerprint"].get<std::string>()) {
    problem = "the configuration expands to other runs on this rank's node than on rank 0's";
  } else {
    plan = std::move(planned).value();
  }
  if (!plan) {
    sendText(0, kTagBye, problem);
    while (!receiveIfArrived(0, kTagStop)) std::this_thread::sleep_for(kPollInterval);
    return quiet;
  }
  const auto memoryLimit =
      options.memoryLimitBytes ? options.memoryLimitBytes : config->budgets.memoryLimitBytes;
  applyMemoryLimit(*plan, memoryLimit);
  return serve(*config, *plan, registry, scratch->path(), memoryLimit);
}

#endif

}  // namespace gaus::experiment
