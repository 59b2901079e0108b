// The barrier protocol of a warp-specialized software pipeline, run on CPU threads, and the
// checker that proves it (docs/codegen.md, "The protocol" and "The checker").
//
// Standard C++20 only, no gaus header: `gaus codegen --target cpu` writes this file beside the
// program it generates, and the in-process executor (src/codegen/protocol_executor.cpp)
// includes it. The generated programs and the tests that run thousands of pipelines in-process
// therefore share one implementation of the barrier, the role threads and every check.
//
// Why one file of about 1,100 lines: it is one idea, the barrier protocol as a checked
// execution. The checker is not a pass over a trace; each check is made inside the barrier
// operation it concerns, under the same lock and with the same state (a wait joins the vector
// clock of the phase it observes and holds that phase to the schedule in one step; a write is
// checked against the fills still to be read of its slot as it happens). Splitting the
// barrier from the checks would mean exposing the barrier's state to a second file and taking
// its lock there. The pieces around them are small: the phase arithmetic (40 lines), the spec
// and fault records the generated code fills in (100), and the command line of a generated
// program (50). And it must stay one file: generated programs include it alone, written beside
// them.
//
// The barrier has the semantics of the PTX mbarrier object (PTX ISA, "mbarrier"): a phase bit,
// a pending-arrival count that resets to the initial count when a phase completes, a count of
// expected transaction bytes for asynchronous copies, and a wait on the parity of a phase. Rings
// of full/empty barrier pairs carry values between roles the way CUTLASS's sm90 pipelines
// (include/cutlass/pipeline/sm90_pipeline.hpp) and Triton's asynchronous references do; the
// code is our own.
//
// The checks do not depend on how the threads happen to interleave. Every role carries a
// vector clock; an arrive adds the role's clock to the barrier's phase and a wait adds the clock
// of the phase it observed, so "A happened before B" means "a chain of barrier phases orders
// them", never "A ran earlier this time". Each wait is also held to the schedule: the phase it
// observes must have been completed by op instances that come earlier in the modulo schedule,
// otherwise the protocol would stall the pipeline the schedule describes.
#pragma once

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <functional>
#include <initializer_list>
#include <limits>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

