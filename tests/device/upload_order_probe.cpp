// Raw GL probe, no xfb pipeline: is a glBufferSubData into a buffer that a transform feedback
// object holds seen by what comes next? Each variant prints the bytes it read and "ok" or "LOST".
// Run on the device (tests/device/run.sh) to tell a driver's behaviour from an engine bug.
#include "raw_gl.hpp"
#include "xfb/headless_context.hpp"

#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace {

struct Rig {
    GLuint program = 0, a = 0, b = 0, t0 = 0, t1 = 0, vao0 = 0, vao1 = 0;
    Rig() {
        program = xfbtest::feedbackProgram(
            "#version 430 core\nin vec4 a;\nout vec4 o;\nvoid main() { o = a * 2.0; gl_Position = vec4(0); }",
            "the probe's program");
        float input[16];
        for (int i = 0; i < 16; ++i) input[i] = float(i);
        glGenBuffers(1, &a);
        glGenBuffers(1, &b);
        glBindBuffer(GL_ARRAY_BUFFER, a);
        glBufferData(GL_ARRAY_BUFFER, 64, input, GL_DYNAMIC_COPY);
        glBindBuffer(GL_ARRAY_BUFFER, b);
        glBufferData(GL_ARRAY_BUFFER, 64, nullptr, GL_DYNAMIC_COPY);
        glBindBuffer(GL_ARRAY_BUFFER, 0);
        auto vao = [](GLuint from) {
            GLuint v;
            glGenVertexArrays(1, &v);
            glBindVertexArray(v);
            glBindBuffer(GL_ARRAY_BUFFER, from);
            glEnableVertexAttribArray(0);
            glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 16, nullptr);
            glBindBuffer(GL_ARRAY_BUFFER, 0);
            glBindVertexArray(0);
            return v;
        };
        auto tf = [](GLuint into) {
            GLuint t;
            glGenTransformFeedbacks(1, &t);
            glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, t);
            glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, into);
            glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, 0);
            return t;
        };
        vao0 = vao(a), vao1 = vao(b), t0 = tf(b), t1 = tf(a);
    }
    ~Rig() {
        glDeleteVertexArrays(1, &vao0), glDeleteVertexArrays(1, &vao1);
        glDeleteTransformFeedbacks(1, &t0), glDeleteTransformFeedbacks(1, &t1);
        glDeleteBuffers(1, &a), glDeleteBuffers(1, &b), glDeleteProgram(program);
    }
    void pass(GLuint vao, GLuint tf) {
        glUseProgram(program);
        glBindVertexArray(vao);
        glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, tf);
        glEnable(GL_RASTERIZER_DISCARD);
        glBeginTransformFeedback(GL_POINTS);
        glDrawArrays(GL_POINTS, 0, 4);
        glEndTransformFeedback();
        glDisable(GL_RASTERIZER_DISCARD);
        glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, 0);
        glBindVertexArray(0);
        glUseProgram(0);
    }
    static void upload(GLuint buffer, GLenum target = GL_COPY_WRITE_BUFFER) {
        const float data[4] = {50, 51, 52, 53};
        glBindBuffer(target, buffer);
        glBufferSubData(target, 16, 16, data);
        glBindBuffer(target, 0);
    }
    static std::vector<float> read(GLuint buffer) {
        std::vector<float> out(16);
        glBindBuffer(GL_COPY_READ_BUFFER, buffer);
        glGetBufferSubData(GL_COPY_READ_BUFFER, 0, 64, out.data());
        glBindBuffer(GL_COPY_READ_BUFFER, 0);
        return out;
    }
};

int failures = 0, variants = 0;

void report(const char* name, const std::vector<float>& got, const std::vector<float>& want) {
    const bool ok = got == want;
    failures += !ok;
    ++variants;
    std::printf("%-60s %s  got", name, ok ? "ok  " : "LOST");
    for (float v : got) std::printf(" %g", v);
    std::printf("  (GL error 0x%x)\n", glGetError());
}

