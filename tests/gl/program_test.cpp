// Compiling and linking: GL's verdicts turned into xfb errors, limits, uniforms.
#include "gl_fixture.hpp"

#include "../unit/test_util.hpp"

#include <thread>

using namespace xfb;
using namespace xfbtest;

TEST_CASE_FIXTURE(GlTest, "limits are queried once from the context") {
    const Limits& l = dev.limits();
    GLint v = 0;
    glGetIntegerv(GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_COMPONENTS, &v);
    CHECK(l.maxSeparateComponents == v);
    glGetIntegerv(GL_MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS, &v);
    CHECK(l.maxInterleavedComponents == v);
    glGetIntegerv(GL_MAX_VERTEX_ATTRIBS, &v);
    CHECK(l.maxVertexAttribs == v);
    CHECK(dev.capabilities().es == (apiUnderTest() == Api::OpenGLES30));
    MESSAGE("context: ", dev.capabilities().version, " on ", dev.capabilities().renderer);
}

TEST_CASE_FIXTURE(GlTest, "each test binary runs on the context it is named after") {
    const Capabilities& c = dev.capabilities();
    const std::string api = apiNameUnderTest();
    CAPTURE(c.version);
    if (api == "gl43core") {
        CHECK_FALSE(c.es);
        CHECK(c.major * 10 + c.minor >= 43);
        CHECK(c.compute);
    } else if (api == "gles30") {
        // Only Mesa honours MESA_GLES_VERSION_OVERRIDE (main.cpp); other drivers give their highest ES.
        CHECK(c.es);
        if (contains(c.version, "Mesa")) {
            CHECK(c.major == 3);
            CHECK(c.minor == 0);
            CHECK_FALSE(c.compute);
            CHECK(glCreateShader(GL_COMPUTE_SHADER) == 0); // refused by the driver itself, not by the engine
            CHECK(glGetError() == GL_INVALID_ENUM);
        }
    } else {
        REQUIRE(api == "gles32");
        CHECK(c.es);
        CHECK(c.major * 10 + c.minor >= 31);
        CHECK(c.compute);
    }
}

TEST_CASE_FIXTURE(GlTest, "separate mode: the portable 4-component rule holds even where the driver allows more") {
    const char* mat = "#version 300 es\nin vec4 p;\nout vec4 out_position;\nout mat4 out_transform;\n"
                      "void main() { out_position = p; out_transform = mat4(p.x); }";
    std::string msg =
        XFB_REQUIRE_ERROR(Program(dev, {mat, {CaptureMode::Separate}, {}, "mat"}), ErrorCode::SeparateComponents);
    CHECK(contains(msg, "'out_transform' (mat4, 16 components)"));
    // A vec4 + float state wrongly merged into one 5-component varying (vec4[2] here: 8).
    const char* merged =
        "#version 300 es\nin vec4 p;\nout vec4 out_state[2];\nvoid main() { out_state[0] = p; out_state[1] = p; }";
    msg =
        XFB_REQUIRE_ERROR(Program(dev, {merged, {CaptureMode::Separate}, {}, "merged"}), ErrorCode::SeparateComponents);
    CHECK(contains(msg, "split it"));
    // Fixed the two documented ways: interleaved, or split into vec4 + float.
    CHECK_NOTHROW(Program(dev, {mat, {CaptureMode::Interleaved}, {}, "mat-interleaved"}));
    const char* split = "#version 300 es\nin vec4 p;\nout vec4 out_position;\nout float out_life;\n"
                        "void main() { out_position = p; out_life = p.w; }";
    CHECK_NOTHROW(Program(dev, {split, {CaptureMode::Separate}, {}, "split"}));
    // Only with portability off, the driver's own limit decides.
    if (dev.limits().maxSeparateComponents >= 16)
        CHECK_NOTHROW(Program(dev, {mat, {CaptureMode::Separate, {}, false}, {}, "mat-native"}));
    else
        XFB_REQUIRE_ERROR(Program(dev, {mat, {CaptureMode::Separate, {}, false}, {}, "mat-native"}),
                          ErrorCode::SeparateComponentsDriver);
}

