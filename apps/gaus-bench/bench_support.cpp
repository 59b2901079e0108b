#include "bench_support.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <iostream>
#include <malloc.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#include <fmt/format.h>

namespace gaus::bench {

ProgramRun runProgram(std::vector<std::string> argv, const std::filesystem::path& stdoutFile) {
  const Stopwatch clock;
  const pid_t child = fork();
  if (child < 0) throw std::runtime_error("fork failed");
  if (child == 0) {
    std::vector<char*> words;
    for (auto& word : argv) words.push_back(word.data());
    words.push_back(nullptr);
    if (std::freopen(stdoutFile.c_str(), "w", stdout) == nullptr ||
        std::freopen("/dev/null", "w", stderr) == nullptr) {
      _exit(127);
    }
    execv(words[0], words.data());
    _exit(127);
  }
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  ProgramRun run;
  run.seconds = clock.seconds();
  run.exitStatus = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return run;
}

std::int64_t peakRssBytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<std::int64_t>(usage.ru_maxrss) * 1024;  // Linux reports kilobytes
}

bool resetPeakRss() {
  malloc_trim(0);
  std::ofstream clearRefs("/proc/self/clear_refs");
  clearRefs << "5";  // 5: reset the peak resident set size (proc(5), Linux >= 4.0)
  clearRefs.flush();
  return static_cast<bool>(clearRefs);
}

std::optional<std::int64_t> peakRssSinceResetBytes() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("VmHWM:", 0) == 0) return std::stoll(line.substr(6)) * 1024;  // in kB
  }
  return std::nullopt;
}

void Report::addTable(std::string heading, std::vector<std::string> columns,
                      std::vector<std::vector<std::string>> rows) {
  tables_.push_back({std::move(heading), std::move(columns), std::move(rows)});
}

bool Report::allPass() const {
  for (const auto& figure : figures_) {
    if (!figure.passes()) return false;
  }
  return true;
}

namespace {

std::string formatValue(double value) {
  if (value == static_cast<double>(static_cast<std::int64_t>(value)) && value < 1e15) {
    return fmt::format("{}", static_cast<std::int64_t>(value));
  }
  return fmt::format("{:.4g}", value);
}

std::string targetText(const Figure& figure) {
  if (figure.atMost) return fmt::format("<= {} {}", formatValue(*figure.atMost), figure.unit);
  if (figure.atLeast) return fmt::format(">= {} {}", formatValue(*figure.atLeast), figure.unit);
  return "";
}

}  // namespace

std::string Report::markdown() const {
  std::string text = fmt::format("### {}\n\n", title_);
  for (const auto& [key, value] : notes_) text += fmt::format("- {}: {}\n", key, value);
  if (!notes_.empty()) text += "\n";
  if (!figures_.empty()) {
    text += "| figure | value | target | |\n|---|---|---|---|\n";
    for (const auto& figure : figures_) {
      const std::string target = targetText(figure);
      text += fmt::format("| {} | {} {} | {} | {} |\n", figure.name, formatValue(figure.value),
                          figure.unit, target,
                          target.empty() ? "" : (figure.passes() ? "pass" : "FAIL"));
    }
    text += "\n";
  }
  for (const auto& table : tables_) {
    if (!table.heading.empty()) text += fmt::format("{}\n\n", table.heading);
    text += "|";
    for (const auto& column : table.columns) text += fmt::format(" {} |", column);
    text += "\n|";
    for (std::size_t i = 0; i < table.columns.size(); ++i) text += "---|";
    text += "\n";
    for (const auto& row : table.rows) {
      text += "|";
      for (const auto& cell : row) text += fmt::format(" {} |", cell);
      text += "\n";
    }
    text += "\n";
  }
  return text;
}

nlohmann::json Report::json() const {
  nlohmann::json json;
  json["title"] = title_;
  for (const auto& [key, value] : notes_) json["notes"][key] = value;
  json["figures"] = nlohmann::json::array();
  for (const auto& figure : figures_) {
    nlohmann::json entry{{"name", figure.name}, {"value", figure.value}, {"unit", figure.unit}};
    if (figure.atMost) entry["at_most"] = *figure.atMost;
    if (figure.atLeast) entry["at_least"] = *figure.atLeast;
    if (figure.atMost || figure.atLeast) entry["passes"] = figure.passes();
    json["figures"].push_back(entry);
  }
  json["tables"] = nlohmann::json::array();
  for (const auto& table : tables_) {
    json["tables"].push_back(
        {{"heading", table.heading}, {"columns", table.columns}, {"rows", table.rows}});
  }
  for (const auto& [key, value] : sections_) json[key] = value;
  return json;
}

std::string describeOpTypes(const std::vector<RandomOpType>& types) {
  std::string text;
  for (const auto& type : types) {
    const std::string busy =
        type.occupancy == 0 ? "its latency" : fmt::format("{} cycle(s)", type.occupancy);
    text += fmt::format("{}{} (latency {}-{}, busy {}, {} unit(s))", text.empty() ? "" : ", ",
                        type.name, type.minLatency, type.maxLatency, busy,
                        type.units ? std::to_string(*type.units) : "unlimited");
  }
  return text;
}

std::optional<double> loadAverage() {
  double load = 0.0;
  if (getloadavg(&load, 1) != 1) return std::nullopt;
  return load;
}

std::vector<std::pair<std::string, std::string>> environmentNotes() {
  std::vector<std::pair<std::string, std::string>> notes;
  std::string cpu = "unknown";
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);) {
    if (line.rfind("model name", 0) == 0) {
      cpu = line.substr(line.find(':') + 2);
      break;
    }
  }
  notes.emplace_back(
      "cpu", fmt::format("{} ({} hardware threads)", cpu, std::thread::hardware_concurrency()));
  char date[32];
  const std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof date, "%Y-%m-%d", std::gmtime(&now));
  notes.emplace_back("date", date);
  return notes;
}

void emitReport(const Report& report, BenchOptions& options) {
  if (options.json) {
    std::cout << report.json().dump(2) << '\n';
  } else {
    std::cout << report.markdown() << std::flush;
  }
  if (!report.allPass()) options.exitCode = 1;
}

}  // namespace gaus::bench
