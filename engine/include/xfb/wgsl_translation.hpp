#pragma once
/// @file
/// @brief Translates a transform-feedback vertex shader into a WGSL compute shader (WebGPU). Pure, no GL.
///
/// The same simulation source runs as a WebGPU compute pass that reads and writes exactly the
/// bytes the transform-feedback pass does. Like translateToCompute() (the GL compute path), every
/// buffer is a `array<u32>` (or `array<vec4<u32>>` when every access is 4 aligned words) and each
/// value is moved with `bitcast`, so strides such as 36 bytes, int/uint attributes and separate
/// buffers keep their layout. Unlike it, the user's code is parsed by the shader front-end into a
/// typed module (engine/src/shader/: every expression typed, names and overloads resolved) and
/// printed as WGSL (shader/wgsl_printer.hpp), because WGSL differs in syntax and in semantics:
///
/// - declarations get WGSL types (`vec3` -> `vec3<f32>`, `mat4` -> `mat4x4<f32>`), float
///   literals are f32 (`1.0f`), so constant folding happens in f32 as in GLSL; array sizes are
///   any constant integer expression (literals, const ints, + - * / ...);
/// - `c ? a : b` -> `select(b, a, c)` when both sides are plain values, else if/else with a
///   temporary (a side that writes runs only when chosen, as in GLSL);
/// - side effects inside expressions (`a = b = c`, `x += (y = 2)`, `r[i++] = v`, `f(i++)`, the
///   comma operator) are hoisted into statements before the one holding them, with `let`/`var`
///   temporaries, in GLSL's left-to-right order; under `&&` / `||` / `?:` they become if/else, in a
///   loop condition or a for update `loop { ... if !(cond) { break; } ... continuing { ... } }`;
/// - `switch` -> WGSL's switch: labels with no statements join the next case (`case 1, 2:`), a
///   case that falls through gets the following cases' statements up to the one ending in a jump,
///   a missing default is added empty;
/// - `mod(x, y)` -> x - y * floor(x / y) (GLSL's definition; WGSL's `%` truncates);
/// - `smoothstep()` written out as GLSL defines it; `modf(x, i)`, `uaddCarry(x, y, c)`,
///   `usubBorrow(x, y, b)` (out arguments) -> statements before the one holding the call;
///   `%` and `/` on integers truncate in both languages;
/// - `v.xz *= s` (a swizzle of several components as target) -> one store per component;
/// - out/inout parameters -> `ptr<function, T>`; by-value parameters stay assignable;
/// - constructors convert (`vec3(ivec3)`, `vec4(v.xy, 0, 1)`, `mat3(mat4)`, `mat3(1.0)`, `mat2(vec4)`:
///   components across columns are passed one by one);
/// - `==`/`!=` of vectors -> `all(==)`/`any(!=)`, of matrices per column, of structs and arrays
///   member by member and element by element (helper functions); matrix `+ - /` with a
///   scalar and matrix `/` matrix per column; shift amounts -> u32; min/max/clamp/step/
///   smoothstep with a scalar next to a vector -> the scalar is splatted;
/// - built-ins renamed (inversesqrt -> inverseSqrt, atan(y, x) -> atan2, lessThan -> <,
///   floatBitsToUint -> bitcast, packHalf2x16 -> pack2x16float, bitCount -> countOneBits,
///   findMSB -> firstLeadingBit, findLSB -> firstTrailingBit (as int, -1 for no bit),
///   bitfieldExtract/Insert/Reverse -> extractBits/insertBits/reverseBits, ...) or written as
///   helper functions (inverse of mat2/3/4: the cofactors times 1 / determinant(), as GLSL's rounds
///   on SwiftShader; outerProduct, matrixCompMult); isnan/isinf test the
///   bits (exact whatever the device's float rules);
/// - `texelFetch(s, p, lod)` -> `textureLoad(t, p, lod)` on a `texture_2d<f32|i32|u32>`
///   (sampler2D, isampler2D, usampler2D; 3D and 2D arrays too), `texelFetchOffset` adds the
///   offset, `textureSize` -> `textureDimensions` (+ `textureNumLayers` for arrays);
/// - sampling (`texture`, `textureLod`, `textureOffset`, `textureLodOffset`, `textureProj*`,
///   `textureGrad*`) of a sampler2D / sampler3D / samplerCube / sampler2DArray uniform ->
///   `textureSampleLevel(t, xfb_sampler_<name>, ...)` or `textureSampleGrad`: a WGSL `sampler`
///   binding per sampled uniform (WgslTexture::samplerBinding, after every other binding; the
///   runtime binds the application's GPUSampler), level 0.0 for the implicit-level forms (what a
///   vertex shader reads: GLSL ES 3.00 section 8.8), projective coordinates divided by their last
///   component, an array layer rounded and clamped as GLSL does;
/// - function-like macros are expanded by the preprocessor (WGSL has none), `__LINE__` too;
/// - `umulExtended` / `imulExtended` -> the high word by 16-bit halves (a helper), the low word
///   the wrapping product; `frexp` -> WGSL's `frexp` (out argument hoisted), `ldexp`, the 4x8
///   packings renamed;
/// - `gl_VertexID` -> the global invocation index (x + y * groups.x * workGroupSize, so counts
///   over 65535 work groups dispatch in 2-D), or with WgslTranslationOptions::gather the source
///   vertex of the record; invocations at or past the count return.
///
/// Refused with Error ComputeTranslation ("WGSL: line N: ...") naming the construct, the
/// documented list (docs/guide/shader-coverage.md): sampling an integer sampler (WGSL samples
/// float textures only: texelFetch() reads it) or a shadow sampler, sampling through a sampler
/// parameter (sample the uniform), sampler arrays, dFdx/dFdy/fwidth (fragment-only in GLSL too),
/// double types, uniform blocks and interface blocks (the runtime writes one uniform buffer from
/// setUniform()), bool arrays or struct uniforms, uniform arrays whose element stride is not a
/// multiple of 16 bytes (float[N], vec2[N]: use vec4[N]), out arguments that are not whole local
/// variables, ++/-- of a matrix or of several swizzled components, gl_* built-ins other than gl_VertexID, gl_InstanceID
/// (0), gl_Position and gl_PointSize, the reserved xfb_ prefix. An undeclared name is ShaderCompile ("line N: 'x' is
/// not declared"), as the GL compiler reports it.
///
/// Uniforms live in one uniform buffer (`struct XfbUniforms`, `xfb_count: u32` first, then the
/// shader's uniforms in declaration order) laid out by WGSL's uniform address-space rules
/// (vec3 aligned to 16, matrix columns of vec3/vec4 16 bytes apart, array strides multiples of
/// 16, size rounded up to 16). The offsets are in WgslShader::uniforms.
///
/// The substep built-in (fusion_plan.hpp): `uniform int xfb_substep;` keeps its place in the
/// uniform buffer, and the entry point copies it into a private `xfb_substep` before running the
/// user's main(), so the runtime sets it per pass. Fused substeps (WgslTranslationOptions::
/// fuseSubsteps) loop the body inside one invocation instead and assign the private from the
/// loop index.

