#pragma once
// Internal: the fragment backend of a Pipeline (Backend::Fragment; GL 4.3 core, OpenGL ES 3.0,
// WebGL2). The simulation runs as fragment shaders generated from the Program's vertex shader
// (xfb::translateToFragment) over RGBA32UI textures that hold the buffers' raw 32-bit words,
// linearly (xfb/fragment_translation.hpp). The buffers stay the truth, byte for byte: a step copies
// each input buffer into its texture on the GPU (glTexSubImage2D from GL_PIXEL_UNPACK_BUFFER),
// renders each pass into its outputs' textures, and copies those into the output buffers
// (glReadPixels into GL_PIXEL_PACK_BUFFER), so the transform-feedback and compute backends, draws
// and reads see the same bytes and a pipeline switches backend between steps without an upload.
//
// Why every input is copied every step, also a state buffer whose texture could still hold the
// bytes the last step rendered (were the textures swapped like the buffers): the buffer's GL name
// can be written behind xfb's back (glBufferSubData on Buffer::glName(), an adopted engine buffer
// written by its engine), which no generation count sees, and a stale texture would then silently
// step old data where every other backend steps the new. The copy is measured (docs/performance.md,
// "The fragment backend": about 24 ms of a 65-100 ms step at 1e6 elements in SwiftShader), and
// skipping it needs a contract with the caller first.
#include "gl/state.hpp"
#include "xfb/fragment_translation.hpp"

#include <memory>
#include <vector>

namespace xfb::detail {

struct FragmentBackend final : Recoverable {
    struct Pass {
        gl::ProgramName program;
        gl::UniformMirror uniforms;      // the Program's values this pass's program holds
        gl::FramebufferName framebuffer; // colour attachment j: the texture of output j of the pass
    };
    FragmentShader shader;
    std::vector<Pass> passes;
    std::vector<gl::TextureName> inputTextures;        // per entry: the texture its input is copied into, or 0
    std::vector<TexelLayout> inputLayouts;             // per entry
    std::vector<gl::TextureName> outputTextures;       // per PassPlan::outputs
    std::vector<TexelLayout> outputLayouts;            // per PassPlan::outputs
    std::vector<int> outputEntries;                    // per PassPlan::outputs: its entry
    std::vector<gl::FramebufferName> readFramebuffers; // per PassPlan::outputs: its texture to read (attachment 0)
    std::vector<gl::TextureName> keptTextures;         // per PassPlan::outputs: its buffer before the step (gaps), or 0
    gl::VertexArrayName vertexArray;                   // no attributes: the triangle comes from gl_VertexID
    gl::BufferName scratch;                            // 16 bytes: a buffer's last partial texel on its way in or out
    GLuint firstUnit = 0;                              // the textures' units: [firstUnit, firstUnit + units.size())
    struct Unit {
        bool kept = false;     // an output buffer's copy (keptTextures), else an input (inputTextures)
        std::size_t index = 0; // the entry (inputs), or the index into PassPlan::outputs (kept)
    };
    std::vector<Unit> units;                           // what each unit holds, copied from its buffer every step
    std::uint64_t checkedSamplers = ~std::uint64_t(0); // the Program's value versions when its samplers were checked

    /// `substeps` > 1: the fused passes (FragmentTranslationOptions::substeps).
    /// @throws Error Unsupported (the context's limits: texture size, draw buffers, texture units;
    ///         a layout with gaps), ComputeTranslation, ShaderCompile, ProgramLink, InvalidArgument
    static std::unique_ptr<FragmentBackend> build(const ProgramState& program, const PassPlan& plan,
                                                  std::size_t entryCount, int substeps = 1);
    /// One step: each input buffer (and each output buffer with gaps) into its texture, each pass drawn (one triangle
    /// over the viewport of its outputs' texels), each output texture into its buffer; every call counted in
    /// gl::callCount(). Leaves the pixel buffer bindings, the framebuffer bindings, the copy binding and the active
    /// texture at zero / GL_TEXTURE0, the input textures bound on their units.
    /// @throws Error InvalidArgument when a sampler of the Program is set to one of the units the
    ///         backend uses (checked when a uniform value changed)
    void run(const ProgramState& program, const std::vector<std::shared_ptr<BufferState>>& inputs,
             const std::vector<std::shared_ptr<BufferState>>& outputs);
    /// The StateGuard bits a step of this backend needs (with the units [firstUnit, + units)).
    static unsigned stepState();
    void forget() override;
};

} // namespace xfb::detail
