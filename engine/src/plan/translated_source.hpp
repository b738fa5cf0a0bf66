#pragma once
// Internal: what the generated GLSL backends share (the compute shader, compute_translation.cpp,
// and the fragment shader, fragment_translation.cpp): the user's code as a plain function with its
// inputs and outputs as globals, and one element's work: inputs loaded from raw 32-bit words,
// outputs zeroed, the user's main() run (in a loop for fused substeps), captured words as uint bits.
#include "shader/preprocessor.hpp"
#include "xfb/capture_plan.hpp"
#include "xfb/pass_plan.hpp"
#include "xfb/shader_interface.hpp"

#include <functional>
#include <string>
#include <string_view>

namespace xfb::plan {

/// The user's vertex shader as code any stage can hold.
struct TranslatedSource {
    ShaderInterface shader;       ///< the reader's view (after toGlslEs300)
    PreprocessedSource pre;       ///< version, tokens, directives to re-emit (passThrough)
    std::string body;             ///< the user's code, its first token on line 1 (emit `#line 1` before it)
    int substeps = 1;             ///< > 1: fused (checkFusion() passed)
    bool substepDeclared = false; ///< fused and `uniform int xfb_substep;` was turned into a plain global
    std::string feedback;         ///< fused: the statements feeding a substep's varyings back into the inputs
    bool usesGlIn = false;        ///< a geometry shader: it reads gl_in[] (renamed xfb_in)
};

/// A geometry shader translated for a compute kernel (compute_translation.hpp,
/// translateGeometryToCompute): read with readGeometryInterface(), its unsized input arrays given
/// `inputVertices` elements, gl_in / gl_PrimitiveIDIn / gl_InvocationID renamed (xfb_in,
/// xfb_primitive_id_in, xfb_invocation_id), EmitVertex / EmitStreamVertex / EndPrimitive /
/// EndStreamPrimitive renamed (xfb_emit_vertex, xfb_emit_stream_vertex, xfb_end_primitive,
/// xfb_end_stream_primitive: the generated code defines them).
struct GeometryStage {
    int inputVertices = 1;
};

/// Translates the user's code token by token, on its own lines: interface qualifiers dropped
/// (inputs and outputs become plain globals), gl_VertexID / gl_InstanceID / gl_Position /
/// gl_PointSize renamed (xfb_vertex_id, xfb_instance_id, xfb_position, xfb_point_size: the
/// generated code declares them), main() renamed xfb_user_main. `stage` names the target in
/// messages: "compute shader" or "fragment shader".
/// @throws Error ComputeTranslation naming the construct and its line: implicit-LOD texture
///         lookups, gl_DrawID / gl_BaseVertex / gl_BaseInstance / gl_ClipDistance /
///         gl_CullDistance / gl_PerVertex, interface blocks, identifiers in the reserved `xfb_`
///         namespace (but xfb_substep); InvalidArgument for substeps < 1, substeps that cannot be
///         fused, or fused with emitted outputs; the reader's errors.
/// `geometry`: the source is a geometry shader (GeometryStage); gl_PrimitiveID, gl_Layer and
/// gl_ViewportIndex are then ComputeTranslation too (they name a rasterizer's state).
TranslatedSource translateSource(std::string_view vertexSource, const ReadOptions& read, const PassPlan& pass,
                                 const CapturePlan& capture, int substeps, bool emits, std::string_view stage,
                                 const GeometryStage* geometry = nullptr);

/// The generated declarations of the renamed builtins (after `xfb_vertex_id`'s).
inline constexpr std::string_view kRenamedBuiltins =
    "int xfb_vertex_id;\nconst int xfb_instance_id = 0;\nvec4 xfb_position;\nfloat xfb_point_size;\n";

/// The variable a captured varying is held in (builtins renamed).
std::string heldName(const std::string& varying);

/// How a generator reads an input's words: `word(a, w)` a uint expression of word w of the
/// element (w counted from the element's start), `quad(a, w)` a uvec4 expression of words
/// [w, w + 4) when the generator has one access for them (w a multiple of 4), else empty.
struct WordLoader {
    std::function<std::string(const AttributeBinding&, int)> word;
    std::function<std::string(const AttributeBinding&, int)> quad;
};

/// One element's work, lines indented by 4 (8 inside the substep loop): every input assigned from
/// its words, then per substep the outputs zeroed, xfb_substep set, xfb_user_main() called and,
/// when fused, the feedback. `zeroFunctions` receives the functions to define after `body`.
std::string elementWork(const TranslatedSource& t, const PassPlan& pass, const CapturePlan& capture,
                        const WordLoader& load, std::string& zeroFunctions);

/// Word c of field `f` of a captured buffer as a uint expression: floatBitsToUint(...) or uint(...).
std::string capturedWordBits(const CapturePlan& capture, const BufferField& f, int c);

} // namespace xfb::plan
