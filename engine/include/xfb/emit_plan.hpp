#pragma once
/// @file
/// @brief Variable-count outputs: elements that emit 0..maxRecords records each, written in
/// input order through a prefix sum (compute backend) or a pyramid of counts (fragment backend). Pure.
///
/// In the shader an emitted output is an output array whose element k is the element's k-th
/// record, and an int or uint output says how many records the element emits:
/// @code
/// out vec4 emit_position[4];   // up to 4 records per element
/// out vec4 emit_color[4];
/// flat out int emit_count;     // this element's count, clamped to 0..4
/// @endcode
/// Outputs that name the same count share one budget: one count per element, one prefix sum,
/// the same record range in each of their buffers, one total. Name them without the `out_`
/// prefix, so transform feedback does not capture them.

#include "xfb/pass_plan.hpp"
#include "xfb/shader_interface.hpp"

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace xfb {

/// One variable-count output, as declared in PipelineOptions.
struct EmitDesc {
    std::string varying; ///< an output array `T name[maxRecords]`
    std::string count;   ///< an int or uint output: how many records the element emits (the budget)
};

/// What happens when a step's records exceed a budget's capacity (its smallest buffer). No step
/// ever writes past the capacity: the GPU keeps the first `capacity` records, in input order,
/// and the totals say how many were requested. The policy decides whether that is an error.
enum class EmitOverflow {
    Error, ///< stepChecked() throws Capacity with both numbers and does not swap; an unchecked
           ///< step() cannot know without a readback: Pipeline::emitted() reports the overflow
    Clamp, ///< not an error: stepChecked() swaps, emitted() reports requested and written
};

struct EmitOutputPlan {
    std::string varying;
    GlslType type;  ///< of one record
    int entry = 0;  ///< the {output} entry written
    int budget = 0; ///< index into EmitPlan::budgets
    int stride = 0; ///< bytes per record
    ComponentType componentType = ComponentType::Float32;
    std::int64_t capacity = 0; ///< records the buffer holds
};

struct EmitBudgetPlan {
    std::string count; ///< the count output's name
    ScalarKind kind = ScalarKind::Int;
    int maxRecords = 0;        ///< per element: the arrays' length
    std::int64_t capacity = 0; ///< records per step: the smallest buffer of the budget
    std::vector<int> outputs;  ///< indices into EmitPlan::outputs
};

struct EmitPlan {
    std::vector<EmitOutputPlan> outputs;
    std::vector<EmitBudgetPlan> budgets;
    bool empty() const { return outputs.empty(); }
};

/// Matches `emits` to the shader's outputs and to `entries[emitEntries[i]]` (their {output}
/// buffers, in order), for passes over `count` elements (PassPlan::count).
/// @throws Error UnknownVarying (no such output), VaryingType (not an array of a capturable
///         type, a count that is not a scalar int/uint), InvalidArgument (captured by transform
///         feedback too, arrays of one budget with different lengths, the wrong number of
///         buffers), OutputLayoutMismatch (a buffer's format differs from the record),
///         BufferTooLarge (`count` x a budget's records per element reaches 2^32: the records
///         asked for would wrap the 32-bit counts, prefix sums and totals on the GPU)
EmitPlan planEmits(const ShaderInterface& shader, const CapturePlan& capture, std::span<const EmitDesc> emits,
                   std::span<const EntryDesc> entries, std::span<const int> emitEntries, std::int64_t count);

/// GLSL (ES 3.00, and desktop 3.30+) to paste into the vertex shader that draws emitted records
/// with Pipeline::drawEmitted() after a fragment-backend step (ES 3.0 and WebGL2 have no indirect
/// draw, and the total never visits the CPU): it declares `uniform highp usampler2D
/// xfb_emitted_totals` and `uniform highp ivec4 xfb_emitted_at`, which drawEmitted() sets on the
/// bound program (the top texel of the pyramid of counts, on a texture unit of the fragment
/// backend's, restored after the draw), and `vec4 xfb_emittedPosition(vec4 position)`: `position`
/// for a record of a primitive below the budget's GPU total, else a point outside the clip volume
/// (every vertex of that primitive: it is not drawn). drawEmitted() draws the budget's capacity,
/// so its vertex cost is proportional to the capacity, not to the total. Write
/// `gl_Position = xfb_emittedPosition(...)`; gl_VertexID is the record's index. After a compute
/// step drawEmitted() draws indirectly (the total's records only) and sets `xfb_emitted_at.w` to 1,
/// which keeps every vertex: a program holding the snippet draws after either backend's step
/// (Backend::Auto may choose either).
std::string_view emittedDrawSnippet();
/// The snippet's uniforms, by name: the pyramid's top (a usampler2D) and (row, component,
/// vertices per primitive, drawn indirectly).
inline constexpr const char* emittedTotalsUniform = "xfb_emitted_totals";
inline constexpr const char* emittedAtUniform = "xfb_emitted_at";

} // namespace xfb