TEST_CASE_FIXTURE(GlTest, "compile errors carry GL's log with the line") {
    const char* bad = "#version 300 es\nin vec4 p;\nout vec4 out_p;\nvoid main() {\n  out_p = p * undefinedThing;\n}";
    std::string msg = XFB_REQUIRE_ERROR(Program(dev, {bad, {}, {}, "broken"}), ErrorCode::ShaderCompile);
    CHECK(contains(msg, "'broken'"));
    CHECK(contains(msg, "undefinedThing"));
    CHECK(contains(msg, "5"));
}

TEST_CASE_FIXTURE(GlTest, "a captured varying the GL compiler does not see is reported by name") {
    // GLSL ES 3.00 compilers predefine GL_FRAGMENT_PRECISION_HIGH; the declaration reader evaluates
    // what the source defines, so it sees out_ghost where GL does not. (This case used __FILE__,
    // which Mesa does not define for #ifndef: GL saw out_ghost too and only dropped it as never
    // written. Outputs are zeroed now, so a declared output is always kept and reads 0.)
    const char* src = "#version 300 es\nin vec4 p;\nout vec4 out_p;\n#ifndef GL_ES_DIFFERS\n#ifndef "
                      "GL_FRAGMENT_PRECISION_HIGH\nout vec4 out_ghost;\n#endif\n#endif\n"
                      "void main() { out_p = p; }";
    auto iface = readShaderInterface(src);
    REQUIRE(iface.findOutput("out_ghost"));
    std::string msg = XFB_REQUIRE_ERROR(Program(dev, {src, {}, {}, "ghost"}), ErrorCode::VaryingOptimizedAway);
    CHECK(contains(msg, "out_ghost"));
}

TEST_CASE_FIXTURE(GlTest, "defines reach both the reader and the GL compiler") {
    const char* src = "#version 300 es\nin vec4 p;\n#if WITH_EXTRA\nout vec4 out_extra;\n#endif\nout vec4 out_p;\n"
                      "void main() { out_p = p;\n#if WITH_EXTRA\n out_extra = p * 2.0;\n#endif\n}";
    Program with(dev, {src, {}, {{{"WITH_EXTRA", "1"}}}, "with"});
    CHECK(with.capture().varyings.size() == 2);
    Program without(dev, {src, {}, {{{"WITH_EXTRA", "0"}}}, "without"});
    CHECK(without.capture().varyings.size() == 1);
    // The line numbers GL reports still match the user's source.
    const char* bad = "#version 300 es\nin vec4 p;\nout vec4 out_p;\nvoid main() {\n  out_p = nope;\n}";
    std::string msg = XFB_REQUIRE_ERROR(Program(dev, {bad, {}, {{{"X", "1"}}}, "bad"}), ErrorCode::ShaderCompile);
    CHECK((contains(msg, "0:5") || contains(msg, "0(5)"))); // Mesa: "0:5(11): error", NVIDIA: "0(5) : error"
}

TEST_CASE_FIXTURE(GlTest, "uniform errors name the uniform and the types") {
    const char* src =
        "#version 300 es\nin vec4 p;\nuniform float dt;\nuniform vec3 unused;\nuniform int mode[3];\nout vec4 out_p;\n"
        "void main() { out_p = p * dt + float(mode[2]); }";
    Program program(dev, {src, {}, {}, "uniforms"});
    program.setUniform("dt", 1.0f);
    std::string msg = XFB_REQUIRE_ERROR(program.setUniform("dT", 1.0f), ErrorCode::UnknownUniform);
    CHECK(contains(msg, "'dT'"));
    CHECK(contains(msg, "dt"));
    // Declared but removed by the linker: kept (a generated compute pass may use it), still type-checked.
    program.setUniform("unused", glm::vec3(1.0f));
    XFB_REQUIRE_ERROR(program.setUniform("unused", 1.0f), ErrorCode::UniformType);
    msg = XFB_REQUIRE_ERROR(program.setUniform("dt", glm::vec2(1.0f)), ErrorCode::UniformType);
    CHECK(contains(msg, "floatx1"));
    XFB_REQUIRE_ERROR(program.setUniform("dt", 1), ErrorCode::UniformType);
    std::vector<int> modes{1, 2, 3};
    program.setUniform("mode", ScalarKind::Int, std::as_bytes(std::span<const int>(modes)));
    std::vector<int> tooMany{1, 2, 3, 4};
    XFB_REQUIRE_ERROR(program.setUniform("mode", ScalarKind::Int, std::as_bytes(std::span<const int>(tooMany))),
                      ErrorCode::UniformType);

    // The values reach the GPU at the next step; the refused ones changed nothing (dt 1, mode[2] 3).
    std::vector<float> data{1, 2, 3, 4};
    Buffer in(dev, vec4Format(0), 1, view(data)), out(dev, vec4Format(7), 1);
    Pipeline pipeline(dev, program, {{&in, nullptr}, {nullptr, &out}});
    pipeline.step();
    requireEqual(out.readAs<float>(), std::vector<float>{4, 5, 6, 7}, "only the accepted uniform values applied");
    program.setUniform("dt", 2.0f);
    pipeline.step();
    requireEqual(out.readAs<float>(), std::vector<float>{5, 7, 9, 11}, "uniforms applied");
}