#include "xfb/capture_plan.hpp"
#include "xfb/emit_plan.hpp"
#include "xfb/geometry_plan.hpp"
#include "xfb/pass_plan.hpp"
#include "xfb/shader_interface.hpp"

#include <string>
#include <vector>

namespace xfb {

struct WgslTranslationOptions {
    int workGroupSize = 256; ///< `@workgroup_size(x)`; at most the device's limit (256 by default)
    /// Emitted (variable-count) outputs, from planEmits(): adds WgslShader::countSource and the
    /// per-budget counts / firsts bindings, as translateToCompute() does for GL compute.
    const EmitPlan* emits = nullptr;
    /// Fused substeps (fusion_plan.hpp): the entry point loads the state once, runs the user's
    /// main() `xfb_u.xfb_substeps` times (a u32 appended to the uniform buffer at
    /// WgslShader::substepsOffset, so one pipeline serves every k), copying after each substep
    /// every captured varying into the state input that reads the same bytes, then stores once.
    /// The shader must pass checkFusion() and have no emitted outputs (InvalidArgument with the
    /// reason otherwise).
    bool fuseSubsteps = false;
    /// Primitive capture (WebGPU's PrimitiveCapture): invocation i writes record
    /// `xfb_u.xfb_first_record + i` from source vertex `xfb_source[xfb_u.xfb_first_source + i]`
    /// (the vertex's inputs, gl_VertexID = that vertex), so one dispatch over expandPrimitives()'s
    /// list captures strips, fans, loops, index lists and restarts as whole primitives, in the
    /// order transform feedback writes them. `xfb_count` is then the records of the dispatch.
    /// Adds WgslShader::sourceBinding and gatherOffset; not with emitted outputs or fused substeps.
    bool gather = false;
};

/// Where one uniform lives in the uniform buffer: element e, column c, row r of it is the
/// 4-byte value at offset + e * arrayStride + c * columnStride + r * 4.
struct WgslUniform {
    std::string name; ///< as declared in GLSL
    GlslType type;
    int arraySize = 0;    ///< 0: not an array
    int offset = 0;       ///< bytes
    int size = 0;         ///< bytes, every element included
    int arrayStride = 0;  ///< bytes between elements (multiple of 16), 0 when not an array
    int columnStride = 0; ///< bytes between matrix columns (16 for vec3/vec4 columns, 8 for vec2)
};

/// A texture the shader reads (a GLSL sampler uniform): with texelFetch, or sampled through a
/// WGSL sampler of its own (texture(), textureLod(), ...).
struct WgslTexture {
    std::string name; ///< the sampler uniform's GLSL name
    int binding = 0;
    /// Float: 'unfilterable-float' (read with texelFetch only) or 'float' (sampled: a filterable
    /// format), Int: 'sint', UInt: 'uint'
    ScalarKind sampleKind = ScalarKind::Float;
    int samplerBinding = -1; ///< sampled: its `sampler` binding ('filtering'); -1: texelFetch only
};

/// The translated shader and its bindings, all in `@group(0)`.
struct WgslShader {
    std::string source;
    std::string entryPoint = "xfb_main";
    int workGroupSize = 256;
    int uniformBinding = 0;            ///< the uniform buffer (var<uniform> xfb_u)
    int uniformBytes = 16;             ///< its size, a multiple of 16
    int countOffset = 0;               ///< where the u32 element count lives in it
    int substepsOffset = -1;           ///< fused only: where the u32 substep count k lives in it
    int gatherOffset = -1;             ///< gather only: xfb_first_record then xfb_first_source (u32 each) in it
    int sourceBinding = -1;            ///< gather only: the source vertex list (array<u32>, read)
    std::vector<WgslUniform> uniforms; ///< the shader's uniforms, declaration order (samplers excluded)
    std::vector<WgslTexture> textures;
    std::vector<int> readBinding;  ///< per entry: storage binding its input is read from (read-only), or -1
    std::vector<int> writeBinding; ///< per entry: storage binding its output is written to (read_write), or -1
    /// Emitted outputs only. The count pass (same entry point and bindings): runs the user's
    /// main and stores each budget's count, clamped to 0..maxRecords, at `xfb_emitted<b>[i]`
    /// (countsBinding[b], read_write). The main pass then stores element i's k-th record at
    /// `xfb_first<b>[i] + k` (firstBinding[b], read: the exclusive prefix sum of the counts),
    /// in input order, never at or past the budget's capacity.
    std::string countSource;
    std::vector<int> countsBinding;
    std::vector<int> firstBinding;
};

/// @param vertexSource the simulation's vertex shader, as given to the Program
/// @param read the reader's options (extra `#define`s) it was read with
/// @param pass the pass plan of the pipeline (planPass())
/// @param capture the program's capture plan
/// @param entryCount the number of entries of the role list the pass plan was made for.
/// @param options work-group size, emitted outputs, fused substeps
/// @throws Error ComputeTranslation naming the construct and its line; InvalidArgument for a
///         work-group size outside 1..256, or a pass plan with emitted entries but no
///         options.emits. Plus the reader's errors.
WgslShader translateToWgsl(std::string_view vertexSource, const ReadOptions& read, const PassPlan& pass,
                           const CapturePlan& capture, std::size_t entryCount,
                           const WgslTranslationOptions& options = {});

/// The same with a default role list, for inspection (`xfb-inspect --wgsl`): every input packed
/// in one {input} buffer in declaration order, then one {output} entry per captured buffer.
WgslShader translateToWgsl(std::string_view vertexSource, const ReadOptions& read, const CaptureOptions& capture,
                           const WgslTranslationOptions& options = {});

/// A geometry program (ProgramDesc::geometry) as WGSL compute kernels: the passes of
/// translateGeometryToCompute() (xfb/compute_translation.hpp), planned by the same code, so a
/// WebGPU capture writes the bytes of the GL compute capture and of the geometry shader:
/// 1. `vertex`: the vertex shader over the input vertices into the scratch records
///    (`scratchStride` bytes each; its writeBinding[entryCount]), as translateToWgsl();
/// 2. `countSource`: per item (input primitive x invocations + invocation) the records each stream
///    receives at `xfb_emitted<s>[item]` (countsBinding[s]; 0 for items past xfb_items);
/// 3. after an exclusive prefix sum of each stream's counts (`xfb_first<s>`, firstBinding[s]),
///    `writeSource` stores them: points as emitted, strips closed into lists in the GL's order,
///    only whole primitives below `xfb_capacity[s]` records (outputBinding[b] per captured buffer).
/// Both geometry kernels read the uniform buffer (uniformBinding: xfb_count, xfb_items: u32 at
/// bytes 0 and 4, xfb_capacity: vec4<u32> at 16, then the geometry shader's uniforms from byte 32,
/// laid out as translateToWgsl() lays out the vertex shader's: `uniforms`, `uniformBytes`), the
/// scratch records (scratchBinding) and the source list (sourcesBinding: per input primitive its
/// vertices, expandPrimitives()). A uniform the vertex shader declares too is the same value in
/// both buffers (the caller writes it into both).
struct WgslGeometryShaders {
    WgslShader vertex;
    CapturePlan scratch;
    int scratchStride = 0;
    std::string countSource, writeSource;
    std::string entryPoint = "xfb_main";
    int workGroupSize = 64;
    int uniformBinding = 0;
    int uniformBytes = 32;             ///< the kernels' uniform buffer: 32 bytes of counts, then `uniforms`
    std::vector<WgslUniform> uniforms; ///< the geometry shader's, declaration order, offsets from byte 32
    int scratchBinding = 1, sourcesBinding = 2;
    std::vector<int> outputBinding; ///< write pass: per buffer of the capture plan
    std::vector<int> countsBinding; ///< count pass: per stream
    std::vector<int> firstBinding;  ///< write pass: per stream
    int storageBuffers = 0;         ///< the most storage buffers the count or the write kernel binds
    int inputVertices = 1;          ///< vertices of an input primitive
    int primitiveVertices = 1;      ///< vertices of a captured primitive
};

/// Translates a geometry program into the kernels of WgslGeometryShaders (pure: no GPU).
/// @param vertexSource the program's vertex shader (GLSL ES 3.00 / GLSL 3.30+)
/// @param geometrySource its geometry shader (ProgramDesc::geometry)
/// @param read how the vertex shader's inputs are read, as translateToWgsl()
/// @param pass the capture's pass plan (planPass()), as translateGeometryToCompute()
/// @param capture the program's capture plan (per stream, planGeometryCapture())
/// @param geometry planGeometry() of the program
/// @param entryCount the capture's entries, as translateGeometryToCompute()
/// @param options the work-group size (1..256) of every kernel
/// @throws Error ComputeTranslation: what translateGeometryToCompute() and translateToWgsl()
///         refuse, and a geometry-shader sampler ("WGSL: line N: sampler '...'"); ProgramLink for a
///         uniform both shaders declare with different types (as the GL's link); InvalidArgument
///         for options with emits, fused substeps or gather
WgslGeometryShaders translateGeometryToWgsl(std::string_view vertexSource, std::string_view geometrySource,
                                            const ReadOptions& read, const PassPlan& pass, const CapturePlan& capture,
                                            const GeometryPlan& geometry, std::size_t entryCount,
                                            const WgslTranslationOptions& options = {});

} // namespace xfb
