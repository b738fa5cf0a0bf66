#pragma once
/// @file
/// @brief Translates a transform-feedback vertex shader into fragment shaders over raw 32-bit
/// words (the fragment backend, Backend::Fragment). Pure, no GL.
///
/// A buffer of W 32-bit words maps linearly to an RGBA32UI texture `width` texels wide: word L is
/// component L % 4 of texel (L / 4 % width, L / 4 / width). RGBA32UI is colour-renderable in
/// OpenGL ES 3.0 core (and WebGL2) and keeps every bit of every word, so float, int and uint
/// attributes and any stride (36 bytes included) round-trip exactly; no EXT_color_buffer_float is
/// needed (that extension is only for float formats). A step renders, per pass, over the texels of
/// its output buffers: the fragment of texel k computes the element(s) whose words fall in
/// [4k, 4k + 4) of the pass's outputs (one element when the stride is a multiple of 16 bytes, at
/// most two for e.g. 36 bytes, up to four for 4-byte strides), running the user's main() once per
/// element with gl_VertexID = the element, and writes those 4 words. Inputs are read with
/// texelFetch from the textures of their buffers. Output buffers of one stride share a pass (one
/// colour attachment each), up to `maxDrawBuffers`; each other stride is a pass of its own.

#include "xfb/capture_plan.hpp"
#include "xfb/pass_plan.hpp"
#include "xfb/shader_interface.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace xfb {

struct FragmentTranslationOptions {
    int textureWidth = 4096; ///< texels per row of every texture (min(4096, GL_MAX_TEXTURE_SIZE))
    int maxDrawBuffers = 4;  ///< colour attachments one pass may write (GL_MAX_DRAW_BUFFERS, ES 3.0: >= 4)
    /// Fused substeps (fusion_plan.hpp): > 1 loops the user's main() that many times per element,
    /// feeding the captured varyings back into the state inputs (checkFusion() must pass).
    int substeps = 1;
};

/// Where a buffer's words lie in its texture.
struct TexelLayout {
    std::int64_t words = 0;  ///< 32-bit words of the buffer (count x stride / 4)
    std::int64_t texels = 0; ///< ceil(words / 4)
    int width = 0;           ///< texels per row
    int rows = 0;            ///< ceil(texels / width)
    int fullRows = 0;        ///< rows whose every texel holds 4 of the buffer's words
    int lastRowTexels = 0;   ///< whole texels (4 words) in the row after the full rows
    int tailWords = 0;       ///< 0..3: words of the last texel when it is partial
};
/// Where the words of a buffer of `bytes` lie in a texture `width` texels wide.
/// @param bytes a multiple of 4
/// @param width texels per row
TexelLayout texelLayout(std::uint64_t bytes, int width);

/// One fragment pass: a program writing one or more output buffers of the same stride.
struct FragmentPass {
    std::string source;       ///< the fragment shader
    std::vector<int> outputs; ///< indices into PassPlan::outputs, colour attachment i writes outputs[i]
    int strideWords = 0;
    TexelLayout layout; ///< of each of its output buffers (same stride, same count)
};

/// The generated shaders of a fragment-backend pipeline and the samplers they read.
struct FragmentShader {
    std::string vertexSource; ///< one triangle covering the viewport (gl_VertexID 0..2), in the passes' GLSL version
    std::vector<FragmentPass> passes;
    /// Per entry of the role list: the sampler (`xfb_in<e>`) its input buffer is read from, or
    /// empty. Its texture is `textureWidth` texels wide (texelLayout of the buffer's bytes).
    std::vector<std::string> inputSampler;
    /// Per PassPlan::outputs: the sampler (`xfb_kept<o>`) of a copy of the output buffer taken
    /// before the step, or empty. Only a declared layout with gaps has one: transform feedback
    /// leaves gap bytes as they were, a texel is written whole, so its gap words are copied through.
    std::vector<std::string> keptSampler;
    int textureWidth = 0; ///< texels per row of every texture: a power of two
};

/// @param vertexSource the simulation's vertex shader, as given to the Program
/// @param read the reader's options (extra `#define`s) it was read with
/// @param pass the pass plan of the pipeline (planPass()); its count is baked in
/// @param capture the program's capture plan
/// @param entryCount the number of entries of the role list the pass plan was made for
/// @param options the texture width and the draw buffers a pass may write, fused substeps
/// @throws Error ComputeTranslation naming the construct (and its line) that has no fragment
///         equivalent: implicit-LOD texture lookups (their level of detail would come from
///         neighbouring elements), gl_DrawID / gl_BaseVertex / gl_BaseInstance, gl_ClipDistance /
///         gl_CullDistance, in/out interface blocks, identifiers in the reserved `xfb_` namespace
///         (but xfb_substep); Unsupported for a global variable (neither const nor an interface
///         variable) where a texel holds words of several elements (a stride that is not a
///         multiple of 16 bytes): one run of main() would leave it to the next; InvalidArgument
///         for substeps that cannot be fused, a width or draw buffer count < 1; the reader's errors.
FragmentShader translateToFragment(std::string_view vertexSource, const ReadOptions& read, const PassPlan& pass,
                                   const CapturePlan& capture, std::size_t entryCount,
                                   const FragmentTranslationOptions& options = {});

} // namespace xfb
