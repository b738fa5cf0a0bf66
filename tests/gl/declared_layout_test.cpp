// Declared capture layouts on the GL runtimes (issue 26): the same declared layouts give the same
// bytes on every backend the context has (desktop transform feedback through gl_SkipComponents /
// gl_NextBuffer, ES 3.0 transform feedback through a staging capture and a packing pass, compute
// through stores at the declared offsets), the bytes of gaps and padding keep what the buffer held
// (a sentinel survives the step), state pairs step in a declared layout, and what a runtime cannot
// write is refused with XFB_UNSUPPORTED before anything is written.
#include "gl_fixture.hpp"

#include "../unit/declared_options.hpp"
#include "../unit/test_util.hpp"

#include <bit>
#include <cstdint>
#include <functional>
#include <map>

using namespace xfb;
using namespace xfbtest;

namespace {

constexpr std::uint32_t kSentinel = 0xDEADBEEFu;

std::string hex(std::uint32_t w) {
    char text[16];
    std::snprintf(text, sizeof text, "0x%08x", w);
    return text;
}
constexpr std::int64_t kCount = 97;

// Two inputs, outputs of several shapes; every value exact in float32 (sums and halves of binary
// fractions), so the reference below is the GPU's bit for bit on every driver.
constexpr const char* kShader = R"(#version 300 es
in vec4 a_pos;
in vec4 a_vel;
out vec4 out_position;
out vec4 out_velocity;
out vec3 out_normal;
out vec4 out_color;
flat out ivec2 out_id;
out vec4 out_r[2];
void main() {
    out_position = a_pos + a_vel;
    out_velocity = a_vel * 0.5;
    out_normal = a_pos.zyx - a_vel.xyz;
    out_color = vec4(a_pos.x, a_vel.y, 1.0, 2.0);
    out_id = ivec2(gl_VertexID, -gl_VertexID);
    out_r[0] = a_pos * 2.0;
    out_r[1] = a_vel + vec4(1.0);
}
)";

// The same shader stating a padded layout itself: vec4 at 0, vec3 at 20 (a gap of one word),
// stride 40 (two more words of padding).
constexpr const char* kQualifiedShader = R"(#version 300 es
layout(xfb_buffer = 0, xfb_stride = 40) out;
in vec4 a_pos;
in vec4 a_vel;
layout(xfb_offset = 0) out vec4 out_position;
layout(xfb_offset = 20) out vec3 out_normal;
void main() {
    out_position = a_pos + a_vel;
    out_normal = a_pos.zyx - a_vel.xyz;
}
)";

struct Inputs {
    std::vector<float> pos = pseudoRandom(kCount * 4, -4.0f, 4.0f, 7), vel = pseudoRandom(kCount * 4, -1.0f, 1.0f, 11);
    std::vector<float> interleaved() const {
        std::vector<float> v;
        for (std::int64_t e = 0; e < kCount; ++e) {
            v.insert(v.end(), pos.begin() + e * 4, pos.begin() + e * 4 + 4);
            v.insert(v.end(), vel.begin() + e * 4, vel.begin() + e * 4 + 4);
        }
        return v;
    }
    // The flattened components of varying `name` for element `e`, as 32-bit words.
    std::vector<std::uint32_t> varying(const std::string& name, std::int64_t e) const {
        const float* p = &pos[std::size_t(e * 4)];
        const float* v = &vel[std::size_t(e * 4)];
        std::vector<float> f;
        if (name == "out_position") f = {p[0] + v[0], p[1] + v[1], p[2] + v[2], p[3] + v[3]};
        if (name == "out_velocity") f = {v[0] * 0.5f, v[1] * 0.5f, v[2] * 0.5f, v[3] * 0.5f};
        if (name == "out_normal") f = {p[2] - v[0], p[1] - v[1], p[0] - v[2]};
        if (name == "out_color") f = {p[0], v[1], 1.0f, 2.0f};
        if (name == "out_r[0]") f = {p[0] * 2, p[1] * 2, p[2] * 2, p[3] * 2};
        if (name == "out_r[1]") f = {v[0] + 1, v[1] + 1, v[2] + 1, v[3] + 1};
        if (name == "out_r") { f = {p[0] * 2, p[1] * 2, p[2] * 2, p[3] * 2, v[0] + 1, v[1] + 1, v[2] + 1, v[3] + 1}; }
        std::vector<std::uint32_t> words;
        for (float x : f) words.push_back(std::bit_cast<std::uint32_t>(x));
        if (name == "out_id") words = {std::uint32_t(e), std::uint32_t(-e)};
        REQUIRE_MESSAGE(!words.empty(), "no reference for ", name);
        return words;
    }
};

