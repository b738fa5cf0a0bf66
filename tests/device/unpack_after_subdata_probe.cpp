// Raw GL probe, no xfb pipeline: does a pixel-unpack glTexSubImage2D from a buffer see the
// application's glBufferSubData into that buffer just before it? The fragment backend uploads a
// handed-out constant buffer into its planes this way (engine/src/fragment/plane_mirror.cpp,
// PlaneCopier::upload) and writes planes back with glReadPixels into a GL_PIXEL_PACK_BUFFER
// (PlaneCopier::writeBack); fragment_test.cpp "a constant input's and a write-only output's
// handed-out names stay current at every step" drifts on NVIDIA (tests/device/README.md).
// Each variant runs 4 steps of the test's shape (300 32-byte elements: 600 RGBA32UI texels in a
// 4096-wide texture; step s writes 16 words at word 8 s), counts the words the texture (or the
// planes) lack, and prints "ok" or "LOST n words". Exit 1 if any variant lost, 2 on a GL error.
// Run on the device (tests/device/run.sh) to tell a driver's behaviour from an engine bug.
#include "raw_gl.hpp"
#include "xfb/headless_context.hpp"

#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

namespace {

constexpr int kWidth = 4096;        // the fragment backend's texture width (min(4096, max size))
constexpr int kTexels = 600;        // 300 elements of 32 bytes
constexpr int kWords = kTexels * 4; // 2400
constexpr GLsizeiptr kBytes = kWords * 4;
constexpr int kSteps = 4;

int failures = 0, variants = 0, glErrors = 0;
// The headless context's 1x1 framebuffer: with 0 bound, every draw fails (even a feedback pass).
GLuint home = 0;

GLuint texture() {
    GLuint t;
    glGenTextures(1, &t);
    glBindTexture(GL_TEXTURE_2D, t);
    glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA32UI, kWidth, 1);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glBindTexture(GL_TEXTURE_2D, 0);
    return t;
}

GLuint framebuffer(std::vector<GLuint> attachments) {
    GLuint f;
    glGenFramebuffers(1, &f);
    glBindFramebuffer(GL_FRAMEBUFFER, f);
    std::vector<GLenum> draw;
    for (std::size_t k = 0; k < attachments.size(); ++k) {
        glFramebufferTexture2D(GL_FRAMEBUFFER, GLenum(GL_COLOR_ATTACHMENT0 + k), GL_TEXTURE_2D, attachments[k], 0);
        draw.push_back(GLenum(GL_COLOR_ATTACHMENT0 + k));
    }
    glDrawBuffers(GLsizei(draw.size()), draw.data());
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
        throw std::runtime_error("an RGBA32UI framebuffer is incomplete");
    glBindFramebuffer(GL_FRAMEBUFFER, home);
    return f;
}

GLuint buffer(const void* data, GLsizeiptr bytes = kBytes) {
    GLuint b;
    glGenBuffers(1, &b);
    glBindBuffer(GL_COPY_WRITE_BUFFER, b);
    glBufferData(GL_COPY_WRITE_BUFFER, bytes, data, GL_DYNAMIC_COPY); // as allocateBuffer()
    glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
    return b;
}

// Texels [0, kTexels) of attachment `k` of `fb` into `into` (a pack buffer) or client memory.
void readTexels(GLuint fb, int k, GLuint into, void* client) {
    glBindFramebuffer(GL_READ_FRAMEBUFFER, fb);
    glReadBuffer(GLenum(GL_COLOR_ATTACHMENT0 + k));
    glBindBuffer(GL_PIXEL_PACK_BUFFER, into);
    glReadPixels(0, 0, kTexels, 1, GL_RGBA_INTEGER, GL_UNSIGNED_INT, into ? nullptr : client);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, home);
}

void copyBuffer(GLuint from, GLuint to) {
    glBindBuffer(GL_COPY_READ_BUFFER, from);
    glBindBuffer(GL_COPY_WRITE_BUFFER, to);
    glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 0, 0, kBytes);
    glBindBuffer(GL_COPY_READ_BUFFER, 0);
    glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
}

