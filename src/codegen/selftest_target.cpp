// The self-test target: a CUDA program that runs the generated pipeline on the GPU with op
// bodies that check it (docs/codegen.md "Self-test"). It is what a kernel author runs before
// writing real op bodies: it proves, on the hardware, that the barriers, the slots and the
// memory layout of <id>_pipeline.cu hand every value to its readers intact.
//
// The program is <id>_pipeline.cu and <id>_ops.cuh exactly as the CUDA target writes them, and
// <id>_selftest.cu, which defines every op and a host main:
// - every op stamps each 32-bit word of what it writes with (op, iteration), and checks each
//   word of what it reads against (producer, iteration - distance); a streaming load stamps a
//   staging area in global memory and brings it into its slot with TMA copies through a tensor
//   map (cp.async.bulk.tensor.2d, as real kernels load tiles; a tile whose bytes are not a
//   multiple of 256 with one cp.async.bulk), completing on the slot's full barrier, which the
//   pipeline armed with the layout's transaction bytes;
// - every op checks that the slot it is handed is where the memory layout puts the fill
//   (offset + (fill mod slots) x stride; the column for tensor memory), which tensor memory
//   stands in for with a global buffer per block;
// - after each role returns, its leader checks that every fill the role made has been released
//   (the promise of the producer tail), with mbarrier.test_wait;
// - each op counts its instances per block in host memory mapped into the device; the host
//   checks them against the trip count, and a watchdog reports DEADLOCK with every op's progress
//   when they stop moving.
// Exit codes: 0 passed, 1 data error (stamp, address, producer tail, instance count), 3
// deadlock, 4 CUDA error, 2 bad command line.

#include <algorithm>

#include <fmt/format.h>

#include <gaus/codegen/targets.hpp>

#include "cuda_text.hpp"
#include "selftest_text.hpp"

namespace gaus::codegen {

namespace {

// A stamp holds the op (12 bits, plus one) and the iteration (20 bits).
constexpr std::int64_t kMostStampedOps = 4094;
constexpr std::int64_t kMostTrips = 1000000;   // below 2^20, as the CPU program's limit
constexpr std::int64_t kBulkCopyGranule = 16;  // cp.async.bulk moves multiples of 16 bytes
// The tensor maps over the staging buffer: rows of 64 words (256 bytes), a box of at most 256
// rows, at most this many boxes per tile.
constexpr std::int64_t kStagingRowBytes = 256;
constexpr std::int64_t kMostBoxRows = 256;
constexpr std::int64_t kMostBoxesPerTile = 64;

constexpr std::string_view kMain = R"cuda(
int main(int argc, char** argv) {
  using namespace KERNEL_NAMESPACE;
  using namespace KERNEL_NAMESPACE::selftest;
  int device = 0;
  host::check(cudaSetDevice(device), "cudaSetDevice");
  cudaDeviceProp properties{};
  host::check(cudaGetDeviceProperties(&properties, device), "cudaGetDeviceProperties");
  const int multiprocessors = properties.multiProcessorCount;
  std::vector<int> trips, grids;
  host::parse_list("1,2,7,1000", multiprocessors, kMostTrips, trips);
  host::parse_list("1,2xSM", multiprocessors, 1 << 20, grids);
  double watchdog_seconds = 10.0;
  for (int a = 1; a < argc; ++a) {
    const bool has_value = a + 1 < argc;
    const std::string flag = argv[a];
    bool ok = has_value;
    if (flag == "--trips" && has_value) {
      ok = host::parse_list(argv[++a], multiprocessors, kMostTrips, trips);
    } else if (flag == "--grids" && has_value) {
      ok = host::parse_list(argv[++a], multiprocessors, 1 << 20, grids);
    } else if (flag == "--watchdog" && has_value) {
      watchdog_seconds = std::strtod(argv[++a], nullptr);
      ok = watchdog_seconds > 0;
    } else {
      ok = false;
    }
    if (!ok) {
      std::fprintf(stderr,
                   "usage: %s [--trips 1,2,7,1000] [--grids 1,2xSM] [--watchdog SECONDS]\n"
                   "  trips up to %lld; a grid is a block count or NxSM (N times the %d "
                   "multiprocessors)\n",
                   argv[0], static_cast<long long>(kMostTrips), multiprocessors);
      return host::kUsage;
    }
  }
  const int most_blocks = *std::max_element(grids.begin(), grids.end());
  host::Buffers buffers;
  host::check(cudaHostAlloc(reinterpret_cast<void**>(&buffers.instances),
                            sizeof(unsigned int) * kOps * most_blocks, cudaHostAllocMapped),
              "cudaHostAlloc");
  host::check(
      cudaHostAlloc(reinterpret_cast<void**>(&buffers.report), sizeof(Report), cudaHostAllocMapped),
      "cudaHostAlloc");
  host::check(cudaMalloc(reinterpret_cast<void**>(&buffers.tensor_memory),
                         static_cast<std::size_t>(kTensorMemoryBytes) * most_blocks + 16),
              "cudaMalloc");
  host::check(cudaMalloc(reinterpret_cast<void**>(&buffers.staging),
                         static_cast<std::size_t>(kStagingBytes) * most_blocks + 16),
              "cudaMalloc");
  host::describe_staging(buffers, most_blocks);
  std::printf("selftest %s on %s (%d multiprocessors): %d threads, %zu bytes of shared memory\n",
              kKernelName, properties.name, multiprocessors, kThreads, kSharedBytes);
  int cases = 0;
  for (int grid : grids) {
    for (int trip_count : trips) {
      const int verdict = host::run_case(buffers, grid, trip_count, watchdog_seconds);
      std::printf("  trips %d, grid %d: %s\n", trip_count, grid,
                  verdict == host::kPassed ? "passed" : "FAILED");
      std::fflush(stdout);
      if (verdict != host::kPassed) return verdict;
      ++cases;
    }
  }
  std::printf("ok: %s, %d cases passed\n", kKernelName, cases);
  return host::kPassed;
}
)cuda";

class SelfTestWriter {
 public:
  explicit SelfTestWriter(const Pipeline& pipeline) : p_(pipeline), graph_(*pipeline.graph) {}