// One case: the capture options, or the shader's own qualifiers. Those with gaps, padding or
// several multi-word buffers ES 3.0 transform feedback stages and packs (gl/layout_packer.hpp).
struct Case {
    const char* name;
    CaptureOptions options;
    bool qualified = false;
};

std::vector<Case> cases() {
    return {
        {"partial: POSITION.xyz of a vec4, then components 2-3 of another",
         declared({{{}, "POSITION", 0, 0, 3, 0}, field("out_color", 2, 2)})},
        {"an element of an array output, a part of the other, and an ivec2",
         declared({field("out_r[1]"), field("out_r[0]", 1, 2), field("out_id")})},
        {"one small field per buffer (what separate mode writes), by gl_NextBuffer",
         list({"out_id", "gl_NextBuffer", "out_position"})},
        {"a gap of one word and a stride of 40, by a declaration",
         declared({field("out_position"), DeclaredEntry::gap(1), field("out_normal")}, {40})},
        {"the same by the shader's qualifiers", {}, true},
        {"the same by gl_SkipComponents",
         list({"out_position", "gl_SkipComponents1", "out_normal", "gl_SkipComponents2"})},
        {"two interleaved buffers by gl_NextBuffer, the second padded",
         list({"out_position", "out_velocity", "gl_NextBuffer", "out_id", "gl_SkipComponents3", "out_normal",
               "gl_SkipComponents1"})},
        {"a whole array and a matrix-free tail, with a leading gap",
         declared({DeclaredEntry::gap(2), field("out_r"), field("out_velocity", 3, 1)})},
    };
}

// Runs one step of `c` on `backend` into sentinel-filled buffers and checks every word: fields equal
// the reference, gaps and padding still hold the sentinel.
void runCase(Device& dev, const Case& c, Backend backend) {
    INFO("case: ", c.name, ", backend ", backendName(backend));
    Program program(dev, {c.qualified ? kQualifiedShader : kShader, c.options, {}, c.name});
    const CapturePlan& plan = program.capture();
    CHECK(plan.declared);
    Inputs in;
    const std::vector<float> input = in.interleaved();
    Buffer source(
        dev, VertexFormat::interleaved({{attr(0), ComponentType::Float32, 4}, {attr(1), ComponentType::Float32, 4}}),
        kCount, view(input));
    std::vector<std::unique_ptr<Buffer>> outputs;
    std::vector<Entry> entries{{&source, nullptr}};
    for (const auto& b : plan.buffers) {
        std::vector<std::uint32_t> fill(std::size_t(kCount * b.stride / 4), kSentinel);
        outputs.push_back(std::make_unique<Buffer>(dev, b.asVertexFormat(), kCount, view(fill)));
        entries.push_back({nullptr, outputs.back().get()});
    }
    Pipeline pipeline(dev, program, entries, {.backend = backend});
    pipeline.step();
    for (std::size_t b = 0; b < plan.buffers.size(); ++b) {
        const OutputLayout& layout = plan.buffers[b];
        const std::vector<std::uint32_t> words = outputs[b]->readAs<std::uint32_t>();
        std::vector<std::uint32_t> expected(words.size(), kSentinel);
        for (std::int64_t e = 0; e < kCount; ++e)
            for (const BufferField& f : layout.fields) {
                const auto all = in.varying(f.varying, e);
                for (int k = 0; k < f.components; ++k)
                    expected[std::size_t(e * layout.stride / 4 + f.offset / 4 + k)] =
                        all[std::size_t(f.firstComponent + k)];
            }
        for (std::size_t w = 0; w < words.size(); ++w)
            if (words[w] != expected[w])
                FAIL("buffer ", b, " word ", w, " (element ", w / std::size_t(layout.stride / 4), ", byte ",
                     4 * (w % std::size_t(layout.stride / 4)), "): ", hex(words[w]), " instead of ", hex(expected[w]));
    }
}

} // namespace

TEST_CASE_FIXTURE(GlTest, "declared layouts: the declared bytes on every backend, gaps and padding never written") {
    for (const Case& c : cases())
        for (Backend backend : backendsOf(dev)) runCase(dev, c, backend);
}