const char* kTriangle = "#version 430 core\n"
                        "void main() { gl_Position = vec4(float((gl_VertexID & 1) << 2) - 1.0,\n"
                        "                                 float((gl_VertexID & 2) << 1) - 1.0, 0.0, 1.0); }\n";

GLuint drawProgram(const std::string& body, const char* what) {
    const GLuint program = glCreateProgram();
    const GLuint vs = xfbtest::compileShader(GL_VERTEX_SHADER, kTriangle, what);
    const GLuint fs = xfbtest::compileShader(GL_FRAGMENT_SHADER, "#version 430 core\n" + body, what);
    glAttachShader(program, vs), glAttachShader(program, fs);
    xfbtest::linkProgram(program, what);
    glDeleteShader(vs), glDeleteShader(fs);
    return program;
}

// The fragment backend's copies and pass, in miniature: the linear texture spread into two planes
// (texel 2i + k into plane k's texel i), a pass (planes + 1 into two output planes), the output
// planes gathered back into a linear texture, read into the output buffer by a pack transfer.
struct Programs {
    GLuint spread = 0, pass = 0, gather = 0, feedback = 0, vao = 0;
    Programs() {
        spread = drawProgram("layout(binding = 0) uniform highp usampler2D linear;\n"
                             "layout(location = 0) out uvec4 o0;\nlayout(location = 1) out uvec4 o1;\n"
                             "void main() { int x = int(gl_FragCoord.x);\n"
                             "  o0 = texelFetch(linear, ivec2(min(2 * x, 4095), 0), 0);\n"
                             "  o1 = texelFetch(linear, ivec2(min(2 * x + 1, 4095), 0), 0); }\n",
                             "the probe's spread");
        pass = drawProgram("layout(binding = 0) uniform highp usampler2D p0;\n"
                           "layout(binding = 1) uniform highp usampler2D p1;\n"
                           "layout(location = 0) out uvec4 o0;\nlayout(location = 1) out uvec4 o1;\n"
                           "void main() { ivec2 at = ivec2(gl_FragCoord.xy);\n"
                           "  o0 = texelFetch(p0, at, 0) + 1u; o1 = texelFetch(p1, at, 0) + 1u; }\n",
                           "the probe's pass");
        gather = drawProgram(
            "layout(binding = 0) uniform highp usampler2D p0;\n"
            "layout(binding = 1) uniform highp usampler2D p1;\n"
            "layout(location = 0) out uvec4 o;\n"
            "void main() { int x = int(gl_FragCoord.x);\n"
            "  o = (x & 1) == 0 ? texelFetch(p0, ivec2(x / 2, 0), 0) : texelFetch(p1, ivec2(x / 2, 0), 0); }\n",
            "the probe's gather");
        feedback = xfbtest::feedbackProgram(
            "#version 430 core\nin uvec4 a;\nflat out uvec4 o;\nvoid main() { o = a + 2u; gl_Position = vec4(0); }",
            "the probe's feedback program");
        glGenVertexArrays(1, &vao);
    }
    ~Programs() {
        glDeleteProgram(spread), glDeleteProgram(pass), glDeleteProgram(gather), glDeleteProgram(feedback);
        glDeleteVertexArrays(1, &vao);
    }
};

// How a variant's steps go.
struct Options {
    enum Before { Nothing, Pack, CopyBuffer, PackThenFinish, StagedPack } before = Nothing; // GPU write into it
    bool engineStep = false;  // spread, pass, gather, pack (else the unpack target is read back)
    bool sharedLinear = true; // the gather renders into the unpack target, as PlaneCopier's `linear`
    bool privateCopy = false; // unpack from a glCopyBufferSubData copy of the buffer
    bool finishBeforeUnpack = false;
    bool barrierBeforeUnpack = false;
    bool feedback = false;                // the test's order: a staged upload and a feedback pass between
    GLenum target = GL_COPY_WRITE_BUFFER; // the binding the application writes through
    bool named = false;                   // glNamedBufferSubData instead
    bool finishBeforeWrite = false;
    bool barrierBeforeWrite = false;                                // glMemoryBarrier(GL_ALL_BARRIER_BITS)
    enum Create { Data, DataThenFinish, StagedCopy } create = Data; // how the buffer gets its first bytes
    bool primed = false; // one step's copies of the first bytes before the first write, no wait
    bool waits = true;   // read back after each step (the test does); else GPU snapshots, read at the end
};

