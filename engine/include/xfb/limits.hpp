#pragma once
/// @file
/// @brief Every limit xfb checks, in one place: the driver limits a plan must fit (Limits) and the
/// fixed limits of the shader reader and of buffer sizes (namespace limits).
///
/// Each limit has its own stable error code (xfb/error.hpp) and is listed with it in
/// docs/guide/limits-and-errors.md. The reader's limits are far above any shader a GPU accepts: they
/// exist so that hostile or generated input ends in a coded error, never a crash, a hang or a
/// silently wrong plan (the same code runs in the WebAssembly module).

#include <cstdint>
#include <string_view>

namespace xfb {

/// Limits that decide whether a plan fits. On a live context they come from glGetIntegerv
/// (queried once per context, see Device::limits()); offline, use a preset.
struct Limits {
    int maxVertexAttribs = 16;         ///< GL_MAX_VERTEX_ATTRIBS
    int maxSeparateComponents = 4;     ///< GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_COMPONENTS
    int maxSeparateAttribs = 4;        ///< GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS
    int maxInterleavedComponents = 64; ///< GL_MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS
    /// Rows of 4 components the vertex shader's outputs pack into (GLSL ES varying packing, see
    /// varyingsFit() in xfb/capture_plan.hpp): GL_MAX_VARYING_VECTORS on ES / WebGL2,
    /// GL_MAX_VERTEX_OUTPUT_COMPONENTS / 4 on desktop GL (GL 3.2).
    int maxVaryingVectors = 15;

    /// The minimums every WebGL2 / OpenGL ES 3.0 implementation guarantees: 16 attributes,
    /// 4 separate components, 4 separate attributes, 64 interleaved components, 15 varying vectors.
    static constexpr Limits portable() { return {}; }
    /// What a WebGPU plan fits: portable(), but no varying rows (a compute pass passes no varyings
    /// between stages; issue 39). Its own limits (storage buffers per stage, binding sizes) are the
    /// device's, checked by the npm package.
    static constexpr Limits webgpu() {
        Limits l;
        l.maxVaryingVectors = 2147483647;
        return l;
    }
};

/// The driver limits a geometry program must fit (planGeometry(), xfb/geometry_plan.hpp;
/// Capabilities::geometryLimits on a live context). The defaults are the minimums of OpenGL 4.0.
struct GeometryLimits {
    int maxOutputVertices = 256;         ///< GL_MAX_GEOMETRY_OUTPUT_VERTICES
    int maxInvocations = 32;             ///< GL_MAX_GEOMETRY_SHADER_INVOCATIONS
    int maxStreams = 4;                  ///< GL_MAX_VERTEX_STREAMS (OpenGL ES 3.2: 1, stream 0 only)
    int maxTotalOutputComponents = 1024; ///< GL_MAX_GEOMETRY_TOTAL_OUTPUT_COMPONENTS
};

/// Fixed limits of the shader reader (readShaderInterface, translateToCompute) and of buffer sizes.
namespace limits {
/// Source length in bytes (ErrorCode::SourceTooLarge).
inline constexpr std::size_t maxSourceBytes = 1 << 20;
/// Tokens produced by the preprocessor: active code after macro expansion plus the expansions of
/// `#if` conditions, summed over the whole source (ErrorCode::ExpansionLimit). Twenty macros that
/// each double the previous one reach it in well under a second.
inline constexpr std::size_t maxTokens = 500'000;
/// Nesting of parentheses and unary operators in one integer expression, of `#if` blocks, of struct
/// definitions, and of macros expanding macros (ErrorCode::NestingDepth).
inline constexpr int maxNestingDepth = 256;
/// Global in / out / uniform declarators, struct members included (ErrorCode::TooManyDeclarations).
inline constexpr int maxDeclarations = 4096;
/// Elements of one array (ErrorCode::ArraySize). Above every GL_MAX_* a vertex shader meets.
inline constexpr int maxArraySize = 65536;
/// Scalar components of one declaration, arrays and structs expanded (ErrorCode::ArraySize).
inline constexpr int maxDeclarationComponents = 1 << 20;
/// Bytes of one WebGL2 buffer (2^31 - 1; GLintptr is 32-bit in WebGL). xfb-run keeps every buffer
/// within it so that scenarios port to the browser (ErrorCode::BufferTooLarge).
inline constexpr std::uint64_t maxWebGLBufferBytes = 2147483647;
/// Substeps of one Pipeline::step(k) (ErrorCode::InvalidArgument). A fused pass loops k times in
/// one draw or dispatch, and each k is its own cached program: the bound keeps one call from
/// running long enough for a driver to reset the GPU, and the cache from growing without end.
inline constexpr int maxSubsteps = 256;
} // namespace limits

/// count x stride in bytes, checked: `what` names the buffer in the message.
/// @throws Error InvalidArgument (count < 0 or stride <= 0), BufferTooLarge (the product overflows
///         or exceeds maxBytes, e.g. limits::maxWebGLBufferBytes)
std::uint64_t checkedBufferBytes(std::int64_t count, std::int64_t stride, std::uint64_t maxBytes,
                                 std::string_view what);

} // namespace xfb
