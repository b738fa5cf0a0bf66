#pragma once
/// @file
/// @brief Geometry programs: a geometry shader's primitives, its vertex streams and the worst case
/// it can write, planned before anything is drawn. Pure, no GL.
///
/// A program may run a geometry shader after its vertex shader (ProgramDesc::geometry). Transform
/// feedback then captures the geometry shader's outputs: the capture plan is read from the geometry
/// shader (readGeometryInterface(), planCapture()), one buffer per vertex stream in interleaved
/// mode, and planGeometry() reads what the capture's budget needs: the input primitive
/// (`layout(triangles) in;`), the output primitive and `max_vertices` (`layout(points,
/// max_vertices = 4) out;`), `invocations` (`layout(triangles, invocations = 2) in;`) and the
/// stream of every output (`layout(stream = 1) out vec4 v;`, or a default `layout(stream = 1) out;`).

#include "xfb/capture_plan.hpp"
#include "xfb/enum_tables.hpp"
#include "xfb/primitive_count.hpp"

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace xfb {

/// `layout(X) in;`: names XFB_GEOMETRY_INPUTS (xfb/enum_tables.hpp).
enum class GeometryInput { XFB_GEOMETRY_INPUTS(XFB_ENUMERATOR) };
/// `layout(X, max_vertices = N) out;`: names XFB_GEOMETRY_OUTPUTS (xfb/enum_tables.hpp).
enum class GeometryOutput { XFB_GEOMETRY_OUTPUTS(XFB_ENUMERATOR) };
std::string_view geometryInputName(GeometryInput g);   // "points", "lines", "triangles", ...
std::string_view geometryOutputName(GeometryOutput g); // "points", "line_strip", "triangle_strip"

/// One captured vertex stream.
struct GeometryStream {
    int stream = 0;
    DrawMode primitive = DrawMode::Points; ///< what transform feedback records: points, lines or triangles
    std::vector<int> buffers;              ///< indices into CapturePlan::buffers, ascending
    /// The most one invocation can write to this stream: every one of max_vertices vertices emitted
    /// to it (points: max_vertices; a line strip: max_vertices - 1 lines; a triangle strip:
    /// max_vertices - 2 triangles). Streams share max_vertices, so each may receive all of them.
    std::int64_t maxPrimitivesPerInvocation = 0;
    std::int64_t maxRecordsPerInvocation = 0; ///< maxPrimitivesPerInvocation x the primitive's vertices
};

struct GeometryPlan {
    GeometryInput input = GeometryInput::Triangles;
    GeometryOutput output = GeometryOutput::Points;
    int maxVertices = 0;
    int invocations = 1;
    int streamCount = 1;                 ///< streams the shader declares outputs on: the highest stream + 1
    std::vector<GeometryStream> streams; ///< the captured streams, in stream order
    int inputLine = 0, outputLine = 0;   ///< where the input and output layouts are declared

    /// What transform feedback records (glBeginTransformFeedback's primitiveMode): points for
    /// points, lines for line_strip, triangles for triangle_strip.
    DrawMode capturedPrimitive() const;
    /// The captured stream `stream`, null when nothing is captured from it.
    const GeometryStream* find(int stream) const;
};

/// The capture plan of a geometry shader, per vertex stream: each varying belongs to its output's
/// `layout(stream = N)`, and a buffer receives one stream (OutputLayout::stream). Interleaved
/// mode: the list (or the default, every `out_*` output in declaration order) becomes one buffer
/// per stream that has captured varyings, in stream order, each holding that stream's varyings in
/// list order and checked alone against MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS (GL writes
/// them with gl_NextBuffer between the buffers, GL 4.0); separate mode gives each varying its own
/// buffer; a declared layout (xfb_buffer, a declaration, gl_NextBuffer in the list) is planned as
/// planCapture() does. Otherwise as planCapture().
/// @throws Error as planCapture(); LayoutStream (a declared buffer of two streams, naming both
///         varyings), SeparateAttribs (more streams than MAX_TRANSFORM_FEEDBACK_BUFFERS, here
///         Limits::maxSeparateAttribs)
CapturePlan planGeometryCapture(const ShaderInterface& geometry, const CaptureOptions& options, const Limits& limits);

/// Reads `geometry`'s layout qualifiers and groups `capture`'s buffers (planGeometryCapture() of
/// the same shader) by stream.
/// @throws Error GeometryLayout (no input or output primitive, no max_vertices, an adjacency input
///         (no draw mode of xfb makes one), max_vertices or invocations outside 1..the limit, the
///         outputs' components x max_vertices over GL_MAX_GEOMETRY_TOTAL_OUTPUT_COMPONENTS,
///         several streams with an output primitive other than points), GeometryStream (an output
///         on a stream at or over limits.maxStreams)
GeometryPlan planGeometry(const GeometryInterface& geometry, const CapturePlan& capture,
                          const GeometryLimits& limits = {});

/// The input primitive a draw mode gives a geometry shader: points, lines (strips and loops too)
/// or triangles (strips and fans too).
GeometryInput geometryInputOf(DrawMode mode);

/// The budget of `draw` through a geometry program: inputPrimitives (the draw's primitives),
/// streams (per captured stream: max_vertices x invocations x input primitives, as primitives and
/// records, and bytes per buffer), bytes (per buffer of the capture plan: its stream's worst case),
/// primitive (the captured primitive), primitives and records (summed over the streams). Upper
/// bounds: what the shader emits is known only on the GPU (PrimitiveCapture::statistics()).
/// @throws Error GeometryInput (the draw's primitives are not the shader's input primitive),
///         InvalidArgument (a negative count, a mode outside DrawMode), BufferTooLarge (overflows 64 bits)
CaptureCount countGeometryCapture(const DrawDesc& draw, const GeometryPlan& geometry, const CapturePlan& capture);

/// Refuses a budget that does not fit: `bufferBytes[i]` is the size of output buffer i.
/// @throws Error Capacity naming the buffer, its stream, both sizes and the budget's factors
void checkGeometryCapacity(const CaptureCount& budget, const GeometryPlan& geometry, const CapturePlan& capture,
                           std::span<const std::uint64_t> bufferBytes);

/// The first stream of `budget` whose records a compute capture (GL compute, WebGPU) cannot count:
/// 2^32 or more (its counts and prefix sums are 32-bit); null when every stream fits.
const StreamBudget* overComputeCounts(const CaptureCount& budget);
/// @throws Error BufferTooLarge naming the stream of overComputeCounts() and its records
void checkComputeCounts(const CaptureCount& budget);

/// Per vertex stream 0..streamCount-1, the records a compute capture of it may write (GL compute
/// and WebGPU alike): the whole captured primitives that every buffer of the stream holds
/// (`bufferBytes[i]`: output buffer i's size), and never past 2^32 - 1 records, which the passes'
/// 32-bit counts bound (also for a stream nothing captures).
std::vector<std::int64_t> geometryStreamCapacities(const GeometryPlan& geometry, const CapturePlan& capture,
                                                   std::span<const std::uint64_t> bufferBytes);

} // namespace xfb
