#pragma once
/// @file
/// @brief Population plan: how a program's emitted records become the next state of a population
/// (xfb/population.hpp). Pure, no GL.
///
/// A population's state is one or more fields; each field is read by the program as a shader input
/// and written, for the next step, through an emitted output array of the same type. All the
/// fields share one count output (one budget): element i's count says how many records of the next
/// state it writes (0: it dies, 1: it lives on, k: it becomes k elements), record k of every field
/// from element k of that field's array. The fields' records land in element order, then record
/// order (emit_plan.hpp), so the next state is compacted in a stable order.
/// @code
/// in vec4 a_particle;              // field 0: read ...
/// out vec4 emit_particle[4];       // ... and written, up to 4 records per element
/// flat out int emit_count;         // the population's count output
/// @endcode
/// with the field {"a_particle", "emit_particle"} and the count "emit_count".

#include "xfb/attribute_plan.hpp"
#include "xfb/emit_plan.hpp"
#include "xfb/pass_plan.hpp"
#include "xfb/shader_interface.hpp"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace xfb {

/// One field of a population's state.
struct PopulationField {
    std::string input;   ///< the shader input an element reads the field from: `in vec4 a_particle;`
    std::string emitted; ///< the emitted output array of the same type its next records are written
                         ///< through: `out vec4 emit_particle[4];`
};

struct PopulationFieldPlan {
    std::string input, emitted;
    GlslType type;       ///< of one record (the input's type)
    VertexFormat format; ///< of the field's two buffers: the input's semantic, one record per element
};

struct PopulationPlan {
    std::int64_t capacity = 0; ///< elements each field's buffers hold
    std::string count;         ///< the count output: records of the next state per element
    int maxRecords = 0;        ///< per element: the emitted arrays' length
    std::vector<PopulationFieldPlan> fields;
    /// The role list of one step: per field its current buffer as {input}, then per field its next
    /// buffer as {output} (written by the emitted outputs).
    std::vector<EntryDesc> entries;
    PassPlan pass;  ///< over the capacity; no captured output (the records are the state)
    EmitPlan emits; ///< one budget (`count`), one emitted output per field
};

/// Plans a population of `capacity` elements whose state is `fields` (every shader input in exactly
/// one field) and whose count output is `count`. The program's captured outputs (`out_*`) play no
/// part: a population keeps its records, not per-slot results.
/// @throws Error InvalidArgument (capacity <= 0; no field; no count output named; a field whose input
///         is not an input of the shader; an input or emitted output named by two fields), UnknownVarying
///         (the program declares no emitted output or count output of that name: a program without the
///         emitted state output), SemanticMissing (a shader input that no field reads),
///         SemanticTypeMismatch (a field whose emitted records are not of its input's type, or an
///         input that is an array or a matrix: a record is one scalar or vector), VaryingType (an
///         emitted output that is not an array, a count that is not a scalar int or uint),
///         BufferTooLarge (capacity x records per element reaches 2^32), and planPass()'s errors
PopulationPlan planPopulation(const ShaderInterface& shader, std::span<const AttributeSlot> attributes,
                              std::int64_t capacity, std::span<const PopulationField> fields, std::string_view count);

} // namespace xfb
