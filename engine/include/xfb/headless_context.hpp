#pragma once
/// @file
/// @brief HeadlessContext: an offscreen GL 4.3 core or GLES 3.0 context through EGL (native only).

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace xfb {

/// The API a HeadlessContext asks EGL for. EGL answers with the highest version compatible with
/// the request, so OpenGLES30 gives ES 3.2 on Mesa (compute included); read what you got from
/// Device::capabilities(). To run exactly ES 3.0 (no compute, GLSL ES 3.00: the WebGL2 feature
/// set) on Mesa, set MESA_GLES_VERSION_OVERRIDE=3.0 in the environment before the process creates
/// its first context: Mesa then creates an ES 3.0 context and refuses ES 3.1 calls such as
/// glCreateShader(GL_COMPUTE_SHADER) itself. xfb's gles30 test run does this (tests/gl/main.cpp);
/// its gles32 run keeps Mesa's answer. Other drivers ignore the variable.
enum class Api {
    OpenGL43Core, ///< OpenGL 4.3 core profile or later (EGL_OPENGL_API)
    OpenGLES30,   ///< OpenGL ES 3.0 or later (EGL_OPENGL_ES_API)
};
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
    explicit HeadlessContext(Api api, std::vector<EglPlatform> order = {EglPlatform::Device, EglPlatform::Surfaceless,
                                                                        EglPlatform::Default});
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