  Status check() const {
    if (graph_.numOps() > kMostStampedOps) {
      return Error{fmt::format("{} has {} ops; a self-test stamp names at most {}", p_.name,
                               graph_.numOps(), kMostStampedOps)};
    }
    for (const Ring& ring : p_.rings) {
      if (ring.asyncFill && ring.txBytes % kBulkCopyGranule != 0) {
        return Error{
            fmt::format("the copy of {} brings {} bytes; cp.async.bulk moves multiples of {}",
                        ring.name, ring.txBytes, kBulkCopyGranule)};
      }
    }
    return Done{};
  }

  std::string program() {
    preamble();
    constants();
    out_ += detail::selfTestDeviceSupport();
    out_ += "\n}  // namespace selftest\n\nnamespace ops {\n\n";
    for (OpId op = 0; op < graph_.numOps(); ++op) opBody(op);
    out_ += fmt::format(
        "}}  // namespace ops\n}}  // namespace {}\n\n// The pipeline as `gaus codegen --target "
        "cuda` writes it.\n#include \"{}_pipeline.cu\"\n\nnamespace {} {{\nnamespace selftest "
        "{{\n\n",
        p_.identifier, p_.identifier, p_.identifier);
    roleExitChecks();
    out_ += detail::cudaKernelEntry(
        p_, "selftest_kernel",
        "// The pipeline's kernel entry (the same barrier initialization, setmaxnreg and role\n"
        "// dispatch as " +
            p_.identifier + "_kernel), checking each role's exit.\n",
        "check_role_exit(params, smem, trips, {role});");
    out_ += detail::selfTestHostSupport();
    out_ += fmt::format("\n}}  // namespace selftest\n}}  // namespace {}\n", p_.identifier);
    std::string main(kMain);
    const std::string key = "KERNEL_NAMESPACE";
    for (auto at = main.find(key); at != std::string::npos; at = main.find(key)) {
      main.replace(at, key.size(), p_.identifier);
    }
    out_ += main;
    return out_;
  }

