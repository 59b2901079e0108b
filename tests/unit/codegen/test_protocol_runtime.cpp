// The protocol runtime on hand-written two-role programs: the mbarrier semantics (arrival
// count, parity, transaction bytes) and one failing program per check, each with the fault it
// must report. The programs are tiny: producer x on role 0 writes ring "x" of one slot, which
// consumer y on role 1 reads (edge x -> y, distance 0).
#include <catch2/catch.hpp>

#include <gaus/codegen/protocol_runtime.hpp>

using namespace gaus_protocol;

namespace {

// x at cycle 0 on role 0, y at cycle `consumerStart` on role 1; ring x of depth 1.
Spec twoRoleSpec(std::int64_t consumerStart = 2) {
  Spec spec;
  spec.kernel = "two_roles";
  spec.ii = 4;
  spec.stages = 1;
  spec.roles = {"producer", "consumer"};
  spec.ops = {{"x", 0, 0, 0}, {"y", 1, consumerStart, 1}};
  spec.edges = {{0, 1, 0}};
  spec.rings = {{"x", 0, 1, {1}, 0}};
  return spec;
}

struct Options {
  int fullCount = 1;
  std::uint32_t consumerParity = 0;  // of the consumer's wait on full, xor phase
  bool producerTail = true;
  bool consumerRelease = true;
  bool runTwice = false;
  std::uint32_t expectTx = 0;     // > 0: an asynchronous fill expecting these bytes
  std::uint32_t deliveredTx = 0;  // what the copy delivers
};

// What a run reports (a Runtime holds threads' state and is not copied).
struct Outcome {
  std::vector<Fault> faults;
  std::string report;
  std::size_t instances = 0;
  bool ok() const { return faults.empty(); }
};

Outcome run(std::int64_t trips, const Options& options, Spec spec = twoRoleSpec()) {
  RunOptions runOptions;
  runOptions.trips = trips;
  runOptions.watchdogSeconds = 5.0;
  Runtime runtime(std::move(spec), runOptions);
  Ring& ring = runtime.ring(0, 1, options.fullCount, 1);
  const auto producer = [&](Role& role) {
    for (std::int64_t i = 0; i < trips; ++i) {
      role.at(0, i);
      role.wait(ring.empty(ring.slot(i)), ring.phase(i) ^ 1U);
      if (options.expectTx > 0) role.arriveExpectTx(ring.full(ring.slot(i)), options.expectTx);
      role.run({ring.write(ring.slot(i), i)});
      if (options.runTwice) role.run({ring.write(ring.slot(i), i)});
      if (options.expectTx > 0) {
        role.completeTx(ring.full(ring.slot(i)), options.deliveredTx);
      } else {
        role.arrive(ring.full(ring.slot(i)));
      }
    }
    role.atExit();
    if (!options.producerTail) return;
    for (std::int64_t j = std::max<std::int64_t>(0, trips - ring.slots()); j < trips; ++j) {
      role.wait(ring.empty(ring.slot(j)), ring.phase(j));
    }
  };
  const auto consumer = [&](Role& role) {
    for (std::int64_t i = 0; i < trips; ++i) {
      role.at(1, i);
      role.wait(ring.full(ring.slot(i)), ring.phase(i) ^ options.consumerParity);
      role.run({ring.read(ring.slot(i), i)});
      if (options.consumerRelease) role.arrive(ring.empty(ring.slot(i)));
    }
  };
  runtime.run({producer, consumer});
  return {runtime.faults(), runtime.report(), runtime.trace().size()};
}

bool reports(const Outcome& outcome, FaultKind kind) {
  for (const Fault& fault : outcome.faults) {
    if (fault.kind == kind) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("runtime: a correct one-slot ring passes every check for 0 to 20 trips",
          "[codegen][runtime]") {
  for (std::int64_t trips = 0; trips <= 20; ++trips) {
    const Outcome runtime = run(trips, {});
    INFO(runtime.report);
    CHECK(runtime.ok());
    // Each trip runs x and y once.
    CHECK(runtime.instances == static_cast<std::size_t>(2 * trips));
  }
}

TEST_CASE("runtime: an asynchronous fill completes its phase only with all expected bytes",
          "[codegen][runtime]") {
  Options exact;
  exact.expectTx = 4096;
  exact.deliveredTx = 4096;
  const Outcome ok = run(5, exact);
  INFO(ok.report);
  CHECK(ok.ok());
  // Fewer bytes than expected: the phase never completes, the consumer waits for ever.
  Options shortCopy = exact;
  shortCopy.deliveredTx = 4000;
  const Outcome stuck = run(3, shortCopy);
  CHECK(reports(stuck, FaultKind::kDeadlock));
  CHECK_THAT(stuck.report, Catch::Contains("full_x[0] for phase 0"));
  // More bytes than expected: reported as soon as they arrive.
  Options longCopy = exact;
  longCopy.deliveredTx = 5000;
  CHECK(reports(run(1, longCopy), FaultKind::kArrivals));
}

TEST_CASE("runtime: a full barrier expecting two arrivals from one producer deadlocks",
          "[codegen][runtime]") {
  Options wrongCount;
  wrongCount.fullCount = 2;
  const Outcome runtime = run(3, wrongCount);
  CHECK(reports(runtime, FaultKind::kDeadlock));
  // The watchdog names who waits on what: the consumer on full_x[0], phase 0, 1 of 2 arrivals.
  CHECK_THAT(runtime.report,
             Catch::Contains("role consumer at y of iteration 0 waits on full_x[0] for phase 0 "
                             "(parity 0, 1 of 2 arrivals)"));
}

TEST_CASE("runtime: a consumer waiting on parity 1 first is caught whatever the interleaving",
          "[codegen][runtime]") {
  // Parity 1 passes at once on a fresh barrier (phase 0 in progress): either the read comes
  // before any fill completed (unsynchronized-wait), or the producer got there first, the
  // barrier is in phase 1 and the wait blocks for a phase that needs the consumer's own
  // release (deadlock).
  Options flipped;
  flipped.consumerParity = 1;
  for (int attempt = 0; attempt < 20; ++attempt) {
    const Outcome runtime = run(3, flipped);
    INFO(runtime.report);
    CHECK((reports(runtime, FaultKind::kUnsynchronizedWait) ||
           reports(runtime, FaultKind::kDeadlock)));
  }
}

TEST_CASE("runtime: a producer without its tail and a consumer without its release are caught",
          "[codegen][runtime]") {
  // Without the tail the producer leaves before it observed the release of its last fill.
  Options noTail;
  noTail.producerTail = false;
  const Outcome early = run(4, noTail);
  CHECK(reports(early, FaultKind::kProducerTail));
  CHECK_THAT(early.report, Catch::Contains("missing producer tail"));
  // Without releases the producer's second fill (or its tail) waits for ever.
  Options noRelease;
  noRelease.consumerRelease = false;
  CHECK(reports(run(1, noRelease), FaultKind::kDeadlock));
  CHECK(reports(run(4, noRelease), FaultKind::kDeadlock));
}

TEST_CASE("runtime: an op instance run twice and a wait the schedule cannot meet are caught",
          "[codegen][runtime]") {
  Options twice;
  twice.runTwice = true;
  CHECK(reports(run(2, twice), FaultKind::kExactlyOnce));
  // y of iteration i at cycle 4i + 2 reads x of iteration i (cycle 4i): fine. With one slot,
  // x of iteration i + 1 (cycle 4i + 4) waits for y of iteration i to release the slot: fine
  // when y starts by cycle 4i + 4, a stall when y starts at 4i + 5 (its value is in flight for
  // 5 cycles > II: the schedule needs two slots).
  CHECK(run(3, {}, twoRoleSpec(4)).ok());
  const Outcome stalled = run(3, {}, twoRoleSpec(5));
  CHECK(reports(stalled, FaultKind::kStall));
  CHECK_THAT(stalled.report, Catch::Contains("is the ring too shallow"));
}

TEST_CASE("runtime: two values at one address are caught while one is still to be read",
          "[codegen][runtime]") {
  // One role runs a (writes ring A), b (writes ring B), c (reads A) and d (reads B); A's and
  // B's one slot of 64 bytes lie at offset 0 of shared memory. In the order a, b, c, d b
  // overwrites A's fill before c reads it: two live values share an address. In the order
  // a, c, b, d A is read before b writes: the lifetimes are disjoint and sharing is sound.
  Spec spec;
  spec.kernel = "shared_base";
  spec.ii = 4;
  spec.stages = 1;
  spec.roles = {"only"};
  spec.ops = {{"a", 0, 0, 0}, {"b", 0, 1, 1}, {"c", 0, 2, 2}, {"d", 0, 3, 3}};
  spec.edges = {{0, 2, 0}, {1, 3, 0}};
  spec.rings = {{"A", 0, 1, {}, 0}, {"B", 1, 1, {}, 0}};
  const auto runInOrder = [&](bool readBeforeOverwrite) {
    RunOptions options;
    options.trips = 3;
    Runtime runtime(spec, options);
    Ring& a = runtime.ring(0, 1, 1, 0, {{"smem", 0, 64, 64}});
    Ring& b = runtime.ring(1, 1, 1, 0, {{"smem", 0, 64, 64}});
    runtime.run({[&](Role& role) {
      for (std::int64_t i = 0; i < 3; ++i) {
        role.at(0, i);
        role.run({a.write(0, i)});
        if (readBeforeOverwrite) {
          role.at(2, i);
          role.run({a.read(0, i)});
        }
        role.at(1, i);
        role.run({b.write(0, i)});
        if (!readBeforeOverwrite) {
          role.at(2, i);
          role.run({a.read(0, i)});
        }
        role.at(3, i);
        role.run({b.read(0, i)});
      }
    }});
    return Outcome{runtime.faults(), runtime.report(), runtime.trace().size()};
  };
  const Outcome overwritten = runInOrder(false);
  CHECK(reports(overwritten, FaultKind::kOverlap));
  CHECK_THAT(overwritten.report,
             Catch::Contains("b of iteration 0 writes smem [0, 64) over fill 0 of ring A (slot 0 "
                             "at [0, 64)), 1 of its 1 reads still to come"));
  const Outcome disjoint = runInOrder(true);
  INFO(disjoint.report);
  CHECK(disjoint.ok());
}
