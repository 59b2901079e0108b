// The Gantt chart the units and warps views share: groups of rows (a resource's units, a warp's
// concurrent ops), time on x, one box per bar. Bars are placed on the lowest free row of their
// group in order of start time (first fit on intervals, which needs no more rows than the most
// bars overlapping at any cycle: a verified schedule never spills past a resource's capacity).
// Too many boxes, or a picture beyond the size limit, give per-group utilization bands instead.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <gaus/core/types.hpp>
#include <gaus/core/verify.hpp>
#include <gaus/report/pictures.hpp>

#include "chart_support.hpp"

namespace gaus::report {

struct GanttBar {
  Cycle begin = 0;
  Cycle end = 0;           // exclusive; end == begin is drawn as a thin marker
  std::int32_t units = 1;  // rows it takes (a reservation block of several units)
  std::size_t colour = 0;  // index into the category palette
  std::string label;       // drawn inside the box when it fits, shortened otherwise
  std::string tooltip;
};

struct GanttGroup {
  std::string name;     // "TC", "warp 1"
  std::string tooltip;  // what the row label's <title> says (capacity, role)
  // Rows the group always shows (a resource's units); bars that find none free open more rows,
  // which are marked as over capacity when `capacityRows` is a real capacity.
  std::int32_t capacityRows = 0;
  bool hasCapacity = false;
  // Rows are labelled "TC 0", "TC 1" when true (units), else only the first with the name.
  bool numberRows = true;
  std::vector<GanttBar> bars;
};

struct ModuloMarks {
  std::int32_t ii = 1;
  std::int32_t iterations = 1;
  std::int32_t stages = 1;
};

struct GanttChart {
  std::string title;
  std::vector<std::string> notes;
  std::vector<GanttGroup> groups;
  Cycle end = 0;  // right end of the time axis
  std::optional<ModuloMarks> modulo;
  std::vector<LegendEntry> legend;
  const VerificationReport* verification = nullptr;
  std::string axisTitle = "cycle";
};

// The rows of each bar of a group, by first fit in order of start time; `rowsUsed` is the
// number of rows the group needs. Bars of zero length hold their row for one cycle, so that
// markers at the same cycle do not overlap.
struct RowAssignment {
  std::vector<std::vector<std::int32_t>> rowsOfBar;
  std::int32_t rowsUsed = 0;
};
RowAssignment assignRows(const std::vector<GanttBar>& bars);

// One box per bar when there are at most options.maxBoxes and the picture fits
// options.maxBytes; utilization bands otherwise.
std::string drawGanttChart(const GanttChart& chart, const PictureOptions& options);

// Utilization bands, one per group: the share of the group's units (its capacity, else the
// most its bars use at once) in use per bucket of cycles, as many buckets as fit maxBytes.
// `reason` is the note that says why the picture is aggregated.
std::string drawUtilizationBands(const GanttChart& chart, const PictureOptions& options,
                                 const std::string& reason);

}  // namespace gaus::report