 private:
  void preamble() {
    const bool blackwell = p_.machine->name.find("blackwell") != std::string::npos;
    const std::string architecture = blackwell ? "sm_100a" : "sm_90a";
    out_ += fmt::format(
        "// {}_selftest.cu: the GPU self-test of the software pipeline of {}, generated by\n"
        "// `gaus codegen --target selftest` (docs/codegen.md \"Self-test\"). It runs\n"
        "// {}_pipeline.cu as generated with op bodies that stamp every value with (op,\n"
        "// iteration) and check every value they read at its distance, the slot addresses\n"
        "// against the memory layout, each role's exit against its releases and each op's\n"
        "// instances against the trip count.\n"
        "// Build: nvcc -arch={} -std=c++17 -O2 -o {}_selftest {}_selftest.cu\n"
        "// Run:   ./{}_selftest [--trips 1,2,7,1000] [--grids 1,2xSM] [--watchdog 10]\n"
        "// Exit:  0 passed, 1 data error, 3 deadlock (the watchdog names each op's progress),\n"
        "//        4 CUDA error, 2 bad command line.\n",
        p_.identifier, p_.name, p_.identifier, architecture, p_.identifier, p_.identifier,
        p_.identifier);
    if (!p_.seededFault.empty()) {
      out_ +=
          fmt::format("// SEEDED FAULT (test only; the self-test must fail): {}\n", p_.seededFault);
    }
    out_ += fmt::format(
        "\n#include <algorithm>\n#include <chrono>\n#include <cstddef>\n#include <cstdint>\n"
        "#include <cstdio>\n#include <cstdlib>\n#include <cstring>\n#include <string>\n"
        "#include <thread>\n#include <vector>\n\n#include <cuda.h>\n#include <cuda_runtime.h>\n"
        "#include <cudaTypedefs.h>\n\n"
        "#include \"{}_ops.cuh\"\n\nnamespace {} {{\nnamespace selftest {{\n\n",
        p_.identifier, p_.identifier);
  }

  void constants() {
    out_ += fmt::format("constexpr const char* kKernelName = \"{}\";\nconstexpr int kOps = {};\n",
                        p_.identifier, graph_.numOps());
    out_ += "constexpr const char* kOpNames[] = {";
    for (OpId op = 0; op < graph_.numOps(); ++op) {
      out_ += fmt::format("{}\"{}\"", op == 0 ? "" : ", ", p_.opIdentifiers[op]);
    }
    out_ += "};\nconstexpr const char* kRoleNames[] = {";
    for (std::size_t r = 0; r < p_.roles.size(); ++r) {
      out_ += fmt::format("{}\"{}\"", r == 0 ? "" : ", ", p_.roles[r].name);
    }
    out_ += fmt::format("}};\nconstexpr long long kMostTrips = {};\n", kMostTrips);
    const MemoryUse* tensor = p_.layout.use(MemorySpace::kTensor);
    out_ += fmt::format(
        "// Tensor memory stands in as this many bytes of global memory per block.\n"
        "constexpr long long kTensorMemoryBytes = {};\n",
        tensor != nullptr ? tensorMemoryColumnsAllocated(*tensor) * kTensorMemoryColumnBytes : 0);
    // The staging areas of the copies: one slot per fill in flight, in rows of 256 bytes; a
    // tile of whole rows is copied in boxes of equal height (at most 256 rows), one tensor map
    // per height.
    std::int64_t staging = 0;
    std::vector<std::int64_t> heights;
    for (std::size_t r = 0; r < p_.rings.size(); ++r) {
      const Ring& ring = p_.rings[r];
      if (!ring.asyncFill) continue;
      const RingPlacement& tile =
          *p_.layout.find(static_cast<std::int32_t>(r), MemorySpace::kShared);
      StagedCopy copy;
      copy.ring = static_cast<std::int32_t>(r);
      copy.offset = staging;
      copy.stride =
          (tile.bytesPerSlot + kStagingRowBytes - 1) / kStagingRowBytes * kStagingRowBytes;
      if (tile.bytesPerSlot % kStagingRowBytes == 0) {
        const std::int64_t rows = tile.bytesPerSlot / kStagingRowBytes;
        for (std::int64_t height = std::min(rows, kMostBoxRows); height > 0; --height) {
          if (rows % height == 0) {
            copy.boxRows = height;
            break;
          }
        }
        copy.boxes = rows / copy.boxRows;
        if (copy.boxes <= kMostBoxesPerTile) {
          const auto known = std::find(heights.begin(), heights.end(), copy.boxRows);
          copy.map = static_cast<std::int32_t>(known - heights.begin());
          if (known == heights.end()) heights.push_back(copy.boxRows);
        }
      }
      stagedCopies_.push_back(copy);
      staging += tile.slots * copy.stride;
    }
    std::string rows;
    for (std::int64_t height : heights)
      rows += fmt::format("{}{}", rows.empty() ? "" : ", ", height);
    out_ += fmt::format(
        "// The sources of the copies, per block: one slot per fill in flight, in rows of 256\n"
        "// bytes; the tensor maps over them, one per box height (rows).\n"
        "constexpr long long kStagingBytes = {};\nconstexpr int kStagingMaps = {};\n"
        "constexpr long long kStagingBoxRows[kStagingMaps] = {{{}}};\n\n",
        staging, std::max<std::size_t>(1, heights.size()), rows.empty() ? "1" : rows);
  }