struct Run {
    Programs& programs;
    Options o;
    std::vector<std::uint32_t> cpu; // what the buffer should hold
    GLuint constants = 0, output = 0, staging = 0, copy = 0, linear = 0, gatherTarget = 0, source = 0;
    GLuint p[2] = {}, q[2] = {}, fbLinear = 0, fbGather = 0, fbP = 0, fbQ = 0, fbSource = 0;
    GLuint tfInput = 0, tfOutput = 0, tfObject = 0, tfVao = 0;

    Run(Programs& programs, Options options) : programs(programs), o(options), cpu(kWords) {
        for (int i = 0; i < kWords; ++i) cpu[std::size_t(i)] = 0x10000000u + std::uint32_t(i);
        const std::vector<std::uint32_t> junk(kWords, 0xDEADBEEFu);
        output = buffer(junk.data());
        staging = buffer(nullptr);
        copy = buffer(nullptr);
        if (o.create == Options::StagedCopy) { // as Buffer::upload(): glCopyBufferSubData from a staging buffer
            constants = buffer(nullptr);
            const GLuint from = buffer(cpu.data());
            copyBuffer(from, constants);
            glDeleteBuffers(1, &from);
        } else {
            constants = buffer(cpu.data()); // as allocateBuffer(): glBufferData with the bytes
            if (o.create == Options::DataThenFinish) glFinish();
        }
        linear = texture(), source = texture();
        for (GLuint& t : p) t = texture();
        for (GLuint& t : q) t = texture();
        gatherTarget = o.sharedLinear ? linear : texture();
        fbLinear = framebuffer({linear});
        fbGather = o.sharedLinear ? fbLinear : framebuffer({gatherTarget});
        fbP = framebuffer({p[0], p[1]}), fbQ = framebuffer({q[0], q[1]}), fbSource = framebuffer({source});
        if (o.feedback) {
            tfInput = buffer(cpu.data()), tfOutput = buffer(nullptr);
            glGenVertexArrays(1, &tfVao);
            glBindVertexArray(tfVao);
            glBindBuffer(GL_ARRAY_BUFFER, tfInput);
            glEnableVertexAttribArray(0);
            glVertexAttribIPointer(0, 4, GL_UNSIGNED_INT, 16, nullptr);
            glBindBuffer(GL_ARRAY_BUFFER, 0);
            glBindVertexArray(0);
            glGenTransformFeedbacks(1, &tfObject);
            glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, tfObject);
            glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, tfOutput);
            glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, 0);
        }
    }
    ~Run() {
        GLuint buffers[] = {constants, output, staging, copy, tfInput, tfOutput};
        glDeleteBuffers(6, buffers);
        GLuint textures[] = {linear, source, p[0], p[1], q[0], q[1], o.sharedLinear ? 0u : gatherTarget};
        glDeleteTextures(7, textures);
        GLuint fbs[] = {fbLinear, o.sharedLinear ? 0u : fbGather, fbP, fbQ, fbSource};
        glDeleteFramebuffers(5, fbs);
        glDeleteTransformFeedbacks(1, &tfObject);
        glDeleteVertexArrays(1, &tfVao);
    }

    // A GPU write into the buffer of the bytes it should hold (the engine's write-back shape).
    void gpuWrite() {
        if (o.before == Options::Nothing) return;
        if (o.before == Options::CopyBuffer) {
            glBindBuffer(GL_COPY_WRITE_BUFFER, copy);
            glBufferSubData(GL_COPY_WRITE_BUFFER, 0, kBytes, cpu.data());
            glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
            copyBuffer(copy, constants);
            return;
        }
        glBindTexture(GL_TEXTURE_2D, source); // the bytes into a texture from client memory
        glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, kTexels, 1, GL_RGBA_INTEGER, GL_UNSIGNED_INT, cpu.data());
        glBindTexture(GL_TEXTURE_2D, 0);
        if (o.before == Options::StagedPack) {
            readTexels(fbSource, 0, staging, nullptr);
            copyBuffer(staging, constants);
        } else {
            readTexels(fbSource, 0, constants, nullptr);
            if (o.before == Options::PackThenFinish) glFinish();
        }
    }

    void appWrite(int s) {
        std::uint32_t part[16];
        for (std::uint32_t j = 0; j < 16; ++j) part[j] = 0xA0000000u + std::uint32_t(s) * 0x100u + j;
        for (int j = 0; j < 16; ++j) cpu[std::size_t(8 * s + j)] = part[j];
        if (o.finishBeforeWrite) glFinish();
        if (o.barrierBeforeWrite) glMemoryBarrier(GL_ALL_BARRIER_BITS);
        if (o.named) {
            glNamedBufferSubData(constants, 32 * s, 64, part);
            return;
        }
        glBindBuffer(o.target, constants);
        glBufferSubData(o.target, 32 * s, 64, part);
        glBindBuffer(o.target, 0);
    }

    // What the fragment test's transform feedback run does between: a staged upload, a pass.
    void feedbackStep(int s) {
        if (!o.feedback) return;
        glBindBuffer(GL_COPY_WRITE_BUFFER, staging);
        glBufferSubData(GL_COPY_WRITE_BUFFER, 0, 64, cpu.data() + 8 * s);
        glBindBuffer(GL_COPY_READ_BUFFER, staging);
        glBindBuffer(GL_COPY_WRITE_BUFFER, tfInput);
        glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 0, 32 * s, 64);
        glBindBuffer(GL_COPY_READ_BUFFER, 0), glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
        glUseProgram(programs.feedback);
        glBindVertexArray(tfVao);
        glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, tfObject);
        glEnable(GL_RASTERIZER_DISCARD);
        glBeginTransformFeedback(GL_POINTS);
        glDrawArrays(GL_POINTS, 0, kTexels);
        glEndTransformFeedback();
        glDisable(GL_RASTERIZER_DISCARD);
        glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, 0);
        glBindVertexArray(0);
        glUseProgram(0);
    }

    void unpack() {
        if (o.finishBeforeUnpack) glFinish();
        if (o.barrierBeforeUnpack) glMemoryBarrier(GL_PIXEL_BUFFER_BARRIER_BIT | GL_TEXTURE_UPDATE_BARRIER_BIT);
        GLuint from = constants;
        if (o.privateCopy) copyBuffer(constants, from = copy);
        glBindTexture(GL_TEXTURE_2D, linear);
        glBindBuffer(GL_PIXEL_UNPACK_BUFFER, from);
        glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, kTexels, 1, GL_RGBA_INTEGER, GL_UNSIGNED_INT, nullptr);
        glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
        glBindTexture(GL_TEXTURE_2D, 0);
    }

    void draw(GLuint program, GLuint fb, std::initializer_list<GLuint> sampled) {
        int unit = 0;
        for (GLuint t : sampled) glActiveTexture(GLenum(GL_TEXTURE0 + unit++)), glBindTexture(GL_TEXTURE_2D, t);
        glActiveTexture(GL_TEXTURE0);
        glBindFramebuffer(GL_FRAMEBUFFER, fb);
        glViewport(0, 0, kWidth, 1);
        glUseProgram(program);
        glBindVertexArray(programs.vao);
        glDrawArrays(GL_TRIANGLES, 0, 3);
        glBindVertexArray(0);
        glUseProgram(0);
        glBindFramebuffer(GL_FRAMEBUFFER, home);
        for (unit = 0; unit < int(sampled.size()); ++unit)
            glActiveTexture(GLenum(GL_TEXTURE0 + unit)), glBindTexture(GL_TEXTURE_2D, 0);
        glActiveTexture(GL_TEXTURE0);
    }

    // The words the step's consumer saw: the unpack target, or the spread planes interleaved.
    std::vector<std::uint32_t> seen() {
        std::vector<std::uint32_t> out(kWords);
        if (!o.engineStep) {
            readTexels(fbLinear, 0, 0, out.data());
            return out;
        }
        std::vector<std::uint32_t> plane[2] = {std::vector<std::uint32_t>(kWords / 2),
                                               std::vector<std::uint32_t>(kWords / 2)};
        for (int k = 0; k < 2; ++k) {
            glBindFramebuffer(GL_READ_FRAMEBUFFER, fbP);
            glReadBuffer(GLenum(GL_COLOR_ATTACHMENT0 + k));
            glReadPixels(0, 0, kTexels / 2, 1, GL_RGBA_INTEGER, GL_UNSIGNED_INT, plane[k].data());
            glBindFramebuffer(GL_READ_FRAMEBUFFER, home);
        }
        for (int t = 0; t < kTexels; ++t)
            for (int c = 0; c < 4; ++c) out[std::size_t(4 * t + c)] = plane[t % 2][std::size_t(4 * (t / 2) + c)];
        return out;
    }

    std::vector<std::uint32_t> bufferWords(GLuint b) {
        std::vector<std::uint32_t> out(kWords);
        glBindBuffer(GL_COPY_READ_BUFFER, b);
        glGetBufferSubData(GL_COPY_READ_BUFFER, 0, kBytes, out.data());
        glBindBuffer(GL_COPY_READ_BUFFER, 0);
        return out;
    }

    // One step's copies: the unpack, and the engine's passes and write-back.
    void copies() {
        unpack();
        if (!o.engineStep) return;
        draw(programs.spread, fbP, {linear});
        draw(programs.pass, fbQ, {p[0], p[1]});
        draw(programs.gather, fbGather, {q[0], q[1]});
        readTexels(fbGather, 0, output, nullptr); // the write-back of the output
    }

    // Without waits: what each step saw, copied on the GPU, read once all steps are queued.
    struct Snapshot {
        GLuint seen[2] = {}, constants = 0, output = 0;
        std::vector<std::uint32_t> want;
    };
    Snapshot snapshot() {
        Snapshot n;
        n.want = cpu;
        const GLuint from[2] = {o.engineStep ? p[0] : linear, p[1]};
        for (int k = 0; k < (o.engineStep ? 2 : 1); ++k) {
            n.seen[k] = texture();
            glCopyImageSubData(from[k], GL_TEXTURE_2D, 0, 0, 0, 0, n.seen[k], GL_TEXTURE_2D, 0, 0, 0, 0, kTexels, 1, 1);
        }
        n.constants = buffer(nullptr), n.output = buffer(nullptr);
        copyBuffer(constants, n.constants);
        copyBuffer(output, n.output);
        return n;
    }
    std::vector<std::uint32_t> seenIn(const Snapshot& n) {
        std::vector<std::uint32_t> level[2] = {std::vector<std::uint32_t>(4 * kWidth),
                                               std::vector<std::uint32_t>(4 * kWidth)};
        for (int k = 0; k < (o.engineStep ? 2 : 1); ++k) {
            glBindTexture(GL_TEXTURE_2D, n.seen[k]);
            glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA_INTEGER, GL_UNSIGNED_INT, level[k].data());
        }
        glBindTexture(GL_TEXTURE_2D, 0);
        if (!o.engineStep) return {level[0].begin(), level[0].begin() + kWords};
        std::vector<std::uint32_t> out(kWords);
        for (int t = 0; t < kTexels; ++t)
            for (int c = 0; c < 4; ++c) out[std::size_t(4 * t + c)] = level[t % 2][std::size_t(4 * (t / 2) + c)];
        return out;
    }

    int lost = 0, bufferLost = 0, outputLost = 0, firstAt = -1;
    std::uint32_t firstGot = 0, firstWant = 0;
    std::string steps;
    void check(int s, const std::vector<std::uint32_t>& want, const std::vector<std::uint32_t>& got,
               const std::vector<std::uint32_t>& inBuffer, const std::vector<std::uint32_t>& out) {
        int here = 0;
        for (int i = 0; i < kWords; ++i)
            if (got[std::size_t(i)] != want[std::size_t(i)]) {
                if (firstAt < 0) firstAt = i, firstGot = got[std::size_t(i)], firstWant = want[std::size_t(i)];
                ++here;
            }
        if (here) steps += (steps.empty() ? "" : ",") + std::to_string(s);
        lost += here;
        for (int i = 0; i < kWords; ++i) bufferLost += inBuffer[std::size_t(i)] != want[std::size_t(i)];
        if (o.engineStep)
            for (int i = 0; i < kWords; ++i) outputLost += out[std::size_t(i)] != got[std::size_t(i)] + 1u;
    }

    void report(const char* name) {
        if (o.primed) copies();
        std::vector<Snapshot> snapshots;
        for (int s = 0; s < kSteps; ++s) {
            gpuWrite();
            appWrite(s);
            feedbackStep(s);
            copies();
            if (o.waits)
                check(s, cpu, seen(), bufferWords(constants), bufferWords(output));
            else
                snapshots.push_back(snapshot());
        }
        for (std::size_t s = 0; s < snapshots.size(); ++s) {
            const Snapshot& n = snapshots[s];
            check(int(s), n.want, seenIn(n), bufferWords(n.constants), bufferWords(n.output));
            glDeleteTextures(2, n.seen);
            GLuint b[] = {n.constants, n.output};
            glDeleteBuffers(2, b);
        }
        ++variants;
        const GLenum error = glGetError();
        glErrors += error != GL_NO_ERROR;
        failures += lost != 0;
        if (!lost)
            std::printf("%-78s ok", name);
        else
            std::printf("%-78s LOST %d words (steps %s; first word %d: got 0x%08x, want 0x%08x)", name, lost,
                        steps.c_str(), firstAt, firstGot, firstWant);
        std::printf("  [buffer itself: %d words differ", bufferLost);
        if (o.engineStep) std::printf("; output write-back: %d", outputLost);
        std::printf("]");
        if (error != GL_NO_ERROR) std::printf("  GL error 0x%x", error);
        std::printf("\n");
        std::fflush(stdout);
    }
};

} // namespace