namespace gaus_protocol {

// ---------------------------------------------------------------------------------------------
// Arithmetic every rendering shares (docs/codegen.md "Phase convention").

// The ring slot that holds fill `fill` (the value of producer iteration `fill`).
inline int slotOf(std::int64_t fill, int slots) {
  return static_cast<int>(fill % slots);
}

// The parity of the phase of a slot's barriers that belongs to fill `fill`: the k-th use of a
// slot (k = fill / slots) is phase k of its full and empty barriers.
inline std::uint32_t phaseOf(std::int64_t fill, int slots) {
  return static_cast<std::uint32_t>((fill / slots) % 2);
}

inline bool inRange(std::int64_t iteration, std::int64_t trips) {
  return iteration >= 0 && iteration < trips;
}

// The kernel iterations k of the three loops of a pipeline of `stages` stages; in kernel
// iteration k an instruction of stage s works on loop iteration k - s. The prologue fills the
// pipeline, the steady state runs every stage, the epilogue drains it. With fewer trips than
// stages - 1 the steady state is empty and prologue and epilogue guard every instruction.
struct LoopBounds {
  std::int64_t prologueEnd = 0;  // prologue: [0, prologueEnd)
  std::int64_t steadyBegin = 0;  // steady state: [steadyBegin, steadyEnd)
  std::int64_t steadyEnd = 0;
  std::int64_t epilogueBegin = 0;  // epilogue: [epilogueBegin, epilogueEnd)
  std::int64_t epilogueEnd = 0;
};
inline LoopBounds loopBounds(std::int64_t trips, int stages) {
  const std::int64_t fillIterations = stages - 1;
  LoopBounds bounds;
  bounds.prologueEnd = fillIterations;
  bounds.steadyBegin = fillIterations;
  bounds.steadyEnd = std::max(fillIterations, trips);
  bounds.epilogueBegin = bounds.steadyEnd;
  bounds.epilogueEnd = trips + fillIterations;
  return bounds;
}

// ---------------------------------------------------------------------------------------------
// The specification a run is held to, from the schedule (never from the protocol code).

struct OpSpec {
  std::string name;
  int role = 0;            // the warp role that runs it
  std::int64_t start = 0;  // start cycle of iteration 0
  int order = 0;           // position in a topological order of the distance-0 edges
};

struct EdgeSpec {
  int source = 0;
  int target = 0;
  int distance = 0;  // target of iteration i reads source of iteration i - distance
};

struct RingSpec {
  std::string name;                // the value's name (its producer op)
  int producer = 0;                // op index
  int depth = 1;                   // iterations of the value the schedule keeps in flight
  std::vector<int> consumerRoles;  // roles other than the producer's that read it (arrive on empty)
  std::uint32_t txBytes = 0;       // bytes an asynchronous fill brings (0: a plain arrive)
};

struct Spec {
  std::string kernel;
  std::int64_t ii = 1;
  int stages = 1;
  std::vector<std::string> roles;
  std::vector<OpSpec> ops;
  std::vector<EdgeSpec> edges;
  std::vector<RingSpec> rings;
};

// ---------------------------------------------------------------------------------------------
// What a run reports.

enum class FaultKind {
  kDeadlock,            // every role that has not finished waits on a barrier
  kWatchdog,            // no progress for the watchdog's time
  kUnsynchronizedWait,  // a wait on a full barrier passed without any completed phase
  kStall,               // a wait observed a phase completed later in the schedule
  kOrder,               // an op ran without a barrier ordering it after its producer
  kData,                // a read found another fill in its slot, a write overwrote a live value
  kArrivals,            // a phase completed with other arrivals than the protocol expects
  kOccupancy,           // a ring held more iterations than the schedule's depth
  kProducerTail,        // a producer exited before every fill it made was released
  kExactlyOnce,         // an op instance ran twice, never, or outside the trip count
  kOverlap,             // a write to memory covered another ring's fill still to be read
};

inline const char* toString(FaultKind kind) {
  switch (kind) {
    case FaultKind::kDeadlock:
      return "deadlock";
    case FaultKind::kWatchdog:
      return "watchdog";
    case FaultKind::kUnsynchronizedWait:
      return "unsynchronized-wait";
    case FaultKind::kStall:
      return "stall";
    case FaultKind::kOrder:
      return "order";
    case FaultKind::kData:
      return "data";
    case FaultKind::kArrivals:
      return "arrivals";
    case FaultKind::kOccupancy:
      return "occupancy";
    case FaultKind::kProducerTail:
      return "producer-tail";
    case FaultKind::kExactlyOnce:
      return "exactly-once";
    case FaultKind::kOverlap:
      return "overlap";
  }
  return "?";
}

struct Fault {
  FaultKind kind = FaultKind::kDeadlock;
  std::string message;
};

// One op instance as it ran. `sequence` numbers the instances of a run in the order they ran
// (interleavings differ between runs); per role the order is the program's and never differs.
struct TraceEvent {
  int op = 0;
  std::int64_t iteration = 0;
  int role = 0;
  std::uint64_t sequence = 0;
  double beginMicroseconds = 0.0;  // since the run started
  double endMicroseconds = 0.0;
};

struct RunOptions {
  std::int64_t trips = 10;
  double watchdogSeconds = 10.0;
  std::size_t maxFaults = 20;  // faults kept in full; the run stops at the first fatal one
};

// ---------------------------------------------------------------------------------------------
// Rings and barriers.

enum class BarrierKind { kFull, kEmpty };

class Ring;
class Role;
class Runtime;

struct BarrierRef {
  Ring* ring = nullptr;
  BarrierKind kind = BarrierKind::kFull;
  int slot = 0;
};

// Where a ring's slots lie in one memory, as the generated code addresses them (the memory
// layout): slot s covers [offset + s x stride, offset + s x stride + bytes) of `memory`.
struct Placement {
  std::string memory;  // "smem", "tmem"
  std::int64_t offset = 0;
  std::int64_t stride = 0;
  std::int64_t bytes = 0;
};

// A read or a write of one slot of a ring by the op that runs.
struct Access {
  Ring* ring = nullptr;
  int slot = 0;
  std::int64_t fill = 0;
  bool write = false;
};

namespace detail {

using Tick = std::uint64_t;
using Clock = std::vector<Tick>;  // a vector clock, one entry per role

inline void join(Clock& into, const Clock& other) {
  for (std::size_t r = 0; r < into.size(); ++r) into[r] = std::max(into[r], other[r]);
}

// Where an op instance stands in the modulo schedule: its start cycle, then its iteration, then
// its topological position. Distinct instances never compare equal; tails and drains come after
// the loop.
struct ScheduleKey {
  std::int64_t cycle = std::numeric_limits<std::int64_t>::min();
  std::int64_t iteration = 0;
  int order = 0;
  friend auto operator<=>(const ScheduleKey&, const ScheduleKey&) = default;
};
inline ScheduleKey afterTheLoop() {
  return {std::numeric_limits<std::int64_t>::max(), 0, 0};
}

struct Barrier {
  // The mbarrier state.
  std::uint32_t phaseParity = 0;
  int initialCount = 0;
  int pending = 0;
  std::int64_t txPending = 0;
  // The checker's view.
  std::int64_t completions = 0;  // phases completed; the current phase has this index
  std::vector<int> arrivedRoles;
  Clock phaseClock, completedClock;
  ScheduleKey phaseStamp, completedStamp;  // latest arriving instance of the phase
};

struct Stamp {
  int role = -1;
  Tick tick = 0;
};

struct SlotState {
  std::int64_t fill = -1;  // the fill the slot holds; -1: never written
  Stamp writer;
  std::vector<Stamp> readers;
  std::int64_t writes = 0;
};

struct Execution {
  int role = -1;
  std::uint32_t count = 0;
  Tick tick = 0;
};

struct Aborted {};

// The concatenation of strings and C strings: messages are built with appends, since chains of
// `"literal" + std::string` make GCC 12 report false -Wrestrict warnings, and the programs
// that include this header compile with -Wall.
template <class... Pieces>
std::string text(const Pieces&... pieces) {
  std::string out;
  (out.append(pieces), ...);
  return out;
}

}  // namespace detail

class Ring {
 public:
  int slots() const { return slots_; }
  int slot(std::int64_t fill) const { return slotOf(fill, slots_); }
  std::uint32_t phase(std::int64_t fill) const { return phaseOf(fill, slots_); }
  BarrierRef full(int slot) { return {this, BarrierKind::kFull, slot}; }
  BarrierRef empty(int slot) { return {this, BarrierKind::kEmpty, slot}; }
  Access read(int slot, std::int64_t fill) { return {this, slot, fill, false}; }
  Access write(int slot, std::int64_t fill) { return {this, slot, fill, true}; }

 private:
  friend class Runtime;
  friend class Role;
  int index_ = 0;
  int slots_ = 1;
  std::vector<detail::Barrier> full_, empty_;
  std::vector<detail::SlotState> data_;
  std::int64_t written_ = 0;
  std::vector<Placement> placements_;
};

// The handle a role's thread function receives. Every call takes the runtime's lock.
class Role {
 public:
  int index() const { return index_; }

  // The op instance the following waits, arrives and run() belong to.
  void at(int op, std::int64_t iteration);
  // The code after the loops (consumer drains, the producer tail).
  void atExit();

