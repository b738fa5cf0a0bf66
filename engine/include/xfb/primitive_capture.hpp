#pragma once
/// @file
/// @brief PrimitiveCapture: runs a Program over a draw of points, lines or triangles (strips,
/// loops, fans, indexed, with primitive restart) and captures whole primitives; draws them back
/// without the CPU reading a count.

#include "xfb/enum_tables.hpp"
#include "xfb/capture_session.hpp"
#include "xfb/pipeline.hpp"
#include "xfb/primitive_count.hpp"

#include <memory>
#include <optional>
#include <span>

namespace xfb {

namespace detail {
struct CaptureState;
}

/// Who turns strips, loops, fans and index lists into the independent primitives transform
/// feedback records.
/// - Auto ("auto"): Driver on desktop GL, Engine on OpenGL ES and WebGL2.
/// - Driver ("driver"): desktop GL: glBeginTransformFeedback(LINES/TRIANGLES) around the draw as
///   given, glDrawElements and primitive restart included. Not on ES: there the draw mode must
///   equal the capture mode and indexed draws are not allowed during transform feedback.
/// - Engine ("engine"): any context: one pass captures every vertex once (POINTS); a second POINTS
///   pass gathers the records in primitive order (expandPrimitives' order: computed from
///   gl_VertexID for non-indexed draws, a source list uploaded for indexed ones) through R32UI
///   textures (glTexSubImage2D from a pixel-unpack buffer, texelFetch). Uses the top texture units
///   during capture() and leaves them unbound. Byte-identical to Driver.
/// Rows and names: XFB_EXPANSIONS (xfb/enum_tables.hpp).
enum class Expansion { XFB_EXPANSIONS(XFB_ENUMERATOR) };
std::string_view expansionName(Expansion e); // "auto", "driver", "engine"

/// One part of an append session (PrimitiveCapture::captureSession): a draw, and optionally
/// another program whose capture layout equals the capture's (sameCaptureLayout()) and whose
/// inputs are ones the capture's vertex array provides (same locations and types).
struct CapturePart {
    DrawDesc draw;
    const Program* program = nullptr; ///< null: the program the capture was made with
};

/// How one capture runs (PrimitiveCapture::capture(draw, run)).
struct CaptureRunOptions {
    /// Keep rasterizing while capturing (Direct3D's RasterizedStream): the captured primitives of
    /// this stream are also drawn, with the program's fragment shader (ProgramDesc::fragment), into
    /// the framebuffer, viewport and per-fragment state the caller set. None (default): the
    /// rasterizer is off (GL_RASTERIZER_DISCARD). GL rasterizes stream 0 only, so any other stream
    /// is RasterizedStream. Driver expansion only (desktop GL; geometry programs on ES 3.2).
    std::optional<int> rasterize;
    /// Geometry programs: Error (default) checks the budget (max_vertices x invocations x input
    /// primitives per stream, countGeometryCapture()) against every output buffer before anything
    /// is drawn: Capacity, nothing written. Clamp draws anyway: the GL writes the whole primitives
    /// that fit, drops the rest, and statistics() reports generated against written. A vertex
    /// program's capture is exact and always checked.
    EmitOverflow overflow = EmitOverflow::Error;
};

/// What one vertex stream received in the last capture (Direct3D's SO_STATISTICS), from
/// GL_PRIMITIVES_GENERATED and GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN queries indexed by stream
/// (glBeginQueryIndexed, GL 4.0; glBeginQuery for stream 0 on OpenGL ES 3.2).
struct StreamStatistics {
    int stream = 0;
    bool captured = false;                ///< the capture has buffers for this stream
    std::int64_t primitivesGenerated = 0; ///< what the geometry shader emitted to the stream
    /// What reached the buffers. A stream nothing is captured from never overflows: it counts
    /// every generated primitive on every backend (Mesa's query does; NVIDIA's answers 0, which
    /// xfb replaces by the generated count).
    std::int64_t primitivesWritten = 0;
    std::int64_t recordsWritten = 0; ///< primitivesWritten x the primitive's vertices
    /// A captured stream that generated more than its buffers held (overflow Clamp).
    bool overflow() const { return captured && primitivesGenerated > primitivesWritten; }
};

struct PrimitiveCaptureOptions {
    /// Vertices the shader can be run on when no entry has an input (the shader then uses
    /// gl_VertexID only); must agree with the input buffers otherwise.
    std::optional<std::int64_t> vertexCount;
    Expansion expansion = Expansion::Auto;
    /// Who runs a geometry program (ProgramDesc::geometry), the names of Pipeline's backends:
    /// - TransformFeedback: the GL's geometry shader and transform feedback (desktop GL 4.0+, ES 3.2).
    /// - Compute: the program translated into compute passes (translateGeometryToCompute(),
    ///   GL 4.3+ / ES 3.1+): the same records in the same order, the same statistics; the engine
    ///   expands the draw (expansion() is Engine; Expansion::Driver is Unsupported). Not with
    ///   CaptureRunOptions::rasterize (Unsupported: no pass draws). Builds its kernels, a scratch
    ///   buffer and the totals once; a capture of more primitives than any before it makes the
    ///   counts, offsets and prefix-sum buffers again, larger (the only GL objects a capture makes).
    /// - Auto (default): where the context has both (desktop GL 4.3+, ES 3.2), the first capture
    ///   that both can run (not rasterizing, under 2^32 records a stream, on ES not indexed) times
    ///   up to 3 of each after a warm-up (fence-synchronised, about 60 ms each unless one capture
    ///   takes longer; the fastest counts) and keeps the faster, for this object and
    ///   every capture of the same program and vertex count on the context; a capture only one of
    ///   them can run uses that one and decides nothing. Where the context has one, that one.
    ///   backend() and backendReason() say which and why.
    /// A vertex program is captured by transform feedback: Compute and Fragment are Unsupported
    /// there (a Pipeline's compute backend runs vertex programs); Fragment is Unsupported for
    /// geometry programs too.
    Backend backend = Backend::Auto;
};

/// Entries are {input} vertex buffers (read, never written) and {output} buffers, one per
/// captured buffer of the Program's capture plan; state pairs are for Pipeline.
///
/// Builds once: a vertex array and transform feedback object (glGenVertexArrays,
/// glGenTransformFeedbacks), an element buffer (Driver) or the scratch buffers, word textures,
/// gather program and source-index buffer (Engine). capture() creates no GL object; when a
/// Pipeline has swapped the names of a state buffer used here, it re-points its bindings.
/// Needs GL 4.0 / ES 3.0 / WebGL2.
class PrimitiveCapture {
public:
    /// @throws Error from planPass() (roles, semantics, counts), InvalidArgument (a state pair),
    ///         Unsupported (Driver expansion on ES), Capacity (Engine: words over the texture limit)
    PrimitiveCapture(const Device& device, const Program& program, std::vector<Entry> entries,
                     PrimitiveCaptureOptions options = {});
    PrimitiveCapture(PrimitiveCapture&&) noexcept;
    PrimitiveCapture& operator=(PrimitiveCapture&&) noexcept;
    ~PrimitiveCapture();

