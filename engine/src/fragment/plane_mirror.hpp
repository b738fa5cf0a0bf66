#pragma once
// Internal: a buffer's bytes as planar RGBA32UI textures (planeLayout(), xfb/fragment_translation.hpp),
// the state the fragment backend steps, and the copies between a buffer and its planes.
//
// Why the state stays in planes between steps: measured in SwiftShader at 1e6 elements of a
// 32-byte record (docs/performance.md, "The fragment backend"), copying the buffer into textures
// and back took about 30 ms of a 65 ms step; three.js's GPUComputationRenderer, what a web
// developer would use instead, keeps its state in textures and makes neither copy. A buffer whose
// GL name was never handed out (BufferState::NameBound::exposed) cannot be read or written behind
// xfb's back, so its planes are the truth after a step (the buffer is `stale`) and every other
// reader settles it first (BufferState::settle()): a read writes back only the elements it reads.
// A handed-out name is copied in before a step reads it and written back when a step writes it (a
// state pair's name is the pipeline's again once a step has read it: Buffer::glName()).
#include "gl/state.hpp"
#include "gl/state_guard.hpp"
#include "xfb/fragment_translation.hpp"

#include <memory>
#include <vector>

namespace xfb::detail {

struct PlaneMirror;

/// What the fragment backend's passes touch (gl/state_guard.hpp), with their units: a step's guard.
constexpr unsigned kPlaneDrawState =
    gl::kStepState | gl::ReliedFramebuffer | gl::CachedTextures | gl::ReliedSamplers | gl::ReliedRaster;
/// What a copy between a buffer and its planes adds, guarded around the copy alone: a steady step
/// makes none, and in Chromium the pixel-store parameters are queries that wait for the GPU process
/// (measured 0.35-0.45 ms each in SwiftShader, three of them a step).
constexpr unsigned kPlaneTransferState =
    gl::CachedCopyBuffers | gl::CachedUnpackBuffer | gl::CachedPackBuffer | gl::ReliedPixelStore | gl::ReliedPackStore;

/// The copies, for the mirrors one fragment backend makes (they share it). Every call expects the
/// caller's StateGuard to cover kPlaneDrawState and units [firstUnit, firstUnit + planes), and the
/// rasterizer discard off; it guards kPlaneTransferState itself, and leaves the framebuffers at
/// zero, GL_TEXTURE0 active (an owned context has no guard to restore it), its textures bound.
struct PlaneCopier final : Recoverable, std::enable_shared_from_this<PlaneCopier> {
    DeviceState* device = nullptr; // its guards'
    std::string version;           // FragmentShader::version
    std::string triangle;          // FragmentShader::vertexSource: the copies draw the passes' triangle
    int width = 0;                 // of every texture, a power of two
    int maxDrawBuffers = 1;        // colour attachments a spread pass writes
    int planes = 0;                // the most planes of a mirror it makes: units [firstUnit, firstUnit + planes)
    GLuint firstUnit = 0;
    gl::TextureName linear;       // a buffer's own layout, as large as the largest buffer it copies
    gl::FramebufferName toLinear; // `linear` as colour attachment 0: the gather's target, read back
    gl::FramebufferName toPlanes; // a mirror's planes, attached per spread / read back (16-byte records)
    gl::VertexArrayName vertexArray;
    gl::BufferName scratch; // 16 bytes: a buffer's last partial texel on its way in or out
    struct Programs {
        PlaneLayout layout;
        std::vector<gl::ProgramName> spread;
        gl::ProgramName gather;
    };
    std::vector<Programs> programs; // per layout copied so far
    std::uint64_t serials = 0;      // mirrors made

    /// @param linearTexels the most texels of a buffer it copies (texelLayout() at `width`)
    static std::shared_ptr<PlaneCopier> create(const std::shared_ptr<DeviceState>& device, const FragmentShader& shader,
                                               int maxDrawBuffers, int planes, GLuint firstUnit,
                                               std::int64_t linearTexels);
    /// A mirror of `layout` (its `maker` this copier), not holding anything yet.
    std::unique_ptr<PlaneMirror> mirror(const std::shared_ptr<DeviceState>& device, const PlaneLayout& layout);
    /// The buffer `name`'s records [0, layout.count) into the mirror's planes.
    void upload(GLuint name, const PlaneMirror& m);
    /// The mirror's records [first, first + count) into the buffer `name`, whole texels of it.
    void writeBack(const PlaneMirror& m, GLuint name, std::int64_t first, std::int64_t count);
    void forget() override;

private:
    Programs& programsFor(const PlaneLayout& layout);
};

struct PlaneMirror final : BufferMirror {
    PlaneLayout layout;
    std::vector<gl::TextureName> planes;
    std::uint64_t serial = 0;            // unique among its copier's mirrors: framebuffers are cached by it
    std::shared_ptr<PlaneCopier> copier; // its copies
    /// Settling from outside a step: opens the StateGuard the copies need.
    void writeBack(DeviceState& device, GLuint name, std::int64_t first, std::int64_t count) override;
    void forget() override;
};

} // namespace xfb::detail
