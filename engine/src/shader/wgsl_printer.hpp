#pragma once
// Internal: the WGSL printer. The user's part of a shader module (structs, globals, functions) as
// WGSL, in the conventions the entry-point code (plan/wgsl_translation.cpp, plan/wgsl_geometry.cpp)
// builds on: inputs and outputs are `var<private>` globals it declares, uniforms are members of
// `<uniformBlock>` (a bool one an i32 read as `!= 0`), gl_VertexID is `xfb_vertex_id`, gl_Position
// `xfb_position`, main() is `xfb_user_main()`, a geometry shader's EmitVertex() calls
// `xfb_emit_stream_vertex(0)`; names WGSL reserves become `xfb_r_<name>`, the second overload of
// f `xfb_o1_f`, a by-value parameter `xfb_a_<name>` copied into a variable, out/inout parameters
// `ptr<function, T>`.
//
// GLSL side effects inside expressions (assignments, ++/--, the comma operator, ?: whose sides
// have effects) are hoisted into statements before the one that holds them, with `let`/`var`
// temporaries `xfb_tN`, in GLSL's left-to-right order; under && / || / ?: and in loop conditions
// and updates they are lowered into if/else and `loop { ... continuing { ... } }`, so nothing runs
// that GLSL would not run.
#include "module.hpp"

#include <string>
#include <vector>

namespace xfb::shader {

struct WgslCode {
    std::string helpers; ///< the helper functions the code calls (wgsl_helpers.hpp)
    std::string code;    ///< the module's structs, globals and functions
    /// The sampler uniforms the code samples (texture(), textureLod(), ...), first use first: the
    /// code names each one's WGSL sampler `xfb_sampler_<GLSL name>`, which the translation declares.
    std::vector<std::string> sampled;
};

/// @throws Error ComputeTranslation ("WGSL: line N: ...") for what WGSL cannot express
WgslCode printWgsl(const Module& module, const std::string& uniformBlock);

} // namespace xfb::shader
