#pragma once
/// @file
/// @brief What a draw writes through transform feedback: primitives, vertex records, bytes. Pure.
///
/// Transform feedback writes whole primitives: strips, loops and fans are captured as
/// independent lines or triangles (a 4-vertex triangle strip writes 2 triangles = 6 records).
/// Primitive restart splits an indexed draw into runs that are counted separately.

#include "xfb/enum_tables.hpp"
#include "xfb/capture_plan.hpp"

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace xfb {

/// The draw's primitive mode (GL_POINTS ... GL_TRIANGLE_FAN).
enum class DrawMode { XFB_DRAW_MODES(XFB_ENUMERATOR) }; // names: XFB_DRAW_MODES (xfb/enum_tables.hpp)
std::string_view drawModeName(DrawMode m);              // "points", "triangle_strip", ...
std::optional<DrawMode> drawModeFromName(std::string_view name);
/// Refuses a value outside XFB_DRAW_MODES, e.g. `static_cast<DrawMode>(42)`: every function that
/// takes a DrawMode (here, Pipeline::drawEmitted, PrimitiveCapture's captures and draws) calls it
/// first, so such a value is never a draw of nothing. `what` names the caller in the message.
/// @throws Error InvalidArgument naming the value and the modes there are
void checkDrawMode(DrawMode m, std::string_view what);
/// What is captured: points, lines or triangles (glBeginTransformFeedback's primitiveMode).
/// @throws Error InvalidArgument (a value outside the enum)
DrawMode capturedPrimitive(DrawMode m);
/// The vertices of one captured primitive of `m` (capturedPrimitive(m)): points 1, lines 2,
/// triangles 3; a record per vertex.
int verticesPerPrimitive(DrawMode m);

struct DrawDesc {
    DrawMode mode = DrawMode::Points;
    std::int64_t vertexCount = 0;              ///< non-indexed draws
    std::vector<std::uint32_t> indices;        ///< indexed draws (vertexCount is then ignored)
    std::optional<std::uint32_t> restartIndex; ///< primitive restart (e.g. 0xFFFF for 16-bit indices)
};

/// What one vertex stream of a geometry program can write for a draw (countGeometryCapture()).
struct StreamBudget {
    int stream = 0;
    DrawMode primitive = DrawMode::Points; ///< Points, Lines or Triangles
    std::int64_t primitives = 0;           ///< at most: input primitives x invocations x per invocation
    std::int64_t records = 0;              ///< at most: primitives x the primitive's vertices
};

struct CaptureCount {
    DrawMode primitive = DrawMode::Points; ///< Points, Lines or Triangles
    std::int64_t primitives = 0;
    std::int64_t records = 0;         ///< vertex records written per output buffer
    std::vector<std::uint64_t> bytes; ///< per output buffer of the capture plan: records x stride
    /// Geometry programs only (countGeometryCapture): the draw's own primitives, and per captured
    /// stream its budget; primitives, records and bytes are then upper bounds, the worst case.
    std::int64_t inputPrimitives = 0;
    std::vector<StreamBudget> streams;
};

/// Counts what `draw` writes with `capture`'s buffers.
/// @throws Error InvalidArgument (negative count, a mode outside the enum)
CaptureCount countCapture(const DrawDesc& draw, const CapturePlan& capture);

/// The source vertex of every record the draw writes, in the order transform feedback writes
/// them (the GL's decomposition with the default last-vertex convention): line strip i ->
/// (i, i+1); line loop adds (last, first); triangle strip i -> (i, i+1, i+2) for even i and
/// (i+1, i, i+2) for odd i, which keeps the winding; fan i -> (0, i+1, i+2). Incomplete
/// primitives are dropped, restart indices start a new run. Indexed draws give index values.
/// This is what the engine draws on ES 3.0 / WebGL2, where the GL does not decompose strips
/// during transform feedback.
/// @throws Error InvalidArgument (negative count, a mode outside the enum)
std::vector<std::uint32_t> expandPrimitives(const DrawDesc& draw);

/// Refuses a draw that refers to a vertex the inputs do not hold: a non-indexed draw of more
/// than `inputVertices` vertices, or an index at or past it (restart indices excepted). Returns
/// how many vertices the draw refers to: its vertex count, or the highest index + 1.
/// Primitive capture calls it on every runtime (GL, WebGL2, WebGPU) before anything is written.
/// @throws Error InvalidArgument naming the count or the index, its position and the range
std::int64_t checkDrawVertices(const DrawDesc& draw, std::int64_t inputVertices);

/// Refuses a draw whose records do not fit: `bufferBytes[i]` is the size of output buffer i.
/// @throws Error Capacity naming the buffer, both sizes and the record counts
void checkCaptureCapacity(const CaptureCount& count, std::span<const std::uint64_t> bufferBytes);

} // namespace xfb
