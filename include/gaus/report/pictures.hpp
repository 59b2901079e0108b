// Pictures of schedules, graphs and GauS runs as self-contained SVG text (docs/pictures.md):
//   units        Gantt chart, one row per resource unit (a few iterations of a modulo schedule)
//   warps        the same, one row per warp role
//   mrt          the modulo reservation table: II columns by resource units
//   graph        the dependence graph laid out by ASAP level
//   convergence  objective, violation and best legal objective of a GauS trace per Adam step
// Every schedule picture runs the verifier (gaus::verify) on what it draws and says in the
// picture when the schedule does not pass. Large inputs are drawn aggregated (utilization bands,
// ops per level) with a note saying so; no picture exceeds PictureOptions::maxBytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <gaus/core/expected.hpp>
#include <gaus/core/graph.hpp>
#include <gaus/core/problem.hpp>
#include <gaus/core/schedule.hpp>

namespace gaus::report {

enum class ScheduleView { kUnits, kWarps, kMrt, kGraph };
std::string_view toString(ScheduleView view);
std::optional<ScheduleView> parseScheduleView(std::string_view name);

struct PictureOptions {
  // Modulo schedules: consecutive iterations the units and warps views draw. Unset: the stage
  // count plus one, between 2 and 5, so that one II window shows the steady state.
  std::optional<std::int32_t> iterations;
  // Above this many boxes (op instances times units held) the Gantt views draw per-row
  // utilization bands instead; above this many ops the graph view draws ops per level.
  std::int64_t maxBoxes = 3000;
  std::int64_t maxGraphOps = 150;
  // No picture is larger: a detailed picture that would be is drawn aggregated, and an
  // aggregated one coarsens its bands until it fits.
  std::size_t maxBytes = std::size_t{4} << 20;
  // Shown above the picture; empty: the graph's name and the view.
  std::string title;
};

// Schedule views. `problem` says what the schedule is checked against (its kind, horizon, II).
std::string renderUnits(const Problem& problem, const Schedule& schedule,
                        const PictureOptions& options = {});
std::string renderWarps(const Problem& problem, const Schedule& schedule,
                        const PictureOptions& options = {});
std::string renderMrt(const Problem& problem, const Schedule& schedule,
                      const PictureOptions& options = {});
std::string renderGraph(const Graph& graph, const PictureOptions& options = {});
// The view by name; kGraph ignores the schedule.
std::string renderSchedule(ScheduleView view, const Problem& problem, const Schedule& schedule,
                           const PictureOptions& options = {});

// One record of a GauS trace file (`-O trace=`, docs/gaus.md): written after every multiplier
// update.
struct TracePoint {
  std::int64_t step = 0;  // Adam steps so far
  std::int64_t horizon = 0;
  std::optional<std::int64_t> ii;
  double objective = 0.0;
  double violation = 0.0;
  double rho = 0.0;
  std::optional<double> best;  // best legal objective so far
  double elapsedSeconds = 0.0;
};

struct ConvergenceTrace {
  std::string name;  // the file's stem
  std::vector<TracePoint> points;
  std::optional<std::int64_t> truncatedLine;  // a half-written last line that was left out
};

// Reads a trace file: CSV with the header `gaus schedule -O trace=X.csv` writes, or JSON lines.
// Bad input fails with the file, the line and what was expected; only a last line cut short
// (a run stopped while writing) is left out, and named in the picture.
Expected<ConvergenceTrace> readConvergenceTrace(const std::filesystem::path& path);

std::string renderConvergence(const ConvergenceTrace& trace, const PictureOptions& options = {});

}  // namespace gaus::report
