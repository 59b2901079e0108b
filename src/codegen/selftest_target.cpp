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

// The device and host code that does not depend on the pipeline.
constexpr std::string_view kDeviceSupport =
    R"cuda(// What the device reports, in host memory mapped into the device, so that the host can read
// it while a kernel hangs.
enum ErrorKind : int { kStamp = 1, kAddress = 2, kProducerTail = 3 };
struct ErrorRecord {
  int kind, block, op, iteration, source;  // source: the op whose value was read, or -1
  std::uint32_t expected, found;           // stamps, offsets or columns
};
constexpr int kRecords = 8;
struct Report {
  unsigned int errors;
  ErrorRecord records[kRecords];
};

struct Params {
  unsigned int* instances;       // per block and op: instances run (mapped host memory)
  Report* report;                // mapped host memory
  unsigned char* tensor_memory;  // per block: kTensorMemoryBytes standing in for tensor memory
  unsigned char* staging;        // per block: kStagingBytes, the sources of the copies
  // The staging buffer of all blocks as rows of 64 words, one map per box height, read by the
  // TMA copies (a __grid_constant__ parameter, as CUTLASS passes its TMA descriptors).
  CUtensorMap staging_maps[kStagingMaps];
};

// Every extern __shared__ array starts at the dynamic shared memory of the block, where the
// pipeline's SharedStorage lives.
extern __shared__ __align__(128) unsigned char dynamic_shared_memory[];

__device__ __forceinline__ std::uint32_t stamp(int op, int iteration) {
  return (static_cast<std::uint32_t>(op + 1) << 20) | static_cast<std::uint32_t>(iteration);
}

__device__ void fail(const Params& params, int kind, int op, int iteration, int source,
                     std::uint32_t expected, std::uint32_t found) {
  const unsigned int index = atomicAdd_system(&params.report->errors, 1u);
  if (index < kRecords) {
    params.report->records[index] = {kind, static_cast<int>(blockIdx.x), op, iteration, source,
                                     expected, found};
    __threadfence_system();
  }
}

// The role's threads stamp, or check, `count` words in turn.
__device__ void write_stamps(std::uint32_t* words, int count, std::uint32_t value, int thread,
                             int threads) {
  for (int w = thread; w < count; w += threads) words[w] = value;
}
__device__ void check_stamps(const Params& params, const std::uint32_t* words, int count,
                             std::uint32_t expected, int thread, int threads, int op,
                             int iteration, int source) {
  for (int w = thread; w < count; w += threads) {
    if (words[w] != expected) {
      fail(params, kStamp, op, iteration, source, expected, words[w]);
      return;
    }
  }
}

// The slot an op is handed must be where the memory layout puts the fill.
__device__ void check_shared_slot(const Params& params, const void* slot,
                                  std::uint32_t expected_offset, int op, int iteration,
                                  int source) {
  const auto offset = static_cast<std::uint32_t>(static_cast<const unsigned char*>(slot) -
                                                 dynamic_shared_memory);
  if (offset != expected_offset) fail(params, kAddress, op, iteration, source, expected_offset, offset);
}
__device__ void check_tensor_column(const Params& params, std::uint32_t column,
                                    std::uint32_t expected_column, int op, int iteration,
                                    int source) {
  if (column != expected_column) fail(params, kAddress, op, iteration, source, expected_column, column);
}

// Tensor memory stands in as a global buffer per block, a column being 128 lanes x 4 bytes.
__device__ std::uint32_t* tensor_words(const Params& params, std::uint32_t column) {
  return reinterpret_cast<std::uint32_t*>(params.tensor_memory +
                                          blockIdx.x * static_cast<std::size_t>(kTensorMemoryBytes) +
                                          column * 512u);
}

__device__ void count_instance(const Params& params, int op, int thread) {
  if (thread == 0) atomicAdd_system(&params.instances[blockIdx.x * kOps + op], 1u);
}

// A bulk copy from global into shared memory that completes its bytes on `barrier`.
__device__ void bulk_copy(void* destination, const void* source, std::uint32_t bytes,
                          std::uint64_t* barrier) {
  asm volatile(
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::
          "r"(static_cast<std::uint32_t>(__cvta_generic_to_shared(destination))),
      "l"(source), "r"(bytes),
      "r"(static_cast<std::uint32_t>(__cvta_generic_to_shared(barrier)))
      : "memory");
}
// A TMA copy of box `map` at row `row` of the staging buffer into shared memory, completing its
// bytes on `barrier`.
__device__ void tensor_copy(void* destination, const CUtensorMap* map, int row,
                            std::uint64_t* barrier) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], "
      "[%1, {%2, %3}], [%4];" ::"r"(static_cast<std::uint32_t>(__cvta_generic_to_shared(destination))),
      "l"(reinterpret_cast<std::uint64_t>(map)), "r"(0), "r"(row),
      "r"(static_cast<std::uint32_t>(__cvta_generic_to_shared(barrier)))
      : "memory");
}
// The generic-proxy writes of this thread become visible to the copies (the async proxy).
__device__ __forceinline__ void fence_proxy_async_global() {
  asm volatile("fence.proxy.async.global;" ::: "memory");
}
__device__ __forceinline__ void role_barrier(int id, int threads) {
  asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(threads) : "memory");
}
// Whether the phase of parity `parity` has completed, without waiting.
__device__ __forceinline__ bool test_wait(std::uint64_t* barrier, std::uint32_t parity) {
  std::uint32_t done;
  asm volatile(
      "{\n"
      ".reg .pred complete;\n"
      "mbarrier.test_wait.parity.shared::cta.b64 complete, [%1], %2;\n"
      "selp.u32 %0, 1, 0, complete;\n"
      "}\n"
      : "=r"(done)
      : "r"(static_cast<std::uint32_t>(__cvta_generic_to_shared(barrier))), "r"(parity)
      : "memory");
  return done != 0;
}
)cuda";