  void wait(BarrierRef barrier, std::uint32_t parity);
  void arrive(BarrierRef barrier);
  // mbarrier.arrive.expect_tx: expect `bytes` of an asynchronous copy, then arrive.
  void arriveExpectTx(BarrierRef barrier, std::uint32_t bytes);
  // The asynchronous copy delivered `bytes` (on a GPU the copy engine does this).
  void completeTx(BarrierRef barrier, std::uint32_t bytes);
  // Runs the op instance set by at(), with the slots it reads and writes.
  void run(std::initializer_list<Access> accesses = {});
  void run(const std::vector<Access>& accesses);

 private:
  friend class Runtime;
  Role(Runtime& runtime, int index);

  Runtime& runtime_;
  int index_;
  detail::Clock clock_;
  detail::ScheduleKey key_;
  int op_ = -1;
  std::int64_t iteration_ = 0;
  bool exiting_ = false;
  // Per ring and slot: the last phase of the empty barrier this role observed (-1: none).
  std::vector<std::vector<std::int64_t>> observedRelease_;
  // What the role waits on while blocked, for deadlock reports.
  bool blocked_ = false;
  BarrierRef blockedOn_;
  std::uint32_t blockedParity_ = 0;
};

class Runtime {
 public:
  Runtime(Spec spec, RunOptions options);
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

  const Spec& spec() const { return spec_; }
  std::int64_t trips() const { return options_.trips; }

  // Declares ring `index` of the spec with `slots` slots; each slot's full barrier expects
  // `fullCount` arrivals per phase and its empty barrier `emptyCount`; its slots lie where
  // `placements` say (none: registers only, nothing to overlap).
  Ring& ring(int index, int slots, int fullCount, int emptyCount,
             std::vector<Placement> placements = {});

  // Runs one thread per role function (role r runs roles[r]) and checks the run.
  void run(const std::vector<std::function<void(Role&)>>& roles);

  bool ok() const { return faults_.empty(); }
  const std::vector<Fault>& faults() const { return faults_; }
  const std::vector<TraceEvent>& trace() const { return trace_; }

  // "ok: ..." or one line per fault.
  std::string report() const;
  // One line per op instance: "role op iteration sequence", per role in program order.
  std::string traceText() const;

 private:
  friend class Role;
  using Lock = std::unique_lock<std::mutex>;

  detail::Barrier& barrier(const BarrierRef& ref);
  std::string barrierName(const BarrierRef& ref) const;
  std::string instanceName(int op, std::int64_t iteration) const;
  std::string roleName(int role) const;
  std::string whereRoleIs(const Role& role) const;
  const std::vector<int>& expectedArrivers(const BarrierRef& ref, std::vector<int>& scratch) const;

  void fault(FaultKind kind, std::string message, bool fatal = false);
  void checkAlive() const;
  void progress();
  void completeIfDone(const BarrierRef& ref);

  void doWait(Role& role, BarrierRef ref, std::uint32_t parity);
  void doArrive(Role& role, BarrierRef ref, std::int64_t txBytes);
  void doCompleteTx(Role& role, BarrierRef ref, std::uint32_t bytes);
  void doRun(Role& role, const Access* firstAccess, const Access* endAccess);
  void checkWrite(Role& role, const Access& access);
  void checkRead(Role& role, const Access& access);
  void checkOverlap(Role& role, const Access& access);
  int readsOfFill(int ring, std::int64_t fill) const;
  void finishRole(Role& role);
  void detectDeadlock();
  void finalChecks();
  double microsecondsSinceStart() const;

  Spec spec_;
  RunOptions options_;
  std::vector<std::vector<const EdgeSpec*>> inEdges_;       // per op
  std::vector<std::vector<int>> readDistances_;             // per ring: one per distinct read
  std::vector<std::unique_ptr<Ring>> rings_;                // by spec index
  std::vector<std::vector<detail::Execution>> executions_;  // per op and iteration
  std::vector<Role*> roles_;