    /// Captures `draw`'s primitives into the output buffers, from their start. The count is
    /// planned (countCapture) and the capacity checked before anything is drawn: a buffer that
    /// cannot hold every record throws Capacity with both sizes and nothing is written. The GL size
    /// of every output buffer is read first (glGetBufferParameteri64v(GL_BUFFER_SIZE); iv on WebGL),
    /// so one that other code re-specified smaller (glBufferData) is Capacity too, naming the buffer,
    /// its GL size and the bytes needed.
    /// Driver: glBeginTransformFeedback(primitive), glDrawArrays / glDrawElements (indices in an
    /// engine-owned element buffer; glEnable(GL_PRIMITIVE_RESTART) + glPrimitiveRestartIndex).
    /// Engine: two POINTS passes as described at Expansion::Engine.
    /// @throws Error Capacity, InvalidArgument (an index outside the input vertices, a mode outside
    ///         DrawMode), ContextLost
    CaptureCount capture(const DrawDesc& draw);

    /// capture() with run options: rasterization kept on for one stream, the overflow policy of
    /// a geometry program.
    ///
    /// With a geometry program (ProgramDesc::geometry) the draw runs through the vertex and the
    /// geometry shader: the draw's primitives must be the shader's input primitive
    /// (GeometryInput), transform feedback records the output primitive (points, lines for
    /// line_strip, triangles for triangle_strip), and each captured stream writes its own buffers
    /// from their start. The count returned is the budget (countGeometryCapture(): upper bounds);
    /// statistics() reads what was generated and written. GL calls: per stream s of the program
    /// glBeginQueryIndexed(GL_PRIMITIVES_GENERATED, s) and (GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN,
    /// s) (GL 4.0), glBeginTransformFeedback(primitive), glDrawArrays / glDrawElements, the ends.
    /// OpenGL ES 3.2: stream 0, glBeginQuery, non-indexed draws only (ES forbids indexed draws
    /// during transform feedback: Unsupported).
    /// @throws Error as capture(); RasterizedStream (a stream other than 0, or one the program does
    ///         not have), GeometryInput, Capacity (overflow Error: the budget), Unsupported
    ///         (rasterizing with engine expansion, an indexed geometry draw on ES)
    CaptureCount capture(const DrawDesc& draw, const CaptureRunOptions& run);

