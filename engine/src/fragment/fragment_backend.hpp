#pragma once
// Internal: the fragment backend of a Pipeline (Backend::Fragment; GL 4.3 core, OpenGL ES 3.0,
// WebGL2). The simulation runs as fragment shaders generated from the Program's vertex shader
// (xfb::translateToFragment), one fragment per element, over the buffers' planar RGBA32UI mirrors
// (fragment/plane_mirror.hpp): a step reads each input's planes and renders each output's planes.
// A buffer is copied into its planes only when they do not hold its bytes (the first step, after
// an upload or another backend's step) or when its name was handed out; an output is written back
// into its buffer after the step only when its name was handed out, else when something reads it
// (BufferState::settle()). So every backend, draw and read sees the same bytes, and a pipeline
// switches backend between steps without losing the state.
// Emitted outputs (emitted_records.cpp) add a count pass, a HistoPyramid of the counts
// (fragment/histopyramid.hpp) and gather passes that write each budget's records in input order.
#include "fragment/histopyramid.hpp"
#include "fragment/plane_mirror.hpp"
#include "xfb/emit_plan.hpp"
#include "xfb/error.hpp"

#include <memory>
#include <vector>

namespace xfb::detail {

struct FragmentBackend final : Recoverable {
    struct Pass {
        gl::ProgramName program;
        gl::UniformMirror uniforms; // the Program's values this pass's program holds
        // Its targets' framebuffers, by their mirrors' serials (a state pair's two sides), newest last.
        struct Target {
            std::vector<std::uint64_t> serials;
            gl::FramebufferName framebuffer;
        };
        std::vector<Target> targets;
    };
    FragmentShader shader;
    std::vector<Pass> passes;
    std::shared_ptr<PlaneCopier> copier;
    std::vector<PlaneLayout> inputLayouts;          // per entry (no planes where nothing is read)
    std::vector<PlaneLayout> outputLayouts;         // per PassPlan::outputs
    std::vector<int> outputEntries;                 // per PassPlan::outputs: its entry
    std::vector<std::unique_ptr<PlaneMirror>> kept; // per PassPlan::outputs: its buffer before the step (gaps), or null
    GLuint firstUnit = 0;                           // the units it samples: [firstUnit, firstUnit + unitCount)
    GLuint unitCount = 0;                           // max(units, the copier's planes) + live + pyramid
    GLuint liveUnit = 0; // a population's live count texture (build's `liveCount`), else 0: above the planes'
    bool liveCount = false;
    struct Unit {
        bool kept = false;     // a plane of `kept`, else of an input's mirror
        std::size_t index = 0; // the entry (inputs) or the index into PassPlan::outputs (kept)
        int plane = 0;
    };
    std::vector<Unit> units;                           // what unit firstUnit + k holds during the passes
    std::uint64_t checkedSamplers = ~std::uint64_t(0); // the Program's value versions when its samplers were checked
    std::vector<std::uint64_t> key;                    // scratch: a pass's target serials
    std::vector<GLuint> attachments;                   // scratch: a pass's target textures
    // Emitted outputs: the plan, the count pass then the gathers (FragmentShader::emits), the pyramid.
    EmitPlan emits;
    std::vector<Pass> emitPasses;
    std::unique_ptr<HistoPyramid> pyramid;

