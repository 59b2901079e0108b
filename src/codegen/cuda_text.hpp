// Pieces of the CUDA target that the kernel (cuda_target.cpp), its op interface
// (cuda_ops_header.cpp) and the self-test target share, so that the self-test's op definitions
// and kernel entry match the generated kernel by construction.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <gaus/codegen/pipeline.hpp>

namespace gaus::codegen::detail {

// A kernel entry named `name` (with `comment` above it) that initializes the barriers, sets
// the registers per warp group and dispatches the roles as the pipeline's kernel does; after
// role r returns it runs `afterRole` with "{role}" replaced by r.
std::string cudaKernelEntry(const Pipeline& pipeline, const std::string& name,
                            const std::string& comment, const std::string& afterRole);

// The parameter list an op is declared with in <id>_ops.cuh ("const Params& params, int
// iteration, const void* load_k, s0_value& s0_out").
std::string cudaParameterList(const Pipeline& pipeline, OpId op);

// The inputs handed to an op: distinct (producer, distance) pairs, in parameter order.
std::vector<std::pair<OpId, std::int32_t>> cudaOpInputs(const Pipeline& pipeline, OpId op);

// The parameter name of an input: "s0", "max0_d1".
std::string cudaInputName(const Pipeline& pipeline, OpId source, std::int32_t distance);

// The placements of a ring's footprints (tiles), in the order of its footprints.
std::vector<const RingPlacement*> cudaTilePlacements(const Pipeline& pipeline, std::int32_t ring);

// The slot, phase and barrier primitives (inline PTX) above a kernel's roles (cuda_primitives.cpp).
std::string_view cudaDevicePrimitives();

// The SharedStorage struct and kSharedBytes of a kernel, as the memory layout places the slots
// of the rings and the barriers (cuda_shared_storage.cpp).
std::string cudaSharedStorage(const Pipeline& pipeline);

// <id>_ops.cuh: the value types and the declarations of the ops, which the user writes.
std::string cudaOpsHeader(const Pipeline& pipeline);

}  // namespace gaus::codegen::detail
