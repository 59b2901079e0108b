// The batch's progress (progress_display.hpp). "Best so far" is the report module's own count
// (summarizeResults: problems where a method holds the lowest verified value, ties included),
// recomputed at most once a second, so that a long batch does not spend its time on it.

#include "progress_display.hpp"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <sys/ioctl.h>
#include <unistd.h>

#include <fmt/format.h>

#include <gaus/report/report.hpp>

#include "summary_text.hpp"

namespace gaus::experiment {

namespace {

constexpr auto kRedrawInterval = std::chrono::milliseconds(250);
constexpr auto kBestInterval = std::chrono::seconds(1);

int terminalWidth() {
  winsize size{};
  if (::ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 20) return size.ws_col;
  return 100;
}

std::string describeRecord(const report::ResultRecord& record) {
  std::string text = fmt::format("{}: {}", record.runId, toString(record.status));
  if (record.objective && record.verified) {
    text += fmt::format(", {} {:.6g}", record.objective->name, record.objective->value);
  }
  if (record.seconds) text += fmt::format(", {:.2f} s", *record.seconds);
  if (report::isFailure(record) && !record.message.empty()) {
    std::string message = record.message.substr(0, 160);
    std::replace(message.begin(), message.end(), '\n', ' ');
    text += " (" + message + ")";
  }
  return text;
}

}  // namespace

ProgressDisplay::ProgressDisplay(std::ostream& out, ProgressStyle style, std::int64_t total,
                                 std::int64_t alreadyDone)
    : out_(out), total_(total), done_(alreadyDone) {
  if (style == ProgressStyle::kAuto) {
    style = (&out == &std::cout && ::isatty(STDOUT_FILENO) != 0) ? ProgressStyle::kBar
                                                                 : ProgressStyle::kLines;
  }
  bar_ = style == ProgressStyle::kBar;
  quiet_ = style == ProgressStyle::kQuiet;
  started_ = std::chrono::steady_clock::now();
  lastDraw_ = started_ - kRedrawInterval;
  lastBest_ = started_ - kBestInterval;
}

std::string ProgressDisplay::eta() const {
  if (doneHere_ == 0) return "-";
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  return formatDuration(elapsed / static_cast<double>(doneHere_) *
                        static_cast<double>(std::max<std::int64_t>(0, total_ - done_)));
}

std::string ProgressDisplay::bestPerMethod(const std::vector<report::ResultRecord>& records) const {
  report::ResultsFile file;
  file.records = records;
  const std::string text = describeBestOn(report::summarizeResults(file), false);
  return text.empty() ? text : "best on: " + text;
}

void ProgressDisplay::finished(const report::ResultRecord& record,
                               const std::vector<report::ResultRecord>& records) {
  ++done_;
  ++doneHere_;
  const bool failed = report::isFailure(record);
  if (failed) ++failures_;
  if (quiet_) return;
  if (!bar_) {
    out_ << fmt::format("[{}/{}] {} (ETA {})\n", done_, total_, describeRecord(record), eta())
         << std::flush;
    return;
  }
  if (failed) note(describeRecord(record));
  const auto now = std::chrono::steady_clock::now();
  if (now - lastBest_ >= kBestInterval || done_ == total_) {
    best_ = bestPerMethod(records);
    lastBest_ = now;
  }
  draw();
}

void ProgressDisplay::tick() {
  if (!bar_ || quiet_) return;
  if (std::chrono::steady_clock::now() - lastDraw_ >= kRedrawInterval) draw();
}

void ProgressDisplay::note(const std::string& line) {
  if (quiet_) return;
  if (bar_ && drawn_) out_ << "\r\x1b[K";
  out_ << line << '\n';
  if (bar_) draw();
  out_ << std::flush;
}

void ProgressDisplay::draw() {
  lastDraw_ = std::chrono::steady_clock::now();
  constexpr int kBarWidth = 24;
  const int filled =
      total_ > 0 ? static_cast<int>(kBarWidth * std::min(done_, total_) / total_) : kBarWidth;
  std::string line =
      fmt::format("[{}{}] {}/{} runs, {} failed, ETA {}", std::string(filled, '#'),
                  std::string(kBarWidth - filled, '.'), done_, total_, failures_, eta());
  if (!best_.empty()) line += " | " + best_;
  const auto width = static_cast<std::size_t>(terminalWidth() - 1);
  if (line.size() > width) line = line.substr(0, width);
  out_ << "\r\x1b[K" << line << std::flush;
  drawn_ = true;
}

void ProgressDisplay::close() {
  if (bar_ && drawn_) out_ << '\n' << std::flush;
  drawn_ = false;
}

}  // namespace gaus::experiment
