// CBC behind the MilpModel builder, through CBC's C interface (Cbc_C_Interface.h): it runs the
// same preprocessing, cut generators and primal heuristics as the cbc command-line solver
// (CbcMain1), which a bare CbcModel::branchAndBound does not, and it accepts a MIP start.
//
// Time limits are enforced from outside CBC: a solve with a limit runs in a forked child that
// sends its answer through a pipe and is killed when it overruns, or when a cancel request comes
// (milp_model.hpp, solve). CBC
// checks its own limit between branch-and-bound nodes only; its root LP (Clp's idiot crash and
// primal simplex) and preprocessing do not look at the clock.

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <coin/Cbc_C_Interface.h>
#include <fmt/format.h>

#include "milp_backends.hpp"

namespace gaus::milp {

namespace {

// CBC reads +-1e30 and beyond as infinite.
double toCbcBound(double value) {
  constexpr double kInfinity = 1e30;
  if (value >= kInfinity) return std::numeric_limits<double>::max();
  if (value <= -kInfinity) return -std::numeric_limits<double>::max();
  return value;
}

struct CbcModelDeleter {
  void operator()(Cbc_Model* model) const { Cbc_deleteModel(model); }
};

// The child's answer as bytes: call and model status, nodes, objective and bound (each with a
// presence flag), the note, then the values.
template <typename T>
void put(std::string& bytes, const T& value) {
  bytes.append(reinterpret_cast<const char*>(&value), sizeof(T));
}

template <typename T>
bool take(std::string_view& bytes, T& value) {
  if (bytes.size() < sizeof(T)) return false;
  std::memcpy(&value, bytes.data(), sizeof(T));
  bytes.remove_prefix(sizeof(T));
  return true;
}

void putOptional(std::string& bytes, const std::optional<double>& value) {
  put(bytes, static_cast<char>(value.has_value()));
  put(bytes, value.value_or(0.0));
}

bool takeOptional(std::string_view& bytes, std::optional<double>& value) {
  char present = 0;
  double number = 0.0;
  if (!take(bytes, present) || !take(bytes, number)) return false;
  value = present != 0 ? std::optional<double>(number) : std::nullopt;
  return true;
}

std::string encodeSolution(const MilpSolution& solution) {
  std::string bytes;
  put(bytes, static_cast<std::int32_t>(solution.call));
  put(bytes, static_cast<std::int32_t>(solution.status));
  put(bytes, solution.nodes);
  putOptional(bytes, solution.objective);
  putOptional(bytes, solution.bound);
  put(bytes, static_cast<std::int64_t>(solution.note.size()));
  bytes.append(solution.note);
  put(bytes, static_cast<std::int64_t>(solution.values.size()));
  bytes.append(reinterpret_cast<const char*>(solution.values.data()),
               solution.values.size() * sizeof(double));
  return bytes;
}

bool decodeSolution(std::string_view bytes, MilpSolution& solution) {
  std::int32_t call = 0;
  std::int32_t status = 0;
  std::int64_t noteSize = 0;
  std::int64_t count = 0;
  if (!take(bytes, call) || !take(bytes, status) || !take(bytes, solution.nodes) ||
      !takeOptional(bytes, solution.objective) || !takeOptional(bytes, solution.bound) ||
      !take(bytes, noteSize) || noteSize < 0 || bytes.size() < static_cast<std::size_t>(noteSize)) {
    return false;
  }
  solution.note = std::string(bytes.substr(0, static_cast<std::size_t>(noteSize)));
  bytes.remove_prefix(static_cast<std::size_t>(noteSize));
  if (!take(bytes, count) || count < 0 ||
      bytes.size() != static_cast<std::size_t>(count) * sizeof(double)) {
    return false;
  }
  solution.call = static_cast<CallStatus>(call);
  solution.status = static_cast<ModelStatus>(status);
  solution.values.resize(static_cast<std::size_t>(count));
  std::memcpy(solution.values.data(), bytes.data(), bytes.size());
  return true;
}

bool writeAll(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t written = write(fd, bytes.data(), bytes.size());
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) return false;
    bytes.remove_prefix(static_cast<std::size_t>(written));
  }
  return true;
}

// How often the parent looks at the cancel flag while the child solves.
constexpr std::int64_t kCancelPollMilliseconds = 50;

bool cancelRequested(const std::atomic<bool>* cancel) {
  return cancel != nullptr && cancel->load(std::memory_order_relaxed);
}

