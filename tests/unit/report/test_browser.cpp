// The pictures and the report opened in a real browser: headless Chromium takes a screenshot of
// each page, which must not be blank (enough non-white pixels in several colours, decoded with
// libpng), and the page must log nothing to the console (Chromium's --enable-logging writes
// every console message, uncaught exceptions and failed loads included, as a ":CONSOLE" line).
// ctest label "browser"; without Chromium every case says "SKIPPED: ..." and ctest reports it
// skipped. Screenshots are kept in GAUS_SCREENSHOT_DIR for a person to look at.

#include <cstdlib>
#include <fstream>
#include <png.h>
#include <sstream>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <gaus/methods/method_catalog.hpp>
#include <gaus/methods/run_method.hpp>
#include <gaus/report/report.hpp>

#include "kernel_files.hpp"
#include "report_test_support.hpp"
#include "run_program.hpp"
#include "test_support.hpp"

namespace {

namespace fs = std::filesystem;

// $GAUS_CHROMIUM, else the first of the usual names on the PATH.
std::optional<std::string> findChromium() {
  if (const char* chosen = std::getenv("GAUS_CHROMIUM"); chosen && *chosen) return chosen;
  const char* path = std::getenv("PATH");
  if (!path) return std::nullopt;
  std::stringstream folders(path);
  std::string folder;
  while (std::getline(folders, folder, ':')) {
    for (const char* name : {"chromium", "chromium-browser", "google-chrome"}) {
      const fs::path candidate = fs::path(folder) / name;
      if (::access(candidate.c_str(), X_OK) == 0) return candidate.string();
    }
  }
  return std::nullopt;
}

#define SKIP_WITHOUT_CHROMIUM(chromium)                                                     \
  const auto chromium = findChromium();                                                     \
  if (!chromium) {                                                                          \
    WARN(                                                                                   \
        "SKIPPED: chromium not found (install Debian's chromium, scripts/setup.sh, or set " \
        "GAUS_CHROMIUM)");                                                                  \
    return;                                                                                 \
  }

struct PageVisit {
  std::vector<std::string> consoleLines;
  std::int64_t pixels = 0;
  std::int64_t nonWhitePixels = 0;
  std::size_t colours = 0;  // distinct colours, counted up to 64
  std::string failure;      // why there is no screenshot
};

PageVisit visit(const std::string& chromium, const fs::path& page, const std::string& name,
                int width = 1600, int height = 1100) {
  const fs::path folder(GAUS_SCREENSHOT_DIR);
  fs::create_directories(folder);
  const fs::path png = folder / (name + ".png");
  const fs::path log = folder / (name + ".log");
  fs::remove(png);
  // --no-sandbox: test machines and CI containers often run as root, where Chromium refuses
  // its sandbox; the pages are our own files.
  const auto run = gaus::test::runProgram(
      "timeout",
      {"120", chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
       "--user-data-dir=" + (folder / (name + ".profile")).string(), "--enable-logging=stderr",
       "--v=0", fmt::format("--window-size={},{}", width, height), "--screenshot=" + png.string(),
       "file://" + fs::absolute(page).string()});
  std::ofstream(log) << run.err;
  fs::remove_all(folder / (name + ".profile"));
  PageVisit result;
  std::istringstream lines(run.err);
  for (std::string line; std::getline(lines, line);) {
    if (line.find(":CONSOLE") != std::string::npos) result.consoleLines.push_back(line);
  }
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&image, png.c_str())) {
    result.failure = fmt::format("no screenshot {} (chromium exit {}; log {})", png.string(),
                                 run.exitCode, log.string());
    return result;
  }
  image.format = PNG_FORMAT_RGB;
  std::vector<unsigned char> pixels(PNG_IMAGE_SIZE(image));
  if (!png_image_finish_read(&image, nullptr, pixels.data(), 0, nullptr)) {
    result.failure = fmt::format("{}: {}", png.string(), image.message);
    return result;
  }
  std::vector<std::uint32_t> seen;
  for (std::size_t i = 0; i + 2 < pixels.size(); i += 3) {
    ++result.pixels;
    const std::uint32_t colour =
        (std::uint32_t{pixels[i]} << 16) | (std::uint32_t{pixels[i + 1]} << 8) | pixels[i + 2];
    if (colour != 0xFFFFFF) ++result.nonWhitePixels;
    if (seen.size() < 64 && std::find(seen.begin(), seen.end(), colour) == seen.end()) {
      seen.push_back(colour);
    }
  }
  result.colours = seen.size();
  return result;
}

// Not blank: at least 0.3% of the pixels are not white (a title alone is about that), in at
// least 4 colours (text anti-aliasing alone gives greys; boxes add hues).
void checkDrawn(const PageVisit& page) {
  REQUIRE(page.failure.empty());
  CHECK(page.nonWhitePixels * 1000 >= page.pixels * 3);
  CHECK(page.colours >= 4);
  CHECK(page.consoleLines.empty());
  for (const auto& line : page.consoleLines) UNSCOPED_INFO(line);
}

fs::path writePage(const fs::path& folder, const std::string& name, const std::string& text) {
  const fs::path path = folder / name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

// A schedule of `problem` from the registry (every schedule it returns is verified).
gaus::Schedule scheduleWith(const std::string& method, const gaus::Problem& problem) {
  const gaus::Result result =
      gaus::runMethod(gaus::methodCatalog(), problem, {method, {}, {{"time_limit", "60"}}});
  if (!result.verified()) throw std::runtime_error(method + ": " + result.message);
  return *result.schedule;
}

}  // namespace