  // Stamps and checks of one op, in the order of its parameters.
  void opBody(OpId op) {
    const PipelineRole& role = p_.roles[static_cast<std::size_t>(p_.roleOf[op])];
    const std::string& name = p_.opIdentifiers[op];
    out_ += fmt::format(
        "// {} on role {}: checks what it reads, then stamps what it writes.\ntemplate <class "
        "Params>\n__device__ void {}({}) {{\n  constexpr int kOp = {};\n  [[maybe_unused]] "
        "constexpr int kThreads "
        "= {};  // of role {}\n  const int thread = threadIdx.x - {};\n",
        graph_.opName(op), role.name, name, detail::cudaParameterList(p_, op), op, role.threads(),
        role.name, role.firstThread());
    for (const auto& [source, distance] : detail::cudaOpInputs(p_, op)) {
      readInput(source, distance);
    }
    writeOutput(op);
    out_ += "  selftest::count_instance(params, kOp, thread);\n}\n\n";
  }

  // The fill an op of iteration `iteration` reads at `distance`, as C++.
  static std::string fillOf(std::int32_t distance) {
    return distance == 0 ? "iteration" : fmt::format("iteration - {}", distance);
  }

  // The checks of one input: its slot addresses and its stamps.
  void readInput(OpId source, std::int32_t distance) {
    const std::string parameter = detail::cudaInputName(p_, source, distance);
    const std::string fill = fillOf(distance);
    const std::string expected = fmt::format("selftest::stamp({}, {})", source, fill);
    std::string body;
    const std::int32_t ring = p_.ringOf[source];
    const std::int32_t regs = graph_.regs(source);
    if (ring < 0 || p_.rings[static_cast<std::size_t>(ring)].bytesPerSlot.empty()) {
      body = regs > 0
                 ? fmt::format(
                       "    selftest::check_stamps(params, {}.registers, {}, {}, 0, 1, kOp, "
                       "iteration, {});\n",
                       parameter, regs, expected, source)
                 : fmt::format("    (void){};  // no registers: nothing to check\n", parameter);
    } else {
      for (const RingPlacement& placement : p_.layout.placements) {
        if (placement.ring != ring || placement.stagedRegisters) continue;
        body += placementCheck(placement, parameter, fill, source, expected);
      }
    }
    out_ += fmt::format("  // {} of iteration {}\n", graph_.opName(source), fill);
    if (distance > 0) {
      out_ += fmt::format("  if ({} >= 0) {{\n{}  }} else {{\n    (void){};\n  }}\n", fill, body,
                          parameterOf(source, distance));
    } else {
      out_ += fmt::format("  {{\n{}  }}\n", body);
    }
  }

  // The parameter of an input that the unused-parameter warning looks at when the fill does not
  // exist (its first, for a tile in two memories).
  std::string parameterOf(OpId source, std::int32_t distance) const {
    const std::string parameter = detail::cudaInputName(p_, source, distance);
    const std::int32_t ring = p_.ringOf[source];
    if (ring < 0 || p_.rings[static_cast<std::size_t>(ring)].bytesPerSlot.empty()) return parameter;
    const RingPlacement* first = nullptr;
    for (const RingPlacement& placement : p_.layout.placements) {
      if (placement.ring == ring && !placement.stagedRegisters && first == nullptr) {
        first = &placement;
      }
    }
    return first->memory == MemorySpace::kTensor ? parameter + "_tmem" : parameter;
  }

