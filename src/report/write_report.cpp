// writeReport: reads the results, makes the tables, draws the schedule pictures of the runs that
// wrote a schedule file (units view, each schedule checked by the verifier first), and writes
// report.html, summary.csv and the pictures folder, each file replaced atomically.

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include <gaus/core/problem_kinds.hpp>
#include <gaus/core/verify.hpp>
#include <gaus/io/io.hpp>
#include <gaus/report/report.hpp>

#include "report_tables.hpp"

namespace gaus::report {

namespace {

namespace fs = std::filesystem;

constexpr std::string_view kResultsFileName = "results.jsonl";
constexpr std::string_view kPicturesFolder = "pictures";

// A path from a record: absolute, or relative to the results file's folder, or (for graphs
// named from where the experiment ran) relative to the current folder.
fs::path resolve(const fs::path& resultsFolder, const std::string& path) {
  const fs::path given(path);
  if (given.is_absolute()) return given;
  std::error_code ignored;
  if (fs::exists(resultsFolder / given, ignored)) return resultsFolder / given;
  return given;
}

// "FILE#SELECTOR" keeps its selector while the file part is resolved.
std::string resolveGraphSpec(const fs::path& resultsFolder, const std::string& spec) {
  const auto hash = spec.find('#');
  const std::string file = hash == std::string::npos ? spec : spec.substr(0, hash);
  const std::string selector = hash == std::string::npos ? std::string() : spec.substr(hash);
  return resolve(resultsFolder, file).string() + selector;
}

// The problem a record's schedule answers, from the record's problem fields.
Expected<Problem> problemOf(const ResultRecord& record, const Instance& instance,
                            const Schedule& schedule) {
  std::optional<Cycle> horizon;
  if (record.problem.horizon) horizon = *record.problem.horizon;
  const ProblemKind kind =
      parseProblemKind(record.problem.kind).value_or(kindOfSchedule(schedule, horizon.has_value()));
  std::optional<std::int32_t> ii;
  if (record.problem.ii && kind != ProblemKind::kLatency && kind != ProblemKind::kLatencyBounded) {
    ii = static_cast<std::int32_t>(*record.problem.ii);
  }
  return answeredProblem(instance, schedule, {kind, horizon, ii});
}

RunPicture drawRunPicture(const ResultRecord& record, const fs::path& resultsFolder,
                          const fs::path& picturesFolder, const std::string& fileName,
                          const PictureOptions& options) {
  RunPicture picture;
  picture.record = &record;
  if (record.graph.path.empty()) {
    picture.note = "the record names no graph file";
    return picture;
  }
  auto instance = io::readInstance(resolveGraphSpec(resultsFolder, record.graph.path));
  if (!instance) {
    picture.note = instance.error();
    return picture;
  }
  if (!record.problem.machine.empty() && record.problem.machine != instance->machine->name) {
    // The run scheduled the graph on another machine (--machine): rebind as it did.
    auto machine = io::findMachine(record.problem.machine, resultsFolder);
    if (machine) {
      auto rebound = rebindMachine(*instance, *machine);
      if (!rebound) {
        picture.note = rebound.error();
        return picture;
      }
      instance = std::move(rebound).value();
    }
  }
  const fs::path scheduleFile = resolve(resultsFolder, *record.scheduleFile);
  auto schedule = io::readSchedule(scheduleFile, *instance->graph);
  if (!schedule) {
    picture.note = schedule.error();
    return picture;
  }
  auto problem = problemOf(record, *instance, *schedule);
  if (!problem) {
    picture.note = fmt::format("{}: {}", record.graph.path, problem.error());
    return picture;
  }
  const VerificationReport verification = verify(*problem, *schedule);
  picture.verified = verification.ok();
  if (!picture.verified) {
    picture.note = fmt::format("NOT VERIFIED: {} violation(s)", verification.totalViolations);
  }
  PictureOptions pictureOptions = options;
  if (pictureOptions.title.empty()) {
    pictureOptions.title = fmt::format("{}: {} on {}", record.runId, record.label, record.graph.id);
  }
  const std::string svg = renderUnits(*problem, *schedule, pictureOptions);
  const auto written = io::writeFileAtomically(picturesFolder / fileName, svg);
  if (!written) {
    picture.note = written.error();
    return picture;
  }
  picture.file = (fs::path(kPicturesFolder) / fileName).generic_string();
  return picture;
}

// The run a headline is about: the first verified run of its method on its problem with the
// method's best value there.
const ResultRecord* headlineRecord(const ResultsFile& results, const ReportSummary& summary,
                                   const Headline& headline) {
  const ResultRecord* chosen = nullptr;
  for (const auto& record : results.records) {
    if (record.label != headline.label || record.graph.id != headline.graph) continue;
    if (describeProblem(record.problem) != headline.problem) continue;
    const ProblemSummary* problem = findProblem(summary, record);
    if (!problem || !countsForQuality(record, *problem)) continue;
    if (!chosen || record.objective->value < chosen->objective->value) chosen = &record;
  }
  return chosen;
}

// The opening's sentences and the pictures of the run the first one is about: its schedule
// (the one already drawn, else drawn here) and its convergence when it kept a trace.
ReportOpening makeOpening(const ResultsFile& results, const ReportSummary& summary,
                          std::vector<RunPicture>& pictures, const fs::path& resultsFolder,
                          const fs::path& picturesFolder, const ReportOptions& options) {
  ReportOpening opening;
  opening.headlines = writeHeadlines(results, summary);
  if (opening.headlines.empty()) return opening;
  opening.record = headlineRecord(results, summary, opening.headlines.front());
  if (!opening.record) return opening;
  const ResultRecord& record = *opening.record;
  std::vector<std::string> notes;
  if (options.pictures && record.scheduleFile) {
    const auto drawn = std::find_if(pictures.begin(), pictures.end(),
                                    [&record](const auto& p) { return p.record == &record; });
    if (drawn != pictures.end()) {
      opening.scheduleFile = drawn->file;
      if (drawn->file.empty()) notes.push_back("no schedule picture: " + drawn->note);
    } else {
      std::error_code error;
      fs::create_directories(picturesFolder, error);
      const RunPicture picture =
          drawRunPicture(record, resultsFolder, picturesFolder,
                         fileNameOf(record.runId) + ".opening.units.svg", options.pictureOptions);
      opening.scheduleFile = picture.file;
      if (picture.file.empty()) notes.push_back("no schedule picture: " + picture.note);
    }
  }
  if (record.traceFile) {
    const auto trace = readConvergenceTrace(resolve(resultsFolder, *record.traceFile));
    if (trace) {
      opening.convergenceSvg = renderConvergence(*trace);
    } else {
      notes.push_back("no convergence picture: " + trace.error());
    }
  }
  for (const auto& note : notes) opening.note += (opening.note.empty() ? "" : "; ") + note;
  return opening;
}

std::string reportTitle(const ResultsFile& results) {
  std::map<std::string, std::int64_t> experiments;
  for (const auto& record : results.records) {
    if (!record.experiment.empty()) ++experiments[record.experiment];
  }
  if (experiments.empty()) return fmt::format("gaus report: {}", results.path.filename().string());
  const auto most =
      std::max_element(experiments.begin(), experiments.end(),
                       [](const auto& a, const auto& b) { return a.second < b.second; });
  return fmt::format("gaus report: {}", most->first);
}

}  // namespace

Expected<ReportSummary> writeReport(const fs::path& results, const ReportOptions& options) {
  std::error_code error;
  const fs::path resultsFile =
      fs::is_directory(results, error) ? results / kResultsFileName : results;
  auto read = readResults(resultsFile);
  if (!read) return Error{read.error()};
  const ResultsFile& file = *read;
  ReportSummary summary = summarizeResults(file);

  const fs::path resultsFolder =
      resultsFile.has_parent_path() ? resultsFile.parent_path() : fs::path(".");
  const fs::path output = options.output.empty() ? resultsFolder / "report.html" : options.output;
  const fs::path outputFolder = output.has_parent_path() ? output.parent_path() : fs::path(".");
  fs::create_directories(outputFolder, error);
  if (error) {
    return Error{fmt::format("{}: cannot create the report's folder ({})", outputFolder.string(),
                             error.message())};
  }
  summary.reportPath = output;
  summary.csvPath = outputFolder / "summary.csv";
  summary.picturesFolder = outputFolder / kPicturesFolder;

  std::vector<RunPicture> pictures;
  if (options.pictures) {
    std::set<std::string> usedNames;
    for (const auto& record : file.records) {
      if (!record.scheduleFile) continue;
      if (static_cast<std::int64_t>(pictures.size()) >= options.maxPictures) break;
      if (pictures.empty()) {
        fs::create_directories(summary.picturesFolder, error);
        if (error) {
          return Error{fmt::format("{}: cannot create the pictures folder ({})",
                                   summary.picturesFolder.string(), error.message())};
        }
      }
      std::string name = fileNameOf(record.runId) + ".units.svg";
      for (int copy = 2; usedNames.count(name); ++copy) {
        name = fmt::format("{}.{}.units.svg", fileNameOf(record.runId), copy);
      }
      usedNames.insert(name);
      pictures.push_back(drawRunPicture(record, resultsFolder, summary.picturesFolder, name,
                                        options.pictureOptions));
      if (!pictures.back().file.empty()) ++summary.pictures;
    }
  }

  const ReportOpening opening =
      makeOpening(file, summary, pictures, resultsFolder, summary.picturesFolder, options);
  const std::string title = options.title.empty() ? reportTitle(file) : options.title;
  if (auto written = io::writeFileAtomically(summary.csvPath, formatSummaryCsv(summary));
      !written) {
    return Error{written.error()};
  }
  if (auto written = io::writeFileAtomically(
          output, formatReportPage(file, summary, opening, pictures, title));
      !written) {
    return Error{written.error()};
  }
  return summary;
}

}  // namespace gaus::report
