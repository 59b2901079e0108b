// Pipeline expansion: a verified modulo schedule (with or without warps) becomes the program of
// each warp role: which op instances it runs in which order, the rings of buffers that carry
// values between roles, and every wait and arrive on their barriers (docs/codegen.md).
//
// The schedule part follows the classic expansion of a modulo schedule into prologue, kernel
// and epilogue (Rau, "Iterative Modulo Scheduling", 1994, section 2; LLVM's
// ModuloScheduleExpander); the synchronization follows the full/empty barrier rings of
// CUTLASS's sm90 pipelines and Triton's warp specialization. Every rendering (text listing,
// CUDA, CPU program, trace) and the in-process protocol executor read this one structure.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <gaus/core/enum_names.hpp>
#include <gaus/core/expected.hpp>
#include <gaus/core/graph.hpp>
#include <gaus/core/instance.hpp>
#include <gaus/core/machine.hpp>
#include <gaus/core/schedule.hpp>

namespace gaus::codegen {

// A warp role: the ops that run on one warp set, as one sequential program.
struct PipelineRole {
  std::string name;  // an identifier: "producer_wg0", "consumer_wg1", "tc"
  WarpSet warps = 0;
  std::vector<OpId> ops;  // by start cycle
  std::string units;      // the units its ops reserve, "TC+EXP+ALU", or "-"
  bool producer = false;  // every op of it is variable-latency or streaming
  // Peak registers per thread of the values live on the role, folded modulo II (the verifier's
  // rule, ScheduleMetrics::peakRegistersPerWarp). Unset when no op of the graph has `regs`.
  std::optional<std::int64_t> liveRegisters;
  // The setmaxnreg value of the role (registers per thread), set with liveRegisters.
  std::optional<std::int32_t> maxRegisters;
  std::int32_t warpGroups() const;
};

// A ring of buffers holding the values of one op across the iterations in flight. A ring read
// by another role is a channel: each slot has a `full` barrier (the producer arrives when the
// slot is filled) and an `empty` barrier (each consumer role arrives when it is done with it).
struct Ring {
  std::string name;  // an identifier, the producing op's
  OpId producer = 0;
  std::int32_t producerRole = 0;
  std::vector<std::int32_t> consumerRoles;  // roles other than the producer's that read it
  // Cycles from the producer's start to its last reader's start (+ distance * II): the value's
  // live interval (core liveInterval), over every reader, whatever its role.
  Cycle lifetime = 0;
  std::int32_t liveBuffers = 1;  // max(1, ceil(lifetime / II)): gaus twill's buffers
  // Iterations in flight: liveBuffers, plus one where a reader of fill j - liveBuffers would
  // come after the write of fill j in the schedule's order (a tie; `depthNote` says where).
  std::int32_t depth = 1;
  std::string depthNote;
  std::vector<MemoryFootprint> bytesPerSlot;  // the producer's footprints
  bool asyncFill = false;    // a streaming producer: its fill is an asynchronous copy
  std::int64_t txBytes = 0;  // bytes the copy brings (shared-memory footprint)

  // The protocol as generated. Equal to the specification above unless a test seeds a fault.
  std::int32_t slots = 1;
  std::int32_t fullArrivals = 1;
  std::int32_t emptyArrivals = 0;
  bool consumerParityFlipped = false;

