// What every schedule view starts from: the verifier's report on the schedule, the iterations
// to draw (a few for a modulo schedule, one otherwise) and the colour of each op instance, with
// the legend that explains the colours.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <gaus/core/problem.hpp>
#include <gaus/core/schedule.hpp>
#include <gaus/core/verify.hpp>
#include <gaus/report/pictures.hpp>

#include "chart_support.hpp"

namespace gaus::report {

struct ScheduleScene {
  const Graph* graph = nullptr;
  const Machine* machine = nullptr;
  const Schedule* schedule = nullptr;
  VerificationReport verification;
  bool drawable = false;  // one start >= 0 per op (and warps in range): the shape checks pass
  std::optional<std::int32_t> ii;
  std::int32_t iterations = 1;
  std::int32_t stages = 1;
  Cycle latency = 0;
  bool colourByIteration = false;       // modulo schedules; otherwise colours are op kinds
  std::vector<std::size_t> kindColour;  // per op, when colouring by kind
  std::vector<LegendEntry> legend;

  std::size_t colour(OpId op, std::int32_t iteration) const;
  // "S (mma)", "S (mma), iteration 1, stage 0"
  std::string describeInstance(OpId op, std::int32_t iteration) const;
  // "II = 2, latency 4 cycles, 2 stages" or "latency 21 cycles"
  std::string describeSchedule() const;
};

// Colours of ops by kind: the most frequent kinds get their own colour, the rest share one.
struct KindColouring {
  std::vector<std::size_t> colourOfOp;
  std::vector<LegendEntry> legend;
};
KindColouring colourOpsByKind(const Graph& graph);

ScheduleScene makeScheduleScene(const Problem& problem, const Schedule& schedule,
                                const PictureOptions& options);

// The picture drawn instead of a view when the schedule cannot be drawn (wrong number of starts,
// negative starts): the title and the verifier's verdict.
std::string undrawablePicture(const ScheduleScene& scene, const std::string& title);

std::string defaultTitle(const PictureOptions& options, const Graph& graph, std::string_view view);

}  // namespace gaus::report