  mutable std::mutex mutex_;
  std::condition_variable changed_;
  int running_ = 0;
  bool aborted_ = false;
  std::uint64_t sequence_ = 0;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point lastProgress_ = start_;
  std::vector<Fault> faults_;
  std::size_t faultCount_ = 0;
  std::vector<TraceEvent> trace_;
};

// ---------------------------------------------------------------------------------------------
// Implementation.

inline Role::Role(Runtime& runtime, int index)
    : runtime_(runtime), index_(index), clock_(runtime.spec().roles.size(), 0) {
  observedRelease_.resize(runtime.spec().rings.size());
}

inline void Role::at(int op, std::int64_t iteration) {
  const Spec& spec = runtime_.spec();
  // Under the lock: a deadlock report reads where every role is.
  const std::lock_guard<std::mutex> lock(runtime_.mutex_);
  op_ = op;
  iteration_ = iteration;
  const OpSpec& opSpec = spec.ops.at(static_cast<std::size_t>(op));
  key_ = {opSpec.start + iteration * spec.ii, iteration, opSpec.order};
}

inline void Role::atExit() {
  const std::lock_guard<std::mutex> lock(runtime_.mutex_);
  op_ = -1;
  exiting_ = true;
  key_ = detail::afterTheLoop();
}

inline void Role::wait(BarrierRef barrier, std::uint32_t parity) {
  runtime_.doWait(*this, barrier, parity);
}

inline void Role::arrive(BarrierRef barrier) {
  runtime_.doArrive(*this, barrier, 0);
}

inline void Role::arriveExpectTx(BarrierRef barrier, std::uint32_t bytes) {
  runtime_.doArrive(*this, barrier, bytes);
}

inline void Role::completeTx(BarrierRef barrier, std::uint32_t bytes) {
  runtime_.doCompleteTx(*this, barrier, bytes);
}

inline void Role::run(std::initializer_list<Access> accesses) {
  runtime_.doRun(*this, accesses.begin(), accesses.end());
}

inline void Role::run(const std::vector<Access>& accesses) {
  runtime_.doRun(*this, accesses.data(), accesses.data() + accesses.size());
}

inline Runtime::Runtime(Spec spec, RunOptions options) : spec_(std::move(spec)), options_(options) {
  inEdges_.resize(spec_.ops.size());
  for (const EdgeSpec& edge : spec_.edges) {
    inEdges_.at(static_cast<std::size_t>(edge.target)).push_back(&edge);
  }
  rings_.resize(spec_.rings.size());
  // The reads of a fill: one per distinct (reader, distance) edge out of the ring's producer.
  readDistances_.resize(spec_.rings.size());
  for (std::size_t r = 0; r < spec_.rings.size(); ++r) {
    std::vector<std::pair<int, int>> reads;
    for (const EdgeSpec& edge : spec_.edges) {
      const std::pair<int, int> read{edge.target, edge.distance};
      if (edge.source == spec_.rings[r].producer &&
          std::find(reads.begin(), reads.end(), read) == reads.end()) {
        reads.push_back(read);
        readDistances_[r].push_back(edge.distance);
      }
    }
  }
  const std::size_t trips = static_cast<std::size_t>(std::max<std::int64_t>(0, options_.trips));
  executions_.assign(spec_.ops.size(), std::vector<detail::Execution>(trips));
}

inline Ring& Runtime::ring(int index, int slots, int fullCount, int emptyCount,
                           std::vector<Placement> placements) {
  auto& owned = rings_.at(static_cast<std::size_t>(index));
  owned = std::make_unique<Ring>();
  Ring& declared = *owned;
  declared.index_ = index;
  declared.slots_ = std::max(1, slots);
  declared.placements_ = std::move(placements);
  const std::size_t roles = spec_.roles.size();
  const auto makeBarriers = [&](int count) {
    std::vector<detail::Barrier> barriers(static_cast<std::size_t>(declared.slots_));
    for (auto& barrier : barriers) {
      barrier.initialCount = count;
      barrier.pending = count;
      barrier.phaseClock.assign(roles, 0);
      barrier.completedClock.assign(roles, 0);
    }
    return barriers;
  };
  declared.full_ = makeBarriers(fullCount);
  declared.empty_ = makeBarriers(emptyCount);
  declared.data_.assign(static_cast<std::size_t>(declared.slots_), {});
  if (slots < 1) {
    fault(FaultKind::kData,
          detail::text("ring ", spec_.rings.at(static_cast<std::size_t>(index)).name,
                       " is declared with ", std::to_string(slots),
                       " slots; a ring needs at least one"));
  }
  return declared;
}

inline detail::Barrier& Runtime::barrier(const BarrierRef& ref) {
  auto& barriers = ref.kind == BarrierKind::kFull ? ref.ring->full_ : ref.ring->empty_;
  return barriers.at(static_cast<std::size_t>(ref.slot));
}

inline std::string Runtime::barrierName(const BarrierRef& ref) const {
  return detail::text(std::string(ref.kind == BarrierKind::kFull ? "full_" : "empty_"),
                      spec_.rings.at(static_cast<std::size_t>(ref.ring->index_)).name, "[",
                      std::to_string(ref.slot), "]");
}

inline std::string Runtime::instanceName(int op, std::int64_t iteration) const {
  return detail::text(spec_.ops.at(static_cast<std::size_t>(op)).name, " of iteration ",
                      std::to_string(iteration));
}

inline std::string Runtime::roleName(int role) const {
  return detail::text("role ", spec_.roles.at(static_cast<std::size_t>(role)));
}

inline std::string Runtime::whereRoleIs(const Role& role) const {
  if (role.exiting_) return "after its loops";
  if (role.op_ < 0) return "before its first op";
  return detail::text("at ", instanceName(role.op_, role.iteration_));
}

inline const std::vector<int>& Runtime::expectedArrivers(const BarrierRef& ref,
                                                         std::vector<int>& scratch) const {
  const RingSpec& ringSpec = spec_.rings.at(static_cast<std::size_t>(ref.ring->index_));
  if (ref.kind == BarrierKind::kEmpty) return ringSpec.consumerRoles;
  scratch.assign(1, spec_.ops.at(static_cast<std::size_t>(ringSpec.producer)).role);
  return scratch;
}

inline void Runtime::fault(FaultKind kind, std::string message, bool fatal) {
  ++faultCount_;
  if (faults_.size() < options_.maxFaults) faults_.push_back({kind, std::move(message)});
  if (fatal) {
    aborted_ = true;
    changed_.notify_all();
  }
}

inline void Runtime::checkAlive() const {
  if (aborted_) throw detail::Aborted{};
}

inline void Runtime::progress() {
  lastProgress_ = std::chrono::steady_clock::now();
  changed_.notify_all();
}

inline double Runtime::microsecondsSinceStart() const {
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start_)
      .count();
}