  bool channel() const { return !consumerRoles.empty(); }
};

// When a role waits on (or releases) a fill it reads. A role waits before its first read of a
// fill and releases after its last. When it reads a ring through edges of several distances,
// the first read of fill j may not exist (j + distance >= trips); the next one then waits.
struct FillSync {
  enum class Kind {
    kNever,          // an earlier (later) read of the role always exists
    kAlways,         // no earlier (later) read
    kUnlessCovered,  // only when fill + coveringDistance >= trips (the covering read is absent)
  };
  Kind kind = Kind::kNever;
  std::int32_t coveringDistance = 0;
};

// One ring an op reads: fill (iteration - distance).
struct RingRead {
  std::int32_t ring = 0;
  std::int32_t distance = 0;
  bool crossRole = false;  // through the ring's barriers; otherwise program order suffices
  FillSync wait;
  FillSync release;
};

// One op of a role's steady-state body. In kernel iteration k it works on iteration k - stage.
struct OpBlock {
  OpId op = 0;
  std::int32_t stage = 0;
  Cycle residue = 0;  // start mod II
  std::vector<RingRead> reads;
  std::optional<std::int32_t> fills;  // the ring the op writes
};

// Fills a consumer role never reads (its reads have distance >= 1, so the last `fromEnd` fills
// have no reader in the loop): after the loop it waits for each and releases it.
struct Drain {
  std::int32_t ring = 0;
  std::int32_t fromEnd = 0;
};

struct RoleProgram {
  std::vector<OpBlock> blocks;      // in the order the role issues them within a kernel iteration
  std::vector<Drain> drains;        // after the loops, first
  std::vector<std::int32_t> tails;  // rings whose releases the producer awaits before exiting
};

// One step of the protocol of an op block, in order: the waits for the fills it reads, the
// wait for a free slot of the ring it fills, the op, the arrive that publishes the fill, the
// releases of the fills it read last. Every rendering emits these steps and the in-process
// executor runs them, so none of them decides the protocol on its own.
struct ProtocolStep {
  enum class Kind {
    kWaitFull,        // wait on full[slot(fill)] with parity phase(fill) (^1 if flipped)
    kWaitEmpty,       // wait on empty[slot(fill)] with parity phase(fill) ^ 1
    kArriveExpectTx,  // expect the ring's txBytes on full[slot(fill)], arrive
    kRun,             // the op, reading block.reads and writing block.fills
    kCompleteTx,      // the asynchronous copy delivers the ring's txBytes to full[slot(fill)]
    kArriveFull,      // arrive on full[slot(fill)]
    kArriveEmpty,     // arrive on empty[slot(fill)]
  };
  Kind kind = Kind::kRun;
  std::int32_t ring = -1;
  std::int32_t distance = 0;  // fill = iteration - distance; skipped when the fill is < 0
  FillSync when{FillSync::Kind::kAlways, 0};
  bool flipParity = false;
};

enum class RoleSource {
  kScheduleWarps,      // the schedule's warp sets
  kDefaultAssignment,  // one role per unit kind, variable-latency ops on a producer role
};

// How the registers of the SM are split among the roles (setmaxnreg), when the schedule's
// registers per role are known.
struct RegisterSplit {
  std::optional<std::int64_t> registerFile;  // the machine's, in 32-bit registers
  std::int64_t total = 0;                    // sum of maxRegisters x threads of every role
  std::int32_t launchRegisters = 0;          // per thread before any setmaxnreg
  std::string text;                          // how it was derived
};

struct Pipeline {
  std::string name;        // the graph's
  std::string identifier;  // for file, namespace and kernel names
  std::shared_ptr<const Graph> graph;
  std::shared_ptr<const Machine> machine;
  Schedule schedule;

  std::int32_t ii = 1;
  Cycle latency = 0;        // L
  std::int32_t stages = 1;  // max(ceil(L / II), last stage that issues an op + 1)
  std::int64_t mii = 1, resMii = 1, recMii = 0;
  std::string miiBound;  // what bounds MII, in words

  RoleSource roleSource = RoleSource::kScheduleWarps;
  std::string roleRule;  // how the roles were formed, for listing headers
  std::vector<PipelineRole> roles;
  std::vector<std::int32_t> roleOf;               // per op
  std::vector<std::int32_t> topologicalPosition;  // per op, over distance-0 edges
  std::vector<std::string> opIdentifiers;         // per op: C identifiers, unique

