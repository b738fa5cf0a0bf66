#pragma once
/// @file
/// @brief Capture plan: which outputs transform feedback records, and where in which buffer. Pure.

#include "xfb/enum_tables.hpp"
#include "xfb/limits.hpp"
#include "xfb/shader_interface.hpp"
#include "xfb/vertex_format.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace xfb {

/// GL_INTERLEAVED_ATTRIBS (all varyings in one buffer) or GL_SEPARATE_ATTRIBS (one buffer each).
/// Fixed when the program is linked (glTransformFeedbackVaryings), so it is never inferred.
enum class CaptureMode { XFB_CAPTURE_MODES(XFB_ENUMERATOR) }; // names: XFB_CAPTURE_MODES (xfb/enum_tables.hpp)
std::string_view captureModeName(CaptureMode m);              // "interleaved" / "separate"

/// One row of a declared layout: the stream-output declaration entry of Direct3D
/// (D3D11_SO_DECLARATION_ENTRY: stream, semantic name, semantic index, start component,
/// component count, output slot), stream 0. Entries of one buffer are packed in their order, as
/// Direct3D packs them; a gap entry (neither varying nor semantic) skips `components` 32-bit words
/// that are never written.
struct DeclaredEntry {
    std::string varying;    ///< an output, an element `name[i]`, gl_Position or gl_PointSize
    std::string semantic;   ///< instead of `varying` (SemanticName): a standard semantic, see planCapture()
    int semanticIndex = 0;  ///< SemanticIndex: TEXCOORD with index 2 is TEXCOORD2
    int firstComponent = 0; ///< StartComponent: the varying's first component captured (flattened)
    int components = 0;     ///< ComponentCount: 0 = up to the varying's end; a gap: words skipped (> 0)
    int buffer = 0;         ///< OutputSlot: the transform-feedback buffer binding, numbered from 0

    /// A gap of `components` words in `buffer` (Direct3D: a NULL semantic name).
    static DeclaredEntry gap(int components, int buffer = 0) { return {{}, {}, 0, 0, components, buffer}; }
};

struct CaptureOptions {
    CaptureMode mode = CaptureMode::Interleaved;
    /// Names to capture, in buffer order. Empty: every output whose name starts with `out_`,
    /// in declaration order. gl_Position and gl_PointSize may be named explicitly, and one element
    /// of an output array as `name[i]` (a decimal index): a varying of the element type, named so
    /// (CapturedVarying::name "out_r[1]", arraySize 0). An array and one of its elements overlap
    /// (DuplicateVarying). Arrays are given to the driver as their elements (gl/program.cpp:
    /// ANGLE refuses whole arrays), the same bytes.
    ///
    /// GL's own layout words may appear in the list (GL 4.0, ARB_transform_feedback3), interleaved
    /// mode only: `gl_SkipComponents1`..`4` leave that many words unwritten, `gl_NextBuffer` moves
    /// on to the next buffer. The list is then a declared layout (CapturePlan::declared).
    std::vector<std::string> varyings;
    /// Enforce the 4-component-per-varying rule of separate mode even where the driver allows
    /// more (llvmpipe reports 64), so a shader that works here also works on WebGL2, ES 3.0 and
    /// NVIDIA. Turn off only for code that never leaves the current driver.
    bool portable = true;
    /// A declared layout as Direct3D states it (see DeclaredEntry), instead of `varyings`.
    std::vector<DeclaredEntry> declaration;
    /// Bytes from one element to the next in buffer i of a declared layout (D3D's buffer strides,
    /// GLSL's xfb_stride); 0 or absent: the buffer's extent. A multiple of 4, at least the extent.
    std::vector<int> strides;
};

struct CapturedVarying {
    std::string name;
    GlslType type;
    int arraySize = 0;
    int line = 0;   ///< 0 for builtins
    int stream = 0; ///< the geometry shader's vertex stream it is emitted to (0 in vertex shaders)
    int components() const { return type.components() * (arraySize > 0 ? arraySize : 1); }
    int bytes() const { return components() * 4; }
};

/// One varying's place in an output buffer.
struct BufferField {
    std::string varying;
    int offset = 0; ///< bytes from the start of the element
    int components = 0;
    ComponentType type = ComponentType::Float32;
    int firstComponent =
        0; ///< the varying's component the field starts at (a partial capture: > 0, or fewer components)
};

/// One transform-feedback buffer binding (glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, binding, ...)).
struct OutputLayout {
    int binding = 0;
    int stride = 0;
    std::vector<BufferField> fields;
    /// The vertex stream every field's varying belongs to (a buffer receives one stream; 0 for
    /// vertex shaders).
    int stream = 0;
    /// The same layout as a vertex format, e.g. to re-bind the captured buffer as vertex
    /// input: field i becomes attribute `attr(firstAttr + i)` at the same offset (a field over 16
    /// components, such as `mat3 m[2]`, several attributes of at most 16, numbered on).
    VertexFormat asVertexFormat(int firstAttr = 0) const;
};

