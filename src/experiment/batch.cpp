// One batch on the recording side (batch.hpp).

#include "batch.hpp"

#include <algorithm>
#include <fstream>
#include <iostream>
#include <map>
#include <stdlib.h>
#include <thread>

#include <fmt/format.h>

#include <gaus/core/option_table.hpp>
#include <gaus/io/io.hpp>
#include <gaus/report/report.hpp>

#include "summary_text.hpp"

namespace gaus::experiment {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kResultsFileName = "results.jsonl";
constexpr std::string_view kSchedulesFolder = "schedules";
constexpr std::string_view kTracesFolder = "traces";

std::string readText(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

volatile std::sig_atomic_t interruptReceived = 0;

void onInterrupt(int) {
  interruptReceived = 1;
}

}  // namespace

InterruptGuard::InterruptGuard() {
  interruptReceived = 0;
  struct sigaction action {};
  action.sa_handler = onInterrupt;
  sigemptyset(&action.sa_mask);
  ::sigaction(SIGINT, &action, &previousInterrupt_);
  ::sigaction(SIGTERM, &action, &previousTerminate_);
}

InterruptGuard::~InterruptGuard() {
  ::sigaction(SIGINT, &previousInterrupt_, nullptr);
  ::sigaction(SIGTERM, &previousTerminate_, nullptr);
}

bool InterruptGuard::interrupted() const {
  return interruptReceived != 0;
}

Expected<ScratchFolder> ScratchFolder::create() {
  std::string pattern = (fs::temp_directory_path() / "gaus-run-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) {
    return Error{
        fmt::format("cannot create a scratch folder in {}", fs::temp_directory_path().string())};
  }
  ScratchFolder folder;
  folder.path_ = pattern;
  return folder;
}

ScratchFolder::~ScratchFolder() {
  if (path_.empty()) return;
  std::error_code ignored;
  fs::remove_all(path_, ignored);
}

std::int32_t threadsPerRun(std::int32_t parallel) {
  const auto cores = static_cast<std::int32_t>(std::max(1u, std::thread::hardware_concurrency()));
  return std::max(1, cores / std::max(1, parallel));
}

Expected<RunPlan> planFromSurvey(const ExperimentConfig& config, const MethodRegistry& registry,
                                 const std::string& surveyText, std::int32_t threads) {
  auto graphs = parseSurvey(surveyText);
  if (!graphs) return Error{graphs.error()};
  return planRuns(config, std::move(graphs).value(), registry, threads);
}

Expected<Batch> Batch::prepare(const ExperimentConfig& config, const MethodRegistry& registry,
                               const RunnerOptions& options, std::int32_t parallel) {
  Batch batch;
  batch.config_ = &config;
  batch.registry_ = &registry;
  batch.options_ = options;
  batch.out_ = options.out != nullptr ? options.out : &std::cout;
  batch.output_ = options.output.value_or(config.budgets.output);
  batch.memoryLimitBytes_ =
      options.memoryLimitBytes ? options.memoryLimitBytes : config.budgets.memoryLimitBytes;
  batch.parallel_ = parallel;
  auto scratch = ScratchFolder::create();
  if (!scratch) return Error{scratch.error()};
  batch.scratch_ = std::make_unique<ScratchFolder>(std::move(scratch).value());

  // The graphs first: a graph that does not read is a config error, found before anything is
  // written. Generated graphs are made in the scratch folder and copied out once all is well.
  const fs::path generated = batch.scratch_->path() / "graphs";
  auto graphs =
      surveyGraphs(config, options.dryRun ? fs::path() : generated, batch.scratch_->path());
  if (!graphs) return Error{graphs.error()};
  auto plan = planRuns(config, std::move(graphs).value(), registry, threadsPerRun(parallel));
  if (!plan) return Error{plan.error()};
  batch.plan_ = std::move(plan).value();
  applyMemoryLimit(batch.plan_, batch.memoryLimitBytes_);

  const fs::path resultsFile = batch.output_ / kResultsFileName;
  if (!options.dryRun) {
    std::error_code error;
    fs::create_directories(batch.output_, error);
    if (error) {
      return Error{fmt::format("{}: cannot create the output folder ({})", batch.output_.string(),
                               error.message())};
    }
    auto store = ResultsStore::open(resultsFile, options.resume);
    if (!store) return Error{store.error()};
    batch.store_.emplace(std::move(store).value());
    if (fs::is_directory(generated, error) && !fs::is_empty(generated, error)) {
      fs::create_directories(batch.output_ / "graphs", error);
      fs::copy(generated, batch.output_ / "graphs",
               fs::copy_options::overwrite_existing | fs::copy_options::recursive, error);
      if (error) {
        return Error{fmt::format("{}: cannot write the generated graphs ({})",
                                 (batch.output_ / "graphs").string(), error.message())};
      }
    }
  }
  std::set<std::string> recorded;
  if (batch.store_) {
    for (const auto& record : batch.store_->records()) recorded.insert(record.runId);
    // The configuration beside its results, as it was when the batch started.
    if (auto copied =
            io::writeFileAtomically(batch.output_ / "experiment.yaml", readText(config.path));
        !copied) {
      return Error{copied.error()};
    }
  } else if (std::error_code ignored; fs::exists(resultsFile, ignored)) {
    if (auto results = report::readResults(resultsFile)) {
      for (const auto& record : results->records) recorded.insert(record.runId);
    }
  }
  batch.recorded_.assign(batch.plan_.runs.size(), false);
  for (std::size_t i = 0; i < batch.plan_.runs.size(); ++i) {
    if (recorded.count(batch.plan_.runs[i].id) > 0) {
      batch.recorded_[i] = true;
      ++batch.alreadyRecorded_;
    } else {
      batch.pending_.push_back(i);
    }
  }
  batch.progress_ = std::make_unique<ProgressDisplay>(
      *batch.out_, options.dryRun ? ProgressStyle::kQuiet : options.progress,
      static_cast<std::int64_t>(batch.plan_.runs.size()), batch.alreadyRecorded_);
  if (batch.store_ && batch.store_->discardedBytes() > 0) {
    batch.progress_->note(
        fmt::format("{}: cut off a half-written last line ({} bytes); its run runs again",
                    resultsFile.string(), batch.store_->discardedBytes()));
  }
  batch.started_ = std::chrono::steady_clock::now();
  return batch;
}

void Batch::printMatrix(std::ostream& out, bool listRuns) const {
  const ExperimentConfig& config = *config_;
  out << fmt::format("{} ({}): {} runs on {} graphs\n", config.name, config.path.string(),
                     plan_.runs.size(), plan_.graphs.size());
  // Rows: graph sets; columns: method entries; cells: runs.
  std::vector<std::string> sets;
  for (const SurveyedGraph& graph : plan_.graphs) {
    const std::string& set = config.graphs[graph.entry].set;
    if (std::find(sets.begin(), sets.end(), set) == sets.end()) sets.push_back(set);
  }
  std::map<std::pair<std::string, std::size_t>, std::int64_t> cells;
  std::map<std::string, std::int64_t> graphsPerSet;
  for (const SurveyedGraph& graph : plan_.graphs) ++graphsPerSet[config.graphs[graph.entry].set];
  for (const PlannedRun& run : plan_.runs) {
    ++cells[{config.graphs[plan_.graphs[run.graph].entry].set, run.methodEntry}];
  }
  std::size_t setWidth = 10;
  for (const auto& set : sets) {
    setWidth = std::max(setWidth, set.size() + std::to_string(graphsPerSet[set]).size() + 3);
  }
  std::string header = fmt::format("  {:<{}}", "runs", setWidth);
  for (const MethodEntry& entry : config.methods) header += "  " + entry.label;
  out << header << '\n';
  for (const std::string& set : sets) {
    std::string row =
        fmt::format("  {:<{}}", fmt::format("{} ({})", set, graphsPerSet[set]), setWidth);
    for (std::size_t m = 0; m < config.methods.size(); ++m) {
      const auto cell = cells.find({set, m});
      row += fmt::format("  {:>{}}", cell == cells.end() ? "-" : std::to_string(cell->second),
                         config.methods[m].label.size());
    }
    out << row << '\n';
  }
  const Budgets& budgets = config.budgets;
  std::string seeds;
  for (const auto seed : budgets.seeds) seeds += (seeds.empty() ? "" : ", ") + std::to_string(seed);
  out << fmt::format(
      "  time limit {} per run (a run is stopped {} s past it); seeds {} (for methods that "
      "take one); repeats {}\n",
      budgets.timeLimit ? option_text::formatNumber(*budgets.timeLimit) + " s"
                        : std::string("none"),
      option_text::formatNumber(budgets.grace), seeds, budgets.repeats);
  double budget = 0.0;
  std::int64_t unbudgeted = 0;
  for (const std::size_t i : pending_) {
    const PlannedRun& run = plan_.runs[i];
    if (run.budgetSeconds) {
      budget += *run.budgetSeconds;
    } else {
      ++unbudgeted;
    }
  }
  out << fmt::format("  to run: {} of {} ({} recorded in {})\n", pending_.size(), plan_.runs.size(),
                     alreadyRecorded_, (output_ / kResultsFileName).string());
  out << fmt::format(
      "  estimate: at most {} of run time, {} with {} at a time{}\n", formatDuration(budget),
      formatDuration(budget / static_cast<double>(std::max(1, parallel_))), parallel_,
      unbudgeted > 0
          ? fmt::format(" ({} runs of methods without a time limit not counted)", unbudgeted)
          : std::string());
  if (!listRuns) return;
  for (const PlannedRun& run : plan_.runs) {
    std::string options;
    for (const auto& [name, value] : config.methods[run.methodEntry].options) {
      options += fmt::format(" {}={}", name, value);
    }
    out << fmt::format("  {}{}{}\n", run.id, options,
                       run.startRun ? " <- " + plan_.runs[*run.startRun].id : std::string());
  }
}

std::optional<std::string> Batch::scheduleOf(std::size_t run) const {
  const std::string& id = plan_.runs[run].id;
  for (const auto& record : store_->records()) {
    if (record.runId != id || !record.scheduleFile || !record.verified) continue;
    const fs::path file = output_ / *record.scheduleFile;
    std::error_code ignored;
    if (!fs::is_regular_file(file, ignored)) return std::nullopt;
    return readText(file);
  }
  return std::nullopt;
}

std::optional<RunTask> Batch::nextReady(std::int64_t jobs) {
  for (auto it = pending_.begin(); it != pending_.end(); ++it) {
    const PlannedRun& run = plan_.runs[*it];
    if (run.startRun && !recorded_[*run.startRun]) continue;  // its start is not recorded yet
    RunTask task;
    task.config = config_;
    task.plan = &plan_;
    task.run = *it;
    task.jobs = jobs;
    if (run.startRun) {
      task.startRunId = plan_.runs[*run.startRun].id;
      task.startSchedule = scheduleOf(*run.startRun);
    }
    ++running_;
    pending_.erase(it);
    return task;
  }
  return std::nullopt;
}

namespace {

// Writes `text` as `folder`/`stem``suffix` under the experiment's folder; the path relative to
// it, which the record names.
Expected<std::string> keepRunFile(const fs::path& output, std::string_view folder,
                                  const std::string& stem, std::string_view suffix,
                                  const std::string& text) {
  const fs::path relative = fs::path(folder) / (stem + std::string(suffix));
  std::error_code ignored;
  fs::create_directories(output / folder, ignored);
  if (auto written = io::writeFileAtomically(output / relative, text); !written) {
    return Error{written.error()};
  }
  return relative.generic_string();
}

}  // namespace

Status Batch::record(std::size_t run, RunOutput output) {
  report::ResultRecord& record = output.record;
  const std::string stem = report::fileNameOf(record.runId);
  if (output.schedule) {
    auto kept = keepRunFile(output_, kSchedulesFolder, stem, ".schedule.json", *output.schedule);
    if (!kept) return Error{kept.error()};
    record.scheduleFile = std::move(kept).value();
  }
  if (output.trace) {
    auto kept = keepRunFile(output_, kTracesFolder, stem, ".trace.csv", *output.trace);
    if (!kept) return Error{kept.error()};
    record.traceFile = std::move(kept).value();
  }
  if (auto appended = store_->append(record); !appended) return appended;
  recorded_[run] = true;
  --running_;
  ++recordedHere_;
  progress_->finished(record, store_->records());
  return Done{};
}

void Batch::release(const RunTask& task) {
  --running_;
  pending_.insert(std::lower_bound(pending_.begin(), pending_.end(), task.run), task.run);
}

Expected<BatchOutcome> Batch::finish(bool interrupted) {
  progress_->close();
  BatchOutcome outcome;
  outcome.runs = static_cast<std::int64_t>(plan_.runs.size());
  outcome.alreadyRecorded = alreadyRecorded_;
  outcome.recorded = recordedHere_;
  outcome.failed = progress_->failures();
  outcome.interrupted = interrupted;
  outcome.resultsFile = output_ / kResultsFileName;
  std::ostream& out = *out_;
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  if (interrupted) {
    out << fmt::format(
        "interrupted after {}: {} of {} runs recorded in {}; `gaus run {} --resume` runs the "
        "rest\n",
        formatDuration(seconds), alreadyRecorded_ + recordedHere_, plan_.runs.size(),
        outcome.resultsFile.string(), config_->path.string());
  }
  if (!options_.report || store_->records().empty()) return outcome;
  report::ReportOptions reportOptions;
  reportOptions.title =
      config_->description.empty()
          ? fmt::format("gaus report: {}", config_->name)
          : fmt::format("gaus report: {} ({})", config_->name, config_->description);
  auto written = report::writeReport(outcome.resultsFile, reportOptions);
  if (!written) return Error{written.error()};
  outcome.reportFile = written->reportPath;
  const std::string markdown =
      formatSummaryMarkdown(*written, store_->records(), config_->name, config_->description);
  if (auto saved = io::writeFileAtomically(output_ / "summary.md", markdown); !saved) {
    return Error{saved.error()};
  }
  out << formatClosingSummary(*written, store_->records(), recordedHere_, seconds, parallel_);
  out << fmt::format("report: {}\n", written->reportPath.string());
  return outcome;
}

}  // namespace gaus::experiment