  std::vector<Ring> rings;
  std::vector<std::int32_t> ringOf;  // per op; -1: its value stays in the role's registers
  // Per op whose value stays in its role's registers (no ring) and is read: the copies it
  // rotates through (modulo variable expansion), by the ring depth rule; 0 otherwise.
  std::vector<std::int32_t> valueCopies;
  std::vector<RoleProgram> programs;  // per role
  RegisterSplit registers;

  std::string seededFault;  // tests only: the fault seeded into the protocol, in words
};

// Builds the pipeline of a modulo schedule. Refuses (naming the reason) a schedule without an
// II, one that does not verify against the instance (gaus::verify, with the warp families when
// the schedule has warps), and a register split that over-subscribes the SM's register file.
Expected<Pipeline> buildPipeline(const Instance& instance, const Schedule& schedule);

// The protocol steps of one block of a role program (see ProtocolStep).
std::vector<ProtocolStep> blockSteps(const Pipeline& pipeline, const OpBlock& block);
// Whether a step with `when` runs for `fill` in a loop of `trips` iterations.
bool syncApplies(const FillSync& when, std::int64_t fill, std::int64_t trips);

// The shared-memory bytes of every ring (slots x footprint in the memory named `memory`).
std::int64_t ringBytes(const Pipeline& pipeline, std::string_view memory);

// One op instance of a run of `trips` iterations.
enum class Section { kPrologue, kSteadyState, kEpilogue };
inline constexpr auto kSectionNames = makeEnumNames<Section>({
    {Section::kPrologue, "prologue"},
    {Section::kSteadyState, "kernel"},
    {Section::kEpilogue, "epilogue"},
});
inline std::string_view toString(Section section) {
  return kSectionNames.name(section);
}
struct OpInstance {
  OpId op = 0;
  std::int64_t iteration = 0;
  std::int64_t kernelIteration = 0;  // iteration + stage
  Cycle cycle = 0;                   // start + iteration * II
  std::int32_t stage = 0;
  std::int32_t role = 0;
  Section section = Section::kPrologue;
};
// Every op instance of `trips` iterations, per role in program order, roles one after the
// other.
std::vector<OpInstance> expandInstances(const Pipeline& pipeline, std::int64_t trips);

// A fault seeded into the generated protocol, for the tests that prove the checker catches it.
enum class ProtocolFault {
  kRingSlotMissing,      // a channel's ring has one slot fewer than its depth
  kWrongArrivalCount,    // a full barrier expects one arrival more than its producer makes
  kWrongFirstParity,     // a consumer starts on parity 1, so its first wait does not wait
  kMissingProducerTail,  // the producer exits without awaiting the last releases
  kSkippedRelease,       // a consumer role never releases its slots
};
inline constexpr auto kProtocolFaultNames = makeEnumNames<ProtocolFault>({
    {ProtocolFault::kRingSlotMissing, "ring-slot-missing"},
    {ProtocolFault::kWrongArrivalCount, "wrong-arrival-count"},
    {ProtocolFault::kWrongFirstParity, "wrong-first-parity"},
    {ProtocolFault::kMissingProducerTail, "missing-producer-tail"},
    {ProtocolFault::kSkippedRelease, "skipped-release"},
});
inline constexpr ProtocolFault kAllProtocolFaults[] = {
    ProtocolFault::kRingSlotMissing, ProtocolFault::kWrongArrivalCount,
    ProtocolFault::kWrongFirstParity, ProtocolFault::kMissingProducerTail,
    ProtocolFault::kSkippedRelease};
inline std::string_view toString(ProtocolFault fault) {
  return kProtocolFaultNames.name(fault);
}

// Seeds `fault` into the deepest channel it applies to and records it in seededFault. Fails
// when the pipeline has no such channel (no channel; or, for a missing slot, none deeper than
// one).
Status seedFault(Pipeline& pipeline, ProtocolFault fault);

}  // namespace gaus::codegen
