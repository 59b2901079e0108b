// The memory layout (docs/codegen.md "Memory layout") on hand-made pipelines whose offsets are
// computed by hand beside each check: shared memory with its tiles, staged registers, barriers
// and alignment; tensor memory in columns; the transaction bytes a copy's full barrier expects;
// the refusal of a layout over capacity with its figures; the JSON of the layout target. The
// built-in kernels' layouts: test_protocol_kernels.cpp.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <gaus/codegen/protocol_executor.hpp>
#include <gaus/codegen/targets.hpp>

#include "codegen_test_support.hpp"

using namespace gaus;
using namespace gaus::codegen;

namespace {

// GEMM on Hopper by hand: load_a at 0 and load_b at 1 on warp 0 (the variable-latency warp),
// the MMA at 1 on warp 1, II 4 (the MMA's 4 TC cycles). Each tile lives at most 1 cycle < II:
// one slot each.
Pipeline handGemm() {
  Schedule schedule;
  schedule.start = {0, 1, 1};
  schedule.ii = 4;
  schedule.warps = std::vector<WarpSet>{1, 1, 2};
  auto pipeline = buildPipeline(test::loadKernel("gemm_hopper"), schedule);
  INFO((pipeline ? std::string() : pipeline.error()));
  REQUIRE(pipeline);
  return std::move(pipeline).value();
}

}  // namespace

TEST_CASE("layout of GEMM: two tiles, their barriers, and sizeof(SharedStorage) by hand",
          "[codegen][layout]") {
  const Pipeline pipeline = handGemm();
  const MemoryLayout& layout = pipeline.layout;
  // load_a's 16384-byte slot at 0, load_b's at 16384: both multiples of 128, no padding.
  REQUIRE(layout.placements.size() == 2);
  CHECK(layout.placements[0].offset == 0);
  CHECK(layout.placements[1].offset == 16384);
  CHECK(layout.placements[1].slotStride == 16384);
  // Then full[1] and empty[1] of each channel, 8 bytes each: 32768, 32776, 32784, 32792.
  REQUIRE(layout.barriers.size() == 2);
  CHECK(layout.barriers[0].fullOffset == 32768);
  CHECK(layout.barriers[0].emptyOffset == 32776);
  CHECK(layout.barriers[1].fullOffset == 32784);
  CHECK(layout.barriers[1].emptyOffset == 32792);
  // They end at 32800, which sizeof rounds up to the struct's 128-byte alignment: 32896.
  const MemoryUse& shared = *layout.use(MemorySpace::kShared);
  CHECK(shared.total == 32896);
  CHECK(shared.tileBytes == 32768);
  CHECK(shared.barrierBytes == 32);
  CHECK(shared.paddingBytes == 96);
  CHECK(layout.use(MemorySpace::kTensor) == nullptr);
  // Each copy brings one 16 KB tile: the bytes its full barrier expects.
  CHECK(pipeline.rings[0].txBytes == 16384);

  // The listing prints the table; the CUDA kernel declares the same storage and asserts it.
  const std::string listing = renderListing(pipeline);
  CHECK_THAT(listing, Catch::Contains("    smem    load_b               16384  1 x 16384      "
                                      "      16384  tile"));
  CHECK_THAT(listing, Catch::Contains("smem total 32896 B of 232448 B: tiles 32768, staged "
                                      "registers 0, barriers 32, alignment 96"));
  const auto cuda = renderCuda(pipeline);
  REQUIRE(cuda);
  const std::string& kernel = (*cuda)[0].content;
  CHECK_THAT(kernel, Catch::Contains("alignas(128) unsigned char load_b[1][load_b_smem_bytes];  "
                                     "// offset 16384"));
  CHECK_THAT(kernel, Catch::Contains("static_assert(offsetof(SharedStorage, full_load_a) == "
                                     "32768"));
  CHECK_THAT(kernel, Catch::Contains("  std::uint64_t empty_load_b[1];  // offset 32792"));
  CHECK_THAT(kernel, Catch::Contains("static_assert(sizeof(SharedStorage) == 32896"));
  CHECK_THAT(kernel, Catch::Contains("sync::arrive_expect_tx(&smem.full_load_a[slot_of(i, "
                                     "load_a_slots)], load_a_smem_bytes);"));

  // The JSON: ring, memory, base, bytes per slot, slots; the total per memory.
  const nlohmann::json json = nlohmann::json::parse(renderLayoutJson(pipeline));
  CHECK(json["rings"][1] == nlohmann::json::parse(R"({"ring": "load_b", "producer": "load_b",
      "memory": "smem", "base": 16384, "bytes_per_slot": 16384, "stride": 16384, "slots": 1,
      "bytes": 16384, "holds": "tile"})"));
  CHECK(json["barriers"][0]["full"] == 32768);
  CHECK(json["memories"][0]["total"] == 32896);
  CHECK(json["memories"][0]["capacity"] == 232448);
}

