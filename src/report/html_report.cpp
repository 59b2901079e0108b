// The report page: one self-contained HTML file (inline CSS and SVG; a few lines of inline script
// sort the tables when a header is clicked) that opens from disk or as a CI artifact with no
// network. Sections: methods, quality versus time, per problem, failures, schedule pictures.

#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include <fmt/format.h>

#include "chart_support.hpp"
#include "report_tables.hpp"
#include "svg_document.hpp"

namespace gaus::report {

namespace {

constexpr std::string_view kPageStyle = R"css(
body { font-family: 'DejaVu Sans', Arial, Helvetica, sans-serif; font-size: 14px; color: #1a1a1a;
  margin: 24px; background: #ffffff; }
h1 { font-size: 22px; margin: 0 0 6px 0; }
h2 { font-size: 17px; margin: 28px 0 8px 0; border-bottom: 1px solid #d0d0d0; padding-bottom: 3px; }
p.meta, p.explain { color: #404040; max-width: 70em; margin: 4px 0; }
table { border-collapse: collapse; margin: 8px 0; }
th, td { border: 1px solid #d0d0d0; padding: 3px 8px; text-align: left; vertical-align: top;
  white-space: nowrap; }
td.message { white-space: normal; min-width: 24em; }
div.wide { overflow-x: auto; max-width: 100%; }
th { background: #eef1f5; cursor: pointer; user-select: none; }
th[data-order="ascending"]::after { content: " \25B2"; font-size: 10px; }
th[data-order="descending"]::after { content: " \25BC"; font-size: 10px; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
td.best { font-weight: bold; }
span.proven { color: #1b6e20; font-size: 0.85em; }
span.gap { color: #555; font-size: 0.85em; }
td.missing, span.missing { color: #8a8a8a; }
td.status-error, td.status-crashed, td.status-out_of_memory { color: #b00020; }
td.status-timeout, td.status-infeasible, td.status-unknown { color: #8a5a00; }
.warn { color: #b00020; }
span.note { color: #505050; font-size: 85%; }
details { margin: 6px 0; }
summary { cursor: pointer; }
img.schedule { max-width: 100%; border: 1px solid #d0d0d0; margin: 4px 0; }
ul.findings { max-width: 70em; padding-left: 1.2em; }
ul.findings li { margin: 4px 0; font-size: 15px; }
div.opening { display: flex; flex-wrap: wrap; gap: 16px; align-items: flex-start; }
div.opening figure { flex: 1 1 480px; margin: 0; max-width: 50%; }
div.opening figure svg, div.opening figure img { width: 100%; height: auto; }
div.opening div.scroll { max-height: 520px; overflow: auto; border: 1px solid #d0d0d0; }
figcaption { color: #404040; font-size: 12px; margin-top: 2px; }
)css";

// Sorts a table by the clicked column: numbers by value (a cell's data-value when it has one),
// other text alphabetically; a second click reverses.
constexpr std::string_view kSortScript = R"js(
document.querySelectorAll('table.sortable th').forEach(function (header) {
  header.addEventListener('click', function () {
    var body = header.closest('table').tBodies[0];
    var column = Array.prototype.indexOf.call(header.parentNode.children, header);
    var ascending = header.getAttribute('data-order') !== 'ascending';
    header.parentNode.querySelectorAll('th').forEach(function (other) {
      other.removeAttribute('data-order');
    });
    header.setAttribute('data-order', ascending ? 'ascending' : 'descending');
    function key(row) {
      var cell = row.cells[column];
      if (!cell) return '';
      var text = cell.hasAttribute('data-value') ? cell.getAttribute('data-value') : cell.textContent;
      var number = parseFloat(text);
      return isNaN(number) ? text.toLowerCase() : number;
    }
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = key(a), y = key(b);
      if (typeof x !== typeof y) { x = String(x); y = String(y); }
      return (x < y ? -1 : x > y ? 1 : 0) * (ascending ? 1 : -1);
    });
    rows.forEach(function (row) { body.appendChild(row); });
  });
});
)js";

std::string escape(std::string_view text) {
  return escapeXml(text);
}

std::string numberCell(std::optional<double> value, std::string_view extraClass = {}) {
  if (!value) return "<td class=\"num missing\" data-value=\"\">&#8212;</td>";
  return fmt::format("<td class=\"num{}{}\" data-value=\"{:.10g}\">{}</td>",
                     extraClass.empty() ? "" : " ", extraClass, *value, formatValue(value));
}

std::string integerCell(std::int64_t value) {
  return fmt::format("<td class=\"num\">{}</td>", value);
}

// Wall seconds as people read them: three digits, and below a millisecond only that.
std::string secondsText(std::optional<double> seconds) {
  if (!seconds) return {};
  return *seconds < 0.001 ? std::string("&lt;0.001") : fmt::format("{:.3g}", *seconds);
}

// A number cell whose text is `text` and whose sort key is the value itself.
std::string numberCell(std::optional<double> value, const std::string& text) {
  if (!value) return numberCell(value);
  return fmt::format("<td class=\"num\" data-value=\"{:.10g}\">{}</td>", *value, text);
}

std::string secondsCell(std::optional<double> seconds) {
  return numberCell(seconds, secondsText(seconds));
}

// The best bound, and under it the argument that gave it and whose run found it.
std::string boundCell(const ProblemSummary& problem) {
  if (!problem.bestBound || problem.bestBoundArgument.empty()) {
    return numberCell(problem.bestBound);
  }
  return numberCell(problem.bestBound,
                    fmt::format("{}<br><span class=\"note\">{}</span>",
                                formatValue(problem.bestBound), escape(problem.bestBoundArgument)));
}

// Ratios to the best known value differ in the third or fourth decimal.
std::string ratioCell(std::optional<double> ratio) {
  return numberCell(ratio, ratio ? fmt::format("{:.4f}", *ratio) : std::string());
}

// The sentences the results write, then the schedule and the convergence of the run the first
// one is about, side by side.
std::string openingSection(const ReportOpening& opening) {
  std::string html = "<h2>Findings</h2>\n";
  if (opening.headlines.empty()) {
    return html +
           "<p class=\"explain\">No method beat another by a wide margin on any problem, and no "
           "run proved a lower bound on a problem's objective.</p>\n";
  }
  html += "<ul class=\"findings\">\n";
  for (const auto& headline : opening.headlines) {
    html += fmt::format("<li>{}</li>\n", escape(headline.text));
  }
  html += "</ul>\n";
  if (!opening.record) return html;
  const ResultRecord& record = *opening.record;
  html += "<div class=\"opening\">\n";
  if (!opening.scheduleFile.empty()) {
    html += fmt::format(
        "<figure><div class=\"scroll\"><img class=\"schedule\" src=\"{0}\" alt=\"units view "
        "of {1}\"></div><figcaption>{2} on {3}: the schedule of the first finding (units view, <a "
        "href=\"{0}\">{0}</a>)</figcaption></figure>\n",
        escape(opening.scheduleFile), escape(record.runId), escape(record.label),
        escape(record.graph.id));
  }
  if (!opening.convergenceSvg.empty()) {
    html += fmt::format(
        "<figure>{}<figcaption>{} on {}: convergence of the same run (model objective, "
        "violation, best legal objective per Adam step)</figcaption></figure>\n",
        opening.convergenceSvg, escape(record.label), escape(record.graph.id));
  }
  html += "</div>\n";
  if (!opening.note.empty()) {
    html += fmt::format("<p class=\"explain missing\">{}</p>\n", escape(opening.note));
  }
  return html;
}

std::string methodsSection(const ReportSummary& summary) {
  std::string html = "<h2>Methods</h2>\n";
  html +=
      "<p class=\"explain\">Per method label over every problem it ran on. <b>ratio</b>: geometric "
      "mean over the problems where the method has a verified result of its best objective "
      "divided by the best known value (1 = best known); <b>by reference</b>: of those problems, "
      "where the best known value is the reference (such as HeuriGym's baseline) because no run "
      "reached it. <b>wins / ties / losses</b> count problems with at least two methods: a win is "
      "a value below every other method's, a tie a shared best value, a loss anything else, no "
      "verified result included.</p>\n";
  html +=
      "<table class=\"sortable\" id=\"methods\"><thead><tr><th>method</th><th>runs</th>"
      "<th>verified</th><th>ratio to best known (geo. mean)</th><th>problems in ratio</th>"
      "<th>by reference</th><th>wins</th><th>ties</th><th>losses</th><th>median s</th></tr>"
      "</thead><tbody>\n";
  for (const auto& method : summary.methods) {
    html += fmt::format("<tr><td>{}</td>{}{}{}{}{}{}{}{}{}</tr>\n", escape(method.label),
                        integerCell(method.runs), integerCell(method.verified),
                        ratioCell(method.geomeanRatio), integerCell(method.ratioProblems),
                        integerCell(method.referenceProblems), integerCell(method.wins),
                        integerCell(method.ties), integerCell(method.losses),
                        secondsCell(method.medianSeconds));
  }
  html += "</tbody></table>\n";
  return html;
}

// ", gap 7.7 %" after a value, ", proven optimal" where it meets the best bound.
std::string gapText(std::optional<double> gap) {
  if (!gap) return {};
  if (*gap == 0.0) return "<br><span class=\"proven\">proven optimal</span>";
  return fmt::format("<br><span class=\"gap\">gap {:.1f} %</span>", 100.0 * *gap);
}

std::string problemsSection(const ReportSummary& summary) {
  std::vector<std::string> labels;
  for (const auto& method : summary.methods) labels.push_back(method.label);
  std::string html = "<h2>Per problem</h2>\n";
  html +=
      "<p class=\"explain\">Each method's best verified objective on the problem (all objectives "
      "are minimized) with its ratio to the best known value in brackets, its gap to the best "
      "bound (value - bound) / value, or <i>proven optimal</i> where the value meets the bound, "
      "and its median wall seconds; the best value of the row is in bold. <b>source</b> says "
      "whether the best known value is the best run or the reference; <b>best bound</b> is the "
      "largest lower bound any run proved on the objective, with the argument that gave it and "
      "the method whose run found it. A grey status stands where a method "
      "has no verified result.</p>\n";
  html +=
      "<div class=\"wide\"><table class=\"sortable\" id=\"problems\"><thead><tr><th>graph</th>"
      "<th>problem</th><th>objective</th><th>best known</th><th>source</th><th>reference</th>"
      "<th>best bound</th>";
  for (const auto& label : labels) {
    html += fmt::format("<th>{0}<br>value (ratio), gap</th><th>{0}<br>s</th>", escape(label));
  }
  html += "</tr></thead><tbody>\n";
  for (const auto& problem : summary.problems) {
    html += fmt::format(
        "<tr><td>{}</td><td>{}</td><td>{}</td>{}<td>{}</td>{}{}", escape(problem.graph),
        escape(problem.problem), escape(problem.objectiveName), numberCell(problem.bestKnown),
        toString(problem.bestSource), numberCell(problem.reference), boundCell(problem));
    for (const auto& label : labels) {
      const auto cell = std::find_if(problem.cells.begin(), problem.cells.end(),
                                     [&label](const ProblemCell& c) { return c.label == label; });
      if (cell == problem.cells.end()) {
        html += "<td class=\"missing\" data-value=\"\">not run</td><td data-value=\"\"></td>";
        continue;
      }
      if (cell->value) {
        html += fmt::format("<td class=\"num{}\" data-value=\"{:.10g}\">{}{}{}</td>",
                            cell->best ? " best" : "", *cell->value, formatValue(cell->value),
                            cell->ratio ? fmt::format(" ({:.3f})", *cell->ratio) : std::string(),
                            gapText(cell->gap));
      } else {
        html += fmt::format("<td class=\"missing status-{0}\" data-value=\"\">{0}</td>",
                            escape(cell->status));
      }
      html += secondsCell(cell->medianSeconds);
    }
    html += "</tr>\n";
  }
  html += "</tbody></table></div>\n";
  return html;
}

// One row per run: its id, graph, method, status, seconds and message.
std::string runRows(const ResultsFile& results,
                    const std::function<bool(const ResultRecord&)>& include) {
  std::string rows;
  for (const auto& record : results.records) {
    if (!include(record)) continue;
    std::string message = record.message;
    if (isSuccess(record.status) && !record.verified) {
      message = message.empty() ? std::string("the schedule was not verified")
                                : fmt::format("the schedule was not verified: {}", message);
    }
    rows += fmt::format(
        "<tr><td>{}</td><td>{}</td><td>{}</td><td class=\"status-{}\">{}</td>"
        "<td class=\"num\" data-value=\"{}\">{}</td><td class=\"message\">{}</td></tr>\n",
        escape(record.runId), escape(record.graph.id), escape(record.label),
        toString(record.status), toString(record.status),
        record.seconds ? fmt::format("{:.10g}", *record.seconds) : "", secondsText(record.seconds),
        escape(message));
  }
  return rows;
}

std::string runTable(std::string_view id, const std::string& rows) {
  return fmt::format(
      "<table class=\"sortable\" id=\"{}\"><thead><tr><th>run</th><th>graph</th><th>method</th>"
      "<th>status</th><th>s</th><th>message</th></tr></thead><tbody>\n{}</tbody></table>\n",
      id, rows);
}

// Runs that failed (isFailure), then the runs that ended without a proven answer or with a
// proof of infeasibility, which are results and not failures, then the unreadable lines.
std::string failuresSection(const ResultsFile& results) {
  const std::int64_t failed = std::count_if(results.records.begin(), results.records.end(),
                                            [](const ResultRecord& r) { return isFailure(r); });
  const auto stoppedOrInfeasible = [](const ResultRecord& record) {
    return !isFailure(record) && !(isSuccess(record.status) && record.verified);
  };
  const std::int64_t others =
      std::count_if(results.records.begin(), results.records.end(), stoppedOrInfeasible);
  std::string html = fmt::format("<h2>Failures ({})</h2>\n", failed);
  if (failed == 0) {
    html +=
        "<p class=\"explain\">Every run returned a verified schedule or proved that none "
        "exists.</p>\n";
  } else {
    html +=
        "<p class=\"explain\">Runs that ended in an error, a crash or out of memory, and runs "
        "without a verified schedule (an unknown outcome, a time limit reached before any "
        "schedule, a schedule that failed verification).</p>\n" +
        runTable("failures", runRows(results, [](const ResultRecord& r) { return isFailure(r); }));
  }
  if (others > 0) {
    html += fmt::format("<h2>Time limits reached and infeasible problems ({})</h2>\n", others);
    html +=
        "<p class=\"explain\">Not failures. A run stopped by its time limit with a verified "
        "schedule is a result: its value counts in the tables above, but it is not proven best. "
        "An infeasible run proved that the problem, as posed, has no schedule.</p>\n" +
        runTable("stopped", runRows(results, stoppedOrInfeasible));
  }
  if (!results.skipped.empty()) {
    html += fmt::format(
        "<p class=\"warn\">{} line{} of {} could not be read and {} left out:</p>\n<ul>\n",
        results.skipped.size(), results.skipped.size() == 1 ? "" : "s",
        escape(results.path.filename().string()), results.skipped.size() == 1 ? "is" : "are");
    for (const auto& skipped : results.skipped) {
      html += fmt::format("<li>line {}: {}</li>\n", skipped.line, escape(skipped.reason));
    }
    html += "</ul>\n";
  }
  return html;
}

std::string picturesSection(const std::vector<RunPicture>& pictures) {
  if (pictures.empty()) return {};
  std::string html = fmt::format("<h2>Schedules ({})</h2>\n", pictures.size());
  html +=
      "<p class=\"explain\">Units view of each run that wrote a schedule file, drawn after "
      "checking the schedule with the verifier. Open one to see it; the files are in the "
      "pictures folder beside this page.</p>\n";
  for (const auto& picture : pictures) {
    const ResultRecord& record = *picture.record;
    const std::string name = fmt::format("{} &#8212; {} on {}", escape(record.runId),
                                         escape(record.label), escape(record.graph.id));
    if (picture.file.empty()) {
      html += fmt::format("<p>{}: <span class=\"missing\">no picture: {}</span></p>\n", name,
                          escape(picture.note));
      continue;
    }
    html += fmt::format(
        "<details><summary>{} (<a href=\"{}\">{}</a>){}</summary>\n"
        "<img class=\"schedule\" loading=\"lazy\" src=\"{}\" alt=\"units view of {}\">\n"
        "</details>\n",
        name, escape(picture.file), escape(picture.file),
        picture.verified ? std::string()
                         : fmt::format(" <span class=\"warn\">{}</span>", escape(picture.note)),
        escape(picture.file), escape(record.runId));
  }
  return html;
}

}  // namespace

std::string formatReportPage(const ResultsFile& results, const ReportSummary& summary,
                             const ReportOpening& opening, const std::vector<RunPicture>& pictures,
                             const std::string& title) {
  std::set<std::string> versions;
  std::set<std::string> hosts;
  for (const auto& record : results.records) {
    if (!record.version.empty()) versions.insert(record.version);
    if (!record.host.empty()) hosts.insert(record.host);
  }
  const auto joined = [](const std::set<std::string>& items) {
    std::string text;
    for (const auto& item : items) text += (text.empty() ? "" : ", ") + item;
    return text.empty() ? std::string("not recorded") : text;
  };

  std::string html = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  html += fmt::format("<title>{}</title>\n<style>{}{}</style>\n</head>\n<body>\n", escape(title),
                      kPageStyle, pictureStyle());
  html += fmt::format("<h1>{}</h1>\n", escape(title));
  html += fmt::format(
      "<p class=\"meta\">{} run{} on {} problem{} from {}{}{}. Versions: {}. Hosts: {}.</p>\n",
      summary.records, summary.records == 1 ? "" : "s", summary.problems.size(),
      summary.problems.size() == 1 ? "" : "s", escape(results.path.filename().string()),
      summary.skippedLines > 0
          ? fmt::format(
                "; <span class=\"warn\">{} unreadable line{} left out (see Failures)</span>",
                summary.skippedLines, summary.skippedLines == 1 ? "" : "s")
          : std::string(),
      summary.replacedRecords > 0
          ? fmt::format("; {} earlier record{} of re-run runs replaced by the later line",
                        summary.replacedRecords, summary.replacedRecords == 1 ? "" : "s")
          : std::string(),
      escape(joined(versions)), escape(joined(hosts)));
  html += openingSection(opening);
  html += methodsSection(summary);
  html += "<h2>Quality versus time</h2>\n";
  html += renderQualityTimePlot(results, summary);
  html += problemsSection(summary);
  html += failuresSection(results);
  html += picturesSection(pictures);
  html += fmt::format("<script>{}</script>\n</body>\n</html>\n", kSortScript);
  return html;
}

}  // namespace gaus::report
