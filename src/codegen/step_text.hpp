// Words and names for the protocol steps, shared by every rendering: barrier and ring names
// (full_load_k), symbolic iterations ("k-1", "trips+1"), and what a wait waits for or an arrive
// announces, with the op and the role on the other side.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include <gaus/codegen/pipeline.hpp>

namespace gaus::codegen::detail {

// "full_load_k" / "empty_load_k".
std::string barrierArray(const Ring& ring, ProtocolStep::Kind kind);

// `base` plus `offset`: ("k", -2) -> "k-2", ("trips", 0) -> "trips", ("", 3) -> "3".
std::string offsetText(std::string_view base, std::int64_t offset);

// The roles of a list, by name: "consumer_wg1, consumer_wg2".
std::string roleList(const Pipeline& pipeline, const std::vector<std::int32_t>& roles);

// What the step does, for a comment or a listing line; the fill is `base` + `offset` ("i", -1
// gives "i-1"; an empty base a number): "waits for load_k of iteration i-1 (producer_wg0) to
// fill the slot".
std::string describeStep(const Pipeline& pipeline, const ProtocolStep& step, std::string_view base,
                         std::int64_t offset);

// Where a role runs in the thread block: "warp group 1, threads 128..255", "warps 12..13,
// threads 384..447".
std::string roleThreadsText(const PipelineRole& role);

// "only when FILL+2 >= trips (...)" for a step that does not always run; empty otherwise.
std::string conditionText(const FillSync& when, std::string_view base, std::int64_t offset);

}  // namespace gaus::codegen::detail
