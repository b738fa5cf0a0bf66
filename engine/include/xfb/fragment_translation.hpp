#pragma once
/// @file
/// @brief Translates a transform-feedback vertex shader into fragment shaders over planar RGBA32UI
/// textures (the fragment backend, Backend::Fragment). Pure, no GL.
///
/// A buffer of records of S 32-bit words lives in ceil(S / 4) planes, RGBA32UI textures `width`
/// texels wide (a power of two): plane p holds words [4p, 4p + 4) of every record, record i at texel
/// (i % width, i / width) (planeLayout()). RGBA32UI is colour-renderable in OpenGL ES 3.0 core (and
/// WebGL2) and keeps every bit of every word, so float, int and uint attributes and any stride
/// (36 bytes included) round-trip exactly; no EXT_color_buffer_float is needed. A pass runs one
/// fragment per element: the user's main() with gl_VertexID = the element, its inputs read at the
/// fragment's own texel with texture(), its outputs' planes written to as many colour attachments
/// (up to `maxDrawBuffers` a pass; a pass more for the rest). Measured in SwiftShader at 1e6 elements
/// of a 32-byte record (docs/performance.md, "The fragment backend"): this layout drew in 11.5 ms
/// where one fragment per texel of the buffer's own layout drew in 28.8 (the simulation ran twice
/// per element, at computed texelFetch addresses).
///
/// A buffer's own layout is linear (texelLayout(): word L is component L % 4 of texel L / 4);
/// planeCopyShaders() gives the passes that move a buffer between the two: `spread` (linear to planes,
/// after the buffer is copied into a linear texture) and `gather` (planes to linear, before the
/// texels are copied into the buffer). A stride of 16 bytes needs neither: its plane is linear.

#include "xfb/capture_plan.hpp"
#include "xfb/emit_plan.hpp"
#include "xfb/pass_plan.hpp"
#include "xfb/shader_interface.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace xfb {

struct FragmentTranslationOptions {
    int textureWidth = 4096; ///< at most this many texels per row of every texture (min(4096, GL_MAX_TEXTURE_SIZE))
    int maxDrawBuffers = 4;  ///< colour attachments one pass may write (GL_MAX_DRAW_BUFFERS, ES 3.0: >= 4)
    /// Fused substeps (fusion_plan.hpp): > 1 loops the user's main() that many times per element,
    /// feeding the captured varyings back into the state inputs (checkFusion() must pass).
    int substeps = 1;
    /// Emitted outputs (emit_plan.hpp): their count, pyramid and gather passes (FragmentShader::emits);
    /// null or empty for none. Their capacities widen the texture width like the buffers do.
    const EmitPlan* emits = nullptr;
    /// A population's step (xfb/population.hpp): the elements are the first min(count, live) where
    /// `live` is component x of texel (0, 0) of an RGBA32UI texture on the GPU, sampled by the
    /// emitted counts' pass as `uniform highp usampler2D xfb_live`; the slots at or past it count 0
    /// without running the program, so the pyramid, its totals and the gathers are the live
    /// elements' (the same passes and bytes as without). Only with `emits`.
    bool liveCount = false;
};

/// Where a buffer's words lie in a linear texture (a buffer's own layout).
struct TexelLayout {
    std::int64_t words = 0;  ///< 32-bit words of the buffer (count x stride / 4)
    std::int64_t texels = 0; ///< ceil(words / 4)
    int width = 0;           ///< texels per row
    int rows = 0;            ///< ceil(texels / width)
    int tailWords = 0;       ///< 0..3: words of the last texel when it is partial
};
/// Where the words of a buffer of `bytes` lie in a texture `width` texels wide.
/// @param bytes a multiple of 4
/// @param width texels per row
/// @throws Error InvalidArgument for a width < 1
TexelLayout texelLayout(std::uint64_t bytes, int width);

/// Where the records of a buffer lie in its planes.
struct PlaneLayout {
    int strideWords = 0;    ///< 32-bit words per record
    int planes = 0;         ///< ceil(strideWords / 4)
    std::int64_t count = 0; ///< records
    int width = 0;          ///< texels per row: a power of two
    int rows = 0;           ///< ceil(count / width), at least 1
    /// A 16-byte record: the plane is the buffer's own linear layout, copied without a pass.
    bool linear() const { return strideWords == 4; }
    bool operator==(const PlaneLayout&) const = default;
};
/// @param strideBytes the record's size, a multiple of 4
/// @param count records
/// @param width texels per row, a power of two
/// @throws Error InvalidArgument for a width < 1
PlaneLayout planeLayout(int strideBytes, std::int64_t count, int width);

/// One fragment pass: a program writing planes of one or more output buffers.
struct FragmentPass {
    std::string source; ///< the fragment shader
    struct Target {
        int output = 0; ///< index into PassPlan::outputs
        int plane = 0;
    };
    std::vector<Target> targets; ///< colour attachment j writes targets[j]
};

