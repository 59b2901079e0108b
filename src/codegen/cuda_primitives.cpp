// The device primitives every generated kernel carries above its roles: the slot and phase of a
// fill, and the mbarrier, named-barrier, proxy-fence and setmaxnreg operations as inline PTX
// (PTX ISA: mbarrier, bar.sync, fence.proxy.async, setmaxnreg). They do not depend on the
// pipeline; cuda_target.cpp writes the code that calls them.

#include "cuda_text.hpp"

namespace gaus::codegen::detail {

namespace {

constexpr std::string_view kDevicePrimitives =
    R"(// Slot and phase of fill j (j may be negative for the value before the loop).
__device__ __forceinline__ int slot_of(int fill, int slots) { return ((fill % slots) + slots) % slots; }
__device__ __forceinline__ std::uint32_t phase_of(int fill, int slots) {
  return static_cast<std::uint32_t>((fill / slots) & 1);
}

// mbarrier and warp-group primitives (PTX ISA: mbarrier, bar.sync, setmaxnreg).
namespace sync {

__device__ __forceinline__ std::uint32_t shared_address(const void* pointer) {
  return static_cast<std::uint32_t>(__cvta_generic_to_shared(pointer));
}
__device__ __forceinline__ void init(std::uint64_t* barrier, std::uint32_t arrivals) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(shared_address(barrier)),
               "r"(arrivals)
               : "memory");
}
// Makes the initialized barriers visible to the whole block (and to the async proxy).
__device__ __forceinline__ void fence_barrier_init() {
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}
// The arrive's state operand is the sink `_`: the protocol waits on parities, not states.
__device__ __forceinline__ void arrive(std::uint64_t* barrier) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(shared_address(barrier))
               : "memory");
}
// Expects `bytes` of asynchronous copies in the current phase, then arrives.
__device__ __forceinline__ void arrive_expect_tx(std::uint64_t* barrier, std::uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(
                   shared_address(barrier)),
               "r"(bytes)
               : "memory");
}
__device__ __forceinline__ bool try_wait(std::uint64_t* barrier, std::uint32_t parity) {
  std::uint32_t ready;
  asm volatile(
      "{\n"
      ".reg .pred done;\n"
      "mbarrier.try_wait.parity.shared::cta.b64 done, [%1], %2;\n"
      "selp.u32 %0, 1, 0, done;\n"
      "}\n"
      : "=r"(ready)
      : "r"(shared_address(barrier)), "r"(parity)
      : "memory");
  return ready != 0;
}
// Returns once the phase of parity `parity` has completed.
__device__ __forceinline__ void wait(std::uint64_t* barrier, std::uint32_t parity) {
  while (!try_wait(barrier, parity)) {
  }
}
// The threads of one role meet (named barrier `id`, `threads` threads).
__device__ __forceinline__ void role_barrier(std::uint32_t id, std::uint32_t threads) {
  asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(threads) : "memory");
}
// Generic-proxy writes to shared memory become visible to the async proxy (TMA, wgmma).
__device__ __forceinline__ void fence_async_shared() {
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}
// setmaxnreg exists on the architecture-specific targets only (sm_90a, sm_100a); the portable
// PTX that nvcc embeds beside them runs with the registers the kernel was compiled for.
#if defined(__CUDA_ARCH_FEAT_SM90_ALL) || defined(__CUDA_ARCH_FEAT_SM100_ALL) || \
    defined(__CUDA_ARCH_SPECIFIC__) || defined(__CUDA_ARCH_FAMILY_SPECIFIC__)
#define GAUS_SETMAXNREG(direction, registers) \
  asm volatile("setmaxnreg." direction ".sync.aligned.u32 %0;" ::"n"(registers))
#else
#define GAUS_SETMAXNREG(direction, registers)
#endif
template <std::uint32_t kRegisters>
__device__ __forceinline__ void increase_registers() {
  GAUS_SETMAXNREG("inc", kRegisters);
}
template <std::uint32_t kRegisters>
__device__ __forceinline__ void decrease_registers() {
  GAUS_SETMAXNREG("dec", kRegisters);
}
#undef GAUS_SETMAXNREG

}  // namespace sync

)";

}  // namespace

std::string_view cudaDevicePrimitives() {
  return kDevicePrimitives;
}

}  // namespace gaus::codegen::detail