TEST_CASE_FIXTURE(GlTest, "declared layouts: a state pair steps in a padded layout, fused substeps too") {
    // Position at 0, a gap, normal at 20, stride 40: the state buffers are drawn and read back in it.
    const char* src = R"(#version 300 es
layout(xfb_buffer = 0, xfb_stride = 40) out;
in vec4 a_pos;
in vec3 a_nrm;
layout(xfb_offset = 0) out vec4 out_pos;
layout(xfb_offset = 20) out vec3 out_nrm;
void main() {
    out_pos = a_pos + vec4(a_nrm, 0.0) * 0.5;
    out_nrm = a_nrm * 0.5;
}
)";
    for (Backend backend : backendsOf(dev)) {
        INFO("backend ", backendName(backend));
        Program program(dev, {src, {}, {}, "padded state"});
        const OutputLayout& layout = program.capture().buffers[0];
        REQUIRE(layout.stride == 40);
        Inputs in;
        std::vector<std::uint32_t> words(std::size_t(kCount * 10), kSentinel);
        for (std::int64_t e = 0; e < kCount; ++e)
            for (int k = 0; k < 4; ++k) {
                words[std::size_t(e * 10 + k)] = std::bit_cast<std::uint32_t>(in.pos[std::size_t(e * 4 + k)]);
                if (k < 3)
                    words[std::size_t(e * 10 + 5 + k)] = std::bit_cast<std::uint32_t>(in.vel[std::size_t(e * 4 + k)]);
            }
        Buffer a(dev, layout.asVertexFormat(), kCount, view(words)),
            b(dev, layout.asVertexFormat(), kCount, view(words));
        Pipeline pipeline(dev, program, {{&a, &b}}, {.backend = backend});
        pipeline.step();
        pipeline.step(3); // fused where the context can: the gap is never read
        for (std::int64_t e = 0; e < kCount; ++e)
            for (int s = 0; s < 4; ++s)
                for (int k = 0; k < 3; ++k) {
                    float p = std::bit_cast<float>(words[std::size_t(e * 10 + k)]);
                    float n = std::bit_cast<float>(words[std::size_t(e * 10 + 5 + k)]);
                    words[std::size_t(e * 10 + k)] = std::bit_cast<std::uint32_t>(p + n * 0.5f);
                    words[std::size_t(e * 10 + 5 + k)] = std::bit_cast<std::uint32_t>(n * 0.5f);
                }
        requireEqual(a.readAs<std::uint32_t>(), words, "the state after 4 steps, gap words included");
    }
}

TEST_CASE_FIXTURE(GlTest, "declared layouts: what a runtime cannot write is refused before anything is written") {
    // 68 components of fields in all (17 vec4s, 9 in one buffer and 8 in the other): more than the
    // staging record of an ES driver at the minimum (64) holds.
    std::string wide = "#version 300 es\n", body;
    std::vector<DeclaredEntry> fields;
    for (int i = 0; i < 17; ++i) {
        const std::string name = "out_m" + std::to_string(i);
        wide += "out vec4 " + name + ";\n";
        body += "    " + name + " = vec4(" + std::to_string(i) + ".0);\n";
        fields.push_back(field(name, 0, 0, i < 9 ? 0 : 1));
    }
    wide += "void main() {\n" + body + "}\n";
    Program program(dev, {wide, declared(fields), {}, "wide"});
    Buffer out0(dev, program.capture().buffers[0].asVertexFormat(), kCount),
        out1(dev, program.capture().buffers[1].asVertexFormat(), kCount);
    const std::vector<Entry> entries{{nullptr, &out0}, {nullptr, &out1}};
    // Desktop GL writes it with layout words; an ES driver whose staging record holds 68
    // components (NVIDIA's holds 128) stages it.
    if (dev.capabilities().feedbackLayoutWords || dev.limits().maxInterleavedComponents >= 68) {
        Pipeline p(dev, program, entries, {.count = kCount});
        p.step();
        CHECK(out1.readAs<float>()[0] == 9.0f); // buffer 1 starts with out_m9
        return;
    }
    std::string msg =
        XFB_REQUIRE_ERROR(Pipeline(dev, program, entries, {.count = kCount, .backend = Backend::TransformFeedback}),
                          ErrorCode::Unsupported);
    CHECK(contains(msg, "take 68 components"));
    CHECK(contains(msg, "compute backend"));
    // Auto runs it on the backends here that can (compute, the fragment backend), and says why.
    Pipeline p(dev, program, entries, {.count = kCount, .backend = Backend::Auto});
    CHECK(p.backend().backend != Backend::TransformFeedback);
    CHECK(contains(p.backend().reason, "transform feedback cannot write this layout here"));
    if (!dev.capabilities().compute) CHECK(contains(p.backend().reason, "compute is not available"));
    p.step();
    CHECK(out1.readAs<float>()[0] == 9.0f);
    CHECK(out0.readAs<float>()[71] == 8.0f); // element 1's out_m8.w
}

TEST_CASE_FIXTURE(GlTest, "declared layouts: the driver's own list agrees with the plan after the link") {
    // What glGetTransformFeedbackVarying reports, read back: the layout words in place.
    if (!dev.capabilities().feedbackLayoutWords) return; // ES: no layout words to report
    Program program(dev, {kQualifiedShader, {}, {}, "qualified"});
    GLint count = 0;
    glGetProgramiv(GLuint(program.glName()), GL_TRANSFORM_FEEDBACK_VARYINGS, &count);
    std::vector<std::string> names;
    for (GLint k = 0; k < count; ++k) {
        char name[64] = {};
        GLsizei size = 0;
        GLenum type = 0;
        glGetTransformFeedbackVarying(GLuint(program.glName()), GLuint(k), sizeof name, nullptr, &size, &type, name);
        names.push_back(name);
    }
    CHECK(names == std::vector<std::string>{"out_position", "gl_SkipComponents1", "out_normal", "gl_SkipComponents2"});
}

