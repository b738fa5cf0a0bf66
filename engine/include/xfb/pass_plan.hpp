#pragma once
/// @file
/// @brief Pass plan: matches buffer entries with roles to the shader's inputs and captured outputs. Pure.

#include "xfb/attribute_plan.hpp"
#include "xfb/capture_plan.hpp"

#include <cstdint>
#include <optional>
#include <span>

namespace xfb {

/// A buffer as the planner sees it: its format and its size in bytes.
struct BufferDesc {
    VertexFormat format;
    std::uint64_t bytes = 0;
};

/// One entry of the role list. {input, output}: state, read then written, swapped every step.
/// {input}: per-element constants, never written. {output}: written every step, never read.
struct EntryDesc {
    std::optional<BufferDesc> input;
    std::optional<BufferDesc> output;
    std::string role() const; // "{input, output}", "{input}", "{output}", "{}"
};

/// Where one shader input is read from.
struct AttributeBinding {
    std::string input; ///< shader input name
    int entry = 0;     ///< index into the entry list
    int location = 0;  ///< first location
    int locationCount = 1;
    int componentsPerLocation = 4;
    ComponentType type = ComponentType::Float32;
    int offset = 0; ///< bytes, of the first location
    int stride = 0;
};

/// Where one transform-feedback binding writes.
struct OutputBinding {
    int entry = 0;
    int binding = 0;
    int stride = 0;
    std::uint64_t bytesPerStep = 0; ///< count x stride: what a step writes
};

struct PassPlan {
    std::int64_t count = 0; ///< elements (points) per step
    std::vector<AttributeBinding> attributes;
    std::vector<OutputBinding> outputs;
    std::vector<int> emitEntries; ///< the last {output} entries, written by emitted outputs (emit_plan.hpp)
};

/// What an output buffer must hold: count x stride per step (Pipeline), or nothing fixed because
/// each draw writes its own number of records (PrimitiveCapture checks them per draw).
enum class OutputSizing { PerElement, PerDraw };

/// Refuses a state pair {input, output} in a primitive capture's role list: a capture reads
/// {input} vertex buffers and writes {output} buffers (every runtime's capture calls it first).
/// @throws Error InvalidArgument naming the entry
void checkCaptureEntries(std::span<const EntryDesc> entries);

/// Matches entries to the shader. Output entries get binding indices in order, skipping
/// input-only ones. Element counts must agree; output buffers must hold count x stride.
/// `count` is required when no entry has an input (the shader then runs on gl_VertexID only).
/// The last `emittedOutputs` {output} entries are left to planEmits().
/// @throws Error RoleEmpty, FormatInvalid, OutputCountMismatch, SemanticMissing, SemanticDuplicate,
///         SemanticUnused, SemanticTypeMismatch, StateFormatMismatch, OutputLayoutMismatch,
///         CountMismatch, BufferSize, Capacity, InvalidArgument
PassPlan planPass(std::span<const AttributeSlot> attributes, const CapturePlan& capture,
                  std::span<const EntryDesc> entries, std::optional<std::int64_t> count = std::nullopt,
                  OutputSizing sizing = OutputSizing::PerElement, std::size_t emittedOutputs = 0);

} // namespace xfb