TEST_CASE("the browser check itself: it sees a console error and a blank page", "[browser]") {
  SKIP_WITHOUT_CHROMIUM(chromium)
  const auto folder = gaus::test::scratchFolder("browser-controls");
  // Without these two failing, a passing check below would prove nothing.
  const auto broken = visit(*chromium,
                            writePage(folder, "broken.html",
                                      "<!DOCTYPE html><html><body><h1>x</h1>"
                                      "<script>notDefinedAnywhere();</script></body></html>"),
                            "control-console-error");
  REQUIRE(broken.failure.empty());
  REQUIRE_FALSE(broken.consoleLines.empty());
  CHECK_THAT(broken.consoleLines.front(), Catch::Contains("notDefinedAnywhere"));
  const auto blank =
      visit(*chromium, writePage(folder, "blank.html", "<!DOCTYPE html><html><body></body></html>"),
            "control-blank");
  REQUIRE(blank.failure.empty());
  CHECK(blank.nonWhitePixels == 0);
}

TEST_CASE("every view of the Hopper Flash-Attention schedule draws in the browser", "[browser]") {
  SKIP_WITHOUT_CHROMIUM(chromium)
  const auto folder = gaus::test::scratchFolder("browser-kernel");
  gaus::Instance instance;
  gaus::Schedule schedule;
  gaus::Problem problem;
  if (gaus::methodCatalog().find("twill")) {
    // Twill's schedule of the built-in kernel (about 3 s), warps included.
    instance = gaus::test::loadKernel("fa_fwd_hopper");
    problem = instance.problem(gaus::ProblemKind::kModuloWarp);
    schedule = scheduleWith("twill", problem);
  } else {
    // A build without the exact engine: the toy loop with its hand-checked schedule.
    instance = gaus::test::toyFlashAttention();
    problem = instance.problem(gaus::ProblemKind::kModulo);
    schedule = gaus::test::toyFlashAttentionSchedule();
  }
  for (const auto view : {gaus::report::ScheduleView::kUnits, gaus::report::ScheduleView::kWarps,
                          gaus::report::ScheduleView::kMrt, gaus::report::ScheduleView::kGraph}) {
    const std::string name = fmt::format("kernel.{}", gaus::report::toString(view));
    INFO(name);
    const std::string svg = gaus::report::renderSchedule(view, problem, schedule);
    CHECK_THAT(svg, !Catch::Contains("NOT VERIFIED"));
    checkDrawn(visit(*chromium, writePage(folder, name + ".svg", svg), name));
  }
}

TEST_CASE("a HeuriGym list schedule, a 10,000-op graph and a GauS trace draw in the browser",
          "[browser]") {
  SKIP_WITHOUT_CHROMIUM(chromium)
  const auto folder = gaus::test::scratchFolder("browser-more");
  const gaus::Instance ewf = gaus::test::loadInstance(
      gaus::test::sharedPath("benchmarks/heurigym-operator-scheduling/small/ewf.json"));
  const gaus::Problem ewfProblem = ewf.problem(gaus::ProblemKind::kLatency);
  const gaus::Schedule ewfSchedule = scheduleWith("list", ewfProblem);
  checkDrawn(
      visit(*chromium,
            writePage(folder, "ewf.units.svg", gaus::report::renderUnits(ewfProblem, ewfSchedule)),
            "heurigym.units"));
  checkDrawn(visit(
      *chromium, writePage(folder, "ewf.mrt.svg", gaus::report::renderMrt(ewfProblem, ewfSchedule)),
      "heurigym.mrt"));

  const auto large = gaus::test::largeScheduledGraph();
  const gaus::Problem largeProblem = large.instance.problem(gaus::ProblemKind::kLatency);
  checkDrawn(visit(
      *chromium,
      writePage(folder, "large.units.svg", gaus::report::renderUnits(largeProblem, large.schedule)),
      "large.units"));
  checkDrawn(
      visit(*chromium,
            writePage(folder, "large.graph.svg", gaus::report::renderGraph(*large.instance.graph)),
            "large.graph"));

  const auto trace =
      gaus::report::readConvergenceTrace(gaus::test::dataPath("report/h2v2.gaus_trace.csv"));
  REQUIRE(trace.ok());
  checkDrawn(visit(*chromium,
                   writePage(folder, "convergence.svg", gaus::report::renderConvergence(*trace)),
                   "convergence"));
}

TEST_CASE("the report of the sample results draws in the browser, pictures included", "[browser]") {
  SKIP_WITHOUT_CHROMIUM(chromium)
  const auto folder = gaus::test::scratchFolder("browser-report");
  gaus::report::ReportOptions options;
  options.output = folder / "report.html";
  const auto written = gaus::report::writeReport(gaus::test::dataPath("report"), options);
  REQUIRE(written.ok());
  // A tall window so that the whole page, tables and plot, is in the screenshot.
  checkDrawn(visit(*chromium, options.output, "report", 1400, 2400));
  // The schedule pictures sit in closed <details> (not loaded until opened): each on its own.
  REQUIRE(written->pictures == 3);
  for (const auto& entry : std::filesystem::directory_iterator(written->picturesFolder)) {
    INFO(entry.path().string());
    checkDrawn(visit(*chromium, entry.path(), "report." + entry.path().stem().string()));
  }
}
