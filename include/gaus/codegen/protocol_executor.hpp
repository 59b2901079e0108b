// Runs the protocol of a pipeline in-process: one thread per warp role walks the role's program
// (prologue, steady state, epilogue, drains, tail) over the runtime of protocol_runtime.hpp,
// the same runtime, barrier and checker the generated CPU programs include. The tests run
// thousands of pipelines this way without compiling a program for each; a test checks that the
// generated program of a kernel and this executor produce the same per-role trace.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <gaus/codegen/pipeline.hpp>
#include <gaus/codegen/protocol_runtime.hpp>

namespace gaus::codegen {

// The specification the checker holds a run to: the schedule's ops, edges and ring depths.
// The CPU target prints this very object into the program it generates.
gaus_protocol::Spec protocolSpec(const Pipeline& pipeline);

// Where the generated code addresses the slots of ring `ring`: its placements in the memory
// layout (at the base of ring.addressedAs when a test seeds aliased rings). The CPU target
// prints these into the program it generates.
std::vector<gaus_protocol::Placement> protocolPlacements(const Pipeline& pipeline,
                                                         std::int32_t ring);

struct ProtocolRun {
  std::vector<gaus_protocol::Fault> faults;  // empty: every check passed
  std::vector<gaus_protocol::TraceEvent> trace;
  std::string report;     // the runtime's report ("ok: ..." or one line per fault)
  std::string traceText;  // per role in program order: "role op iteration sequence"
  bool ok() const { return faults.empty(); }
};

struct ProtocolRunOptions {
  std::int64_t trips = 10;
  double watchdogSeconds = 10.0;
};

ProtocolRun runProtocol(const Pipeline& pipeline, const ProtocolRunOptions& options = {});

}  // namespace gaus::codegen