TEST_CASE(
    "layout: tensor memory in columns, staged registers in shared memory, and the copy's "
    "bytes from its shared-memory slot alone",
    "[codegen][layout]") {
  // On the Blackwell machine: a streaming load with a 4096-byte tile in shared memory and a
  // 65536-byte value in tensor memory (as if it also wrote an accumulator), read by an MMA on
  // TC that writes 65536 bytes of tensor memory, read by a TMEM load whose 64 registers per
  // thread a rescale on ALU reads. Without warps: roles producer (the load), TC, TMEM, ALU.
  const Instance blackwell = test::loadKernel("fa_fwd_blackwell");
  const Machine& machine = *blackwell.machine;
  const MemoryId smem = *machine.findMemory("smem");
  const MemoryId tmem = *machine.findMemory("tmem");
  GraphBuilder builder("columns");
  builder.addOp(test::streamingLoad("load", machine, {{smem, 4096}, {tmem, 65536}}));
  const OpId mma = builder.addOp("mma", 4);
  builder.addReservation(mma, {*machine.findResource("TC"), 0, 4, 1});
  builder.addFootprint(mma, {tmem, 65536});
  const OpId ld = builder.addOp("ld", 1);
  builder.addReservation(ld, {*machine.findResource("TMEM"), 0, 1, 1});
  builder.setRegs(ld, 64);
  const OpId rescale = builder.addOp("rescale", 1);
  builder.addReservation(rescale, {*machine.findResource("ALU"), 0, 1, 1});
  builder.addEdge(0, mma);
  builder.addEdge(mma, ld, 4);
  builder.addEdge(ld, rescale);
  const Instance instance = test::makeInstance(std::move(builder), machine);
  Schedule schedule;
  schedule.start = {0, 0, 4, 5};
  schedule.ii = 4;
  auto built = buildPipeline(instance, schedule);
  INFO((built ? std::string() : built.error()));
  REQUIRE(built);
  const Pipeline& pipeline = *built;
  const MemoryLayout& layout = pipeline.layout;

  // Shared memory: load's tile (4096 at 0), then ld's registers staged for the ALU role: 64
  // registers x 4 bytes x 128 threads = 32768 at 4096; barriers of the three channels (load,
  // mma read by the TMEM role, ld read by ALU; one slot each): 48 bytes at 36864, ending at
  // 36912, rounded up to 128: 36992.
  const RingPlacement* loadTile = layout.find(pipeline.ringOf[0], MemorySpace::kShared);
  const RingPlacement* staged = layout.find(pipeline.ringOf[ld], MemorySpace::kShared);
  REQUIRE(loadTile != nullptr);
  REQUIRE(staged != nullptr);
  CHECK(loadTile->offset == 0);
  CHECK(staged->stagedRegisters);
  CHECK(staged->offset == 4096);
  CHECK(staged->bytesPerSlot == 32768);
  CHECK(layout.barriers.size() == 3);
  CHECK(layout.barriers.front().fullOffset == 36864);
  CHECK(layout.use(MemorySpace::kShared)->total == 36992);
  // Tensor memory: load's 65536 bytes = 128 columns of 512 bytes at column 0, the MMA's at
  // column 128; 256 columns in all, which tcgen05.alloc takes as they are (a power of two).
  const RingPlacement* loadColumns = layout.find(pipeline.ringOf[0], MemorySpace::kTensor);
  const RingPlacement* mmaColumns = layout.find(pipeline.ringOf[mma], MemorySpace::kTensor);
  REQUIRE(loadColumns != nullptr);
  REQUIRE(mmaColumns != nullptr);
  CHECK(tensorMemoryColumn(loadColumns->offset) == 0);
  CHECK(tensorMemoryColumn(mmaColumns->offset) == 128);
  CHECK(tensorMemoryColumn(layout.use(MemorySpace::kTensor)->total) == 256);
  CHECK(tensorMemoryColumnsAllocated(*layout.use(MemorySpace::kTensor)) == 256);

  // The copy brings the 4096 bytes of its shared-memory slot, not the 69632 of all its
  // footprints: the full barrier expects those, and the protocol completes with them.
  const Ring& loadRing = pipeline.rings[static_cast<std::size_t>(pipeline.ringOf[0])];
  CHECK(loadRing.asyncFill);
  CHECK(loadRing.txBytes == 4096);
  CHECK_THAT(renderListing(pipeline), Catch::Contains("expect-tx 4096 B"));
  const auto cuda = renderCuda(pipeline);
  REQUIRE(cuda);
  CHECK_THAT((*cuda)[0].content,
             Catch::Contains("constexpr std::uint32_t load_smem_bytes = 4096;"));
  CHECK_THAT((*cuda)[0].content,
             Catch::Contains("constexpr std::uint32_t mma_tmem_column = 128;  // columns [128, "
                             "256): 1 slot of 65536 bytes"));
  for (std::int64_t trips : {1, 2, 7}) {
    ProtocolRunOptions options;
    options.trips = trips;
    const ProtocolRun run = runProtocol(pipeline, options);
    INFO(run.report);
    CHECK(run.ok());
  }
}