static int run() {
    xfb::HeadlessContext context(xfb::Api::OpenGL43Core);
    std::printf("%s | %s | %s\n", reinterpret_cast<const char*>(glGetString(GL_VENDOR)),
                reinterpret_cast<const char*>(glGetString(GL_RENDERER)),
                reinterpret_cast<const char*>(glGetString(GL_VERSION)));
    GLint bound = 0;
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &bound);
    home = GLuint(bound);
    Programs programs;
    auto variant = [&](const char* name, Options o) { Run(programs, o).report(name); };
    using O = Options;
    variant("a: subdata, unpack", {});
    variant("a: subdata through GL_PIXEL_UNPACK_BUFFER, unpack", {.target = GL_PIXEL_UNPACK_BUFFER});
    variant("a: subdata through GL_PIXEL_UNPACK_BUFFER after glFinish, unpack",
            {.target = GL_PIXEL_UNPACK_BUFFER, .finishBeforeWrite = true});
    variant("a: subdata through GL_PIXEL_PACK_BUFFER, unpack", {.target = GL_PIXEL_PACK_BUFFER});
    variant("a: subdata through GL_ARRAY_BUFFER, unpack", {.target = GL_ARRAY_BUFFER});
    variant("a: glNamedBufferSubData, unpack", {.named = true});
    variant("b: pack glReadPixels into it, subdata, unpack", {.before = O::Pack});
    variant("c: glCopyBufferSubData into it, subdata, unpack", {.before = O::CopyBuffer});
    variant("d: pack into it, glFinish, subdata, unpack", {.before = O::PackThenFinish});
    variant("d: pack into it, glMemoryBarrier(ALL), subdata, unpack", {.before = O::Pack, .barrierBeforeWrite = true});
    variant("d: pack into it, glNamedBufferSubData, unpack", {.before = O::Pack, .named = true});
    variant("e: pack into staging + glCopyBufferSubData into it, subdata, unpack", {.before = O::StagedPack});
    variant("f: engine step (unpack, spread, pass, gather into the unpack target, pack)", {.engineStep = true});
    variant("f: engine step, the gather into its own texture", {.engineStep = true, .sharedLinear = false});
    variant("f: engine step, feedback pass between (the test's order)", {.engineStep = true, .feedback = true});
    variant("f: engine step, feedback between, gather into its own texture",
            {.engineStep = true, .sharedLinear = false, .feedback = true});
    variant("f: engine step, feedback between, unpack from a private copy",
            {.engineStep = true, .privateCopy = true, .feedback = true});
    variant("f: engine step, feedback between, glMemoryBarrier before unpack",
            {.engineStep = true, .barrierBeforeUnpack = true, .feedback = true});
    variant("f: engine step, feedback between, glFinish before unpack",
            {.engineStep = true, .finishBeforeUnpack = true, .feedback = true});
    variant("f: engine step, pack into the constants too", {.before = O::Pack, .engineStep = true});
    // No wait between a step's unpack and the next write: the buffer is still being read.
    variant("g: unpack, subdata, unpack, ... no waits", {.primed = true, .waits = false});
    variant("g: engine step, primed, no waits", {.engineStep = true, .primed = true, .waits = false});
    variant("g: engine step, feedback between, primed, no waits",
            {.engineStep = true, .feedback = true, .primed = true, .waits = false});
    variant("g: engine step, feedback between, primed, waits", {.engineStep = true, .feedback = true, .primed = true});
    variant("g: engine step, feedback between, primed, no waits, private copy",
            {.engineStep = true, .privateCopy = true, .feedback = true, .primed = true, .waits = false});
    variant("g: engine step, feedback between, primed, no waits, own gather texture",
            {.engineStep = true, .sharedLinear = false, .feedback = true, .primed = true, .waits = false});
    // The first variants again: their buffers now get the storage of the buffers deleted before.
    variant("h: subdata, unpack (again, after the variants above)", {});
    variant("h: subdata, unpack, buffer made by glBufferData(bytes) + glFinish", {.create = O::DataThenFinish});
    variant("h: subdata, unpack, buffer made empty + staged glCopyBufferSubData", {.create = O::StagedCopy});
    variant("h: subdata through GL_PIXEL_UNPACK_BUFFER, unpack (again)", {.target = GL_PIXEL_UNPACK_BUFFER});
    variant("h: subdata through GL_PIXEL_UNPACK_BUFFER, glBufferData(bytes) + glFinish",
            {.target = GL_PIXEL_UNPACK_BUFFER, .create = O::DataThenFinish});
    variant("h: subdata through GL_PIXEL_UNPACK_BUFFER, made empty + staged copy",
            {.target = GL_PIXEL_UNPACK_BUFFER, .create = O::StagedCopy});
    variant("h: engine step, feedback between (the test's order, again)", {.engineStep = true, .feedback = true});
    variant("h: engine step, feedback between, made empty + staged copy",
            {.engineStep = true, .feedback = true, .create = O::StagedCopy});
    std::printf("%d variant(s) lost the application's write\n", failures);
    std::printf("xfb-test-run: cases=%d asserts=%d\n", variants, variants); // tests/run-summary.mjs
    if (glErrors) return 2;
    return failures ? 1 : 0;
}

int main() { return xfbtest::probeMain(run); }
