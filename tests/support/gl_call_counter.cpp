#include "gl_call_counter.hpp"

#include <GL/glcorearb.h>
#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "gl_call_counter_functions.inc"

namespace xfbtest {
namespace {

const char* const kNames[] = {
#define XFB_GL_FUNCTION_NAMES
#include "gl_call_counter_functions.inc"
#undef XFB_GL_FUNCTION_NAMES
};
static_assert(sizeof kNames / sizeof kNames[0] == XFB_GL_FUNCTION_COUNT);

bool createsObject(std::string_view name) {
    return (name.starts_with("glGen") && !name.starts_with("glGenerate")) || name.starts_with("glCreate") ||
           name == "glFenceSync";
}

} // namespace

namespace detail {
long counts[XFB_GL_FUNCTION_COUNT] = {};
long total = 0;
int linkFailures = 0;

// The real entry point, from glvnd's libOpenGL. Opened by name: every GL symbol of the executable
// now resolves to the definitions below, so the linker (--as-needed) drops libOpenGL from its
// dependencies and dlsym(RTLD_NEXT) would not find it.
void* next(int index) {
    static void* const library = dlopen("libOpenGL.so.0", RTLD_NOW | RTLD_GLOBAL);
    void* f = library ? dlsym(library, kNames[index]) : nullptr;
    if (!f) {
        std::fprintf(stderr, "gl_call_counter: %s not found in libOpenGL.so.0 (%s)\n", kNames[index],
                     library ? "not exported" : dlerror());
        std::abort();
    }
    return f;
}
} // namespace detail

void failNextLinks(int n) { detail::linkFailures = n; }

void resetGlCalls() {
    for (long& c : detail::counts) c = 0;
    detail::total = 0;
}

long glCallTotal() { return detail::total; }

GlCalls glCalls() {
    GlCalls r;
    for (int i = 0; i < XFB_GL_FUNCTION_COUNT; ++i) {
        if (!detail::counts[i]) continue;
        r.byFunction[kNames[i]] = detail::counts[i];
        r.total += detail::counts[i];
        if (createsObject(kNames[i])) r.created += detail::counts[i];
    }
    r.getError = r.of("glGetError");
    return r;
}

long GlCalls::of(const std::string& function) const {
    auto it = byFunction.find(function);
    return it == byFunction.end() ? 0 : it->second;
}

std::string GlCalls::describe() const {
    std::string s;
    for (const auto& [name, n] : byFunction) s += (s.empty() ? "" : ", ") + name + " " + std::to_string(n);
    return s;
}

} // namespace xfbtest

// One definition per GL function: count, then call the real one (looked up on first use).
#define XFB_COUNTED(index, R, name, params, args)                                                                      \
    extern "C" R APIENTRY name params {                                                                                \
        static const auto real = reinterpret_cast<R(APIENTRY*) params>(xfbtest::detail::next(index));                  \
        ++xfbtest::detail::counts[index];                                                                              \
        ++xfbtest::detail::total;                                                                                      \
        return real args;                                                                                              \
    }
// glLinkProgram: counted the same; with failNextLinks() pending, the program is first asked to
// capture an output no shader has, which the linker refuses.
#define XFB_COUNTED_LINK(index, R, name, params, args)                                                                 \
    extern "C" R APIENTRY name params {                                                                                \
        static const auto real = reinterpret_cast<R(APIENTRY*) params>(xfbtest::detail::next(index));                  \
        ++xfbtest::detail::counts[index];                                                                              \
        ++xfbtest::detail::total;                                                                                      \
        if (xfbtest::detail::linkFailures > 0) {                                                                       \
            --xfbtest::detail::linkFailures;                                                                           \
            static const auto varyings = reinterpret_cast<PFNGLTRANSFORMFEEDBACKVARYINGSPROC>(                         \
                dlsym(dlopen("libOpenGL.so.0", RTLD_NOW | RTLD_GLOBAL), "glTransformFeedbackVaryings"));               \
            const char* missing = "xfb_test_injected_link_failure";                                                    \
            varyings(program, 1, &missing, GL_INTERLEAVED_ATTRIBS);                                                    \
        }                                                                                                              \
        return real args;                                                                                              \
    }
#include "gl_call_counter_functions.inc"
