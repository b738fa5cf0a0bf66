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

struct CaptureOptions {
    CaptureMode mode = CaptureMode::Interleaved;
    /// Names to capture, in buffer order. Empty: every output whose name starts with `out_`,
    /// in declaration order. gl_Position and gl_PointSize may be named explicitly, and one element
    /// of an output array as `name[i]` (a decimal index): a varying of the element type, named so
    /// (CapturedVarying::name "out_r[1]", arraySize 0). An array and one of its elements overlap
    /// (DuplicateVarying). Arrays are given to the driver as their elements (gl/program.cpp:
    /// ANGLE refuses whole arrays), the same bytes.
    std::vector<std::string> varyings;
    /// Enforce the 4-component-per-varying rule of separate mode even where the driver allows
    /// more (llvmpipe reports 64), so a shader that works here also works on WebGL2, ES 3.0 and
    /// NVIDIA. Turn off only for code that never leaves the current driver.
    bool portable = true;
};

struct CapturedVarying {
    std::string name;
    GlslType type;
    int arraySize = 0;
    int line = 0; ///< 0 for builtins
    int components() const { return type.components() * (arraySize > 0 ? arraySize : 1); }
    int bytes() const { return components() * 4; }
};

/// One varying's place in an output buffer.
struct BufferField {
    std::string varying;
    int offset = 0; ///< bytes from the start of the element
    int components = 0;
    ComponentType type = ComponentType::Float32;
};

/// One transform-feedback buffer binding (glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, binding, ...)).
struct OutputLayout {
    int binding = 0;
    int stride = 0;
    std::vector<BufferField> fields;
    /// The same layout as a vertex format, e.g. to re-bind the captured buffer as vertex
    /// input: field i becomes attribute `attr(firstAttr + i)` at the same offset (a field over 16
    /// components, such as `mat3 m[2]`, several attributes of at most 16, numbered on).
    VertexFormat asVertexFormat(int firstAttr = 0) const;
};

struct CapturePlan {
    CaptureMode mode = CaptureMode::Interleaved;
    std::vector<CapturedVarying> varyings; ///< in glTransformFeedbackVaryings order
    std::vector<OutputLayout> buffers;     ///< interleaved: one; separate: one per varying
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

/// Chooses the varyings and checks them against the mode and the limits.
/// @throws Error NoCapturedVaryings, UnknownVarying (also an element index outside its array,
///         naming the size), DuplicateVarying, VaryingType,
///         SeparateComponents, SeparateComponentsDriver, SeparateAttribs, InterleavedComponents,
///         VaryingVectors (every output of the shader, captured or not, against
///         Limits::maxVaryingVectors: the rows needed, the limit and the fix)
CapturePlan planCapture(const ShaderInterface& shader, const CaptureOptions& options, const Limits& limits);

} // namespace xfb