inline void Runtime::doWait(Role& role, BarrierRef ref, std::uint32_t parity) {
  Lock lock(mutex_);
  checkAlive();
  detail::Barrier& state = barrier(ref);
  // try_wait.parity(P) succeeds once the current phase's parity differs from P, i.e. the last
  // phase of parity P has completed.
  const auto passes = [&] { return state.phaseParity != parity; };
  if (!passes()) {
    role.blocked_ = true;
    role.blockedOn_ = ref;
    role.blockedParity_ = parity;
    --running_;
    if (running_ == 0) detectDeadlock();
    while (!passes() && !aborted_) {
      changed_.wait_for(lock, std::chrono::milliseconds(20));
      // Checked again on every wake: a phase this role could have seen may have completed
      // and been overtaken by the next one before it woke.
      if (!passes() && running_ == 0) detectDeadlock();
      const double idle =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - lastProgress_).count();
      if (!passes() && !aborted_ && idle > options_.watchdogSeconds) {
        fault(FaultKind::kWatchdog,
              detail::text("no progress for ", std::to_string(options_.watchdogSeconds), " s; ",
                           roleName(role.index_), " waits on ", barrierName(ref), " with parity ",
                           std::to_string(parity)),
              true);
      }
    }
    ++running_;
    role.blocked_ = false;
    checkAlive();
  }
  const std::int64_t observed = state.completions - 1;
  if (observed < 0) {
    // Only the virtual phase before the first one has passed: legitimate for a producer's
    // first wait on an empty slot, never for a wait on data.
    if (ref.kind == BarrierKind::kFull) {
      fault(
          FaultKind::kUnsynchronizedWait,
          detail::text(roleName(role.index_), " ", whereRoleIs(role), ": the wait on ",
                       barrierName(ref), " with parity ", std::to_string(parity),
                       " passed at once, before any fill completed its phase (a barrier starts in "
                       "phase 0, so a wait on parity 1 does not wait; the first wait for data uses "
                       "parity 0)"));
    }
    return;
  }
  detail::join(role.clock_, state.completedClock);
  if (state.completedStamp > role.key_) {
    fault(FaultKind::kStall,
          detail::text(roleName(role.index_), " ", whereRoleIs(role), " (cycle ",
                       std::to_string(role.key_.cycle), ") waits on ", barrierName(ref),
                       " for phase ", std::to_string(observed),
                       ", completed by an op instance at cycle ",
                       std::to_string(state.completedStamp.cycle), " of iteration ",
                       std::to_string(state.completedStamp.iteration),
                       ": the protocol cannot follow the schedule (is the ring too shallow?)"));
  }
  if (ref.kind == BarrierKind::kEmpty) {
    auto& observedRelease = role.observedRelease_.at(static_cast<std::size_t>(ref.ring->index_));
    observedRelease.resize(static_cast<std::size_t>(ref.ring->slots_), -1);
    auto& slotObserved = observedRelease.at(static_cast<std::size_t>(ref.slot));
    slotObserved = std::max(slotObserved, observed);
  }
}

inline void Runtime::doArrive(Role& role, BarrierRef ref, std::int64_t txBytes) {
  Lock lock(mutex_);
  checkAlive();
  detail::Barrier& state = barrier(ref);
  std::vector<int> scratch;
  const std::vector<int>& arrivers = expectedArrivers(ref, scratch);
  if (std::find(arrivers.begin(), arrivers.end(), role.index_) == arrivers.end()) {
    fault(FaultKind::kArrivals,
          detail::text(roleName(role.index_), " ", whereRoleIs(role), " arrives on ",
                       barrierName(ref), ", which only the ring's ",
                       (ref.kind == BarrierKind::kFull ? "producer" : "consumers"), " arrive on"));
  }
  if (std::find(state.arrivedRoles.begin(), state.arrivedRoles.end(), role.index_) !=
      state.arrivedRoles.end()) {
    fault(FaultKind::kArrivals,
          detail::text(roleName(role.index_), " ", whereRoleIs(role), " arrives twice in phase ",
                       std::to_string(state.completions), " of ", barrierName(ref)));
  }
  state.arrivedRoles.push_back(role.index_);
  ++role.clock_[static_cast<std::size_t>(role.index_)];
  detail::join(state.phaseClock, role.clock_);
  state.phaseStamp = std::max(state.phaseStamp, role.key_);
  state.txPending += txBytes;
  --state.pending;
  completeIfDone(ref);
  progress();
}

inline void Runtime::doCompleteTx(Role& role, BarrierRef ref, std::uint32_t bytes) {
  Lock lock(mutex_);
  checkAlive();
  detail::Barrier& state = barrier(ref);
  state.txPending -= bytes;
  if (state.txPending < 0) {
    fault(FaultKind::kArrivals,
          detail::text(roleName(role.index_), " ", whereRoleIs(role),
                       ": an asynchronous copy delivered ", std::to_string(bytes), " bytes to ",
                       barrierName(ref), ", more than the phase expected"));
    state.txPending = 0;
  }
  ++role.clock_[static_cast<std::size_t>(role.index_)];
  detail::join(state.phaseClock, role.clock_);
  state.phaseStamp = std::max(state.phaseStamp, role.key_);
  completeIfDone(ref);
  progress();
}

inline void Runtime::completeIfDone(const BarrierRef& ref) {
  detail::Barrier& state = barrier(ref);
  if (state.pending > 0 || state.txPending > 0) return;
  std::vector<int> scratch;
  const std::size_t expected = expectedArrivers(ref, scratch).size();
  if (state.arrivedRoles.size() != expected) {
    fault(FaultKind::kArrivals,
          detail::text("phase ", std::to_string(state.completions), " of ", barrierName(ref),
                       " completed after ", std::to_string(state.arrivedRoles.size()),
                       " arrival(s); the protocol expects ", std::to_string(expected), " (",
                       (ref.kind == BarrierKind::kFull ? "the producer" : "one per consumer role"),
                       "), so the barrier's initial count ", std::to_string(state.initialCount),
                       " is wrong"));
  }
  ++state.completions;
  state.phaseParity ^= 1U;
  state.pending = state.initialCount;
  state.completedClock = state.phaseClock;
  std::fill(state.phaseClock.begin(), state.phaseClock.end(), 0);
  state.completedStamp = state.phaseStamp;
  state.phaseStamp = {};
  state.arrivedRoles.clear();
}

