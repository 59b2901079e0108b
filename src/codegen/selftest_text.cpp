// The fixed text of the self-test program (selftest_target.cpp says what the program is): the
// device code that stamps and checks words and records errors, and the host driver (its command
// line, the tensor maps over the staging buffer, the watchdog, the instance counts). Neither
// depends on the pipeline; the generated part of <id>_selftest.cu defines the constants and the
// ops they use.

#include "selftest_text.hpp"

#include <string_view>

namespace gaus::codegen::detail {

namespace {

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

}  // namespace

std::string_view selfTestDeviceSupport() {
  return kDeviceSupport;
}

std::string_view selfTestHostSupport() {
  return kHostSupport;
}

}  // namespace gaus::codegen::detail
