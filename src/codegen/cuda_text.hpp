// Pieces of the CUDA target (cuda_target.cpp) that the self-test target reuses, so that the
// self-test's op definitions and kernel entry match the generated kernel by construction.
#pragma once

#include <cstdint>
#include <string>
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

}  // namespace gaus::codegen::detail
