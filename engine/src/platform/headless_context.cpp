#include "xfb/headless_context.hpp"

#include "gl/gl_api.hpp"
#include "xfb/error.hpp"

#include <EGL/egl.h>
#include <EGL/eglext.h>

#include <cstring>
#include <string>
#include <vector>

namespace xfb {

std::string_view apiName(Api api) { return api == Api::OpenGL43Core ? "gl43core" : "gles30"; }

struct HeadlessContext::Impl {
    Api api;
    std::string platform;
    EGLDisplay display = EGL_NO_DISPLAY;
    EGLContext context = EGL_NO_CONTEXT;
    GLuint framebuffer = 0, renderbuffer = 0;
};

namespace {

bool hasExtension(const char* list, const char* name) {
    if (!list) return false;
    std::size_t n = std::strlen(name);
    for (const char* p = list; (p = std::strstr(p, name)); p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0')) return true;
    return false;
}

// Initializes `display` and creates a context on it; on failure says why in `why`.
EGLContext tryDisplay(EGLDisplay display, Api api, std::string& why) {
    if (display == EGL_NO_DISPLAY) {
        why = "no display";
        return EGL_NO_CONTEXT;
    }
    EGLint major = 0, minor = 0;
    if (!eglInitialize(display, &major, &minor)) {
        why = "eglInitialize failed (0x" + std::to_string(eglGetError()) + ")";
        return EGL_NO_CONTEXT;
    }
    bool gl = api == Api::OpenGL43Core;
    if (!eglBindAPI(gl ? EGL_OPENGL_API : EGL_OPENGL_ES_API)) {
        why = std::string("eglBindAPI(") + (gl ? "EGL_OPENGL_API" : "EGL_OPENGL_ES_API") + ") failed";
        eglTerminate(display);
        return EGL_NO_CONTEXT;
    }
    const EGLint configAttribs[] = {EGL_SURFACE_TYPE, 0, EGL_RENDERABLE_TYPE, gl ? EGL_OPENGL_BIT : EGL_OPENGL_ES3_BIT,
                                    EGL_NONE};
    EGLConfig config = nullptr;
    EGLint n = 0;
    // Some drivers list no config without a surface type: fall back to any renderable config.
    if (!eglChooseConfig(display, configAttribs, &config, 1, &n) || n == 0) {
        const EGLint anyAttribs[] = {EGL_RENDERABLE_TYPE, gl ? EGL_OPENGL_BIT : EGL_OPENGL_ES3_BIT, EGL_NONE};
        if (!eglChooseConfig(display, anyAttribs, &config, 1, &n) || n == 0) {
            why = "no EGL config renders with this API";
            eglTerminate(display);
            return EGL_NO_CONTEXT;
        }
    }
    const EGLint glAttribs[] = {
        EGL_CONTEXT_MAJOR_VERSION,           4,       EGL_CONTEXT_MINOR_VERSION, 3, EGL_CONTEXT_OPENGL_PROFILE_MASK,
        EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
    const EGLint esAttribs[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 0, EGL_NONE};
    EGLContext ctx = eglCreateContext(display, config, EGL_NO_CONTEXT, gl ? glAttribs : esAttribs);
    if (ctx == EGL_NO_CONTEXT) {
        why = std::string("eglCreateContext(") + (gl ? "OpenGL 4.3 core" : "OpenGL ES 3.0") + ") failed";
        eglTerminate(display);
        return EGL_NO_CONTEXT;
    }
    if (!eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx)) {
        why = "eglMakeCurrent without a surface failed (needs EGL_KHR_surfaceless_context)";
        eglDestroyContext(display, ctx);
        eglTerminate(display);
        return EGL_NO_CONTEXT;
    }
    return ctx;
}

} // namespace

HeadlessContext::HeadlessContext(Api api, std::vector<EglPlatform> order) : impl_(std::make_unique<Impl>()) {
    impl_->api = api;
    std::string tried;
    auto attempt = [&](const char* platform, EGLDisplay d) {
        std::string why;
        EGLContext ctx = tryDisplay(d, api, why);
        if (ctx != EGL_NO_CONTEXT) {
            impl_->display = d;
            impl_->context = ctx;
            impl_->platform = platform;
            return true;
        }
        tried += std::string(tried.empty() ? "" : "; ") + platform + ": " + why;
        return false;
    };

    const char* clientExtensions = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    auto getPlatformDisplay =
        reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(eglGetProcAddress("eglGetPlatformDisplayEXT"));
    bool done = false;
    for (EglPlatform platform : order) {
        if (done) break;
        if (platform == EglPlatform::Device) {
            if (!getPlatformDisplay || !hasExtension(clientExtensions, "EGL_EXT_platform_device")) {
                tried += std::string(tried.empty() ? "" : "; ") + "device: EGL_EXT_platform_device is not available";
                continue;
            }
            auto queryDevices = reinterpret_cast<PFNEGLQUERYDEVICESEXTPROC>(eglGetProcAddress("eglQueryDevicesEXT"));
            EGLDeviceEXT devices[16];
            EGLint count = 0;
            if (queryDevices && queryDevices(16, devices, &count))
                for (EGLint i = 0; i < count && !done; ++i)
                    done = attempt("device", getPlatformDisplay(EGL_PLATFORM_DEVICE_EXT, devices[i], nullptr));
        } else if (platform == EglPlatform::Surfaceless) {
            if (getPlatformDisplay && hasExtension(clientExtensions, "EGL_MESA_platform_surfaceless"))
                done = attempt("surfaceless",
                               getPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr));
            else
                tried += std::string(tried.empty() ? "" : "; ") +
                         "surfaceless: EGL_MESA_platform_surfaceless is not available";
        } else {
            done = attempt("default", eglGetDisplay(EGL_DEFAULT_DISPLAY));
        }
    }
    if (!done)
        throw Error(ErrorCode::ContextCreation,
                    std::string("no headless ") + (api == Api::OpenGL43Core ? "OpenGL 4.3 core" : "OpenGL ES 3.0") +
                        " context could be created (" + (tried.empty() ? std::string("no platform tried") : tried) +
                        "). Install Mesa's EGL driver (apt-get install libegl-mesa0 libgl1-mesa-dri) "
                        "or set EGL_PLATFORM=surfaceless");

    // No surface means no default framebuffer: draws would fail with INVALID_FRAMEBUFFER_OPERATION.
    glGenRenderbuffers(1, &impl_->renderbuffer);
    glBindRenderbuffer(GL_RENDERBUFFER, impl_->renderbuffer);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, 1, 1);
    glBindRenderbuffer(GL_RENDERBUFFER, 0);
    glGenFramebuffers(1, &impl_->framebuffer);
    glBindFramebuffer(GL_FRAMEBUFFER, impl_->framebuffer);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, impl_->renderbuffer);
    glViewport(0, 0, 1, 1);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
        throw Error(ErrorCode::ContextCreation, "the 1x1 framebuffer of the headless context is incomplete");
}

HeadlessContext::~HeadlessContext() {
    makeCurrent();
    glDeleteFramebuffers(1, &impl_->framebuffer);
    glDeleteRenderbuffers(1, &impl_->renderbuffer);
    eglMakeCurrent(impl_->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(impl_->display, impl_->context);
    // The display is shared by every context on it (EGL reference-counts nothing): leave it initialized.
}

void HeadlessContext::makeCurrent() { eglMakeCurrent(impl_->display, EGL_NO_SURFACE, EGL_NO_SURFACE, impl_->context); }
Api HeadlessContext::api() const { return impl_->api; }
const std::string& HeadlessContext::platform() const { return impl_->platform; }

} // namespace xfb
