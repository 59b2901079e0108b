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

inline constexpr std::int32_t kThreadsPerHardwareWarp = 32;
inline constexpr std::int32_t kWarpsPerWarpGroup = 4;  // setmaxnreg and wgmma work on these

// A warp role: the ops that run on one warp set, as one sequential program. Its schedule warps
// run on hardware warps [firstWarp, firstWarp + hardwareWarps) of the thread block (a
// schedule warp is machine.threadsPerWarp threads: one warp or a warp group).
struct PipelineRole {
  std::string name;  // an identifier: "producer_wg0", "consumer_wg1", "tc"
  WarpSet warps = 0;
  std::int32_t firstWarp = 0;
  std::int32_t hardwareWarps = kWarpsPerWarpGroup;
  std::vector<OpId> ops;  // by start cycle
  std::string units;      // the units its ops reserve, "TC+EXP+ALU", or "-"
  bool producer = false;  // every op of it is variable-latency or streaming
  // Peak registers per thread of the values live on the role, folded modulo II (the verifier's
  // rule, ScheduleMetrics::peakRegistersPerWarp). Unset when no op of the graph has `regs`.
  std::optional<std::int64_t> liveRegisters;
  // The setmaxnreg value of its warp group (registers per thread), set with liveRegisters.
  std::optional<std::int32_t> maxRegisters;
  std::int32_t threads() const { return hardwareWarps * kThreadsPerHardwareWarp; }
  std::int32_t firstThread() const { return firstWarp * kThreadsPerHardwareWarp; }
  // The warp groups its warps touch, [firstWarpGroup(), lastWarpGroup()].
  std::int32_t firstWarpGroup() const { return firstWarp / kWarpsPerWarpGroup; }
  std::int32_t lastWarpGroup() const {
    return (firstWarp + hardwareWarps - 1) / kWarpsPerWarpGroup;
  }
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
  // A streaming producer whose value has a place in shared memory: its fill is an asynchronous
  // copy, which brings txBytes, the bytes of one slot of its shared-memory placement (set by
  // the memory layout).
  bool asyncFill = false;
  std::int64_t txBytes = 0;

  // The protocol as generated. Equal to the specification above unless a test seeds a fault.
  std::int32_t slots = 1;
  std::int32_t fullArrivals = 1;
  std::int32_t emptyArrivals = 0;
  bool consumerParityFlipped = false;
  // The ring whose placements the code addresses this ring's slots from: itself, unless a test
  // seeds two values at one base.
  std::int32_t addressedAs = -1;

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

// The memory layout (docs/codegen.md "Memory layout"): where every ring's slots live. One pass
// computes it (memory_layout.cpp) and every target reads it: the CUDA kernel's SharedStorage
// and tensor-memory addresses, the CPU program's overlap check, the listing's table and the
// layout JSON. Every ring has a range of its own in each memory it occupies; no two rings share
// an address.
enum class MemorySpace {
  kShared,  // smem: tiles, register values staged between roles, the mbarriers
  kTensor,  // tmem (Blackwell): 128 lanes x 512 columns of 4 bytes, laid out in columns
};
inline constexpr auto kMemorySpaceNames = makeEnumNames<MemorySpace>({
    {MemorySpace::kShared, "smem"},
    {MemorySpace::kTensor, "tmem"},
});
inline std::string_view toString(MemorySpace memory) {
  return kMemorySpaceNames.name(memory);
}

// The slots of one ring in one memory.
struct RingPlacement {
  std::int32_t ring = 0;
  MemorySpace memory = MemorySpace::kShared;
  std::int64_t offset = 0;        // bytes from the start of the memory (tmem: 512 per column)
  std::int64_t bytesPerSlot = 0;  // one fill: the footprint, or the staged registers
  std::int64_t slotStride = 0;    // bytesPerSlot rounded up to the memory's alignment
  std::int32_t slots = 0;         // the ring's depth
  bool stagedRegisters = false;   // a register value staged between roles (no footprint)
  std::int64_t bytes() const { return slotStride * slots; }
};

// The mbarriers of one channel, after the rings in shared memory: full[slots], then empty.
struct BarrierPlacement {
  std::int32_t ring = 0;
  std::int64_t fullOffset = 0;
  std::int64_t emptyOffset = 0;
  std::int32_t slots = 0;
};

// What one memory holds.
struct MemoryUse {
  MemorySpace memory = MemorySpace::kShared;
  std::optional<std::int64_t> capacity;  // the machine's, in bytes; unset: not checked
  std::int64_t tileBytes = 0;            // slots x footprint
  std::int64_t stagedBytes = 0;          // slots x staged registers
  std::int64_t barrierBytes = 0;         // 8 per mbarrier
  std::int64_t paddingBytes = 0;         // alignment
  std::int64_t total = 0;                // what the kernel allocates (smem: sizeof(SharedStorage))
};

struct MemoryLayout {
  std::vector<RingPlacement> placements;  // shared memory first, each memory by offset
  std::vector<BarrierPlacement> barriers;
  std::vector<MemoryUse> memories;  // shared, then tensor memory when a ring uses it

