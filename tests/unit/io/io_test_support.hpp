// Helpers shared by the io tests: reading one instance or failing the test with the reader's
// message, comparing two instances field by field, and a temporary folder.
#pragma once

#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <gaus/core/instance.hpp>
#include <gaus/io/io.hpp>

#include "temp_folder.hpp"
#include "test_support.hpp"

namespace gaus::test {

// The only instance of a file; fails the test (showing the message) when it does not load.
inline Instance loadOne(const std::filesystem::path& path, const io::ReadOptions& options = {}) {
  auto loaded = io::readInstances(path, options);
  INFO(path.string());
  if (!loaded) FAIL(loaded.error());
  REQUIRE(loaded->size() == 1);
  return std::move(loaded->front());
}

// The error a file gives; fails the test when it loads.
inline std::string loadError(const std::filesystem::path& path,
                             const io::ReadOptions& options = {}) {
  auto loaded = io::readInstances(path, options);
  INFO(path.string());
  REQUIRE_FALSE(loaded.ok());
  return loaded.error();
}

// The first difference between two instances, or "" when every field agrees (sourcePath aside:
// it names the file an instance was read from).
inline std::string firstDifference(const Instance& a, const Instance& b) {
  if (a.name != b.name) return fmt::format("name '{}' vs '{}'", a.name, b.name);
  if (!(*a.machine == *b.machine)) return "machines differ";
  if (a.schedule != b.schedule) return "schedules differ";
  if (a.reference != b.reference) return "reference figures differ";
  const Graph& g = *a.graph;
  const Graph& h = *b.graph;
  if (g.name() != h.name()) return fmt::format("graph name '{}' vs '{}'", g.name(), h.name());
  if (g.numOps() != h.numOps() || g.numEdges() != h.numEdges()) {
    return fmt::format("sizes {}/{} vs {}/{}", g.numOps(), g.numEdges(), h.numOps(), h.numEdges());
  }
  for (OpId op = 0; op < g.numOps(); ++op) {
    const OpAttributes x = g.opAttributes(op);
    const OpAttributes y = h.opAttributes(op);
    const bool same = x.name == y.name && x.kind == y.kind && x.latency == y.latency &&
                      x.reservation == y.reservation && x.mem == y.mem && x.weight == y.weight &&
                      x.regs == y.regs && x.footprints == y.footprints &&
                      x.variableLatency == y.variableLatency && x.streaming == y.streaming &&
                      x.spillCost == y.spillCost && x.minWarps == y.minWarps;
    if (!same) return fmt::format("op #{} ('{}' vs '{}')", op, x.name, y.name);
  }
  for (EdgeId e = 0; e < g.numEdges(); ++e) {
    const bool same = g.edgeSource(e) == h.edgeSource(e) && g.edgeTarget(e) == h.edgeTarget(e) &&
                      g.edgeDelay(e) == h.edgeDelay(e) && g.edgeDistance(e) == h.edgeDistance(e) &&
                      g.edgeBlocking(e) == h.edgeBlocking(e) && g.edgeComm(e) == h.edgeComm(e);
    if (!same) return fmt::format("edge #{}", e);
  }
  return "";
}

// An instance "g" of one op "a" (latency 1) on an empty machine, after `adjust` has set what a
// test needs on the builder.
template <typename Adjust>
Instance oneOpInstance(Adjust&& adjust) {
  GraphBuilder builder("g");
  builder.addOp("a", 1);
  adjust(builder);
  Instance instance;
  instance.name = "g";
  instance.graph = std::make_shared<const Graph>(std::move(builder).build().value());
  instance.machine = std::make_shared<const Machine>();
  return instance;
}

}  // namespace gaus::test
