// A modulo reservation table: units in use per resource and residue (cycle mod II), for
// reservation tables of several blocks and several cycles. Shared by iterative modulo
// scheduling, GauS's modulo legalization and anything else that places ops at a fixed II.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include <gaus/core/graph.hpp>
#include <gaus/core/machine.hpp>

namespace gaus::heuristic {

class ModuloReservationTable {
 public:
  ModuloReservationTable(const Machine& machine, std::int32_t ii);

  std::int32_t ii() const { return ii_; }
  // True when placing `blocks` at `start` keeps every limited resource within capacity.
  bool fits(std::span<const ReservationBlock> blocks, Cycle start) const;
  void reserve(std::span<const ReservationBlock> blocks, Cycle start);
  void release(std::span<const ReservationBlock> blocks, Cycle start);
  // Units of `resource` in use at residue `residue`.
  std::int64_t used(ResourceId resource, std::int32_t residue) const;

 private:
  void apply(std::span<const ReservationBlock> blocks, Cycle start, std::int64_t sign);

  std::int32_t ii_;
  std::vector<std::int64_t> capacity_;  // per resource; max int64 when unlimited
  std::vector<std::int64_t> used_;      // resource * ii + residue
};

}  // namespace gaus::heuristic