/// Where an emitted budget's counts and their sums lie: a HistoPyramid (Ziegler et al. 2006) in two
/// RGBA32UI atlases per group of 4 budgets (budget b is component b % 4 of group b / 4). Level 0
/// holds every element's clamped count (node i = element i), level L + 1 node j the sum of level L's
/// nodes 4j .. 4j + 3, up to one node: the budget's requested total. Node j of a level is texel
/// (j % width, firstRow + j / width) of atlas `L % 2`: a level's pass reads the other atlas, so
/// no pass samples the texture it renders into (a feedback loop in WebGL).
struct PyramidLayout {
    struct Level {
        std::int64_t nodes = 0;
        int firstRow = 0; ///< in atlas `index % 2`
        int rows = 0;     ///< ceil(nodes / width)
    };
    int width = 0;             ///< texels per row: the planes' width
    int groups = 0;            ///< atlases per parity: ceil(budgets / 4)
    std::vector<Level> levels; ///< [0]: the elements' counts; back(): one node, the totals
    int atlasRows[2] = {0, 0}; ///< rows of the even levels' atlas and of the odd levels'
};
/// @param elements nodes of level 0 (>= 1)
/// @param width texels per row, a power of two
/// @param budgets EmitPlan::budgets (>= 1)
/// @throws Error InvalidArgument for a layout that cannot exist (no element, no budget, width < 1)
PyramidLayout pyramidLayout(std::int64_t elements, int width, std::size_t budgets);

/// The fragment passes of emitted outputs, in the order a step runs them: `count` (level 0: one
/// fragment per element runs the user's main() and writes its clamped count per budget, colour
/// attachment g group g), `reduce[L - 1]` (level L from level L - 1, sampler `xfb_below`), then each
/// `gathers` pass: one fragment per record slot r below the capacity descends the budget's pyramid
/// (samplers `xfb_pyramid0` / `xfb_pyramid1`, the even and odd atlases of its group) to the element
/// i and index k of record r in input order, runs the user's main() for element i and writes
/// record k of each output to its plane; a slot at or past the total is discarded (the buffer's
/// bytes stay, as the compute backend leaves them).
struct EmitFragmentPasses {
    std::string count;
    std::vector<std::string> reduce;
    struct Gather {
        int budget = 0;
        std::vector<int> outputs; ///< EmitPlan::outputs, colour attachment j writing outputs[j]'s plane
        std::string source;
    };
    std::vector<Gather> gathers;
    PyramidLayout pyramid;
    std::vector<PlaneLayout> outputLayouts; ///< per EmitPlan::outputs: `capacity` records, one plane
    bool empty() const { return gathers.empty(); }
};

/// The generated shaders of a fragment-backend pipeline and the samplers they read.
struct FragmentShader {
    std::string version;      ///< the passes' `#version` line and precision statements
    std::string vertexSource; ///< one triangle covering the viewport (gl_VertexID 0..2)
    std::vector<FragmentPass> passes;
    /// Per entry of the role list, per plane of its input buffer: the sampler (`xfb_in<e>_<p>`) the
    /// plane is read from, or empty where no attribute reads it (or the entry has no input).
    std::vector<std::vector<std::string>> inputSamplers;
    /// Per PassPlan::outputs, per plane: the sampler (`xfb_kept<o>_<p>`) of the plane of the output
    /// buffer as it was before the step, or empty. Only a plane with gap words of a declared layout
    /// has one: transform feedback leaves gap bytes as they were, a texel is written whole.
    std::vector<std::vector<std::string>> keptSamplers;
    int textureWidth = 0;     ///< of every plane: a power of two
    int rows = 0;             ///< of every plane: ceil(count / textureWidth)
    EmitFragmentPasses emits; ///< FragmentTranslationOptions::emits' passes, empty without
};

/// The passes that move a buffer of `layout` between its linear texture (texelLayout() of the same
/// width) and its planes. Each draws one triangle over the viewport, like the step's passes.
struct PlaneCopyShaders {
    /// Planes [j * maxDrawBuffers, ...) of the record from the linear texture `xfb_linear`, colour
    /// attachment k writing plane j * maxDrawBuffers + k.
    std::vector<std::string> spread;
    /// The linear texels from the planes `xfb_plane<p>`, one colour attachment.
    std::string gather;
};
/// @param layout the buffer's planes
/// @param maxDrawBuffers colour attachments a spread pass may write
/// @param version FragmentShader::version of the pipeline
/// @throws Error InvalidArgument for a layout planeLayout() does not make (no record, a width that is
///         not a power of two) or fewer than 1 draw buffer
PlaneCopyShaders planeCopyShaders(const PlaneLayout& layout, int maxDrawBuffers, std::string_view version);

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
///         (but xfb_substep); InvalidArgument
///         for substeps that cannot be fused, a width or draw buffer count < 1; the reader's errors.
FragmentShader translateToFragment(std::string_view vertexSource, const ReadOptions& read, const PassPlan& pass,
                                   const CapturePlan& capture, std::size_t entryCount,
                                   const FragmentTranslationOptions& options = {});

} // namespace xfb