inline void Runtime::doRun(Role& role, const Access* firstAccess, const Access* endAccess) {
  Lock lock(mutex_);
  checkAlive();
  const double begin = microsecondsSinceStart();
  const int op = role.op_;
  const std::int64_t iteration = role.iteration_;
  if (op < 0) {
    fault(FaultKind::kExactlyOnce,
          detail::text(roleName(role.index_), " runs an op outside any op instance"));
    return;
  }
  ++role.clock_[static_cast<std::size_t>(role.index_)];
  const detail::Tick tick = role.clock_[static_cast<std::size_t>(role.index_)];
  const OpSpec& opSpec = spec_.ops.at(static_cast<std::size_t>(op));
  if (opSpec.role != role.index_) {
    fault(FaultKind::kOrder,
          detail::text(instanceName(op, iteration), " runs on ", roleName(role.index_),
                       "; the schedule puts it on ", roleName(opSpec.role)));
  }
  if (!inRange(iteration, options_.trips)) {
    fault(FaultKind::kExactlyOnce,
          detail::text(instanceName(op, iteration), " runs, but the loop has ",
                       std::to_string(options_.trips), " trips"));
    return;
  }
  detail::Execution& execution =
      executions_[static_cast<std::size_t>(op)][static_cast<std::size_t>(iteration)];
  if (execution.count++ > 0) {
    fault(FaultKind::kExactlyOnce,
          detail::text(instanceName(op, iteration), " runs a second time (on ",
                       roleName(role.index_), ")"));
  }
  execution.role = role.index_;
  execution.tick = tick;
  for (const EdgeSpec* edge : inEdges_[static_cast<std::size_t>(op)]) {
    const std::int64_t source = iteration - edge->distance;
    if (source < 0) continue;  // reads the value from before the loop
    const detail::Execution& producer =
        executions_[static_cast<std::size_t>(edge->source)][static_cast<std::size_t>(source)];
    if (producer.count == 0) {
      fault(FaultKind::kOrder,
            detail::text(instanceName(op, iteration), " on ", roleName(role.index_),
                         " runs before its producer ", instanceName(edge->source, source)));
    } else if (role.clock_[static_cast<std::size_t>(producer.role)] < producer.tick) {
      fault(FaultKind::kOrder,
            detail::text(instanceName(op, iteration), " on ", roleName(role.index_),
                         " runs after its producer ", instanceName(edge->source, source), " on ",
                         roleName(producer.role), " without a barrier phase ordering the two"));
    }
  }
  for (const Access* accessed = firstAccess; accessed != endAccess; ++accessed) {
    const Access& access = *accessed;
    if (access.slot < 0 || access.slot >= access.ring->slots_) {
      fault(FaultKind::kData,
            detail::text(instanceName(op, iteration), " accesses slot ",
                         std::to_string(access.slot), " of ring ",
                         spec_.rings.at(static_cast<std::size_t>(access.ring->index_)).name,
                         ", which has ", std::to_string(access.ring->slots_)));
      continue;
    }
    if (access.write) {
      checkWrite(role, access);
    } else {
      checkRead(role, access);
    }
  }
  TraceEvent event;
  event.op = op;
  event.iteration = iteration;
  event.role = role.index_;
  event.sequence = sequence_++;
  event.beginMicroseconds = begin;
  event.endMicroseconds = microsecondsSinceStart();
  trace_.push_back(event);
  progress();
}

inline void Runtime::checkWrite(Role& role, const Access& access) {
  const RingSpec& ringSpec = spec_.rings.at(static_cast<std::size_t>(access.ring->index_));
  const std::string what = instanceName(role.op_, role.iteration_);
  if (ringSpec.producer != role.op_ || access.fill != role.iteration_) {
    fault(
        FaultKind::kData,
        detail::text(what, " writes fill ", std::to_string(access.fill), " of ring ", ringSpec.name,
                     ", which ", spec_.ops.at(static_cast<std::size_t>(ringSpec.producer)).name,
                     " of iteration ", std::to_string(access.fill), " produces"));
  }
  detail::SlotState& slot = access.ring->data_[static_cast<std::size_t>(access.slot)];
  const auto ordered = [&](const detail::Stamp& stamp) {
    return stamp.role < 0 || role.clock_[static_cast<std::size_t>(stamp.role)] >= stamp.tick;
  };
  for (const detail::Stamp& reader : slot.readers) {
    if (!ordered(reader)) {
      fault(FaultKind::kData,
            detail::text(what, " overwrites slot ", std::to_string(access.slot), " of ring ",
                         ringSpec.name, " (fill ", std::to_string(slot.fill), ") while ",
                         roleName(reader.role),
                         " may still read it: no release orders the read first"));
    }
  }
  if (slot.readers.empty() && !ordered(slot.writer)) {
    fault(FaultKind::kData, detail::text(what, " overwrites slot ", std::to_string(access.slot),
                                         " of ring ", ringSpec.name, " (fill ",
                                         std::to_string(slot.fill), ") unordered with its write"));
  }
  checkOverlap(role, access);
  slot.fill = access.fill;
  slot.writer = {role.index_, role.clock_[static_cast<std::size_t>(role.index_)]};
  slot.readers.clear();
  ++slot.writes;
  Ring& ring = *access.ring;
  ++ring.written_;
  if (!ringSpec.consumerRoles.empty()) {
    std::int64_t released = 0;
    for (const detail::Barrier& empty : ring.empty_) released += empty.completions;
    const std::int64_t inFlight = ring.written_ - released;
    if (inFlight > ringSpec.depth) {
      fault(FaultKind::kOccupancy,
            detail::text("ring ", ringSpec.name, " holds ", std::to_string(inFlight),
                         " iterations after ", what, " writes; the schedule keeps at most ",
                         std::to_string(ringSpec.depth), " in flight"));
    }
  }
}

inline int Runtime::readsOfFill(int ring, std::int64_t fill) const {
  int reads = 0;
  for (int distance : readDistances_.at(static_cast<std::size_t>(ring))) {
    reads += fill + distance < options_.trips ? 1 : 0;
  }
  return reads;
}

