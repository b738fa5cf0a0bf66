#pragma once
/// @file
/// @brief HeadlessContext: an offscreen GL 4.3 core or GLES 3.0 context through EGL (native only).

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace xfb {

enum class Api { OpenGL43Core, OpenGLES30 };
std::string_view apiName(Api api); // "gl43core" / "gles30"

/// Where EGL finds a display without a window system.
enum class EglPlatform {
    Device,      ///< EGL_EXT_platform_device: each GPU (or Mesa's software device) in turn
    Surfaceless, ///< EGL_MESA_platform_surfaceless
    Default,     ///< eglGetDisplay(EGL_DEFAULT_DISPLAY)
};

/// Creates an EGL context without a window and makes it current on this thread. Tries, in
/// order: EGL_EXT_platform_device (each device until one gives a context), Mesa's surfaceless
/// platform, the default display. The context has no default framebuffer, where every draw,
/// even with GL_RASTERIZER_DISCARD, fails with GL_INVALID_FRAMEBUFFER_OPERATION; so a 1x1
/// framebuffer object is created and bound as the context's framebuffer.
class HeadlessContext {
public:
    /// Tries the platforms in `order`.
    /// @throws Error ContextCreation naming each platform tried and why it failed.
    explicit HeadlessContext(Api api, std::vector<EglPlatform> order = {EglPlatform::Device, EglPlatform::Surfaceless, EglPlatform::Default});
    ~HeadlessContext();
    HeadlessContext(const HeadlessContext&) = delete;
    HeadlessContext& operator=(const HeadlessContext&) = delete;

    void makeCurrent();
    Api api() const;
    const std::string& platform() const; ///< "device", "surfaceless" or "default"

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace xfb