  // The address and stamp checks of one tile of fill `fill` in one memory.
  std::string placementCheck(const RingPlacement& placement, const std::string& parameter,
                             const std::string& fill, OpId source, const std::string& expected) {
    const std::int64_t words = placement.bytesPerSlot / 4;
    const std::string slot = fmt::format("(({}) % {})", fill, placement.slots);
    if (placement.memory == MemorySpace::kTensor) {
      const std::int64_t column = tensorMemoryColumn(placement.offset);
      const std::int64_t perSlot = tensorMemoryColumn(placement.slotStride);
      return fmt::format(
          "    selftest::check_tensor_column(params, {}_tmem, {} + {} * {}, kOp, iteration, {});\n"
          "    selftest::check_stamps(params, selftest::tensor_words(params, {}_tmem), {}, {}, "
          "thread, kThreads, kOp, iteration, {});\n",
          parameter, column, slot, perSlot, source, parameter, words, expected, source);
    }
    return fmt::format(
        "    selftest::check_shared_slot(params, {}, {} + {} * {}, kOp, iteration, {});\n"
        "    selftest::check_stamps(params, static_cast<const std::uint32_t*>({}), {}, {}, thread, "
        "kThreads, kOp, iteration, {});\n",
        parameter, placement.offset, slot, placement.slotStride, source, parameter, words, expected,
        source);
  }

  void writeOutput(OpId op) {
    const std::string out = p_.opIdentifiers[op] + "_out";
    const std::string value = fmt::format("selftest::stamp(kOp, iteration)");
    const std::int32_t ring = p_.ringOf[op];
    const std::int32_t regs = graph_.regs(op);
    const bool inRegisters =
        (ring < 0 && p_.valueCopies[op] > 0) ||
        (ring >= 0 && p_.rings[static_cast<std::size_t>(ring)].bytesPerSlot.empty());
    if (inRegisters) {
      out_ += regs > 0
                  ? fmt::format(
                        "  // Its value: every register.\n  selftest::write_stamps({}.registers, "
                        "{}, {}, 0, 1);\n",
                        out, regs, value)
                  : fmt::format("  (void){};  // no registers: nothing to stamp\n", out);
      return;
    }
    if (ring < 0) return;  // a value nobody reads
    const Ring& filled = p_.rings[static_cast<std::size_t>(ring)];
    for (const RingPlacement& placement : p_.layout.placements) {
      if (placement.ring != ring || placement.stagedRegisters) continue;
      const std::int64_t words = placement.bytesPerSlot / 4;
      const std::string slot = fmt::format("(iteration % {})", placement.slots);
      if (placement.memory == MemorySpace::kTensor) {
        out_ += fmt::format(
            "  // Its tile in tensor memory.\n"
            "  selftest::check_tensor_column(params, {}_tmem, {} + {} * {}, kOp, iteration, -1);\n"
            "  selftest::write_stamps(selftest::tensor_words(params, {}_tmem), {}, {}, thread, "
            "kThreads);\n",
            out, tensorMemoryColumn(placement.offset), slot,
            tensorMemoryColumn(placement.slotStride), out, words, value);
      } else if (filled.asyncFill) {
        const StagedCopy& copy = *std::find_if(stagedCopies_.begin(), stagedCopies_.end(),
                                               [&](const StagedCopy& c) { return c.ring == ring; });
        out_ += fmt::format(
            "  // Its tile: stamped in this block's staging area, then brought into the slot from\n"
            "  // the role's first thread, which armed the full barrier with the copy's bytes; "
            "the\n"
            "  // copy completes them there.\n"
            "  selftest::check_shared_slot(params, {}, {} + {} * {}, kOp, iteration, -1);\n"
            "  const long long first_byte = blockIdx.x * selftest::kStagingBytes + {} + {} * {};\n"
            "  selftest::write_stamps(reinterpret_cast<std::uint32_t*>(params.staging + "
            "first_byte), {}, {}, thread, kThreads);\n"
            "  selftest::fence_proxy_async_global();\n"
            "  selftest::role_barrier({}, kThreads);\n",
            out, placement.offset, slot, placement.slotStride, copy.offset, slot, copy.stride,
            words, value, p_.roleOf[op] + 1);
        if (copy.map >= 0) {
          out_ += fmt::format(
              "  // {} box{} of {} rows of 256 bytes through tensor map {}.\n"
              "  if (thread == 0) {{\n"
              "    for (int box = 0; box < {}; ++box) {{\n"
              "      selftest::tensor_copy(static_cast<unsigned char*>({}) + box * {}, "
              "&params.staging_maps[{}], static_cast<int>(first_byte / 256) + box * {}, "
              "full_barrier);\n    }}\n  }}\n",
              copy.boxes, copy.boxes == 1 ? "" : "es", copy.boxRows, copy.map, copy.boxes, out,
              copy.boxRows * kStagingRowBytes, copy.map, copy.boxRows);
        } else {
          out_ += fmt::format(
              "  // Not whole rows of 256 bytes: one bulk copy without a tensor map.\n"
              "  if (thread == 0) selftest::bulk_copy({}, params.staging + first_byte, {}, "
              "full_barrier);\n",
              out, placement.bytesPerSlot);
        }
      } else {
        out_ += fmt::format(
            "  // Its tile in shared memory.\n"
            "  selftest::check_shared_slot(params, {}, {} + {} * {}, kOp, iteration, -1);\n"
            "  selftest::write_stamps(static_cast<std::uint32_t*>({}), {}, {}, thread, "
            "kThreads);\n",
            out, placement.offset, slot, placement.slotStride, out, words, value);
      }
    }
  }