    /// What each vertex stream of the program generated and wrote in the last capture(), stream
    /// 0 upwards (glGetQueryObjectui64v(GL_QUERY_RESULT); waits for the GPU). A vertex program
    /// has stream 0 only, and its capture is exact: its planned primitives, generated and written.
    /// @throws Error InvalidArgument (nothing captured yet, or a session since), ContextLost
    std::vector<StreamStatistics> statistics() const;

    /// Draws what vertex stream `stream` of the last capture wrote, with the program and vertex
    /// array the caller bound (point it at that stream's buffers): glDrawTransformFeedbackStream
    /// (GL 4.0; glDrawTransformFeedbackStreamInstanced, GL 4.2, for instances > 1): the GPU knows
    /// the count, the CPU reads nothing. OpenGL ES 3.2 (stream 0): glDrawArraysInstanced with the
    /// count of the written query, read back (a wait). Vertex programs: stream 0 is drawCaptured().
    /// @throws Error GeometryStream (a stream nothing was captured from), as drawCaptured()
    void drawCapturedStream(int stream, std::optional<DrawMode> mode = std::nullopt, int instances = 1) const;

    /// Draws the last capture's vertices with the program and vertex array the caller bound
    /// (point the vertex array at the output buffers, e.g. with OutputLayout::asVertexFormat()).
    /// Desktop GL: glDrawTransformFeedback(mode, object) (GL 4.0; glDrawTransformFeedbackInstanced,
    /// GL 4.2, for instances > 1): the GPU knows the count, the CPU never reads it.
    /// ES 3.0 / WebGL2: glDrawArrays(Instanced) with the planned record count, which is exact
    /// because a vertex shader writes one record per vertex. A geometry program: its first
    /// captured stream, drawCapturedStream(). The output buffers are never bound
    /// for transform feedback outside capture(), so they are free to be vertex input here.
    /// @param mode defaults to the captured primitive (points, lines or triangles)
    /// @param instances instances of the draw (glDrawTransformFeedbackInstanced / glDrawArraysInstanced), at least 1
    /// After captureSession() use drawSession(): the object's count is no longer the last draw's.
    /// @throws Error InvalidArgument (nothing captured yet or a session since, instances < 1, a mode
    ///         outside DrawMode), ContextLost
    void drawCaptured(std::optional<DrawMode> mode = std::nullopt, int instances = 1) const;

