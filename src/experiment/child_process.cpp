// Child processes of the runner (child_process.hpp). The child sets itself up before running
// the body: its own process group, death with the parent (prctl PR_SET_PDEATHSIG), default
// signal dispositions, output to the log file, the address-space limit, and an allocation
// failure turned into kOutOfMemoryExit (a new-handler for operator new, a terminate handler for
// a std::bad_alloc nobody caught). It leaves with _exit: the parent's atexit handlers and
// buffered output belong to the parent.

#include "child_process.hpp"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <exception>
#include <fcntl.h>
#include <fstream>
#include <new>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

#include <fmt/format.h>

namespace gaus::experiment {

namespace {

[[noreturn]] void exitOutOfMemory() {
  static constexpr char kMessage[] = "gaus: out of memory (an allocation failed)\n";
  [[maybe_unused]] const auto written = ::write(STDERR_FILENO, kMessage, sizeof kMessage - 1);
  ::_exit(kOutOfMemoryExit);
}

std::terminate_handler previousTerminate = nullptr;

void terminateOnBadAlloc() {
  if (const std::exception_ptr current = std::current_exception()) {
    try {
      std::rethrow_exception(current);
    } catch (const std::bad_alloc&) {
      exitOutOfMemory();
    } catch (...) {
    }
  }
  if (previousTerminate != nullptr) previousTerminate();
  std::abort();
}

// Everything the child does before the body. Only async-signal-safe calls would be strictly
// allowed after fork in a threaded parent; the runner's process starts no threads of its own
// (it never runs a method), so the C++ runtime is safe to use here.
void setUpChild(const ChildLimits& limits, const std::filesystem::path& logFile, pid_t parent) {
  ::setpgid(0, 0);
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) ::_exit(1);  // the parent died before prctl took effect
  // The parent's handlers (a test framework's crash reporter, the runner's interrupt flag) are
  // not the child's: a crash ends it as the crash it is.
  for (const int signal :
       {SIGINT, SIGTERM, SIGPIPE, SIGCHLD, SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL}) {
    std::signal(signal, SIG_DFL);
  }
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  const int log = ::open(logFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (log >= 0) {
    ::dup2(log, STDOUT_FILENO);
    ::dup2(log, STDERR_FILENO);
    ::close(log);
  }
  const int null = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (null >= 0) {
    ::dup2(null, STDIN_FILENO);
    ::close(null);
  }
  if (limits.addressSpaceBytes) {
    const auto bytes = static_cast<rlim_t>(*limits.addressSpaceBytes);
    const rlimit limit{bytes, bytes};
    ::setrlimit(RLIMIT_AS, &limit);
  }
  std::set_new_handler([] { exitOutOfMemory(); });
  previousTerminate = std::set_terminate(terminateOnBadAlloc);
}

std::string signalName(int signal) {
  const char* description = ::strsignal(signal);
  return description != nullptr ? description : "unknown signal";
}

}  // namespace

std::string ChildEnd::describe() const {
  switch (how) {
    case How::kExited:
      return fmt::format("exited with code {}", exitCode);
    case How::kSignaled:
      return fmt::format("killed by signal {} ({})", signal, signalName(signal));
    case How::kDeadline:
      return fmt::format("stopped after {:.1f} s (its time limit plus grace)", seconds);
    case How::kOutOfMemory:
      return "ran out of memory (an allocation failed)";
    case How::kStopped:
      return "stopped (the batch was interrupted)";
  }
  return "ended";
}

Expected<ChildProcess> ChildProcess::start(const std::function<int()>& body,
                                           const ChildLimits& limits,
                                           std::filesystem::path logFile) {
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) return Error{fmt::format("cannot start a run's process: {}", std::strerror(errno))};
  if (pid == 0) {
    setUpChild(limits, logFile, parent);
    int code = 1;
    try {
      code = body();
    } catch (const std::bad_alloc&) {
      exitOutOfMemory();
    } catch (const std::exception& error) {
      std::fprintf(stderr, "gaus: %s\n", error.what());
      code = 1;
    }
    std::fflush(stdout);
    std::fflush(stderr);
    ::_exit(code);
  }
  // Also from the parent, so that a signal sent to the group right after fork finds it set.
  ::setpgid(pid, pid);
  ChildProcess child;
  child.pid_ = pid;
  child.started_ = std::chrono::steady_clock::now();
  if (limits.wallSeconds) {
    child.deadline_ =
        child.started_ + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                             std::chrono::duration<double>(*limits.wallSeconds));
  }
  child.logFile_ = std::move(logFile);
  return child;
}

double ChildProcess::elapsedSeconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
}

std::optional<ChildEnd> ChildProcess::reap(bool wait, ChildEnd::How ifSignaled) {
  int status = 0;
  rusage usage{};
  pid_t done = 0;
  do {
    done = ::wait4(pid_, &status, wait ? 0 : WNOHANG, &usage);
  } while (done < 0 && errno == EINTR);
  if (done == 0) return std::nullopt;  // still running
  ChildEnd end;
  end.seconds = elapsedSeconds();
  if (done > 0) end.peakRssBytes = static_cast<std::int64_t>(usage.ru_maxrss) * 1024;
  if (done > 0 && WIFEXITED(status)) {
    end.exitCode = WEXITSTATUS(status);
    end.how =
        end.exitCode == kOutOfMemoryExit ? ChildEnd::How::kOutOfMemory : ChildEnd::How::kExited;
  } else if (done > 0 && WIFSIGNALED(status)) {
    end.signal = WTERMSIG(status);
    end.how = ifSignaled;
  }
  // Whatever else the group holds (a process the method started) goes with it.
  ::kill(-pid_, SIGKILL);
  end.outputTail = fileTail(logFile_);
  pid_ = -1;
  return end;
}

std::optional<ChildEnd> ChildProcess::poll() {
  if (pid_ < 0) return std::nullopt;
  if (deadline_ && std::chrono::steady_clock::now() >= *deadline_) {
    ::kill(-pid_, SIGKILL);
    ::kill(pid_, SIGKILL);
    return reap(true, ChildEnd::How::kDeadline);
  }
  return reap(false, ChildEnd::How::kSignaled);
}

ChildEnd ChildProcess::stop() {
  ::kill(-pid_, SIGKILL);
  ::kill(pid_, SIGKILL);
  return *reap(true, ChildEnd::How::kStopped);
}

std::string fileTail(const std::filesystem::path& path, std::size_t maxCharacters) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return {};
  in.seekg(0, std::ios::end);
  const auto size = static_cast<std::int64_t>(in.tellg());
  const std::int64_t from = std::max<std::int64_t>(0, size - static_cast<std::int64_t>(4096));
  in.seekg(from);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::string> lines;
  std::size_t begin = 0;
  while (begin < text.size()) {
    auto end = text.find('\n', begin);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(begin, end - begin);
    if (line.find_first_not_of(" \t\r") != std::string::npos) lines.push_back(std::move(line));
    begin = end + 1;
  }
  std::string tail;
  for (auto line = lines.rbegin(); line != lines.rend(); ++line) {
    std::string next = tail.empty() ? *line : *line + " | " + tail;
    if (next.size() > maxCharacters) {
      if (tail.empty()) tail = "..." + line->substr(line->size() - maxCharacters + 3);
      break;
    }
    tail = std::move(next);
  }
  return tail;
}

}  // namespace gaus::experiment
