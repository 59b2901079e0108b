// An op's reservation table in the form schedulers test and reserve it: for each limited
// resource, disjoint runs of consecutive cycles with a constant number of units held. Blocks of
// one op on the same resource that overlap (or, folded modulo II, land on the same residues) are
// summed, so a run's units are the op's whole demand on that resource in those cycles; blocks on
// unlimited resources and empty blocks are dropped.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <gaus/core/graph.hpp>
#include <gaus/core/machine.hpp>

namespace gaus::heuristic {

struct ReservationRun {
  ResourceId resource = 0;
  Cycle offset = 0;  // first cycle of the run after the op's start (in [0, II) when folded)
  Cycle length = 1;  // cycles; at most II when folded
  std::int64_t units = 1;

  friend bool operator==(const ReservationRun&, const ReservationRun&) = default;
};

// Builds runs op by op into one flat array (CSR: the runs of op k are
// runs()[offsets()[k] .. offsets()[k + 1])), so a graph of 10^6 ops needs no per-op allocation.
// With `ii` set the runs are folded modulo II: a block of length >= II holds its units on every
// residue once per full wrap, and a run's cycles are read modulo II.
class ReservationRunBuilder {
 public:
  ReservationRunBuilder(const Machine& machine, std::optional<std::int32_t> ii);

  // Appends the runs of one op's blocks and closes the op.
  void addOp(std::span<const ReservationBlock> blocks);
  // The runs of every op of `graph`, in op order.
  void addGraph(const Graph& graph);

  const std::vector<ReservationRun>& runs() const { return runs_; }
  const std::vector<std::int64_t>& offsets() const { return offsets_; }
  std::span<const ReservationRun> runsOf(OpId op) const {
    return {runs_.data() + offsets_[op], runs_.data() + offsets_[op + 1]};
  }

 private:
  struct Event {
    ResourceId resource;
    Cycle cycle;
    std::int64_t delta;
  };
  void addFoldedBlock(const ReservationBlock& block);
  void sweepEvents();

  const Machine& machine_;
  std::optional<std::int32_t> ii_;
  std::vector<ReservationRun> runs_;
  std::vector<std::int64_t> offsets_{0};
  std::vector<Event> events_;  // scratch for ops whose blocks share a resource
};

// The first run of `runs` whose units exceed the capacity of its resource (the op cannot be
// placed even on an empty table), described for a message; nullopt when every run fits.
std::optional<std::string> describeOverfullRun(std::span<const ReservationRun> runs,
                                               const Machine& machine, const std::string& opName,
                                               std::optional<std::int32_t> ii);

}  // namespace gaus::heuristic
