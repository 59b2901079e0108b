// Helpers of the report tests: schedules whose legality is known by hand, a scratch folder, and
// counting in SVG text.
#pragma once

#include <filesystem>
#include <pugixml.hpp>
#include <string>
#include <string_view>
#include <unistd.h>

#include <gaus/core/analysis.hpp>
#include <gaus/core/random_graph.hpp>

#include "toy_graphs.hpp"

namespace gaus::test {

// The toy Flash-Attention loop at II = 2 with S:0 P:2 O:3 (TWILL.md's optimum, toy_graphs.hpp):
// legal, latency 4, so ceil(4 / 2) = 2 stages.
inline Schedule toyFlashAttentionSchedule() {
  Schedule schedule;
  schedule.start = {0, 2, 3};
  schedule.ii = 2;
  return schedule;
}

// S:0 P:1 O:2 at II = 2: S and O both hold the single TC at cycle 0 mod 2 (the clash of
// tests/data/cli/toy_fa.clash.schedule.json).
inline Schedule toyFlashAttentionClash() {
  Schedule schedule;
  schedule.start = {0, 1, 2};
  schedule.ii = 2;
  return schedule;
}

// A 10,000-op random DAG (average degree 3) on an unlimited ALU, scheduled ASAP: legal, since
// ASAP meets every edge and no resource is limited.
struct LargeScheduledGraph {
  Instance instance;
  Schedule schedule;
};
inline LargeScheduledGraph largeScheduledGraph() {
  RandomGraphOptions options;
  options.ops = 10000;
  options.averageDegree = 3.0;
  options.opTypes = {{"ALU", 1, 3, 1, std::nullopt, 2.0}, {"MUL", 2, 4, 1, std::nullopt, 1.0}};
  auto generated = generateRandomGraph(options);
  if (!generated) throw std::runtime_error(generated.error());
  LargeScheduledGraph large{toInstance(std::move(generated).value()), {}};
  const auto order = topologicalOrder(*large.instance.graph);
  if (!order) throw std::runtime_error(order.error());
  large.schedule.start = asapTimes(*large.instance.graph, *order);
  return large;
}

inline std::size_t countOccurrences(std::string_view text, std::string_view needle) {
  std::size_t count = 0;
  for (std::size_t at = text.find(needle); at != std::string_view::npos;
       at = text.find(needle, at + needle.size())) {
    ++count;
  }
  return count;
}

// True when `svg` parses as XML with an <svg> root of positive size.
inline bool wellFormedSvg(const std::string& svg) {
  pugi::xml_document document;
  if (!document.load_string(svg.c_str())) return false;
  const pugi::xml_node root = document.child("svg");
  return root && root.attribute("width").as_double() > 0 &&
         root.attribute("height").as_double() > 0;
}

// A fresh folder for one test's files, in a folder of this test process.
inline std::filesystem::path scratchFolder(const std::string& name) {
  const auto folder = std::filesystem::temp_directory_path() /
                      ("gaus-report-tests-" + std::to_string(::getpid())) / name;
  std::filesystem::remove_all(folder);
  std::filesystem::create_directories(folder);
  return folder;
}

}  // namespace gaus::test
