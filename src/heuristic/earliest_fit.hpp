// Internal to the heuristic module: the earliest start at which all runs of an op's reservation
// fit a resource table, shared by the absolute-cycle table of list scheduling and the modulo
// reservation table.
//
// Testing every candidate start against every cell costs O(candidates x length), which is
// 10^7 cell reads per op when occupancies and II are in the thousands (Triton dumps). Instead
// each run keeps the stretch of cells it has already found free, [verifiedFrom, verifiedTo);
// a cell that does not fit moves the candidate start just past it (no start that still covers
// that cell can fit), and the other runs resume from what they verified. The start only grows
// and each run reads each cell at most once, so one search costs O(span + total run length).
#pragma once

#include <optional>
#include <span>
#include <vector>

#include <gaus/heuristic/reservation_runs.hpp>

namespace gaus::heuristic::detail {

struct RunScan {
  Cycle verifiedFrom = 0;
  Cycle verifiedTo = 0;  // cells [verifiedFrom, verifiedTo) of the run's resource fit it
};

// The first start s in [from, last] such that the run's units fit at every cell c in
// [s + run.offset, s + run.offset + run.length), for every run, or nullopt.
//   table.firstMisfit(run, begin, end): the first cell in [begin, end) where the run's units do
//     not fit, or `end`.
//   table.nextCandidate(run, cycle): a cell after `cycle` (which does not fit) where the run may
//     fit again; cycle + 1 is always correct, a table may skip further (full cycles).
template <typename Table>
std::optional<Cycle> findEarliestFit(Table& table, std::span<const ReservationRun> runs, Cycle from,
                                     Cycle last, std::vector<RunScan>& scratch) {
  if (from > last) return std::nullopt;
  if (runs.empty()) return from;
  scratch.assign(runs.size(), RunScan{from - 1, from - 1});
  Cycle start = from;
  std::size_t settled = 0;  // runs in a row confirmed at the current start
  std::size_t index = 0;
  while (settled < runs.size()) {
    const ReservationRun& run = runs[index];
    RunScan& scan = scratch[index];
    Cycle low = start + run.offset;
    Cycle high = low + run.length;
    Cycle cell = low;
    if (low >= scan.verifiedFrom && low <= scan.verifiedTo) {
      cell = scan.verifiedTo;
    } else {
      scan.verifiedFrom = low;
    }
    bool moved = false;
    while (cell < high) {
      const Cycle misfit = table.firstMisfit(run, cell, high);
      if (misfit == high) {
        cell = high;
        break;
      }
      const Cycle next = table.nextCandidate(run, misfit);
      start = next - run.offset;
      if (start > last) return std::nullopt;
      low = next;
      high = low + run.length;
      scan.verifiedFrom = low;
      cell = low;
      moved = true;
    }
    scan.verifiedTo = std::max(scan.verifiedTo, cell);
    settled = moved ? 1 : settled + 1;
    index = index + 1 == runs.size() ? 0 : index + 1;
  }
  return start;
}

}  // namespace gaus::heuristic::detail