    /// `substeps` > 1: the fused passes (FragmentTranslationOptions::substeps). `sibling`: another
    /// backend of the same pipeline, whose copier (and so whose mirrors) this one shares where their
    /// units agree: a pipeline's fused and plain steps then step the same planes.
    /// `emits`: emitted outputs (not with substeps > 1), written in input order through the pyramid.
    /// `liveCount`: a population's step (FragmentTranslationOptions::liveCount): the count pass
    /// samples the live count texture run() is given, on `liveUnit`.
    /// @throws Error Unsupported (the context's limits: texture size, draw buffers, texture units),
    ///         ComputeTranslation, ShaderCompile, ProgramLink, InvalidArgument
    static std::unique_ptr<FragmentBackend> build(const ProgramState& program, const PassPlan& plan,
                                                  std::size_t entryCount, int substeps = 1,
                                                  const FragmentBackend* sibling = nullptr,
                                                  const EmitPlan* emits = nullptr, bool liveCount = false);
    /// One step: inputs copied into their mirrors where needed, each pass drawn (one triangle over
    /// the planes), the outputs' mirrors left holding the result (written back only for a handed-out
    /// name); every call counted in gl::callCount(). Leaves the pixel buffer, framebuffer and copy
    /// bindings at zero and the active texture at GL_TEXTURE0, the planes bound on their units.
    /// @throws Error InvalidArgument when a sampler of the Program is set to one of the units the
    ///         backend uses (checked when a uniform value changed)
    /// `liveCountTexture`: with build's `liveCount`, the RGBA32UI texture whose texel (0, 0).x is the
    /// live count, bound on `liveUnit` for the step (and left bound there).
    void run(const ProgramState& program, const std::vector<std::shared_ptr<BufferState>>& inputs,
             const std::vector<std::shared_ptr<BufferState>>& outputs, GLuint liveCountTexture = 0);
    /// For a writer of an input's planes other than the passes (a population's spawn, which draws
    /// records into them): `b`'s planes as input entry `entry` reads them, holding its bytes (made,
    /// and copied from the buffer, where they do not). Inside a step's StateGuard (stepState(), the units).
    PlaneMirror& inputPlanes(BufferState& b, std::size_t entry);
    /// After such a writer: the planes hold the newest bytes; the buffer gets them when read (at
    /// once if its name was handed out).
    void inputWritten(BufferState& b);
    /// The StateGuard bits a step of this backend needs (with the units [firstUnit, + unitCount)).
    static unsigned stepState() { return kPlaneDrawState; }
    /// Per budget, the records the last step's elements asked for (the pyramid's top; blocking,
    /// glReadPixels: for Pipeline::emitted(), never in a step).
    std::vector<std::uint32_t> requestedTotals() { return pyramid->totals(emits.budgets.size()); }
    /// What emittedDrawSnippet()'s uniforms get for `budget` drawn as `mode`: the texture unit of
    /// the pyramid's top atlas, the top's row and component, the vertices per primitive.
    /// @throws Error Unsupported (a strip, loop or fan: a record past the total would leave part
    ///         of a primitive)
    struct SnippetValues {
        GLint unit = 0, row = 0, component = 0, perPrimitive = 1;
    };
    SnippetValues snippetValues(std::size_t budget, DrawMode mode) const;
    /// The refusal of a draw whose bound program (`program`, as the caller names it) does not
    /// declare the snippet's uniforms: XFB_INVALID_ARGUMENT naming the budget and the fix.
    Error snippetMissing(std::size_t budget, const std::string& program) const;
    /// Pipeline::drawEmitted() here: glDrawArrays(mode, 0, the budget's capacity) with the bound
    /// program, whose emittedDrawSnippet() uniforms it sets (unless `uniformsSet`: the npm
    /// package sets them on the application's WebGLProgram itself), the pyramid's top atlas bound
    /// on its unit, restored after the draw by the caller's StateGuard.
    /// @throws Error InvalidArgument (the bound program lacks the snippet's uniforms), Unsupported
    ///         (snippetValues())
    void drawEmitted(std::size_t budget, DrawMode mode, bool uniformsSet = false) const;
    void forget() override;

private:
    /// A pass's program: linked, the Program's uniforms tracked, its plane samplers on their units
    /// and, for a gather of budget group `group` (>= 0), its pyramid samplers on theirs.
    Pass link(const ProgramState& program, const std::string& source, const std::string& what, int group = -1) const;
    /// Binds the framebuffer of `pass` whose colour attachments are `attachments` (identified by
    /// `key`, their mirrors' serials): kept per pass, made on first use.
    void bindTargets(Pass& pass, const ProgramState& program, const char* what);
    /// Emitted outputs (emitted_records.cpp): the passes and pyramid at build, their part of a step.
    void buildEmits(const ProgramState& program, int maxTexture);
    void prepareEmitted(const std::vector<std::shared_ptr<BufferState>>& outputs);
    void runEmits(const ProgramState& program, const std::vector<std::shared_ptr<BufferState>>& outputs);
    /// `b`'s mirror of `layout` made by this backend's copier: the one it has, or a new one (holding
    /// nothing) after settling `b` from the old.
    PlaneMirror& mirrorOf(BufferState& b, const PlaneLayout& layout);
};

} // namespace xfb::detail
