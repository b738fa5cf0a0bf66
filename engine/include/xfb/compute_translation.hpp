#pragma once
/// @file
/// @brief Translates a transform-feedback vertex shader into a compute shader. Pure, no GL.
///
/// The same simulation source runs as a GLSL 4.30 (or ES 3.10) compute shader that reads and
/// writes exactly the bytes the transform-feedback pass does: each input is loaded from a shader
/// storage buffer at the element's computed word offset (strides such as 36 bytes are addressed
/// word by word, never through std430 struct packing), the user's main() runs unchanged, and
/// every captured varying is stored at its offset in its output buffer. gl_VertexID becomes the
/// element index; invocations past the element count return early.

#include "xfb/capture_plan.hpp"
#include "xfb/emit_plan.hpp"
#include "xfb/fusion_plan.hpp"
#include "xfb/geometry_plan.hpp"
#include "xfb/pass_plan.hpp"
#include "xfb/shader_interface.hpp"

#include <string>
#include <vector>

namespace xfb {

struct ComputeTranslationOptions {
    bool es = false;         ///< emit `#version 310 es` instead of `#version 430`
    int workGroupSize = 256; ///< local_size_x
    /// Variable-count outputs: adds a count pass (countSource) that stores each element's
    /// clamped count per budget, and makes main() store record k of an element at
    /// first[element] + k (first: the budget's exclusive prefix sum), never past the capacity.
    const EmitPlan* emits = nullptr;
    /// Fused substeps (fusion_plan.hpp): > 1 loops the user's main() that many times per
    /// element, feeding the captured varyings back into the state inputs; the shader must pass
    /// checkFusion() (InvalidArgument with its reason otherwise).
    int substeps = 1;
    /// With emits: one pass instead of the count pass (no countSource). Work groups take tiles
    /// in ticket order, scan their clamped counts in shared memory and get their first record
    /// from their predecessors' status words (a decoupled look-back); the last tile writes the
    /// totals. Needs the state and totals buffers of ComputeShader::stateBinding; each budget's
    /// running total must stay below 2^30 (30-bit status values). Waits on other work groups:
    /// only for drivers that keep a started work group running (compute/ordered_emit.hpp).
    bool singlePassEmit = false;
    /// With singlePassEmit: GL_KHR_shader_subgroup does the tile's work between work-group
    /// barriers: the scan of its counts (subgroupInclusiveAdd per subgroup, then the totals of the
    /// subgroups before from shared memory) and the look-back (subgroup 0 alone, one predecessor
    /// per invocation, the nearest inclusive prefix by ballot, subgroupAdd): 3 barriers per tile
    /// instead of 3 + 2 log2(workGroupSize) + at least 4 per budget. The shader then requires the extension
    /// with its basic, ballot and arithmetic features (Capabilities::subgroupArithmetic). false:
    /// the shared-memory (Hillis-Steele) scan and the barrier-stepped look-back every device runs.
    bool subgroupScan = false;
    /// A population's step (xfb/population.hpp): the live elements are counted on the GPU, in a
    /// `uint xfb_live_count` read from a storage buffer (ComputeShader::liveBinding) that the
    /// population's steps and spawns write, and main() (or the single pass) runs for elements below it
    /// only, dispatched indirectly; `xfb_count` stays the capacity. The count pass still runs over the
    /// capacity and stores 0 for the slots at or past the live count, so the prefix sum of every slot
    /// is the live elements' (the scan and its totals are unchanged). The single pass's tiles are the
    /// live count's (at least one, which writes the totals of an empty population) and clear the next
    /// step's status words of every tile of the capacity between them.
    bool liveCount = false;
};

/// Shader storage buffer bindings of the generated shader, per entry of the role list.
struct ComputeShader {
    std::string source;
    std::vector<int> readBinding;  ///< per entry: SSBO binding the entry's input is read from, or -1
    std::vector<int> writeBinding; ///< per entry: SSBO binding its output is written to, or -1
    int bindingCount = 0;
    /// With emits: the count pass, and per budget the SSBO binding of its counts (written by the
    /// count pass) and of its first-record offsets (read by main()).
    std::string countSource;
    std::vector<int> countsBinding, firstBinding;
    /// With ComputeTranslationOptions::singlePassEmit: the look-back state of this step (uint
    /// ticket, then one status word per tile and budget, zeroed), the next step's (cleared by
    /// this step), and the totals (per budget kTotalsWords uints, written by the last tile).
    int stateBinding = -1, nextStateBinding = -1, totalsBinding = -1;
    /// With ComputeTranslationOptions::liveCount: the storage buffer whose first word is the live
    /// count (read by the count pass, main() and the single pass).
    int liveBinding = -1;
};

/// @param vertexSource the simulation's vertex shader, as given to the Program
/// @param read the reader's options (extra `#define`s) it was read with
/// @param pass the pass plan of the pipeline (planPass())
/// @param capture the program's capture plan
/// @param entryCount the number of entries of the role list the pass plan was made for.
/// @param options GLSL ES or desktop, work-group size, emitted outputs and their scan, fused substeps
/// @throws Error ComputeTranslation naming the construct (and its line) that has no compute
///         equivalent: lookups of a samplerCubeShadow / sampler2DArrayShadow (no textureLod form;
///         other implicit-level lookups read level 0.0, as a vertex shader's do: `texture(s, p)` ->
///         `textureLod(s, p, 0.0)`), gl_DrawID / gl_BaseVertex / gl_BaseInstance,
///         gl_ClipDistance / gl_CullDistance, in/out interface blocks, identifiers in the reserved
///         `xfb_` namespace (except the built-in `xfb_substep`, fusion_plan.hpp). Plus the reader's
///         errors; InvalidArgument for substeps that cannot be fused.
ComputeShader translateToCompute(std::string_view vertexSource, const ReadOptions& read, const PassPlan& pass,
                                 const CapturePlan& capture, std::size_t entryCount,
                                 const ComputeTranslationOptions& options = {});

/// How a geometry program is translated for compute (translateGeometryToCompute()).
struct GeometryComputeOptions {
    bool es = false;           ///< `#version 310 es` instead of `#version 430`
    int workGroupSize = 64;    ///< local_size_x of the geometry kernels (one invocation per primitive and invocation)
    int vertexGroupSize = 256; ///< local_size_x of the vertex pass
};

/// A geometry program as three compute kernels, run in this order by a capture
/// (PrimitiveCapture with Backend::Compute):
/// 1. `vertex`: the vertex shader over the input vertices (translateToCompute()), writing what the
///    geometry shader reads (its inputs by name, gl_Position where it reads gl_in[]) into a
///    scratch buffer, record i for vertex i, `scratchStride` bytes a record (entry `entryCount`
///    of `vertex`'s bindings).
/// 2. `countSource`: per item (input primitive p x invocations + invocation i, the GL's order) the
///    geometry shader run with EmitStreamVertex / EndStreamPrimitive counting: the records it
///    emits to each stream (points: one a vertex; line strips: two a vertex after the strip's
///    first; triangle strips: three a vertex after its second; at most max_vertices vertices an
///    invocation, over all streams) stored at `xfb_emitted<s>[item]`; items past `xfb_items` (up
///    to `xfb_count`, the scan's length) store 0.
/// 3. `writeSource`: after an exclusive prefix sum of each stream's counts (`xfb_first<s>`), the
///    same run storing the records: a point as it is emitted, a line strip's lines and a triangle
///    strip's triangles closed into lists (triangle k of a strip as (k, k+1, k+2) for even k,
///    (k+1, k, k+2) for odd k: the GL's order), record r of stream s only while r + its
///    primitive's records <= `xfb_capacity[s]` (whole primitives, the first ones, as the GL
///    clamps).
/// Inputs of the geometry kernels: `xfb_scratch` (the vertex pass's records), `xfb_sources` (per
/// input primitive its vertices' indices, expandPrimitives()' order), gl_PrimitiveIDIn = p,
/// gl_InvocationID = i. Uniforms: xfb_count, xfb_items (both passes), xfb_capacity[streams]
/// (write pass), and the program's own.
struct GeometryComputeShaders {
    ComputeShader vertex; ///< the vertex pass; its writeBinding[entryCount] is the scratch buffer
    CapturePlan scratch; ///< the vertex pass's record: one interleaved buffer of the varyings the geometry shader reads
    int scratchStride = 0;
    std::string countSource, writeSource;
    int scratchBinding = 0, sourcesBinding = 1; ///< both geometry kernels
    std::vector<int> outputBinding;             ///< write pass: per buffer of the geometry capture plan
    std::vector<int> countsBinding;             ///< count pass: per stream 0..streamCount-1
    std::vector<int> firstBinding;              ///< write pass: per stream 0..streamCount-1
    int bindingCount = 0;                       ///< the most storage buffers one of the three kernels binds
    int inputVertices = 1;                      ///< vertices of an input primitive (1, 2 or 3)
};

/// Translates a geometry program (vertex + geometry shader, ProgramDesc::geometry) into the
/// kernels of GeometryComputeShaders. `pass` is the capture's pass plan (its attributes are read by
/// the vertex pass; its outputs, one per buffer of `capture`, are written by the write pass).
/// @throws Error ComputeTranslation naming the construct and its line: what translateToCompute()
///         refuses in either shader, gl_PrimitiveID / gl_Layer / gl_ViewportIndex, a geometry input
///         that is not an array of scalars or vectors, one the vertex shader does not write (by
///         name), interface blocks; the readers' errors
GeometryComputeShaders translateGeometryToCompute(std::string_view vertexSource, std::string_view geometrySource,
                                                  const ReadOptions& read, const PassPlan& pass,
                                                  const CapturePlan& capture, const GeometryPlan& geometry,
                                                  std::size_t entryCount, const GeometryComputeOptions& options = {});

} // namespace xfb