    /// Appends several draws into the output buffers, one after another from record
    /// `firstRecord` (the buffers' earlier records are left untouched): part i is written at
    /// lastSession().parts[i].firstRecord. The whole session is planned (planCaptureSession) and
    /// checked against every output buffer, its size as created and its GL size (as for
    /// capture()), before anything is drawn: a session that does not fit throws Capacity with both
    /// sizes and nothing is written. A part's program must write the
    /// same record layout (else OutputLayoutMismatch naming both layouts) and read only inputs
    /// the capture provides (else SemanticMissing).
    /// Driver (desktop GL): glBindBufferRange at the first part's first byte,
    /// glBeginTransformFeedback(primitive), then per part glDrawArrays / glDrawElements (every
    /// part's indices uploaded once, at offsets), with glPauseTransformFeedback /
    /// glResumeTransformFeedback (GL 4.0) between consecutive parts of the same captured
    /// primitive and program: writing continues where the last part stopped. One begin has one
    /// primitive mode, and glResumeTransformFeedback with another program than the one that
    /// began is GL_INVALID_OPERATION (ARB_transform_feedback2), so a change of either ends and
    /// begins again with glBindBufferRange at that part's first byte. Every mix of modes and
    /// programs works.
    /// Engine (ES 3.0 / WebGL2, or forced): each part's two POINTS passes, the gather writing
    /// through glBindBufferRange at the part's first byte. Every mix of modes works.
    /// The bytes are identical under both, and identical to capturing the parts one by one.
    /// Geometry programs are refused (Unsupported): a part's range is planned on the CPU, and a
    /// geometry shader's count is known only on the GPU.
    /// @throws Error InvalidArgument (no part, firstRecord < 0, an index outside the inputs or a mode
    ///         outside DrawMode, naming the part), Capacity, OutputLayoutMismatch, SemanticMissing, Disposed,
    ///         ContextLost
    const SessionPlan& captureSession(std::span<const CapturePart> parts, std::int64_t firstRecord = 0);

    /// Draws the last session's records, of one part (`part`) or of all of them, with the
    /// program and vertex array the caller bound: glDrawArraysInstanced(mode, firstRecord,
    /// records, instances) with the planned range, on every platform (a transform feedback
    /// object's count cannot address a range; the planned count is exact). The CPU reads nothing back.
    /// @param part the part to draw (an index into lastSession().parts); none: the whole session
    /// @param mode defaults to the part's captured primitive; for the whole session the parts
    ///        must then capture the same primitive
    /// @param instances instances of the draw, at least 1
    /// @throws Error InvalidArgument (no session yet, part out of range, mixed primitives without
    ///         a mode, instances < 1, a mode outside DrawMode), ContextLost
    void drawSession(std::optional<std::size_t> part = std::nullopt, std::optional<DrawMode> mode = std::nullopt,
                     int instances = 1) const;
    /// The last session's plan (empty before the first).
    const SessionPlan& lastSession() const;

    /// The last capture's counts (zero before the first).
    const CaptureCount& lastCount() const;
    Expansion expansion() const; ///< never Auto
    /// TransformFeedback or Compute; Auto until a capture has timed both (PrimitiveCaptureOptions::backend).
    Backend backend() const;
    /// Why backend() is what it is: "requested", or Auto's figures ("auto: compute was faster,
    /// geometry shader 3.1 ms vs compute 0.4 ms per capture (...)"), or the only backend here.
    const std::string& backendReason() const;
    std::int64_t vertexCount() const; ///< vertices the draws may refer to
    const PassPlan& plan() const;

private:
    std::unique_ptr<detail::CaptureState> state_;
};

} // namespace xfb