  const RingPlacement* find(std::int32_t ring, MemorySpace memory) const;
  const MemoryUse* use(MemorySpace memory) const;
};

inline constexpr std::int64_t kSharedAlignment = 128;           // CUTLASS's sm90 TensorStorage
inline constexpr std::int64_t kBarrierBytes = 8;                // one mbarrier
inline constexpr std::int64_t kTensorMemoryColumnBytes = 512;   // 128 lanes x 4 bytes
inline constexpr std::int64_t kTensorMemoryFewestColumns = 32;  // tcgen05.alloc's smallest

enum class RoleSource {
  kScheduleWarps,      // the schedule's warp sets
  kDefaultAssignment,  // one role per unit kind, variable-latency ops on a producer role
};

// How the registers of the SM are split among the roles (setmaxnreg), when the schedule's
// registers per role are known. setmaxnreg acts on a whole warp group, so roles that share a
// warp group share its count.
struct RegisterSplit {
  std::optional<std::int64_t> registerFile;  // the machine's, in 32-bit registers
  // Per warp group of the block: its setmaxnreg (registers per thread); empty when no op of the
  // graph has regs (nothing known, no setmaxnreg).
  std::vector<std::int32_t> warpGroupRegisters;
  std::int64_t total = 0;            // sum of warpGroupRegisters x 128 threads
  std::int32_t launchRegisters = 0;  // per thread before any setmaxnreg
  std::string text;                  // how it was derived
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
  std::int32_t threadsPerWarp = 128;  // threads of a schedule warp (the machine's)
  std::int32_t blockWarps = 0;        // hardware warps of the thread block: whole warp groups
  std::vector<std::int32_t> roleOf;   // per op
  std::vector<std::int32_t> topologicalPosition;  // per op, over distance-0 edges
  std::vector<std::string> opIdentifiers;         // per op: C identifiers, unique

  std::vector<Ring> rings;
  std::vector<std::int32_t> ringOf;  // per op; -1: its value stays in the role's registers
  // Per op whose value stays in its role's registers (no ring) and is read: the copies it
  // rotates through (modulo variable expansion), by the ring depth rule; 0 otherwise.
  std::vector<std::int32_t> valueCopies;
  MemoryLayout layout;
  std::vector<RoleProgram> programs;  // per role
  RegisterSplit registers;

  std::string seededFault;  // tests only: the fault seeded into the protocol, in words
};

// Builds the pipeline of a modulo schedule. Refuses (naming the reason) a schedule without an
// II, one that does not verify against the instance (gaus::verify, with the warp families when
// the schedule has warps), a memory layout over a memory's capacity, and a register split that
// over-subscribes the SM's register file.
Expected<Pipeline> buildPipeline(const Instance& instance, const Schedule& schedule);

// The protocol steps of one block of a role program (see ProtocolStep).
std::vector<ProtocolStep> blockSteps(const Pipeline& pipeline, const OpBlock& block);
// Whether a step with `when` runs for `fill` in a loop of `trips` iterations.
bool syncApplies(const FillSync& when, std::int64_t fill, std::int64_t trips);

// The footprints of every ring in the machine memory named `memory`, slots x footprint: the
// buffers x stages that gaus twill allocates (no staged registers, barriers or alignment).
std::int64_t ringBytes(const Pipeline& pipeline, std::string_view memory);

// The tensor-memory column of a byte offset in tensor memory.
inline std::int64_t tensorMemoryColumn(std::int64_t offset) {
  return offset / kTensorMemoryColumnBytes;
}
// The columns tcgen05.alloc takes for the tensor memory of a layout: the columns used rounded
// up to a power of two, at least 32.
std::int64_t tensorMemoryColumnsAllocated(const MemoryUse& tensor);

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
  kAliasedRings,         // two rings of one memory addressed at one base
};
inline constexpr auto kProtocolFaultNames = makeEnumNames<ProtocolFault>({
    {ProtocolFault::kRingSlotMissing, "ring-slot-missing"},
    {ProtocolFault::kWrongArrivalCount, "wrong-arrival-count"},
    {ProtocolFault::kWrongFirstParity, "wrong-first-parity"},
    {ProtocolFault::kMissingProducerTail, "missing-producer-tail"},
    {ProtocolFault::kSkippedRelease, "skipped-release"},
    {ProtocolFault::kAliasedRings, "aliased-rings"},
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
// one; for aliased rings, no memory holding two tiles).
Status seedFault(Pipeline& pipeline, ProtocolFault fault);

}  // namespace gaus::codegen
