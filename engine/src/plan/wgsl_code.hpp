#pragma once
// Internal: the WGSL translator's code generation for a geometry shader (wgsl_translation.cpp's
// translator in its geometry mode), used by the WGSL geometry kernels (wgsl_geometry.cpp).
#include "xfb/shader_interface.hpp"
#include "xfb/wgsl_translation.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace xfb::plan {

/// A geometry shader's code in WGSL: its inputs and outputs as `var<private>` (inputs as arrays
/// of `inputVertices` elements), gl_in[] as `xfb_in` (`array<xfb_per_vertex, inputVertices>`, a
/// struct of gl_Position and gl_PointSize the caller declares), gl_PrimitiveIDIn / gl_InvocationID
/// as the private i32s xfb_primitive_id_in / xfb_invocation_id, EmitVertex() / EndPrimitive() and
/// their stream forms as calls of xfb_emit_stream_vertex(i32) / xfb_end_stream_primitive(i32),
/// gl_Position / gl_PointSize as xfb_position / xfb_point_size, main() as xfb_user_main(): the
/// caller declares and defines every xfb_ name.
struct WgslGeometryCode {
    std::string privates; ///< the interface variables
    std::string code;     ///< the translator's helpers, then the user's code
    /// The shader's uniforms as members of the kernels' uniform struct (read as `xfb_g.<name>`),
    /// laid out from byte `firstUniformByte` by the vertex translation's rules.
    std::string uniformFields;
    std::vector<WgslUniform> uniforms;
    int uniformBytes = 0; ///< the whole block's size, a multiple of 16
};

/// @throws Error ComputeTranslation ("WGSL: line N: ...") for what translateToWgsl() refuses
///         (uniforms included), for a geometry-shader sampler (the kernels bind no textures) and
///         a uniform named xfb_*; the reader's errors
WgslGeometryCode translateGeometryCodeToWgsl(std::string_view geometrySource, const ShaderInterface& shader,
                                             const ReadOptions& read, int inputVertices, int firstUniformByte);

/// The WGSL expression of component `c` of captured field `f` as u32 bits (bitcast for floats
/// and ints), read from the variable the translator holds the varying in.
std::string wgslCapturedWord(const CapturePlan& capture, const BufferField& f, int c);

/// `vecN<f32|i32|u32>` (or the scalar) of `kind`.
std::string wgslShape(ScalarKind kind, int rows);

} // namespace xfb::plan