constexpr std::string_view kHostSupport =
    R"cuda(// The host side: the cases, the watchdog and the verdict.
namespace host {

enum Exit { kPassed = 0, kDataError = 1, kUsage = 2, kDeadlock = 3, kCudaError = 4 };

[[noreturn]] void cuda_failure(const char* what, cudaError_t error) {
  std::fprintf(stderr, "CUDA ERROR: %s: %s\n", what, cudaGetErrorString(error));
  std::fflush(stderr);
  std::_Exit(kCudaError);
}
void check(cudaError_t error, const char* what) {
  if (error != cudaSuccess) cuda_failure(what, error);
}

// "1,2,7" -> {1, 2, 7}; "2xSM" counts the device's multiprocessors.
bool parse_list(const char* text, int multiprocessors, long long most, std::vector<int>& out) {
  out.clear();
  std::string item;
  const std::string all = std::string(text) + ",";
  for (char c : all) {
    if (c != ',') {
      item += c;
      continue;
    }
    long long value = 0;
    char* end = nullptr;
    const long long number = std::strtoll(item.c_str(), &end, 10);
    if (end != item.c_str() && (std::strcmp(end, "xSM") == 0 || std::strcmp(end, "xsm") == 0)) {
      value = number * multiprocessors;
    } else if (!item.empty() && *end == '\0') {
      value = number;
    } else {
      return false;
    }
    if (value < 1 || value > most) return false;
    out.push_back(static_cast<int>(value));
    item.clear();
  }
  return !out.empty();
}

std::string stamp_text(std::uint32_t stamp) {
  const std::uint32_t op = stamp >> 20;
  if (op == 0 || op > static_cast<std::uint32_t>(kOps)) {
    char text[32];
    std::snprintf(text, sizeof text, "0x%08x (no stamp)", stamp);
    return text;
  }
  return std::string(kOpNames[op - 1]) + " of iteration " + std::to_string(stamp & 0xfffff);
}

void print_error(const ErrorRecord& record) {
  const char* source = record.source >= 0 ? kOpNames[record.source] : "its own value";
  const std::string where = std::string(kOpNames[record.op]) + " of iteration " +
                            std::to_string(record.iteration) + " in block " +
                            std::to_string(record.block);
  switch (record.kind) {
    case kStamp:
      std::fprintf(stderr, "DATA ERROR: %s reads %s: expected %s, found %s\n", where.c_str(),
                   source, stamp_text(record.expected).c_str(), stamp_text(record.found).c_str());
      break;
    case kAddress:
      std::fprintf(stderr,
                   "DATA ERROR: %s is handed %s at %u; the memory layout puts that fill at %u\n",
                   where.c_str(), source, record.found, record.expected);
      break;
    case kProducerTail:
      std::fprintf(stderr,
                   "DATA ERROR: role %s returned in block %d before iteration %d of %s was "
                   "released (missing producer tail)\n",
                   kRoleNames[record.op], record.block, record.iteration, source);
      break;
    default:
      std::fprintf(stderr, "DATA ERROR: record of kind %d\n", record.kind);
  }
}

// Each op's instances: the fewest and the most over the blocks, and the first block behind.
void print_progress(const unsigned int* instances, int grid, int trips) {
  for (int op = 0; op < kOps; ++op) {
    unsigned int fewest = ~0u, most = 0;
    int behind = -1;
    for (int block = 0; block < grid; ++block) {
      const unsigned int done = instances[block * kOps + op];
      if (done < fewest) {
        fewest = done;
        behind = block;
      }
      most = std::max(most, done);
    }
    std::fprintf(stderr, "  %-20s %u..%u of %d instances per block (block %d has %u)\n",
                 kOpNames[op], fewest, most, trips, behind, fewest);
  }
}

struct Buffers {
  unsigned int* instances = nullptr;
  Report* report = nullptr;
  unsigned char* tensor_memory = nullptr;
  unsigned char* staging = nullptr;
  CUtensorMap staging_maps[kStagingMaps] = {};
};

// One tensor map per box height over the staging buffer of `blocks` blocks: rows of 64 words
// of 4 bytes, no swizzle (cuTensorMapEncodeTiled, fetched from the driver by the runtime).
void describe_staging(Buffers& buffers, int blocks) {
  if (kStagingBytes == 0) return;
  void* entry = nullptr;
  cudaDriverEntryPointQueryResult found{};
  check(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &entry, 12000, cudaEnableDefault,
                                         &found),
        "cudaGetDriverEntryPointByVersion(cuTensorMapEncodeTiled)");
  if (found != cudaDriverEntryPointSuccess || entry == nullptr) {
    cuda_failure("cuTensorMapEncodeTiled", cudaErrorNotSupported);
  }
  const auto encode = reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(entry);
  const cuuint64_t size[2] = {64, static_cast<cuuint64_t>(kStagingBytes / 256) * blocks};
  const cuuint64_t stride[1] = {256};
  const cuuint32_t element_stride[2] = {1, 1};
  for (int m = 0; m < kStagingMaps; ++m) {
    const cuuint32_t box[2] = {64, static_cast<cuuint32_t>(kStagingBoxRows[m])};
    const CUresult result = encode(&buffers.staging_maps[m], CU_TENSOR_MAP_DATA_TYPE_UINT32, 2,
                                   buffers.staging, size, stride, box, element_stride,
                                   CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                                   CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                   CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (result != CUDA_SUCCESS) {
      std::fprintf(stderr, "CUDA ERROR: cuTensorMapEncodeTiled: CUresult %d\n",
                   static_cast<int>(result));
      std::_Exit(kCudaError);
    }
  }
}

int run_case(Buffers& buffers, int grid, int trips, double watchdog_seconds) {
  std::memset(buffers.instances, 0, sizeof(unsigned int) * kOps * grid);
  std::memset(buffers.report, 0, sizeof(Report));
  Params params{};
  check(cudaHostGetDevicePointer(reinterpret_cast<void**>(&params.instances), buffers.instances, 0),
        "cudaHostGetDevicePointer");
  check(cudaHostGetDevicePointer(reinterpret_cast<void**>(&params.report), buffers.report, 0),
        "cudaHostGetDevicePointer");
  params.tensor_memory = buffers.tensor_memory;
  params.staging = buffers.staging;
  for (int m = 0; m < kStagingMaps; ++m) params.staging_maps[m] = buffers.staging_maps[m];
  check(cudaMemset(params.tensor_memory, 0, static_cast<std::size_t>(kTensorMemoryBytes) * grid),
        "cudaMemset");
  check(cudaFuncSetAttribute(selftest_kernel<Params>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             static_cast<int>(kSharedBytes)),
        "cudaFuncSetAttribute");
  cudaEvent_t done;
  check(cudaEventCreateWithFlags(&done, cudaEventDisableTiming), "cudaEventCreate");
  selftest_kernel<Params><<<grid, kThreads, kSharedBytes>>>(params, trips);
  check(cudaGetLastError(), "launch");
  check(cudaEventRecord(done), "cudaEventRecord");
  auto last_change = std::chrono::steady_clock::now();
  unsigned long long last_total = 0;
  while (true) {
    const cudaError_t state = cudaEventQuery(done);
    if (state == cudaSuccess) break;
    if (state != cudaErrorNotReady) cuda_failure("the kernel", state);
    unsigned long long total = 0;
    for (int i = 0; i < kOps * grid; ++i) total += buffers.instances[i];
    const auto now = std::chrono::steady_clock::now();
    if (total != last_total) {
      last_total = total;
      last_change = now;
    } else if (std::chrono::duration<double>(now - last_change).count() > watchdog_seconds) {
      std::fprintf(stderr,
                   "DEADLOCK: trips %d, grid %d: no op instance for %.0f s; instances per op:\n",
                   trips, grid, watchdog_seconds);
      print_progress(buffers.instances, grid, trips);
      for (unsigned int e = 0; e < std::min<unsigned int>(buffers.report->errors, kRecords); ++e) {
        print_error(buffers.report->records[e]);
      }
      std::fflush(stderr);
      std::_Exit(kDeadlock);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  check(cudaEventDestroy(done), "cudaEventDestroy");
  if (buffers.report->errors > 0) {
    std::fprintf(stderr, "trips %d, grid %d: %u data error(s)\n", trips, grid,
                 buffers.report->errors);
    for (unsigned int e = 0; e < std::min<unsigned int>(buffers.report->errors, kRecords); ++e) {
      print_error(buffers.report->records[e]);
    }
    return kDataError;
  }
  for (int block = 0; block < grid; ++block) {
    for (int op = 0; op < kOps; ++op) {
      const unsigned int done_instances = buffers.instances[block * kOps + op];
      if (done_instances != static_cast<unsigned int>(trips)) {
        std::fprintf(stderr,
                     "DATA ERROR: trips %d, grid %d: %s ran %u times in block %d, not %d\n", trips,
                     grid, kOpNames[op], done_instances, block, trips);
        return kDataError;
      }
    }
  }
  return kPassed;
}

}  // namespace host
)cuda";

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
    out_ += kDeviceSupport;
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
    out_ += kHostSupport;
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