// A write into a slot's bytes must not cover a fill of another ring that is still to be read, or
// whose reads no release orders before the write: two live fills never share an address.
inline void Runtime::checkOverlap(Role& role, const Access& access) {
  const Ring& written = *access.ring;
  for (const Placement& mine : written.placements_) {
    const std::int64_t begin = mine.offset + access.slot * mine.stride;
    const std::int64_t end = begin + mine.bytes;
    for (const auto& other : rings_) {
      if (!other || other.get() == &written) continue;
      for (const Placement& theirs : other->placements_) {
        if (theirs.memory != mine.memory) continue;
        for (int s = 0; s < other->slots_; ++s) {
          const std::int64_t otherBegin = theirs.offset + s * theirs.stride;
          const std::int64_t otherEnd = otherBegin + theirs.bytes;
          const detail::SlotState& held = other->data_[static_cast<std::size_t>(s)];
          if (otherEnd <= begin || end <= otherBegin || held.fill < 0) continue;
          const int expected = readsOfFill(other->index_, held.fill);
          const bool unordered = std::any_of(
              held.readers.begin(), held.readers.end(), [&](const detail::Stamp& reader) {
                return role.clock_[static_cast<std::size_t>(reader.role)] < reader.tick;
              });
          const auto done = static_cast<int>(held.readers.size());
          if (done >= expected && !unordered) continue;
          fault(FaultKind::kOverlap,
                detail::text(instanceName(role.op_, role.iteration_), " writes ", mine.memory, " [",
                             std::to_string(begin), ", ", std::to_string(end), ") over fill ",
                             std::to_string(held.fill), " of ring ",
                             spec_.rings.at(static_cast<std::size_t>(other->index_)).name,
                             " (slot ", std::to_string(s), " at [", std::to_string(otherBegin),
                             ", ", std::to_string(otherEnd), ")), ",
                             done < expected
                                 ? detail::text(std::to_string(expected - done), " of its ",
                                                std::to_string(expected), " reads still to come")
                                 : std::string("read without a release ordering the reads first"),
                             ": two live values share an address"));
        }
      }
    }
  }
}

inline void Runtime::checkRead(Role& role, const Access& access) {
  const RingSpec& ringSpec = spec_.rings.at(static_cast<std::size_t>(access.ring->index_));
  const std::string what = instanceName(role.op_, role.iteration_);
  bool expected = false;
  for (const EdgeSpec* edge : inEdges_[static_cast<std::size_t>(role.op_)]) {
    expected = expected || (edge->source == ringSpec.producer &&
                            role.iteration_ - edge->distance == access.fill);
  }
  if (!expected) {
    fault(FaultKind::kData,
          detail::text(what, " reads fill ", std::to_string(access.fill), " of ring ",
                       ringSpec.name, ", which no edge of the graph gives it"));
  }
  detail::SlotState& slot = access.ring->data_[static_cast<std::size_t>(access.slot)];
  if (slot.fill != access.fill) {
    fault(FaultKind::kData,
          detail::text(what, " reads slot ", std::to_string(access.slot), " of ring ",
                       ringSpec.name, " for fill ", std::to_string(access.fill), " but finds ",
                       (slot.fill < 0 ? std::string("nothing written yet")
                                      : detail::text("fill ", std::to_string(slot.fill)))));
  } else if (role.clock_[static_cast<std::size_t>(slot.writer.role)] < slot.writer.tick) {
    fault(FaultKind::kData, detail::text(what, " reads fill ", std::to_string(access.fill),
                                         " of ring ", ringSpec.name,
                                         " without a barrier phase ordering its write "
                                         "first"));
  }
  slot.readers.push_back({role.index_, role.clock_[static_cast<std::size_t>(role.index_)]});
}

inline void Runtime::finishRole(Role& role) {
  // A producer may leave only once it has seen every fill it made released (the producer
  // tail); otherwise its consumers could still read slots of a block that has exited.
  for (std::size_t r = 0; r < rings_.size(); ++r) {
    const RingSpec& ringSpec = spec_.rings[r];
    if (!rings_[r] || ringSpec.consumerRoles.empty()) continue;
    if (spec_.ops.at(static_cast<std::size_t>(ringSpec.producer)).role != role.index_) continue;
    const Ring& ring = *rings_[r];
    auto& observed = role.observedRelease_[r];
    observed.resize(static_cast<std::size_t>(ring.slots_), -1);
    for (int s = 0; s < ring.slots_; ++s) {
      const std::int64_t writes = ring.data_[static_cast<std::size_t>(s)].writes;
      if (writes > 0 && observed[static_cast<std::size_t>(s)] < writes - 1) {
        fault(FaultKind::kProducerTail,
              detail::text(roleName(role.index_), " exits before it has seen the release of fill ",
                           std::to_string(ring.data_[static_cast<std::size_t>(s)].fill),
                           " of ring ", ringSpec.name, " (slot ", std::to_string(s),
                           "): its consumers may still read the slot (missing producer tail)"));
      }
    }
  }
}

// Called when no role is running: unless a blocked role's wait has just been satisfied (it is
// woken but has not taken the lock yet), nobody can ever arrive again.
inline void Runtime::detectDeadlock() {
  if (aborted_) return;
  std::string message = "every role still running waits:";
  bool anyBlocked = false;
  for (const Role* role : roles_) {
    if (role == nullptr || !role->blocked_) continue;
    const detail::Barrier& state = barrier(role->blockedOn_);
    if (state.phaseParity != role->blockedParity_) return;
    anyBlocked = true;
    message += detail::text(" ", roleName(role->index_), " ", whereRoleIs(*role), " waits on ",
                            barrierName(role->blockedOn_), " for phase ",
                            std::to_string(state.completions), " (parity ",
                            std::to_string(role->blockedParity_), ", ",
                            std::to_string(state.initialCount - state.pending), " of ",
                            std::to_string(state.initialCount), " arrivals);");
  }
  if (!anyBlocked) return;
  message.pop_back();
  fault(FaultKind::kDeadlock, message, true);
}