// Step, upload into the new state (held by t0), step again: reuse.re-upload in raw GL.
void stepUploadStep(const char* name, const std::function<void(Rig&)>& between) {
    Rig r;
    r.pass(r.vao0, r.t0); // b = 2a
    between(r);
    r.pass(r.vao1, r.t1); // a = 2b
    std::vector<float> want(16);
    for (int i = 0; i < 16; ++i) want[std::size_t(i)] = 4.0f * float(i);
    for (int i = 4; i < 8; ++i) want[std::size_t(i)] = 2.0f * float(46 + i);
    report(name, Rig::read(r.a), want);
}

// Upload into a buffer a transform feedback object holds, no pass: the own-feedback case.
void uploadOnly(const char* name, bool passFirst, bool holderBound) {
    Rig r;
    if (passFirst) r.pass(r.vao0, r.t0);
    if (holderBound) glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, r.t0);
    Rig::upload(r.b);
    if (holderBound) glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, 0);
    std::vector<float> want(16);
    for (int i = 0; i < 16; ++i) want[std::size_t(i)] = passFirst ? 2.0f * float(i) : 0.0f;
    for (int i = 4; i < 8; ++i) want[std::size_t(i)] = float(46 + i);
    report(name, Rig::read(r.b), want);
}

} // namespace

static int run() {
    xfb::HeadlessContext context(xfb::Api::OpenGL43Core);
    std::printf("%s | %s\n", reinterpret_cast<const char*>(glGetString(GL_RENDERER)),
                reinterpret_cast<const char*>(glGetString(GL_VERSION)));
    stepUploadStep("step, upload (COPY_WRITE), step", [](Rig& r) { Rig::upload(r.b); });
    stepUploadStep("step, upload (ARRAY_BUFFER), step", [](Rig& r) { Rig::upload(r.b, GL_ARRAY_BUFFER); });
    stepUploadStep("step, glNamedBufferSubData, step", [](Rig& r) {
        const float data[4] = {50, 51, 52, 53};
        glNamedBufferSubData(r.b, 16, 16, data);
    });
    stepUploadStep("step, glFinish, upload, step", [](Rig& r) { glFinish(), Rig::upload(r.b); });
    stepUploadStep("step, upload, glFinish, step", [](Rig& r) { Rig::upload(r.b), glFinish(); });
    stepUploadStep("step, upload, glMemoryBarrier(ALL), step", [](Rig& r) {
        Rig::upload(r.b);
        glMemoryBarrier(GL_ALL_BARRIER_BITS);
    });
    stepUploadStep("step, detach b from t0, upload, step", [](Rig& r) {
        glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, r.t0);
        glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, 0);
        glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, 0);
        Rig::upload(r.b);
    });
    stepUploadStep("step, upload via a staging copy, step", [](Rig& r) {
        const float data[4] = {50, 51, 52, 53};
        GLuint staging;
        glGenBuffers(1, &staging);
        glBindBuffer(GL_COPY_READ_BUFFER, staging);
        glBufferData(GL_COPY_READ_BUFFER, 16, data, GL_STREAM_COPY);
        glBindBuffer(GL_COPY_WRITE_BUFFER, r.b);
        glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 0, 16, 16);
        glBindBuffer(GL_COPY_READ_BUFFER, 0);
        glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
        glDeleteBuffers(1, &staging);
    });
    uploadOnly("upload into t0's buffer, t0 never active, t0 not bound", false, false);
    uploadOnly("upload into t0's buffer, t0 never active, t0 bound", false, true);
    uploadOnly("pass, upload into t0's buffer, t0 not bound", true, false);
    uploadOnly("pass, upload into t0's buffer, t0 bound", true, true);
    std::printf("%d variant(s) lost the upload\n", failures);
    std::printf("xfb-test-run: cases=%d asserts=%d\n", variants, variants); // tests/run-summary.mjs
    return failures ? 1 : 0;
}

int main() { return xfbtest::probeMain(run); }
