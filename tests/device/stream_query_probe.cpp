// Raw GL probe, no xfb pipeline: do the per-stream GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN and
// GL_PRIMITIVES_GENERATED queries of a four-stream geometry shader count what each stream wrote?
// geometry_test.cpp's "four streams" case sees written = 0 for streams 0 and 2 on NVIDIA (580)
// while the captured bytes are right. Each variant orders or picks the queries differently and
// prints generated / written per stream against the expected counts, "ok" or "WRONG".
#include "raw_gl.hpp"
#include "xfb/headless_context.hpp"

#include <array>
#include <cstdio>
#include <string>

namespace {

constexpr int kPoints = 7;
// Point i emits to streams 0 (1 vertex) and 2 (3) when even, to 1 (2) and 3 (4) when odd.
constexpr std::array<GLuint64, 4> kExpected = {4, 6, 12, 12};

struct Rig {
    GLuint program = 0, vao = 0, tf = 0;
    std::array<GLuint, 4> buffers{}, generated{}, written{};
    Rig() {
        program = glCreateProgram();
        GLuint vs = xfbtest::compileShader(GL_VERTEX_SHADER,
                                           "#version 430 core\nflat out int v_id;\nvoid main() { v_id = gl_VertexID; "
                                           "gl_Position = vec4(0.0); }",
                                           "the probe's vertex shader");
        GLuint gs = xfbtest::compileShader(GL_GEOMETRY_SHADER, R"(#version 430 core
layout(points) in;
layout(points, max_vertices = 10) out;
flat in int v_id[];
layout(stream = 0) out vec4 out_a;
layout(stream = 1) out vec4 out_b;
layout(stream = 2) out vec4 out_c;
layout(stream = 3) out vec4 out_d;
void main() {
    int i = v_id[0];
    if (i % 2 == 0) { out_a = vec4(i); EmitStreamVertex(0); }
    if (i % 2 == 1) { for (int c = 0; c < 2; ++c) { out_b = vec4(i, c, 0, 0); EmitStreamVertex(1); } }
    if (i % 2 == 0) { for (int c = 0; c < 3; ++c) { out_c = vec4(i, c, 0, 0); EmitStreamVertex(2); } }
    if (i % 2 == 1) { for (int c = 0; c < 4; ++c) { out_d = vec4(i, c, 0, 0); EmitStreamVertex(3); } }
}
)",
                                           "the probe's geometry shader");
        glAttachShader(program, vs);
        glAttachShader(program, gs);
        const char* varyings[] = {"out_a", "gl_NextBuffer", "out_b", "gl_NextBuffer",
                                  "out_c", "gl_NextBuffer", "out_d"};
        glTransformFeedbackVaryings(program, 7, varyings, GL_INTERLEAVED_ATTRIBS);
        xfbtest::linkProgram(program, "the probe's program");
        glDeleteShader(vs), glDeleteShader(gs);
        glGenVertexArrays(1, &vao);
        glGenTransformFeedbacks(1, &tf);
        glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, tf);
        glGenBuffers(4, buffers.data());
        for (GLuint k = 0; k < 4; ++k) {
            glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, buffers[k]);
            glBufferData(GL_TRANSFORM_FEEDBACK_BUFFER, 70 * 16, nullptr, GL_DYNAMIC_COPY);
            glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, k, buffers[k]);
        }
        glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, 0);
        glGenQueries(4, generated.data());
        glGenQueries(4, written.data());
    }
    ~Rig() {
        glDeleteQueries(4, generated.data()), glDeleteQueries(4, written.data());
        glDeleteBuffers(4, buffers.data());
        glDeleteTransformFeedbacks(1, &tf), glDeleteVertexArrays(1, &vao), glDeleteProgram(program);
    }
    // begin/end: the queries, inside or outside glBegin/EndTransformFeedback (`inside`).
    template<class Begin, class End>
    void pass(Begin begin, End end, bool inside) {
        glUseProgram(program);
        glBindVertexArray(vao);
        glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, tf);
        glEnable(GL_RASTERIZER_DISCARD);
        if (!inside) begin();
        glBeginTransformFeedback(GL_POINTS);
        if (inside) begin();
        glDrawArrays(GL_POINTS, 0, kPoints);
        if (inside) end();
        glEndTransformFeedback();
        if (!inside) end();
        glDisable(GL_RASTERIZER_DISCARD);
        glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, 0);
        glBindVertexArray(0);
        glUseProgram(0);
    }
};