inline void Runtime::finalChecks() {
  for (std::size_t op = 0; op < executions_.size(); ++op) {
    for (std::size_t i = 0; i < executions_[op].size(); ++i) {
      if (executions_[op][i].count == 0) {
        fault(FaultKind::kExactlyOnce,
              detail::text(instanceName(static_cast<int>(op), static_cast<std::int64_t>(i)),
                           " never ran"));
      }
    }
  }
  for (const auto& ring : rings_) {
    if (!ring) continue;
    for (int s = 0; s < ring->slots_; ++s) {
      for (BarrierKind kind : {BarrierKind::kFull, BarrierKind::kEmpty}) {
        const BarrierRef ref{ring.get(), kind, s};
        const detail::Barrier& state = barrier(ref);
        if (!state.arrivedRoles.empty() || state.txPending != 0) {
          fault(FaultKind::kArrivals,
                detail::text("the run ends with phase ", std::to_string(state.completions), " of ",
                             barrierName(ref), " incomplete: ",
                             std::to_string(state.arrivedRoles.size()), " arrival(s), ",
                             std::to_string(state.txPending), " transaction bytes outstanding"));
        }
      }
    }
  }
}

inline void Runtime::run(const std::vector<std::function<void(Role&)>>& roleFunctions) {
  std::vector<std::unique_ptr<Role>> roles;
  for (std::size_t r = 0; r < spec_.roles.size(); ++r) {
    roles.push_back(std::unique_ptr<Role>(new Role(*this, static_cast<int>(r))));
    roles_.push_back(roles.back().get());
  }
  if (roleFunctions.size() != roles.size()) {
    fault(FaultKind::kExactlyOnce,
          detail::text("the program has ", std::to_string(roleFunctions.size()),
                       " role functions for ", std::to_string(roles.size()), " roles"));
    return;
  }
  for (std::size_t r = 0; r < rings_.size(); ++r) {
    if (!rings_[r]) {
      fault(FaultKind::kData, detail::text("ring ", spec_.rings[r].name, " is never declared"));
      return;
    }
  }
  running_ = static_cast<int>(roles.size());
  start_ = lastProgress_ = std::chrono::steady_clock::now();
  std::vector<std::thread> threads;
  for (std::size_t r = 0; r < roles.size(); ++r) {
    threads.emplace_back([this, &roleFunctions, &roles, r] {
      Role& role = *roles[r];
      try {
        roleFunctions[r](role);
        Lock lock(mutex_);
        if (!aborted_) finishRole(role);
      } catch (const detail::Aborted&) {
      } catch (const std::exception& error) {
        Lock lock(mutex_);
        fault(FaultKind::kExactlyOnce,
              detail::text(roleName(role.index_), " threw: ", error.what()), true);
      }
      Lock lock(mutex_);
      --running_;
      if (running_ == 0) detectDeadlock();
      changed_.notify_all();
    });
  }
  for (auto& thread : threads) thread.join();
  if (!aborted_) finalChecks();
  roles_.clear();
}

inline std::string Runtime::report() const {
  if (faults_.empty()) {
    return detail::text("ok: ", spec_.kernel, ", ", std::to_string(options_.trips), " trips, ",
                        std::to_string(spec_.roles.size()), " roles, ",
                        std::to_string(trace_.size()), " op instances, ",
                        std::to_string(spec_.rings.size()), " rings: every check passed\n");
  }
  std::string text;
  for (const Fault& f : faults_) {
    text += detail::text(std::string("FAULT "), toString(f.kind), ": ", f.message, "\n");
  }
  if (faultCount_ > faults_.size()) {
    text += detail::text("... and ", std::to_string(faultCount_ - faults_.size()), " more\n");
  }
  return text;
}

inline std::string Runtime::traceText() const {
  std::vector<const TraceEvent*> ordered;
  for (const TraceEvent& event : trace_) ordered.push_back(&event);
  std::stable_sort(ordered.begin(), ordered.end(),
                   [](const TraceEvent* a, const TraceEvent* b) { return a->role < b->role; });
  std::string text;
  for (const TraceEvent* event : ordered) {
    text +=
        detail::text(spec_.roles.at(static_cast<std::size_t>(event->role)), " ",
                     spec_.ops.at(static_cast<std::size_t>(event->op)).name, " ",
                     std::to_string(event->iteration), " ", std::to_string(event->sequence), "\n");
  }
  return text;
}

// ---------------------------------------------------------------------------------------------
// The command line of a generated program: --trips N (default 10), --trace FILE, --watchdog S.
struct CommandLine {
  RunOptions options;
  std::string tracePath;
  bool ok = true;
};

inline CommandLine parseCommandLine(int argc, char** argv) {
  CommandLine line;
  for (int a = 1; a < argc; ++a) {
    const std::string flag = argv[a];
    const bool hasValue = a + 1 < argc;
    if (flag == "--trips" && hasValue) {
      char* end = nullptr;
      const long long trips = std::strtoll(argv[++a], &end, 10);
      if (end == nullptr || *end != '\0' || trips < 0 || trips > 1000000) {
        std::fprintf(stderr, "--trips: expected an integer in [0, 1000000], found '%s'\n", argv[a]);
        line.ok = false;
      }
      line.options.trips = trips;
    } else if (flag == "--trace" && hasValue) {
      line.tracePath = argv[++a];
    } else if (flag == "--watchdog" && hasValue) {
      line.options.watchdogSeconds = std::strtod(argv[++a], nullptr);
    } else {
      std::fprintf(stderr, "usage: %s [--trips N] [--trace FILE] [--watchdog SECONDS]\n", argv[0]);
      line.ok = false;
    }
  }
  return line;
}

// Prints the report, writes the trace when asked; the exit status of a generated program.
inline int finish(const Runtime& runtime, const CommandLine& line) {
  if (!line.tracePath.empty()) {
    std::ofstream out(line.tracePath);
    out << runtime.traceText();
    if (!out) {
      std::fprintf(stderr, "cannot write the trace to %s\n", line.tracePath.c_str());
      return 2;
    }
  }
  std::fputs(runtime.report().c_str(), runtime.ok() ? stdout : stderr);
  return runtime.ok() ? 0 : 1;
}

}  // namespace gaus_protocol