TEST_CASE_FIXTURE(GlTest, "link errors carry GL's log and leave no GL error behind") {
    const char* noMain = "#version 300 es\nin vec4 p;\nout vec4 out_p;\nvoid notMain() { out_p = p; }";
    std::string msg = XFB_REQUIRE_ERROR(Program(dev, {noMain, {}, {}, "no-main"}), ErrorCode::ProgramLink);
    CHECK(contains(msg, "'no-main'"));
    CHECK(contains(msg, "main"));
}

TEST_CASE_FIXTURE(GlTest, "GL errors, missing contexts and unusable platforms are reported with their codes") {
    // A buffer deleted behind the engine's back: the next upload says so (shared_context_test.cpp).
    std::vector<float> data(16, 1.0f);
    Buffer doomed(dev, vec4Format(0), 4, view(data));
    GLuint name = doomed.glName();
    glDeleteBuffers(1, &name);
    std::string msg = XFB_REQUIRE_ERROR(doomed.upload(view(data)), ErrorCode::Disposed);
    // Debug builds name the GL call itself, release builds the operation.
    CHECK_MESSAGE(
        (contains(msg, "Buffer::upload") || contains(msg, "glBindBuffer") || contains(msg, "glBufferSubData")), msg);
    CHECK(glGetError() == GL_NO_ERROR); // drained by the check
    // No context current on this thread.
    std::string noContext;
    std::thread([&] {
        try {
            Device orphan;
        } catch (const Error& e) { noContext = std::string(errorCodeName(e.code())) + " " + e.message(); }
    }).join();
    CHECK(contains(noContext, "XFB_UNSUPPORTED"));
    CHECK(contains(noContext, "no GL context is current"));
    // No platform to try: the context cannot be created, and the message says so.
    std::string none;
    std::thread([&] {
        try {
            HeadlessContext impossible(apiUnderTest(), {});
        } catch (const Error& e) { none = std::string(errorCodeName(e.code())) + " " + e.message(); }
    }).join();
    CHECK(contains(none, "XFB_CONTEXT_CREATION"));
    CHECK(contains(none, "no platform tried"));
}

TEST_CASE_FIXTURE(GlTest, "non-square matrix uniforms and sampler units") {
    const char* src =
        "#version 300 es\nin vec4 p;\nuniform mat2x3 m;\nuniform highp sampler2D table;\nout vec4 out_p;\n"
        "void main() { out_p = vec4(m * p.xy, 1.0 + texelFetch(table, ivec2(0), 0).x); }"; // unbound unit: x = 0
    Program program(dev, {src, {}, {}, "mat2x3"});
    const float m[6] = {1, 2, 3, 4, 5, 6}; // column-major: columns (1,2,3) and (4,5,6)
    program.setUniform("m", ScalarKind::Float, std::as_bytes(std::span<const float>(m)));
    program.setUniform("table", 0); // a texture unit
    XFB_REQUIRE_ERROR(program.setUniform("table", 0.5f), ErrorCode::UniformType);
    std::vector<float> data{2, 10, 0, 0};
    Buffer in(dev, vec4Format(0), 1, view(data)), out(dev, vec4Format(5), 1);
    Pipeline pipeline(dev, program, {{&in, nullptr}, {nullptr, &out}});
    pipeline.step();
    requireEqual(out.readAs<float>(), std::vector<float>{2 * 1 + 10 * 4, 2 * 2 + 10 * 5, 2 * 3 + 10 * 6, 1},
                 "m * p.xy");
}
