// gaus report RESULTS [-o report.html]: the HTML report of an experiment's results file (or of a
// folder holding results.jsonl), with summary.csv and the schedule pictures beside it.

#include <iostream>

#include <fmt/format.h>

#include <gaus/report/report.hpp>

#include "command.hpp"

namespace gaus::cli {

namespace {

struct ReportFlags {
  std::string results;
  std::string output;
  std::string title;
  bool noPictures = false;
  std::int64_t maxPictures = report::ReportOptions{}.maxPictures;
  bool json = false;
};

nlohmann::json optionalNumber(const std::optional<double>& value) {
  return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

void runReport(const ReportFlags& flags) {
  report::ReportOptions options;
  options.output = flags.output;
  options.title = flags.title;
  options.pictures = !flags.noPictures;
  options.maxPictures = flags.maxPictures;
  auto written = report::writeReport(flags.results, options);
  if (!written) throw CommandError(written.error());
  const report::ReportSummary& summary = *written;
  if (flags.json) {
    nlohmann::json json;
    json["report"] = summary.reportPath.string();
    json["csv"] = summary.csvPath.string();
    json["pictures"] = summary.pictures;
    json["records"] = summary.records;
    json["skipped_lines"] = summary.skippedLines;
    json["problems"] = summary.problems.size();
    nlohmann::json methods = nlohmann::json::array();
    for (const auto& method : summary.methods) {
      methods.push_back({{"label", method.label},
                         {"runs", method.runs},
                         {"verified", method.verified},
                         {"geomean_ratio", optionalNumber(method.geomeanRatio)},
                         {"ratio_problems", method.ratioProblems},
                         {"reference_problems", method.referenceProblems},
                         {"wins", method.wins},
                         {"ties", method.ties},
                         {"losses", method.losses},
                         {"median_seconds", optionalNumber(method.medianSeconds)}});
    }
    json["methods"] = methods;
    std::cout << json.dump(2) << '\n';
    return;
  }
  std::cout << fmt::format("{} runs on {} problems{}\n", summary.records, summary.problems.size(),
                           summary.skippedLines > 0 ? fmt::format(" ({} unreadable lines left out)",
                                                                  summary.skippedLines)
                                                    : std::string());
  for (const auto& method : summary.methods) {
    std::cout << fmt::format(
        "  {}: {} runs, {} verified, ratio to best known {}, wins/ties/losses {}/{}/{}, median "
        "{} s\n",
        method.label, method.runs, method.verified,
        method.geomeanRatio ? fmt::format("{:.4g}", *method.geomeanRatio) : std::string("-"),
        method.wins, method.ties, method.losses,
        method.medianSeconds ? fmt::format("{:.3g}", *method.medianSeconds) : std::string("-"));
  }
  std::cout << fmt::format(
      "wrote {}, {}{}\n", summary.reportPath.string(), summary.csvPath.string(),
      summary.pictures > 0
          ? fmt::format(" and {} pictures in {}", summary.pictures, summary.picturesFolder.string())
          : std::string());
}

}  // namespace

void addReportCommand(CLI::App& app) {
  auto flags = std::make_shared<ReportFlags>();
  CLI::App* command = app.add_subcommand(
      "report", "Write the HTML report of a results file (docs/pictures.md, docs/formats.md)");
  command
      ->add_option("results", flags->results,
                   "Results file (JSON lines, gaus-result-1), or a folder holding "
                   "results.jsonl")
      ->required();
  command->add_option("-o,--output", flags->output,
                      "HTML file to write (default: report.html beside the results); "
                      "summary.csv and pictures/ go beside it");
  command->add_option("--title", flags->title, "Title of the page");
  command->add_flag("--no-pictures", flags->noPictures, "Do not draw the schedule pictures");
  command->add_option("--max-pictures", flags->maxPictures, "Draw at most this many schedules")
      ->capture_default_str();
  command->add_flag("--json", flags->json, "Print JSON instead of a summary");
  command->callback([flags] { runReport(*flags); });
}

}  // namespace gaus::cli