  // After role r returns, every fill of every channel it produces is released (the producer
  // tail's promise), checked by its first thread with mbarrier.test_wait.
  void roleExitChecks() {
    out_ +=
        "// After a role returns: every fill it made has been released by its consumers (what\n"
        "// the producer tail waits for), checked by its first thread without waiting.\n"
        "template <class Params>\n__device__ void check_role_exit(const Params& params, "
        "SharedStorage& smem, int trips, int role) {\n";
    bool any = false;
    for (std::size_t r = 0; r < p_.roles.size(); ++r) {
      std::string checks;
      for (std::size_t c = 0; c < p_.rings.size(); ++c) {
        const Ring& ring = p_.rings[c];
        if (!ring.channel() || ring.producerRole != static_cast<std::int32_t>(r)) continue;
        checks += fmt::format(
            "    for (int j = trips > {}_slots ? trips - {}_slots : 0; j < trips; ++j) {{\n"
            "      if (!test_wait(&smem.empty_{}[slot_of(j, {}_slots)], phase_of(j, {}_slots))) "
            "{{\n        fail(params, kProducerTail, role, j, {}, 0, 0);\n        break;\n      "
            "}}\n"
            "    }}\n",
            ring.name, ring.name, ring.name, ring.name, ring.name, ring.producer);
      }
      if (checks.empty()) continue;
      out_ += fmt::format("  if (role == {} && threadIdx.x == {}) {{  // {}\n{}  }}\n", r,
                          p_.roles[r].firstThread(), p_.roles[r].name, checks);
      any = true;
    }
    if (!any) out_ += "  (void)params;\n  (void)smem;\n  (void)trips;\n  (void)role;\n";
    out_ += "}\n\n";
  }

  // The staging of one streaming ring's copies.
  struct StagedCopy {
    std::int32_t ring = 0;
    std::int64_t offset = 0;  // in a block's staging area
    std::int64_t stride = 0;  // per slot: the tile's bytes rounded up to rows of 256
    std::int32_t map = -1;    // its tensor map; -1: not whole rows, one cp.async.bulk
    std::int64_t boxRows = 0;
    std::int64_t boxes = 0;
  };

  const Pipeline& p_;
  const Graph& graph_;
  std::vector<StagedCopy> stagedCopies_;
  std::string out_;
};

}  // namespace

Expected<std::vector<GeneratedFile>> renderSelfTest(const Pipeline& pipeline,
                                                    const TargetOptions& options) {
  SelfTestWriter writer(pipeline);
  if (const Status fits = writer.check(); !fits) return Error{fits.error()};
  auto files = renderCuda(pipeline, options);
  if (!files) return Error{files.error()};
  files->push_back({pipeline.identifier + "_selftest.cu", writer.program()});
  return files;
}

}  // namespace gaus::codegen
