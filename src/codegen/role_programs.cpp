// The program of each warp role (docs/codegen.md "Pipeline expansion" and "The protocol").
//
// A role runs its op instances in one total order: start cycle (start + iteration x II), then
// iteration, then topological position. Within kernel iteration k (cycles [k II, (k+1) II)) an
// op of stage s works on iteration k - s, so the steady-state body lists the role's ops by
// residue (start mod II), older iterations (higher stages) first at equal residues, then by
// topological position. Every data edge goes forward in that order (precedence with delays
// >= 0), and so does every wait for a ring slot (the depth rule of rings.cpp): since every
// wait targets an earlier instance, the roles cannot deadlock.
//
// Synchronization per role and ring (CUTLASS's producer_acquire / producer_commit /
// consumer_wait / consumer_release, in our words):
// - the producer waits on empty[slot] before it writes fill j and arrives on full[slot]
//   after (an expect-tx arrive before an asynchronous copy, which completes the bytes);
// - a consumer role waits on full[slot] before its first read of fill j and arrives on
//   empty[slot] after its last; reads of its own role's values need no barrier;
// - after the loops a consumer drains the fills it never read (its reads all have distance
//   >= 1), and the producer waits for the release of every fill still in flight (the tail).

#include <algorithm>
#include <map>
#include <tuple>

#include "pipeline_steps.hpp"

namespace gaus::codegen::detail {

namespace {

struct Reader {
  OpId op = 0;
  std::int32_t distance = 0;
  IssueKey key;  // of the read of fill 0
};

// For the readers of one ring on one role, sorted in issue order: when reader k waits (it is
// the first read of the fill that exists) and when it releases (the last).
void assignFillSync(std::vector<Reader>& readers, std::vector<FillSync>& waits,
                    std::vector<FillSync>& releases) {
  std::sort(readers.begin(), readers.end(),
            [](const Reader& a, const Reader& b) { return a.key < b.key; });
  const std::size_t count = readers.size();
  waits.assign(count, {});
  releases.assign(count, {});
  // Fill j has a read through distance d iff j + d < trips: a read of smaller distance exists
  // whenever one of larger distance does.
  const auto covering = [&](std::size_t k, std::size_t from, std::size_t to) {
    FillSync sync{FillSync::Kind::kAlways, 0};
    for (std::size_t other = from; other < to; ++other) {
      if (other == k) continue;
      if (readers[other].distance <= readers[k].distance) return FillSync{};
      if (sync.kind == FillSync::Kind::kAlways || readers[other].distance < sync.coveringDistance) {
        sync = {FillSync::Kind::kUnlessCovered, readers[other].distance};
      }
    }
    return sync;
  };
  for (std::size_t k = 0; k < count; ++k) {
    waits[k] = covering(k, 0, k);
    releases[k] = covering(k, k + 1, count);
  }
}

}  // namespace

void buildRolePrograms(Pipeline& pipeline) {
  const Graph& graph = *pipeline.graph;
  const auto& start = pipeline.schedule.start;
  const Cycle ii = pipeline.ii;
  pipeline.programs.assign(pipeline.roles.size(), {});

  for (std::size_t r = 0; r < pipeline.roles.size(); ++r) {
    RoleProgram& program = pipeline.programs[r];
    for (OpId op : pipeline.roles[r].ops) {
      OpBlock block;
      block.op = op;
      block.stage = static_cast<std::int32_t>(start[op] / ii);
      block.residue = start[op] % ii;
      for (EdgeId e : graph.inEdges(op)) {
        const std::int32_t ring = pipeline.ringOf[graph.edgeSource(e)];
        if (ring < 0) continue;
        const std::int32_t distance = graph.edgeDistance(e);
        const bool known = std::any_of(
            block.reads.begin(), block.reads.end(),
            [&](const auto& read) { return read.ring == ring && read.distance == distance; });
        if (known) continue;  // parallel edges read the same fill once
        RingRead read;
        read.ring = ring;
        read.distance = distance;
        read.crossRole = pipeline.rings[ring].producerRole != static_cast<std::int32_t>(r);
        block.reads.push_back(read);
      }
      if (pipeline.ringOf[op] >= 0) block.fills = pipeline.ringOf[op];
      program.blocks.push_back(std::move(block));
    }
    std::sort(program.blocks.begin(), program.blocks.end(),
              [&](const OpBlock& a, const OpBlock& b) {
                return std::tuple(a.residue, -a.stage, pipeline.topologicalPosition[a.op]) <
                       std::tuple(b.residue, -b.stage, pipeline.topologicalPosition[b.op]);
              });

    // Waits, releases and drains per ring this role reads from another role.
    std::map<std::int32_t, std::vector<std::pair<std::size_t, std::size_t>>> readsOfRing;
    for (std::size_t b = 0; b < program.blocks.size(); ++b) {
      for (std::size_t k = 0; k < program.blocks[b].reads.size(); ++k) {
        if (program.blocks[b].reads[k].crossRole) {
          readsOfRing[program.blocks[b].reads[k].ring].emplace_back(b, k);
        }
      }
    }
    for (auto& [ring, places] : readsOfRing) {
      std::vector<Reader> readers;
      for (const auto& [b, k] : places) {
        const OpBlock& block = program.blocks[b];
        const std::int32_t distance = block.reads[k].distance;
        readers.push_back(
            {block.op,
             distance,
             {start[block.op] + distance * ii, distance, pipeline.topologicalPosition[block.op]}});
      }
      std::vector<FillSync> waits, releases;
      std::vector<Reader> sorted = readers;
      assignFillSync(sorted, waits, releases);
      for (std::size_t p = 0; p < places.size(); ++p) {
        const auto position = std::find_if(sorted.begin(), sorted.end(), [&](const Reader& x) {
          return x.op == readers[p].op && x.distance == readers[p].distance;
        });
        const auto k = static_cast<std::size_t>(position - sorted.begin());
        RingRead& read = program.blocks[places[p].first].reads[places[p].second];
        read.wait = waits[k];
        read.release = releases[k];
      }
      const auto nearest = std::min_element(
          readers.begin(), readers.end(),
          [](const Reader& a, const Reader& b) { return a.distance < b.distance; });
      if (nearest->distance > 0) program.drains.push_back({ring, nearest->distance});
    }
  }
  for (std::size_t c = 0; c < pipeline.rings.size(); ++c) {
    const Ring& ring = pipeline.rings[c];
    if (ring.channel()) {
      pipeline.programs[static_cast<std::size_t>(ring.producerRole)].tails.push_back(
          static_cast<std::int32_t>(c));
    }
  }
}

}  // namespace gaus::codegen::detail