// Reads `fd` to its end unless `stopAt` or a cancel request comes first; true when the end was
// reached.
bool readUntil(int fd, std::chrono::steady_clock::time_point stopAt,
               const std::atomic<bool>* cancel, std::string& received) {
  char buffer[1 << 16];
  while (true) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        stopAt - std::chrono::steady_clock::now());
    if (left.count() <= 0 || cancelRequested(cancel)) return false;
    pollfd wait{fd, POLLIN, 0};
    const int ready = poll(
        &wait, 1, static_cast<int>(std::min<std::int64_t>(left.count(), kCancelPollMilliseconds)));
    if (ready < 0 && errno != EINTR) return false;
    if (ready <= 0) continue;
    const ssize_t count = read(fd, buffer, sizeof(buffer));
    if (count < 0 && errno == EINTR) continue;
    if (count < 0) return false;
    if (count == 0) return true;
    received.append(buffer, static_cast<std::size_t>(count));
  }
}

// CBC in this process.
MilpSolution solveCbcHere(const MilpData& data, const MilpSolveSettings& settings) {
  const double timeLimitSeconds = settings.timeLimitSeconds;
  const auto begin = std::chrono::steady_clock::now();
  const int columns = static_cast<int>(data.lower.size());
  const int rows = static_cast<int>(data.rowLower.size());
  const ColumnMatrix matrix = columnMajor(data);
  std::vector<CoinBigIndex> start(matrix.start.begin(), matrix.start.end());
  std::vector<double> columnLower(data.lower), columnUpper(data.upper);
  std::vector<double> rowLower(data.rowLower), rowUpper(data.rowUpper);
  for (auto& bound : columnLower) bound = toCbcBound(bound);
  for (auto& bound : columnUpper) bound = toCbcBound(bound);
  for (auto& bound : rowLower) bound = toCbcBound(bound);
  for (auto& bound : rowUpper) bound = toCbcBound(bound);

  std::unique_ptr<Cbc_Model, CbcModelDeleter> model(Cbc_newModel());
  Cbc_Model* cbc = model.get();
  Cbc_loadProblem(cbc, columns, rows, start.data(), matrix.index.data(), matrix.value.data(),
                  columnLower.data(), columnUpper.data(), data.cost.data(), rowLower.data(),
                  rowUpper.data());
  for (int c = 0; c < columns; ++c) {
    if (data.integer[c]) Cbc_setInteger(cbc, c);
  }
  Cbc_setObjSense(cbc, data.maximize ? -1.0 : 1.0);
  Cbc_setLogLevel(cbc, 0);
  Cbc_setParameter(cbc, "threads", "1");
  // Wall-clock time, as every other limit of the project: CBC's default counts CPU time, which
  // on a loaded machine lets a solve run well past its limit.
  Cbc_setParameter(cbc, "timeMode", "elapsed");
  if (!settings.presolve) Cbc_setParameter(cbc, "presolve", "off");
  if (timeLimitSeconds > 0) Cbc_setMaximumSeconds(cbc, std::max(0.01, timeLimitSeconds));
  if (settings.nodeLimit > 0) {
    Cbc_setMaximumNodes(cbc,
                        static_cast<int>(std::min<std::int64_t>(settings.nodeLimit, INT32_MAX)));
  }
  if (settings.start != nullptr && static_cast<int>(settings.start->size()) == columns) {
    std::vector<int> all(static_cast<std::size_t>(columns));
    for (int c = 0; c < columns; ++c) all[c] = c;
    Cbc_setMIPStartI(cbc, columns, all.data(), settings.start->data());
  }

  MilpSolution solution;
  Cbc_solve(cbc);
  solution.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  solution.nodes = Cbc_getNodeCount(cbc);

  const double* best = Cbc_bestSolution(cbc);
  const bool haveSolution = best != nullptr;
  if (haveSolution) {
    solution.values.assign(best, best + columns);
    solution.objective = Cbc_getObjValue(cbc);
  }
  if (Cbc_isProvenOptimal(cbc) && haveSolution) {
    solution.status = ModelStatus::kOptimal;
    solution.bound = solution.objective;
  } else if (Cbc_isProvenInfeasible(cbc) ||
             (Cbc_status(cbc) == 0 && !haveSolution && Cbc_secondaryStatus(cbc) == 1)) {
    solution.status = ModelStatus::kInfeasible;
  } else if (Cbc_isSecondsLimitReached(cbc) || Cbc_status(cbc) == 1) {
    // Stopped on the limit: `values` holds the incumbent when CBC found one.
    solution.status = ModelStatus::kTimeout;
    solution.bound = Cbc_getBestPossibleObjValue(cbc);
    if (Cbc_isNodeLimitReached(cbc)) {
      solution.note = fmt::format("stopped at its node limit ({} nodes)", settings.nodeLimit);
    }
  } else if (haveSolution) {
    solution.status = ModelStatus::kFeasible;
  } else {
    solution.call = CallStatus::kError;
    solution.note = "CBC abandoned the model: numerical trouble or an unbounded relaxation";
  }
  // A proof claimed once the limit has run out is not trusted: CBC 2.10 says "proven
  // infeasible" when its limit stops it in preprocessing (Triton's FA dump, latency MILP in raw
  // cycles with a 1 s limit: status 0, secondary status 1, while a schedule exists).
  if (timeLimitSeconds > 0 && solution.seconds >= timeLimitSeconds) {
    if (solution.status == ModelStatus::kInfeasible) {
      solution.status = ModelStatus::kTimeout;
      solution.note = "CBC claimed infeasibility as its time limit ran out (not trusted)";
    } else if (solution.status == ModelStatus::kOptimal) {
      solution.status = ModelStatus::kTimeout;
      solution.note = "CBC claimed optimality as its time limit ran out (not trusted)";
    }
  }
  return solution;
}