struct CapturePlan {
    CaptureMode mode = CaptureMode::Interleaved;
    std::vector<CapturedVarying> varyings; ///< in glTransformFeedbackVaryings order (declared: each once)
    std::vector<OutputLayout> buffers;     ///< interleaved: one; separate: one per varying; declared: 1..n
    /// A declared layout (the shader's xfb_* qualifiers, CaptureOptions::declaration, or
    /// gl_SkipComponents / gl_NextBuffer in the list): mode is Interleaved, each buffer's fields are
    /// in offset order and may leave gaps (bytes never written) and a stride over their extent, and
    /// a field may be part of its varying (BufferField::firstComponent, components).
    bool declared = false;

    /// Whether buffer `b` is written whole: fields from offset 0 without gaps up to the stride.
    bool tight(std::size_t b) const;
};

/// One vertex output as the varying packing sees it: a grid of 4 columns and
/// Limits::maxVaryingVectors rows, filled by the algorithm of GLSL ES 1.00 appendix A.7 as ANGLE
/// applies it for WebGL (what decides whether a WebGL2 program links).
struct VaryingShape {
    std::string name;
    int rows = 1; ///< rows one element takes: 1 for scalars and vectors, C for a matCxR (one row per column)
    int columns =
        1; ///< components a row of it takes: a vector's size, a matCxR's R (a mat2 is packed as two whole rows)
    std::int64_t elements = 1; ///< array elements (1 when not an array)
};

/// Every output `shader` declares (struct members one by one; builtins such as gl_Position are not
/// counted against the limit), and the vectors the engine adds to capture separate-mode arrays of
/// `capture` (one per array of at most 4 components, see CaptureOptions::varyings).
std::vector<VaryingShape> varyingShapes(const ShaderInterface& shader, const CapturePlan& capture);

/// Whether `shapes` pack into `rows` rows of 4 components: sorted (mat4-sized, mat2, 4-component,
/// mat3-sized, 3-, 2-, 1-component; larger arrays first), 2- to 4-column variables in the first
/// rows whose columns from 0 are free, 2-column ones then into columns 2-3 from the last row up,
/// 1-column ones into the column with the least free space that holds them.
bool varyingsFit(const std::vector<VaryingShape>& shapes, int rows);

/// The fewest rows `shapes` pack into by varyingsFit() (0 for none); above 4096 rows an upper
/// bound, every output in rows of its own.
std::int64_t varyingRows(const std::vector<VaryingShape>& shapes);

/// Chooses the varyings and checks them against the mode and the limits. A geometry shader's
/// capture, per vertex stream, is planGeometryCapture()'s (xfb/geometry_plan.hpp).
///
/// The layout is declared in one of three ways, each giving the same plan: the shader's own
/// `layout(xfb_buffer = B, xfb_offset = O) out ...;` and `layout(xfb_buffer = B, xfb_stride = S) out;`
/// qualifiers (GLSL 4.40, also in GLSL ES sources: the engine strips them before compiling), checked
/// by the rules of GLSL 4.40 section 4.4.2.1 (outputs with an offset are captured, in offset order;
/// offsets multiples of 4; no overlaps; the stride a multiple of 4 covering every output, the same
/// wherever a buffer's stride is declared; buffers and components within the limits below);
/// CaptureOptions::declaration; or gl_SkipComponents / gl_NextBuffer in CaptureOptions::varyings.
/// A semantic names the output `out_<name>` of the standard input `vertex_<name>` (POSITION:
/// out_position, TEXCOORD index 2: out_texCoord2, see standardSemantic()), SV_Position gl_Position.
/// Buffers number 0..n-1 with n at most Limits::maxSeparateAttribs (the binding points every
/// GL has); each buffer's stride within MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS words.
/// @throws Error NoCapturedVaryings, UnknownVarying (also an element index outside its array,
///         naming the size), DuplicateVarying, VaryingType,
///         SeparateComponents, SeparateComponentsDriver, SeparateAttribs, InterleavedComponents,
///         VaryingVectors (every output of the shader, captured or not, against
///         Limits::maxVaryingVectors: the rows needed, the limit and the fix); declared layouts:
///         LayoutOffset, LayoutOverlap, LayoutStride, LayoutBuffer, LayoutComponents, LayoutConflict,
///         each naming the varying, the offset and the rule; TooManyDeclarations (a declared layout
///         of more than limits::maxDeclarations entries)
CapturePlan planCapture(const ShaderInterface& shader, const CaptureOptions& options, const Limits& limits);

} // namespace xfb