namespace gaus::codegen {

bool syncApplies(const FillSync& when, std::int64_t fill, std::int64_t trips) {
  switch (when.kind) {
    case FillSync::Kind::kNever:
      return false;
    case FillSync::Kind::kAlways:
      return true;
    case FillSync::Kind::kUnlessCovered:
      return fill + when.coveringDistance >= trips;
  }
  return false;
}

std::vector<ProtocolStep> blockSteps(const Pipeline& pipeline, const OpBlock& block) {
  using Kind = ProtocolStep::Kind;
  std::vector<ProtocolStep> steps;
  for (const RingRead& read : block.reads) {
    if (!read.crossRole || read.wait.kind == FillSync::Kind::kNever) continue;
    const Ring& ring = pipeline.rings[static_cast<std::size_t>(read.ring)];
    steps.push_back(
        {Kind::kWaitFull, read.ring, read.distance, read.wait, ring.consumerParityFlipped});
  }
  const Ring* filled =
      block.fills ? &pipeline.rings[static_cast<std::size_t>(*block.fills)] : nullptr;
  const bool channel = filled != nullptr && filled->channel();
  if (channel) {
    steps.push_back({Kind::kWaitEmpty, *block.fills, 0, {FillSync::Kind::kAlways, 0}, false});
    if (filled->asyncFill) {
      steps.push_back(
          {Kind::kArriveExpectTx, *block.fills, 0, {FillSync::Kind::kAlways, 0}, false});
    }
  }
  steps.push_back({Kind::kRun, -1, 0, {FillSync::Kind::kAlways, 0}, false});
  if (channel) {
    steps.push_back({filled->asyncFill ? Kind::kCompleteTx : Kind::kArriveFull,
                     *block.fills,
                     0,
                     {FillSync::Kind::kAlways, 0},
                     false});
  }
  for (const RingRead& read : block.reads) {
    if (!read.crossRole || read.release.kind == FillSync::Kind::kNever) continue;
    steps.push_back({Kind::kArriveEmpty, read.ring, read.distance, read.release, false});
  }
  return steps;
}

}  // namespace gaus::codegen