TEST_CASE_FIXTURE(GlTest, "declared layouts: primitive capture and append sessions write the declared records") {
    // Desktop GL: the driver's expansion with gl_SkipComponents; ES: the engine's record gather
    // into staging records, then the packing passes at the records' positions.
    Program padded(dev, {kShader, cases()[3].options, {}, "padded"}); // vec4 @0, gap, vec3 @20, stride 40
    Inputs in;
    const std::vector<float> input = in.interleaved();
    Buffer source(
        dev, VertexFormat::interleaved({{attr(0), ComponentType::Float32, 4}, {attr(1), ComponentType::Float32, 4}}),
        kCount, view(input));
    const std::vector<std::uint32_t> fill(12 * 10, kSentinel);
    Buffer out(dev, padded.capture().buffers[0].asVertexFormat(), 12, view(fill));
    PrimitiveCapture cap(dev, padded, {{&source, nullptr}, {nullptr, &out}});
    // Record r of the layout from vertex `vertex`: position, a kept gap word, normal, two kept words.
    auto expect = [&](std::vector<std::uint32_t>& words, std::size_t r, std::int64_t vertex) {
        const auto p = in.varying("out_position", vertex), n = in.varying("out_normal", vertex);
        std::copy(p.begin(), p.end(), words.begin() + long(r * 10));
        std::copy(n.begin(), n.end(), words.begin() + long(r * 10 + 5));
    };
    cap.capture({DrawMode::TriangleStrip, 4}); // 6 records: (0 1 2) (2 1 3)
    std::vector<std::uint32_t> expected = fill;
    const std::int64_t strip[] = {0, 1, 2, 2, 1, 3};
    for (std::size_t r = 0; r < 6; ++r) expect(expected, r, strip[r]);
    requireEqual(out.readAs<std::uint32_t>(), expected, "a strip captured in the declared layout");

    out.upload(view(fill));
    const std::vector<std::uint32_t> lineIndices{0, 3, 1, 2};
    const std::vector<CapturePart> parts{{{DrawMode::TriangleStrip, 4}}, {{DrawMode::Lines, 0, lineIndices}}};
    const SessionPlan& s = cap.captureSession(parts);
    CHECK(s.endRecord == 10);
    CHECK(s.parts[1].firstByte[0] == 6 * 40);
    expected = fill;
    const std::int64_t session[] = {0, 1, 2, 2, 1, 3, 0, 3, 1, 2};
    for (std::size_t r = 0; r < 10; ++r) expect(expected, r, session[r]);
    requireEqual(out.readAs<std::uint32_t>(), expected, "an append session in the declared layout");
    if (dev.capabilities().es) return;
    // Desktop GL writes gaps with layout words; the engine's expansion there gathers whole records.
    const std::string msg = XFB_REQUIRE_ERROR(
        PrimitiveCapture(dev, padded, {{&source, nullptr}, {nullptr, &out}}, {std::nullopt, Expansion::Engine}),
        ErrorCode::Unsupported);
    CHECK(contains(msg, "Use Expansion::Driver"));
}

TEST_CASE_FIXTURE(GlTest, "declared layouts: a driver that disagrees with the plan is an error, never silent") {
    // GLSL ES compilers predefine GL_FRAGMENT_PRECISION_HIGH, the declaration reader does not: the
    // reader plans a vec3 at offset 20 where the GL compiles a vec2, and the check after the link says so.
    const char* src = R"(#version 300 es
in vec4 a_pos;
layout(xfb_offset = 0) out vec4 out_p;
#ifdef GL_FRAGMENT_PRECISION_HIGH
layout(xfb_offset = 20) out vec2 out_n;
#define N_VALUE vec2(1.0)
#else
layout(xfb_offset = 20) out vec3 out_n;
#define N_VALUE vec3(1.0)
#endif
void main() { out_p = a_pos; out_n = N_VALUE; }
)";
    REQUIRE(readShaderInterface(src).findOutput("out_n")->type.name == "vec3");
    const std::string msg =
        XFB_REQUIRE_ERROR(Program(dev, {src, {}, {}, "disagreeing"}), ErrorCode::VaryingOptimizedAway);
    CHECK(contains(msg, "'out_n' (3 components)"));
    CHECK(contains(msg, "it reports 'out_n', size 1, 2 components"));
}