// CBC in a forked child, stopped at the limit plus stopGraceSeconds or on a cancel request.
MilpSolution solveCbcInChild(const MilpData& data, const MilpSolveSettings& settings) {
  const double timeLimitSeconds = settings.timeLimitSeconds;
  const auto begin = std::chrono::steady_clock::now();
  int channel[2];
  if (pipe(channel) != 0) return solveCbcHere(data, settings);
  // Output still buffered would be written twice if CBC flushes the child's copy.
  std::fflush(nullptr);
  const pid_t parent = getpid();
  const pid_t child = fork();
  if (child < 0) {
    close(channel[0]);
    close(channel[1]);
    return solveCbcHere(data, settings);
  }
  if (child == 0) {
    // The child solves, sends its answer and ends without running the parent's exit handlers
    // or flushing its copies of the parent's output buffers. It dies with the parent (a
    // stopped or killed caller must not leave CBC running), also if the parent died first.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(1);
    close(channel[0]);
    const bool sent = writeAll(channel[1], encodeSolution(solveCbcHere(data, settings)));
    _exit(sent ? 0 : 1);
  }
  close(channel[1]);
  const auto stopAt =
      begin +
      std::chrono::duration_cast<std::chrono::steady_clock::duration>(
          std::chrono::duration<double>(timeLimitSeconds + stopGraceSeconds(timeLimitSeconds)));
  std::string received;
  const bool complete = readUntil(channel[0], stopAt, settings.cancel, received);
  close(channel[0]);
  if (!complete) kill(child, SIGKILL);
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  MilpSolution solution;
  const bool decoded = complete && WIFEXITED(status) && WEXITSTATUS(status) == 0 &&
                       decodeSolution(received, solution);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  if (!decoded) {
    solution = MilpSolution{};
    if (!complete && cancelRequested(settings.cancel)) {
      solution.status = ModelStatus::kTimeout;
      solution.note = fmt::format("stopped by a cancel request after {:.1f}s", seconds);
    } else if (!complete) {
      solution.status = ModelStatus::kTimeout;
      solution.note =
          fmt::format("CBC stopped {:.1f}s after its limit", seconds - timeLimitSeconds);
    } else {
      // The child died. CBC 2.10 crashes (SIGSEGV) when its limit stops it while it processes
      // a MIP start (Triton's FA dump, latency MILP in raw cycles, 2-3 s limits): after the
      // limit that is a timeout, before it a failed call.
      const std::string how = WIFSIGNALED(status)
                                  ? fmt::format("signal {}", WTERMSIG(status))
                                  : fmt::format("exit status {}", WEXITSTATUS(status));
      if (seconds >= timeLimitSeconds) {
        solution.status = ModelStatus::kTimeout;
      } else {
        solution.call = CallStatus::kError;
        solution.crashed = true;
      }
      solution.note = fmt::format("CBC died ({}) after {:.1f}s", how, seconds);
    }
  }
  solution.seconds = seconds;
  return solution;
}

}  // namespace

MilpSolution solveWithCbc(const MilpData& data, const MilpSolveSettings& settings) {
  const double timeLimitSeconds = settings.timeLimitSeconds;
  // Without a limit or a cancel flag nothing needs to stop CBC from outside.
  if (timeLimitSeconds <= 0 && settings.cancel == nullptr) return solveCbcHere(data, settings);
  const auto begin = std::chrono::steady_clock::now();
  MilpSolution solution = solveCbcInChild(data, settings);
  if (!solution.crashed) return solution;
  // Clp 1.17 can abort on an assertion in a node's resolve (ClpNonLinearCost.cpp:1064,
  // `lowerValue <= upperValue`: the differential check's seed 861, a modulo MILP at II 14 that
  // aborts after 8 s). The same model solves with CBC's presolve off (in 2 s there; which step
  // of the presolved search sets the abort up is not known). One more try so, in the time left.
  MilpSolveSettings again = settings;
  again.presolve = false;
  if (timeLimitSeconds > 0) {
    again.timeLimitSeconds = timeLimitSeconds - secondsSince(begin);
    if (again.timeLimitSeconds <= 0.05) return solution;
  }
  MilpSolution second = solveCbcInChild(data, again);
  second.note = fmt::format("{}; solved again with presolve off{}", solution.note,
                            second.note.empty() ? "" : ": " + second.note);
  second.seconds = secondsSince(begin);
  return second;
}

}  // namespace gaus::milp
