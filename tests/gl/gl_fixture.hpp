#pragma once
// A GL context per test process (API chosen by XFB_TEST_API=gl43core|gles30, set by ctest), and a
// fixture that fails the test if a GL error is pending, a transform feedback object or buffer
// was left bound, or rasterizer discard left on.
#include "gl/gl_api.hpp"
#include "xfb/headless_context.hpp"
#include "xfb/xfb.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

namespace xfbtest {

// "gl43core", "gles30" (exactly ES 3.0: no compute) or "gles32" (an ES 3.0 request that the driver
// answers with its highest ES version); see main.cpp.
inline std::string apiNameUnderTest() {
    const char* api = std::getenv("XFB_TEST_API");
    return api ? api : "gl43core";
}

inline xfb::Api apiUnderTest() {
    return apiNameUnderTest().rfind("gles", 0) == 0 ? xfb::Api::OpenGLES30 : xfb::Api::OpenGL43Core;
}

inline xfb::Device& device() {
    static xfb::HeadlessContext context(apiUnderTest());
    static xfb::Device dev;
    return dev;
}

struct GlTest {
    xfb::Device& dev = device();
    GlTest() { REQUIRE(glGetError() == GL_NO_ERROR); }
    ~GlTest() {
        CHECK_MESSAGE(glGetError() == GL_NO_ERROR, "a GL error is pending after the test");
        GLint tf = -1, array = -1, tfBuffer = -1;
        glGetIntegerv(GL_TRANSFORM_FEEDBACK_BINDING, &tf);
        glGetIntegerv(GL_ARRAY_BUFFER_BINDING, &array);
        glGetIntegerv(GL_TRANSFORM_FEEDBACK_BUFFER_BINDING, &tfBuffer);
        CHECK(tf == 0);
        CHECK(array == 0);
        CHECK(tfBuffer == 0);
        CHECK_FALSE(glIsEnabled(GL_RASTERIZER_DISCARD));
    }
};

// The backends this context can run: transform feedback and fragment always, compute on GL 4.3 / ES 3.1+.
inline std::vector<xfb::Backend> backendsOf(const xfb::Device& dev) {
    if (dev.capabilities().compute)
        return {xfb::Backend::TransformFeedback, xfb::Backend::Compute, xfb::Backend::Fragment};
    return {xfb::Backend::TransformFeedback, xfb::Backend::Fragment};
}

// Deterministic floats in [lo, hi): exact binary fractions, so uploads are exact.
inline std::vector<float> pseudoRandom(std::size_t n, float lo, float hi, unsigned seed) {
    std::vector<float> v(n);
    for (auto& x : v) {
        seed = seed * 1664525u + 1013904223u;
        x = lo + (hi - lo) * float(seed >> 8) / float(1u << 24);
    }
    return v;
}

template<class T>
std::span<const T> view(const std::vector<T>& v) {
    return {v.data(), v.size()};
}

// The first `bytes` of GL buffer `name` as floats, read with the application's own GL calls.
inline std::vector<float> glFloats(unsigned name, std::size_t bytes) {
    std::vector<float> out(bytes / 4);
    glFinish();
    glBindBuffer(GL_COPY_READ_BUFFER, name);
    if (const void* p = glMapBufferRange(GL_COPY_READ_BUFFER, 0, GLsizeiptr(bytes), GL_MAP_READ_BIT)) {
        std::memcpy(out.data(), p, bytes);
        glUnmapBuffer(GL_COPY_READ_BUFFER);
    }
    glBindBuffer(GL_COPY_READ_BUFFER, 0);
    return out;
}

inline xfb::VertexFormat vec4Format(int slot) {
    return xfb::VertexFormat::interleaved({{xfb::attr(slot), xfb::ComponentType::Float32, 4}});
}

// Whether the driver may contract a * b + c into a fused multiply-add. GLSL ES 3.00 has no
// `precise`, and NVIDIA does fuse (flock_separate.vert differs from the C++ reference, built with
// -ffp-contract=off, in the last bit). Mesa's llvmpipe does not: its results are compared bit
// for bit. docs/guide/limits-and-errors.md lists which results are bit-exact on which drivers.
inline bool driverMayFuseMultiplyAdd() {
    static const bool fuses = [] {
        const char* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
        return !(renderer && std::strstr(renderer, "llvmpipe"));
    }();
    return fuses;
}

// The tolerance where a driver may fuse: relative 1e-5 (about 80 ulps, room for a fused rounding
// per operation over the tests' tens of steps) with an absolute floor of 1e-6 near zero.
inline bool closeEnoughForFusedDriver(double gpu, double ref) {
    return std::fabs(gpu - ref) <= 1e-6 + 1e-5 * std::max(std::fabs(gpu), std::fabs(ref));
}

// A value as text with every digit a float needs (doctest's default would print 0.0627026 for two
// floats that differ in the last bit).
template<class T>
std::string exactText(T v) {
    if constexpr (std::is_floating_point_v<T>) {
        char text[32];
        std::snprintf(text, sizeof text, "%.9g", double(v));
        return text;
    } else {
        return std::to_string(v);
    }
}

// Element-by-element equality with the index of the first difference in the message; `tolerant`
// compares floats with closeEnoughForFusedDriver() instead of bit for bit.
template<class T>
void compareElements(const std::vector<T>& gpu, const std::vector<T>& ref, const char* what, bool tolerant) {
    REQUIRE(gpu.size() == ref.size());
    for (std::size_t i = 0; i < gpu.size(); ++i) {
        bool same = tolerant ? closeEnoughForFusedDriver(double(gpu[i]), double(ref[i]))
                             : std::memcmp(&gpu[i], &ref[i], sizeof(T)) == 0;
        if (!same) {
            FAIL_CHECK(std::string(what), ": element ", i, " differs: GPU ", exactText(gpu[i]), ", reference ",
                       exactText(ref[i]), tolerant ? " (beyond the fused multiply-add tolerance)" : " (bit for bit)");
            return;
        }
    }
}

// Bit-for-bit equality: copies, captures, integer results and arithmetic the driver cannot fuse.
template<class T>
void requireEqual(const std::vector<T>& gpu, const std::vector<T>& ref, const char* what) {
    compareElements(gpu, ref, what, false);
}

// Results of float arithmetic with a * b + c that the driver may contract: bit for bit on llvmpipe,
// within closeEnoughForFusedDriver() where driverMayFuseMultiplyAdd().
template<class T>
void requireSimulated(const std::vector<T>& gpu, const std::vector<T>& ref, const char* what) {
    compareElements(gpu, ref, what, std::is_floating_point_v<T> && driverMayFuseMultiplyAdd());
}

} // namespace xfbtest
