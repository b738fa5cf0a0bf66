#pragma once
// Internal: the engine's own main() around the user's vertex shader. Pure, no GL.
//
// A vertex output that no code path writes is undefined in GLSL: GL 4.5 and ES 3.0 drivers capture
// leftovers where WebGL2 and WebGPU give 0. The engine owns the source it compiles, so every
// program it builds sets outputs to zero before the user's code runs: the generated programs (fused
// substeps, compute shaders: zeroOutputs at the start of each substep) every output they declare,
// as they are made from the reader's view of the source; the transform-feedback program compiled
// from the user's own text (wrapVertexMain) every captured output, which the GL compiler must see
// too (an output only the reader sees, behind a macro the GL compiler predefines, is no error there).

#include "xfb/capture_plan.hpp"
#include "xfb/shader_interface.hpp"

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace xfb::plan {

/// The name the user's main() is compiled under inside wrapVertexMain()'s source.
inline constexpr std::string_view kWrappedMain = "xfb_wrapped_main";

/// Which outputs zeroOutputs() sets.
enum class ZeroedOutputs { Declared, Captured };

/// Code that sets outputs to zero: `statements` for the start of main() (one per line after the
/// indent), `functions` to define at global scope after the user's struct definitions and before them.
struct ZeroCode {
    std::string functions; ///< `void xfb_zero_<S>(inout S v)` per struct type met, callees first
    std::string statements;
};

/// Zeroes outputs (arrays in a loop, structs through a function per struct type, so the text stays
/// linear in the source): Declared, every output `shader` declares and every builtin `capture`
/// records (gl_Position, gl_PointSize); Captured, what `capture` records (an array element alone
/// when only it is captured). `rename` gives the variable an output is held in (identity when empty).
ZeroCode zeroOutputs(const ShaderInterface& shader, const CapturePlan& capture, const std::string& indent,
                     ZeroedOutputs which = ZeroedOutputs::Declared,
                     const std::function<std::string(const std::string&)>& rename = {});

/// One name given to glTransformFeedbackVaryings, and what glGetTransformFeedbackVarying must
/// report for it after the link: its array size and the components of one element (0 for the
/// layout words gl_SkipComponentsN and gl_NextBuffer, whose reports are checked by name).
struct DriverVarying {
    std::string name;
    int size = 1;
    int components = 0;
    std::string varying; ///< the captured varying it stands for (empty for a layout word)
};

/// What the GL is asked to capture, in order, and in which buffer mode.
struct DriverList {
    std::vector<DriverVarying> varyings;
    bool interleaved = true;
    /// Every field tight in one staging record (stagedLayout()), which a packing pass writes into
    /// the declared layout: a declared layout the context cannot write directly (no layout words).
    bool staged = false;
};

/// How a declared layout is written on a context without layout words (ES 3.0, WebGL2): the
/// fields of every buffer, in buffer and offset order, tight in one staging record, then per
/// buffer a packing pass that copies whole records: runs of field words from the staging record
/// and runs of gap words from a copy of the buffer taken just before (gl/layout_packer.hpp).
struct StagedLayout {
    int stagingStride = 0; ///< bytes of one staging record
    struct Run {
        bool gap = false; ///< words kept from the buffer's own copy, else from the staging record
        int from = 0;     ///< byte offset in the staging record, or in the buffer's record for a gap
        int to = 0;       ///< byte offset in the buffer's record
        int words = 0;
    };
    std::vector<std::vector<Run>> buffers; ///< per buffer of the plan, in record order
};
StagedLayout stagedLayout(const CapturePlan& capture);
/// The staging record as a capture plan of its own (one tight interleaved buffer of every field):
/// what a primitive capture's record gather copies before the packing passes.
CapturePlan stagingPlan(const CapturePlan& capture);

/// The GLSL type of `n` (1..4) components of `kind`: float, vec3, ivec2, uvec4 ... (the engine's
/// generated outputs, the packing and gather passes' word vectors).
std::string vectorType(ScalarKind kind, int n);

/// The prefix of the outputs wrapVertexMain() declares to capture arrays and their elements.
inline constexpr std::string_view kPackedPrefix = "xfb_packed_";
/// The prefix of the outputs it declares for the partial fields of a declared layout.
inline constexpr std::string_view kPartPrefix = "xfb_part_";

/// Whether `v`, captured in separate mode, goes through a packed output: an array (one buffer holds
/// all of it) of at most 4 components, which one vector holds.
bool packedInSeparateMode(const CapturedVarying& v);

/// What the GL is asked to capture for `capture`, writing exactly its planned bytes. A varying
/// that is not an array by its name. Arrays never reach the driver as arrays or array elements:
/// ANGLE (WebGL2 in Chromium) refuses to link both ("Capture of arrays is undefined and not
/// supported", "Capture of array elements is undefined and not supported"). So an element `a[1]`
/// captured alone, and each element of an interleaved array, is `xfb_packed_a_1`, an output of the
/// element's type that wrapVertexMain() declares and fills (the same bytes); an array in separate
/// mode, which must stay in its one buffer, is `xfb_packed_a`, one vector of its components
/// (packedInSeparateMode); over 4 components no vector holds it and it is named whole, which only
/// drivers whose separate limit exceeds 4 reach (ANGLE's is 4).
///
/// A declared layout (CapturePlan::declared): a field that is part of its varying, or a whole array
/// of at most 4 components, is `xfb_part_<buffer>_<field>_<chunk>`, vectors of at most 4 of its
/// components that wrapVertexMain() fills. With `layoutWords` (desktop GL 4.0+,
/// ARB_transform_feedback3) gaps and padding are gl_SkipComponents1..4 and buffers are separated
/// by gl_NextBuffer, in interleaved mode. Without (OpenGL ES 3.0, WebGL2) a declared layout is
/// written as one tight buffer (interleaved), as buffers that each hold one field of at most 4
/// components from offset 0 (separate mode), or else staged (DriverList::staged, stagedLayout()).
/// @throws Error Unsupported: a staged layout whose fields total more components than
///         `maxInterleavedComponents`, the most one staging record holds
DriverList driverList(const CapturePlan& capture, bool layoutWords, int maxInterleavedComponents = 64);

/// What the GL is asked to capture from a geometry program's geometry shader (geometry_plan.cpp):
/// every varying by its own name (arrays whole, elements `a[i]` as named: no wrapper runs inside a
/// geometry shader), and in interleaved mode gl_SkipComponents1..4 for gaps and gl_NextBuffer between
/// buffers, one buffer per stream (ARB_transform_feedback3).
/// @throws Error Unsupported: part of a varying in a declared layout; gaps or several interleaved
///         buffers without `layoutWords` (OpenGL ES 3.2)
DriverList geometryDriverList(const CapturePlan& capture, bool layoutWords);

/// The vertex shader the GL compiles for `source` (GLSL ES 3.00 / GLSL 3.30+, after #defines):
/// `#define main xfb_wrapped_main` after the #version line (found with the lexer, as the GLSL
/// preprocessor does: the first line that is not blank or a comment; `#line` keeps the user's line
/// numbers), the source itself, then `#undef main`, the packed outputs of separate-mode arrays
/// (driverVaryings) and a main() that zeroes the captured outputs (zeroOutputs, Captured), calls
/// the user's and fills the packed outputs. A macro rather than an edit of the user's text:
/// comments, strings, #if branches and macros that spell `{` cannot misplace it. When the result
/// does not compile, the caller compiles `source` as it is for the verdict (gl/program.cpp): the
/// wrapper never changes a diagnosis.
std::string wrapVertexMain(std::string_view source, const ShaderInterface& shader, const CapturePlan& capture);

} // namespace xfb::plan