int wrong = 0, variants = 0;

void report(const char* name, Rig& r, bool haveGenerated, bool haveWritten) {
    bool ok = true;
    std::printf("%-58s", name);
    for (int k = 0; k < 4; ++k) {
        GLuint64 g = 0, w = 0;
        if (haveGenerated) glGetQueryObjectui64v(r.generated[std::size_t(k)], GL_QUERY_RESULT, &g);
        if (haveWritten) glGetQueryObjectui64v(r.written[std::size_t(k)], GL_QUERY_RESULT, &w);
        ok &= (!haveGenerated || g == kExpected[std::size_t(k)]) && (!haveWritten || w == kExpected[std::size_t(k)]);
        std::printf(" s%d %llu/%llu", k, (unsigned long long)g, (unsigned long long)w);
    }
    wrong += !ok;
    ++variants;
    std::printf("  %s (GL error 0x%x)\n", ok ? "ok" : "WRONG", glGetError());
}

} // namespace

static int run() {
    xfb::HeadlessContext context(xfb::Api::OpenGL43Core);
    std::printf("%s | %s\n", reinterpret_cast<const char*>(glGetString(GL_RENDERER)),
                reinterpret_cast<const char*>(glGetString(GL_VERSION)));
    std::printf("expected per stream (generated/written): 4 6 12 12\n");
    for (bool inside : {false, true}) {
        const std::string where = inside ? " (inside Begin/EndTF)" : "";
        { // xfb's order: generated(k), written(k) for each k
            Rig r;
            r.pass(
                [&] {
                    for (GLuint k = 0; k < 4; ++k) {
                        glBeginQueryIndexed(GL_PRIMITIVES_GENERATED, k, r.generated[k]);
                        glBeginQueryIndexed(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, k, r.written[k]);
                    }
                },
                [&] {
                    for (GLuint k = 0; k < 4; ++k) {
                        glEndQueryIndexed(GL_PRIMITIVES_GENERATED, k);
                        glEndQueryIndexed(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, k);
                    }
                },
                inside);
            report(("interleaved per stream" + where).c_str(), r, true, true);
        }
        { // all generated, then all written
            Rig r;
            r.pass(
                [&] {
                    for (GLuint k = 0; k < 4; ++k) glBeginQueryIndexed(GL_PRIMITIVES_GENERATED, k, r.generated[k]);
                    for (GLuint k = 0; k < 4; ++k)
                        glBeginQueryIndexed(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, k, r.written[k]);
                },
                [&] {
                    for (GLuint k = 0; k < 4; ++k) glEndQueryIndexed(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, k);
                    for (GLuint k = 0; k < 4; ++k) glEndQueryIndexed(GL_PRIMITIVES_GENERATED, k);
                },
                inside);
            report(("all generated, then all written" + where).c_str(), r, true, true);
        }
        { // written only
            Rig r;
            r.pass(
                [&] {
                    for (GLuint k = 0; k < 4; ++k)
                        glBeginQueryIndexed(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, k, r.written[k]);
                },
                [&] {
                    for (GLuint k = 0; k < 4; ++k) glEndQueryIndexed(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, k);
                },
                inside);
            report(("written only" + where).c_str(), r, false, true);
        }
    }
    { // one stream's written query per pass, four passes
        bool ok = true;
        std::printf("%-58s", "one written query per pass");
        for (GLuint k = 0; k < 4; ++k) {
            Rig r;
            r.pass([&] { glBeginQueryIndexed(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, k, r.written[k]); },
                   [&] { glEndQueryIndexed(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, k); }, false);
            GLuint64 w = 0;
            glGetQueryObjectui64v(r.written[k], GL_QUERY_RESULT, &w);
            ok &= w == kExpected[k];
            std::printf(" s%u %llu", k, (unsigned long long)w);
        }
        wrong += !ok;
        ++variants;
        std::printf("  %s (GL error 0x%x)\n", ok ? "ok" : "WRONG", glGetError());
    }
    std::printf("%d variant(s) counted wrong\n", wrong);
    std::printf("xfb-test-run: cases=%d asserts=%d\n", variants, variants); // tests/run-summary.mjs
    return wrong ? 1 : 0;
}

int main() { return xfbtest::probeMain(run); }
