// The figures a method reports beside its objective (bounds in other units, sizes, counts,
// timings), declared once as options are (option_table.hpp), after HiGHS's info records: each
// figure is a named constant with a unit and a doc, and each engine's FigureTable says which of
// its methods report it. A Result carries declared figures only (Figures::set takes a
// declaration; MethodRegistry::run refuses a figure the method does not declare), and readers
// ask by the declaration, so a renamed figure is a compile error instead of a silently empty
// column. `gaus methods [--json]` lists each method's figures from the same tables.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <gaus/core/enum_names.hpp>

namespace gaus {

enum class FigureUnit {
  kCycles,   // time steps of the problem (raw cycles unless the name says otherwise)
  kCount,    // how many: attempts, variables, warps, ...
  kSeconds,  // wall seconds (CPU seconds where the name says so)
  kFlag,     // 1 yes, 0 no
  kShare,    // a fraction of a whole, in [0, 1]
  kValue,    // a value of the problem's own measure (a weight, a stage weight)
};
inline constexpr auto kFigureUnitNames = makeEnumNames<FigureUnit>({
    {FigureUnit::kCycles, "cycles"},
    {FigureUnit::kCount, "count"},
    {FigureUnit::kSeconds, "seconds"},
    {FigureUnit::kFlag, "flag"},
    {FigureUnit::kShare, "share"},
    {FigureUnit::kValue, "value"},
});
inline std::string_view toString(FigureUnit unit) {
  return kFigureUnitNames.name(unit);
}

// A figure's declaration: a constant in the header of the module that reports it.
struct Figure {
  std::string_view name;  // snake_case, as results files and `--json` spell it
  FigureUnit unit = FigureUnit::kCount;
  std::string_view doc;  // one line: what it measures
};

// A figure as `gaus methods` documents it (MethodInfo::figures).
struct FigureDoc {
  std::string name;
  std::string unit;
  std::string description;
};

// The figures of one Result, in the order they were set.
class Figures {
 public:
  // Sets (or replaces) the value of a declared figure.
  void set(const Figure& figure, double value);
  // The value, when the method reported it.
  std::optional<double> get(const Figure& figure) const { return get(figure.name); }
  // The same by name, for a reader that knows the figure only by the name a method declares it
  // with (the command line and the JSON views load no engine's headers).
  std::optional<double> get(std::string_view name) const;
  bool empty() const { return values_.empty(); }
  // Every (name, value), for writers (JSON, results files).
  const std::vector<std::pair<std::string, double>>& values() const { return values_; }

 private:
  std::vector<std::pair<std::string, double>> values_;
};

// An engine's figures and, for each, the methods that report it. Each engine declares one
// table; makeMethod documents a method's figures from it (MethodInfo::figures).
class FigureTable {
 public:
  FigureTable& add(const Figure& figure, std::vector<std::string_view> methods);
  // The figures `method` reports, in the table's order.
  std::vector<FigureDoc> reportedBy(std::string_view method) const;

 private:
  struct Entry {
    Figure figure;
    std::vector<std::string_view> methods;
  };
  std::vector<Entry> entries_;
};

// Figures several engines report, declared once.
namespace figures {
inline constexpr Figure kLatency{"latency", FigureUnit::kCycles,
                                 "latency of the schedule returned (raw cycles)"};
inline constexpr Figure kStages{"stages", FigureUnit::kCount,
                                "pipeline stages of the schedule returned (core's stageCount)"};
}  // namespace figures

}  // namespace gaus
