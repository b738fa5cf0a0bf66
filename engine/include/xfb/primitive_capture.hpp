#pragma once
/// @file
/// @brief PrimitiveCapture: runs a Program over a draw of points, lines or triangles (strips,
/// loops, fans, indexed, with primitive restart) and captures whole primitives; draws them back
/// without the CPU reading a count.

#include "xfb/pipeline.hpp"
#include "xfb/primitive_count.hpp"

#include <memory>
#include <optional>

namespace xfb {

namespace detail { struct CaptureState; }

/// Who turns strips, loops, fans and index lists into the independent primitives transform
/// feedback records.
enum class Expansion {
    Auto,   ///< Driver on desktop GL, Engine on OpenGL ES and WebGL2
    Driver, ///< desktop GL: glBeginTransformFeedback(LINES/TRIANGLES) around the draw as given,
            ///< glDrawElements and primitive restart included. Not on ES: there the draw mode must
            ///< equal the capture mode and indexed draws are not allowed during transform feedback
    Engine, ///< any context: one pass captures every vertex once (POINTS); a second POINTS pass
            ///< gathers the records in primitive order (expandPrimitives' order: computed from
            ///< gl_VertexID for non-indexed draws, a source list uploaded for indexed ones) through
            ///< R32UI textures (glTexSubImage2D from a pixel-unpack buffer, texelFetch). Uses the
            ///< top texture units during capture() and leaves them unbound. Byte-identical to Driver
};
std::string_view expansionName(Expansion e); // "auto", "driver", "engine"

struct PrimitiveCaptureOptions {
    /// Vertices the shader can be run on when no entry has an input (the shader then uses
    /// gl_VertexID only); must agree with the input buffers otherwise.
    std::optional<std::int64_t> vertexCount;
    Expansion expansion = Expansion::Auto;
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
    PrimitiveCapture(const Device& device, const Program& program, std::vector<Entry> entries, PrimitiveCaptureOptions options = {});
    PrimitiveCapture(PrimitiveCapture&&) noexcept;
    PrimitiveCapture& operator=(PrimitiveCapture&&) noexcept;
    ~PrimitiveCapture();

    /// Captures `draw`'s primitives into the output buffers, from their start. The count is
    /// planned (countCapture) and the capacity checked before anything is drawn: a buffer that
    /// cannot hold every record throws Capacity with both sizes and nothing is written.
    /// Driver: glBeginTransformFeedback(primitive), glDrawArrays / glDrawElements (indices in an
    /// engine-owned element buffer; glEnable(GL_PRIMITIVE_RESTART) + glPrimitiveRestartIndex).
    /// Engine: two POINTS passes as described at Expansion::Engine.
    /// @throws Error Capacity, InvalidArgument (an index outside the input vertices), ContextLost
    CaptureCount capture(const DrawDesc& draw);

    /// Draws the last capture's vertices with the program and vertex array the caller bound
    /// (point the vertex array at the output buffers, e.g. with OutputLayout::asVertexFormat()).
    /// Desktop GL: glDrawTransformFeedback(mode, object) (GL 4.0; glDrawTransformFeedbackInstanced,
    /// GL 4.2, for instances > 1): the GPU knows the count, the CPU never reads it.
    /// ES 3.0 / WebGL2: glDrawArrays(Instanced) with the planned record count, which is exact
    /// because a vertex shader writes one record per vertex. The output buffers are never bound
    /// for transform feedback outside capture(), so they are free to be vertex input here.
    /// @param mode defaults to the captured primitive (points, lines or triangles)
    /// @throws Error InvalidArgument (nothing captured yet, instances < 1), ContextLost
    void drawCaptured(std::optional<DrawMode> mode = std::nullopt, int instances = 1) const;

    /// The last capture's counts (zero before the first).
    const CaptureCount& lastCount() const;
    Expansion expansion() const;     ///< never Auto
    std::int64_t vertexCount() const; ///< vertices the draws may refer to
    const PassPlan& plan() const;

private:
    std::unique_ptr<detail::CaptureState> state_;
};

} // namespace xfb