TEST_CASE("layout: FA on Hopper at its ims schedule is refused with its real shared memory",
          "[codegen][layout]") {
  // ims puts no op on a warp, so the default roles (producer, TC, EXP, ALU) pass S, P, O, the
  // row maxima and the rescale between roles, staged through shared memory by their 128
  // threads: per sub-tile S 64 x 4 x 128 = 32768, max 1 x 4 x 128 = 512, P 32 x 4 x 128 =
  // 16384, O 32768 (rescale has no registers: its barriers alone hand it on), 82432 bytes;
  // 164864 for both. Tiles: K one slot, V two (ims keeps it two iterations in flight), 32 KB
  // each: 98304. Barriers: 13 slots over the 12 channels, a full and an empty each: 208. The
  // rings end at 263168 (a multiple of 128), the barriers at 263376, sizeof rounds up to
  // 263424: over the 232448 bytes a block may have.
  const Instance instance = test::loadKernel("fa_fwd_hopper");
  const auto schedule = test::methodSchedule(test::heuristicAndExactMethods(), "ims", instance);
  REQUIRE(schedule);
  const auto refused = buildPipeline(instance, *schedule);
  REQUIRE_FALSE(refused);
  CHECK_THAT(refused.error(),
             Catch::Contains("the memory layout of fa_fwd_hopper needs 263424 bytes of smem "
                             "(tiles 98304, staged registers 164864, barriers 208, alignment 48), "
                             "more than its capacity 232448; largest rings (slots x bytes): "
                             "load_v 2 x 32768, load_k 1 x 32768, s0 1 x 32768 (staged "
                             "registers)"));
}

TEST_CASE("layout: every built-in kernel's rings have disjoint ranges in every memory",
          "[codegen][layout]") {
  for (const std::string& name : test::builtInKernels()) {
    const Pipeline& pipeline = test::kernelPipeline(name);
    const MemoryLayout& layout = pipeline.layout;
    for (std::size_t a = 0; a < layout.placements.size(); ++a) {
      for (std::size_t b = a + 1; b < layout.placements.size(); ++b) {
        const RingPlacement& first = layout.placements[a];
        const RingPlacement& second = layout.placements[b];
        if (first.memory != second.memory) continue;
        INFO(name << ": " << pipeline.rings[first.ring].name << " and "
                  << pipeline.rings[second.ring].name);
        CHECK((first.offset + first.bytes() <= second.offset ||
               second.offset + second.bytes() <= first.offset));
      }
    }
    // Within capacity, and the JSON's totals are the layout's.
    const nlohmann::json json = nlohmann::json::parse(renderLayoutJson(pipeline));
    for (std::size_t m = 0; m < layout.memories.size(); ++m) {
      const MemoryUse& use = layout.memories[m];
      INFO(name << " " << toString(use.memory));
      CHECK(json["memories"][m]["total"] == use.total);
      if (use.capacity) CHECK(use.total <= *use.capacity);
    }
  }
  // FA on Blackwell keeps S and O of both sub-tiles in tensor memory, 64 KB = 128 columns
  // each, at columns 0, 128, 256 and 384: all 512 columns, none shared (the first generated
  // kernels put all four at column 0).
  const Pipeline& blackwell = test::kernelPipeline("fa_fwd_blackwell");
  std::vector<std::int64_t> columns;
  for (const RingPlacement& placement : blackwell.layout.placements) {
    if (placement.memory == MemorySpace::kTensor) {
      columns.push_back(tensorMemoryColumn(placement.offset));
    }
  }
  CHECK(columns == std::vector<std::int64_t>{0, 128, 256, 384});
  CHECK(tensorMemoryColumnsAllocated(*blackwell.layout.use(MemorySpace::kTensor)) == 512);
}
