// A MILP solve in a forked child process (milp_backends.hpp, solveInChild): the child solves and
// sends its answer through a pipe; the parent waits for it until the limit plus
// stopGraceSeconds and kills the child past that, so that no phase of a solver that does not
// look at the clock (CBC's root LP and preprocessing; HiGHS under heavy load, docs/benchmarks.md
// "HiGHS against CBC") can hold a call past its limit. A cancel request either kills the child
// at once or, for a solver that can be interrupted, is passed on as a signal that the child turns
// into the solver's own stop, so that its incumbent comes back.

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include "milp_backends.hpp"

namespace gaus::milp {

namespace {

// How long an interruptible child has to send its incumbent after a cancel request.
constexpr double kCancelGraceSeconds = 0.5;
// The signal that asks an interruptible child to stop.
constexpr int kInterruptSignal = SIGUSR1;

// The child's stop flag, set by its signal handler (a lock-free atomic store is
// async-signal-safe).
std::atomic<bool> interruptRequested{false};
static_assert(std::atomic<bool>::is_always_lock_free);

extern "C" void onInterruptSignal(int) {
  interruptRequested.store(true);
}

std::chrono::steady_clock::time_point secondsFromNow(double seconds) {
  return std::chrono::steady_clock::now() +
         std::chrono::duration_cast<std::chrono::steady_clock::duration>(
             std::chrono::duration<double>(seconds));
}

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
  // An empty vector's data() may be null, which memcpy may not be given even for no bytes.
  if (count > 0) std::memcpy(solution.values.data(), bytes.data(), bytes.size());
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

}  // namespace

MilpSolution solveInChild(const MilpData& data, const MilpSolveSettings& settings,
                          const ChildSolver& solver) {
  const double timeLimitSeconds = settings.timeLimitSeconds;
  const auto begin = std::chrono::steady_clock::now();
  int channel[2];
  if (pipe(channel) != 0) return solver.solveHere(data, settings);
  // Output still buffered would be written twice if the solver flushes the child's copy.
  std::fflush(nullptr);
  const pid_t parent = getpid();
  const pid_t child = fork();
  if (child < 0) {
    close(channel[0]);
    close(channel[1]);
    return solver.solveHere(data, settings);
  }
  if (child == 0) {
    // The child solves, sends its answer and ends without running the parent's exit handlers
    // or flushing its copies of the parent's output buffers. It dies with the parent (a
    // stopped or killed caller must not leave the solver running), also if the parent died first.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    struct sigaction interrupt {};
    interrupt.sa_handler = onInterruptSignal;
    sigemptyset(&interrupt.sa_mask);
    sigaction(kInterruptSignal, &interrupt, nullptr);
    // A solver that faults dies of its signal, which the parent reports ("died (signal 11)"):
    // CBC 2.10 does when its time limit stops it in CglPreProcess::postProcess or while it
    // processes a MIP start (docs/exact.md, "The crash seen once"). The handlers inherited from
    // the parent (a test framework's, Python's, a sanitizer's) would run the parent's
    // crash reporting in this copy of it, with calls that are not async-signal-safe.
    struct sigaction fatal {};
    fatal.sa_handler = SIG_DFL;
    sigemptyset(&fatal.sa_mask);
    for (const int crash : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) {
      sigaction(crash, &fatal, nullptr);
    }
    if (getppid() != parent) _exit(1);
    close(channel[0]);
    // The parent's cancel flag is its own memory: here a request arrives as kInterruptSignal.
    MilpSolveSettings childSettings = settings;
    childSettings.cancel = solver.interruptible ? &interruptRequested : nullptr;
    const bool sent = writeAll(channel[1], encodeSolution(solver.solveHere(data, childSettings)));
    _exit(sent ? 0 : 1);
  }
  close(channel[1]);
  // Without a limit (a solve in a child only for its cancel flag) only a cancel stops it.
  const auto stopAt = timeLimitSeconds > 0
                          ? begin + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                        std::chrono::duration<double>(
                                            timeLimitSeconds + stopGraceSeconds(timeLimitSeconds)))
                          : std::chrono::steady_clock::time_point::max();
  std::string received;
  bool complete = readUntil(channel[0], stopAt, settings.cancel, received);
  const bool cancelled = !complete && cancelRequested(settings.cancel);
  if (cancelled && solver.interruptible) {
    // Ask the child to stop and send its incumbent; kill it if it does not within the grace.
    kill(child, kInterruptSignal);
    complete = readUntil(channel[0], secondsFromNow(kCancelGraceSeconds), nullptr, received);
  }
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
    if (cancelled) {
      solution.status = ModelStatus::kTimeout;
      solution.note = fmt::format("stopped by a cancel request after {:.1f}s", seconds);
    } else if (!complete) {
      solution.status = ModelStatus::kTimeout;
      solution.note = fmt::format("{} stopped {:.1f}s after its limit", solver.name,
                                  seconds - timeLimitSeconds);
    } else {
      // The child died. CBC 2.10 crashes (SIGSEGV) when its limit stops it while it processes
      // a MIP start (Triton's FA dump, latency MILP in raw cycles, 2-3 s limits): after the
      // limit that is a timeout, before it a failed call.
      const std::string how = WIFSIGNALED(status)
                                  ? fmt::format("signal {}", WTERMSIG(status))
                                  : fmt::format("exit status {}", WEXITSTATUS(status));
      if (timeLimitSeconds > 0 && seconds >= timeLimitSeconds) {
        solution.status = ModelStatus::kTimeout;
      } else {
        solution.call = CallStatus::kError;
        solution.crashed = true;
      }
      solution.note = fmt::format("{} died ({}) after {:.1f}s", solver.name, how, seconds);
    }
  }
  solution.seconds = seconds;
  return solution;
}

}  // namespace gaus::milp
