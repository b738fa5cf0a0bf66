// Variable-count output (compute backend): each element emits 0..maxRecords records, a prefix
// sum gives each element its range, records land in input order. Compared byte for byte with a
// C++ reference, identical across runs and work-group sizes, overflow refused or clamped,
// drawn from the GPU's total.
#include "gl_fixture.hpp"
#include "offscreen.hpp"
#include "gl/readback.hpp"
#include "gl/shader.hpp"

#include "../unit/test_util.hpp"

using namespace xfb;
using namespace xfbtest;

namespace {

// A particle keeps half its energy and throws off sparks: energy / threshold - 1 of them,
// clamped by the engine to 0..3. Sparks and their colours share one budget (emit_count).
constexpr const char* kSplitShader = R"(#version 300 es
in vec4 a_particle;
uniform float u_threshold;
out vec4 out_particle;
out vec4 emit_spark[3];
out vec2 emit_color[3];
flat out int emit_count;
void main() {
    float e = a_particle.w;
    out_particle = vec4(a_particle.xyz, e * 0.5);
    emit_count = int(e / u_threshold) - 1;
    for (int k = 0; k < 3; ++k) {
        emit_spark[k] = vec4(a_particle.xyz + float(k), float(gl_VertexID));
        emit_color[k] = vec2(float(k), e);
    }
    gl_Position = vec4(0.0);
}
)";

struct Split {
    std::int64_t n;
    std::vector<float> particles;
    Program program;
    Buffer state, scratch;
    Split(Device& dev, std::int64_t n)
        : n(n),
          particles(pseudoRandom(std::size_t(n) * 4, -8.0f, 8.0f, 11u)),
          program(dev, {kSplitShader, {}, {}, "split"}),
          state(dev, vec4Format(0), n, view(withEnergies())),
          scratch(dev, vec4Format(0), n) {
        program.setUniform("u_threshold", 0.5f);
    }
    std::vector<float>& withEnergies() {
        for (std::int64_t i = 0; i < n; ++i)
            particles[std::size_t(i) * 4 + 3] = 0.5f * float((i * 7) % 11); // 0 .. 5: counts -1 .. 9
        return particles;
    }
    // The reference: the next state, and the sparks and colours in input order.
    struct Result {
        std::vector<float> state, sparks, colors;
    };
    Result reference() const {
        Result r;
        for (std::int64_t i = 0; i < n; ++i) {
            const float* p = &particles[std::size_t(i) * 4];
            r.state.insert(r.state.end(), {p[0], p[1], p[2], p[3] * 0.5f});
            int count = std::clamp(int(p[3] / 0.5f) - 1, 0, 3);
            for (int k = 0; k < count; ++k) {
                r.sparks.insert(r.sparks.end(), {p[0] + float(k), p[1] + float(k), p[2] + float(k), float(i)});
                r.colors.insert(r.colors.end(), {float(k), p[3]});
            }
        }
        return r;
    }
};

VertexFormat vec2Format() { return VertexFormat::interleaved({{attr(0), ComponentType::Float32, 2}}); }

PipelineOptions emitting(int groupSize = 0, EmitOverflow overflow = EmitOverflow::Error) {
    PipelineOptions o;
    o.backend = Backend::Compute;
    o.workGroupSize = groupSize;
    o.emits = {{"emit_spark", "emit_count"}, {"emit_color", "emit_count"}};
    o.overflow = overflow;
    return o;
}

template<class T>
std::vector<T> prefix(std::vector<T> v, std::size_t n) {
    v.resize(n);
    return v;
}

// Without compute (the ES 3.0 run) an emitting test checks the refusal instead: the Pipeline is
// refused with Unsupported naming the compute backend, and the state is untouched. Returns true then.
bool refusedWithoutCompute(Device& dev) {
    if (dev.capabilities().compute) return false;
    Split split(dev, 8);
    Buffer sparks(dev, vec4Format(0), 24), colors(dev, vec2Format(), 24);
    std::string msg = XFB_REQUIRE_ERROR(
        Pipeline(dev, split.program, {{&split.state, &split.scratch}, {nullptr, &sparks}, {nullptr, &colors}},
                 emitting()),
        ErrorCode::Unsupported);
    CHECK(contains(msg, "the compute backend needs OpenGL 4.3+ or OpenGL ES 3.1+"));
    requireEqual(split.state.readAs<float>(), split.particles, "state after the refusal");
    return true;
}

} // namespace

TEST_CASE_FIXTURE(GlTest,
                  "emitted records land in input order, byte for byte as the reference, with the totals on the GPU") {
    if (refusedWithoutCompute(dev)) return;
    // 70000 elements: a three-level prefix sum with 32-wide groups (256 counts per group), two with 256.
    for (int groupSize : {32, 256}) {
        CAPTURE(groupSize);
        Split split(dev, 70000);
        auto ref = split.reference();
        const std::size_t records = ref.sparks.size() / 4;
        Buffer sparks(dev, vec4Format(0), 3 * split.n), colors(dev, vec2Format(), 3 * split.n);
        Pipeline pipeline(dev, split.program, {{&split.state, &split.scratch}, {nullptr, &sparks}, {nullptr, &colors}},
                          emitting(groupSize));
        CHECK(pipeline.backend().backend == Backend::Compute);
        pipeline.stepChecked();
        requireEqual(split.state.readAs<float>(), ref.state, "state");
        requireEqual(prefix(sparks.readAs<float>(), ref.sparks.size()), ref.sparks, "sparks");
        requireEqual(prefix(colors.readAs<float>(), ref.colors.size()), ref.colors, "colors");
        auto reports = pipeline.emitted();
        REQUIRE(reports.size() == 1);
        CHECK(reports[0].budget == "emit_count");
        CHECK(reports[0].requested == std::int64_t(records));
        CHECK(reports[0].written == std::int64_t(records));
        CHECK(reports[0].capacity == 3 * split.n);
        // The indirect commands: draw {records, 1, 0, 0}, dispatch {groups, 1, 1}, requested.
        auto raw = xfb::gl::readBytes(pipeline.emitTotalsBuffer(), 0, 32);
        std::vector<std::uint32_t> words(8);
        std::memcpy(words.data(), raw.data(), 32);
        auto groups = std::uint32_t((records + std::size_t(groupSize) - 1) / std::size_t(groupSize));
        CHECK(words ==
              std::vector<std::uint32_t>{std::uint32_t(records), 1, 0, 0, groups, 1, 1, std::uint32_t(records)});
    }
}

TEST_CASE_FIXTURE(GlTest, "the emitted output is identical across repeated runs and work-group sizes") {
    if (refusedWithoutCompute(dev)) return;
    std::vector<std::byte> first;
    for (int run = 0; run < 4; ++run) {
        Split split(dev, 3000);
        Buffer sparks(dev, vec4Format(0), 3 * split.n), colors(dev, vec2Format(), 3 * split.n);
        Pipeline pipeline(dev, split.program, {{&split.state, &split.scratch}, {nullptr, &sparks}, {nullptr, &colors}},
                          emitting(run % 2 ? 64 : 128));
        pipeline.step();
        const std::int64_t written = pipeline.emitted()[0].written;
        REQUIRE(written > 0); // 3000 elements with energies 0..5 emit thousands of sparks
        auto bytes = sparks.read();
        bytes.resize(std::size_t(written) * 16);
        if (run == 0)
            first = bytes;
        else
            CHECK_MESSAGE(bytes == first, "run ", run, " differs from run 0");
    }
}

TEST_CASE_FIXTURE(
    GlTest, "exceeding the capacity: an error with the numbers and no swap, or a clamp that keeps the first records") {
    if (refusedWithoutCompute(dev)) return;
    Split split(dev, 200);
    auto ref = split.reference();
    const auto records = std::int64_t(ref.sparks.size() / 4);
    Buffer sparks(dev, vec4Format(0), 100), colors(dev, vec2Format(), 150); // the budget holds 100
    REQUIRE(records > 100);
    {
        Pipeline pipeline(dev, split.program, {{&split.state, &split.scratch}, {nullptr, &sparks}, {nullptr, &colors}},
                          emitting());
        const unsigned before = split.state.glName();
        std::string msg = XFB_REQUIRE_ERROR(pipeline.stepChecked(), ErrorCode::Capacity);
        CHECK(contains(msg, "emitted " + std::to_string(records) + " records for budget 'emit_count'"));
        CHECK(contains(msg, "hold 100"));
        CHECK(split.state.glName() == before);
        requireEqual(split.state.readAs<float>(), split.particles, "state kept");
        auto r = pipeline.emitted()[0];
        CHECK(r.overflowed());
        CHECK(r.written == 100);
    }
    Pipeline clamped(dev, split.program, {{&split.state, &split.scratch}, {nullptr, &sparks}, {nullptr, &colors}},
                     emitting(0, EmitOverflow::Clamp));
    CHECK(clamped.stepChecked().written == split.n);
    auto r = clamped.emitted()[0];
    CHECK(r.requested == records);
    CHECK(r.written == 100);
    requireEqual(sparks.readAs<float>(), prefix(ref.sparks, 400), "the first 100 sparks");
    requireEqual(prefix(colors.readAs<float>(), 200), prefix(ref.colors, 200), "the first 100 colours");
}

TEST_CASE_FIXTURE(GlTest, "two budgets: drawEmitted draws the GPU's total without reading it") {
    if (refusedWithoutCompute(dev)) return;
    const char* src = R"(#version 300 es
in vec4 a_particle;
out vec4 out_particle;
out vec4 emit_spark[2];
flat out int emit_sparks;
out float emit_smoke[4];
flat out uint emit_puffs;
void main() {
    out_particle = a_particle;
    emit_sparks = gl_VertexID % 3;          // 0, 1, 2 (2 is the maximum)
    emit_puffs = uint(gl_VertexID % 5);     // 0..4
    for (int k = 0; k < 2; ++k) emit_spark[k] = vec4(float(gl_VertexID), float(k), 0.0, 1.0);
    for (int k = 0; k < 4; ++k) emit_smoke[k] = float(gl_VertexID * 10 + k);
    gl_Position = vec4(0.0);
}
)";
    Program program(dev, {src, {}, {}, "two budgets"});
    const int n = 20;
    std::vector<float> init(n * 4, 1.0f);
    Buffer state(dev, vec4Format(0), n, view(init)), scratch(dev, vec4Format(0), n);
    Buffer sparks(dev, vec4Format(0), 2 * n),
        smoke(dev, VertexFormat::interleaved({{attr(0), ComponentType::Float32, 1}}), 4 * n);
    PipelineOptions o;
    o.backend = Backend::Compute;
    o.emits = {{"emit_spark", "emit_sparks"}, {"emit_smoke", "emit_puffs"}};
    Pipeline pipeline(dev, program, {{&state, &scratch}, {nullptr, &sparks}, {nullptr, &smoke}}, o);
    pipeline.step();
    std::vector<float> wantSparks, wantSmoke;
    for (int i = 0; i < n; ++i) {
        for (int k = 0; k < i % 3; ++k) wantSparks.insert(wantSparks.end(), {float(i), float(k), 0.0f, 1.0f});
        for (int k = 0; k < i % 5; ++k) wantSmoke.push_back(float(i * 10 + k));
    }
    auto reports = pipeline.emitted();
    REQUIRE(reports.size() == 2);
    CHECK(reports[0].written == std::int64_t(wantSparks.size() / 4));
    CHECK(reports[1].written == std::int64_t(wantSmoke.size()));
    requireEqual(prefix(sparks.readAs<float>(), wantSparks.size()), wantSparks, "sparks");
    requireEqual(prefix(smoke.readAs<float>(), wantSmoke.size()), wantSmoke, "smoke");

    // Draw the smoke records as points, one pixel each along a row: lit pixels = the GPU's count.
    Offscreen row(64, 1);
    row.clear();
    GLuint draw =
        linkDrawProgram("#version 300 es\nvoid main() { gl_Position = vec4(-1.0 + (2.0 * float(gl_VertexID) + 1.0) / "
                        "64.0, 0.0, 0.0, 1.0); gl_PointSize = 1.0; }\n",
                        "#version 300 es\nprecision mediump float;\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n");
    GLuint vao = 0;
    glUseProgram(draw);
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    pipeline.drawEmitted("emit_puffs", DrawMode::Points);
    auto lit = row.lit();
    CHECK(std::count(lit.begin(), lit.end(), true) == std::ptrdiff_t(wantSmoke.size()));
    row.clear();
    CHECK(
        contains(XFB_REQUIRE_ERROR(pipeline.drawEmitted("emit_nothing", DrawMode::Points), ErrorCode::InvalidArgument),
                 "emit_sparks, emit_puffs"));
    lit = row.lit();
    CHECK_MESSAGE(std::count(lit.begin(), lit.end(), true) == 0, "a refused drawEmitted drew nothing");
    glBindVertexArray(0);
    glUseProgram(0);
    glDeleteVertexArrays(1, &vao);
    glDeleteProgram(draw);
}

TEST_CASE_FIXTURE(GlTest, "emitted outputs: every declaration error is named") {
    Split split(dev, 8);
    Buffer sparks(dev, vec4Format(0), 24), colors(dev, vec2Format(), 24);
    std::vector<Entry> entries = {{&split.state, &split.scratch}, {nullptr, &sparks}, {nullptr, &colors}};
    auto with = [&](std::vector<EmitDesc> emits, Backend backend = Backend::Compute) {
        PipelineOptions o;
        o.backend = backend;
        o.emits = std::move(emits);
        return o;
    };
    auto msg = XFB_REQUIRE_ERROR(
        Pipeline(dev, split.program, entries,
                 with({{"emit_spark", "emit_count"}, {"emit_color", "emit_count"}}, Backend::TransformFeedback)),
        ErrorCode::Unsupported);
    CHECK(contains(msg, "need the compute or the fragment backend"));
    CHECK(contains(XFB_REQUIRE_ERROR(Pipeline(dev, split.program, entries,
                                              with({{"emit_sparkle", "emit_count"}, {"emit_color", "emit_count"}})),
                                     ErrorCode::UnknownVarying),
                   "'emit_sparkle'"));
    CHECK(contains(XFB_REQUIRE_ERROR(Pipeline(dev, split.program, entries,
                                              with({{"emit_count", "emit_count"}, {"emit_color", "emit_count"}})),
                                     ErrorCode::VaryingType),
                   "must be an array"));
    CHECK(contains(XFB_REQUIRE_ERROR(Pipeline(dev, split.program, entries,
                                              with({{"emit_spark", "emit_color"}, {"emit_color", "emit_count"}})),
                                     ErrorCode::VaryingType),
                   "single int or uint"));
    CHECK(contains(XFB_REQUIRE_ERROR(Pipeline(dev, split.program, entries,
                                              with({{"emit_color", "emit_count"}, {"emit_spark", "emit_count"}})),
                                     ErrorCode::OutputLayoutMismatch),
                   "emitting emit_color"));
    CHECK(contains(XFB_REQUIRE_ERROR(Pipeline(dev, split.program, entries, with({{"emit_spark", "emit_count"}})),
                                     ErrorCode::OutputCountMismatch),
                   "interleaved"));
    CHECK(contains(XFB_REQUIRE_ERROR(Pipeline(dev, split.program, entries,
                                              with({{"out_particle", "emit_count"}, {"emit_color", "emit_count"}})),
                                     ErrorCode::VaryingType),
                   "must be an array"));
    requireEqual(split.state.readAs<float>(), split.particles, "state after the refused pipelines");
    Pipeline plain(dev, split.program, {{&split.state, &split.scratch}});
    CHECK(contains(XFB_REQUIRE_ERROR(plain.emitted(), ErrorCode::InvalidArgument), "no emitted outputs"));
}

TEST_CASE_FIXTURE(GlTest, "emitted records are processed by an indirect dispatch: the count never visits the CPU") {
    if (refusedWithoutCompute(dev)) return;
    Split split(dev, 1000);
    auto ref = split.reference();
    const std::size_t records = ref.sparks.size() / 4;
    Buffer sparks(dev, vec4Format(0), 3 * split.n), colors(dev, vec2Format(), 3 * split.n),
        doubled(dev, vec4Format(0), 3 * split.n);
    Pipeline pipeline(dev, split.program, {{&split.state, &split.scratch}, {nullptr, &sparks}, {nullptr, &colors}},
                      emitting(64));
    pipeline.step();
    // A user kernel of the same work-group size as the pipeline: the dispatch command at byte 16
    // has ceil(written / 64) groups, word 0 the exact count.
    const char* src = R"(#version 310 es
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer Totals { uint totals[]; };
layout(std430, binding = 1) readonly buffer Sparks { vec4 sparks[]; };
layout(std430, binding = 2) writeonly buffer Doubled { vec4 doubled[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < totals[0]) doubled[i] = sparks[i] * 2.0;
}
)";
    auto program = xfb::gl::linkComputeProgram(src, "test kernel"); // deleted at the end of the case
    std::vector<float> zeros(std::size_t(3 * split.n) * 4, -1.0f);
    doubled.upload(view(zeros));
    glUseProgram(program);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, pipeline.emitTotalsBuffer());
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, sparks.glName());
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 2, doubled.glName());
    glBindBuffer(GL_DISPATCH_INDIRECT_BUFFER, pipeline.emitTotalsBuffer());
    glDispatchComputeIndirect(16);
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    glBindBuffer(GL_DISPATCH_INDIRECT_BUFFER, 0);
    glUseProgram(0);
    std::vector<float> want = zeros;
    for (std::size_t i = 0; i < records * 4; ++i) want[i] = ref.sparks[i] * 2.0f;
    requireEqual(doubled.readAs<float>(), want, "doubled sparks, the rest untouched");
}

TEST_CASE_FIXTURE(GlTest, "more work groups than GL_MAX_COMPUTE_WORK_GROUP_COUNT in x run as rows of groups") {
    if (refusedWithoutCompute(dev)) return;
    // One element a group: maxX + 1001 elements take two rows (llvmpipe and ES 3.1's minimum: 65535).
    // The count pass, every level of the prefix sum and the write pass index their groups row by row.
    const int maxX = dev.capabilities().maxComputeGroupCountX;
    REQUIRE(maxX >= 65535);
    if (maxX > (1 << 20)) {
        MESSAGE("GL_MAX_COMPUTE_WORK_GROUP_COUNT x is ", maxX,
                ": a second row would need more elements than this "
                "test runs; the grid is exercised where the driver's limit is near the minimum (llvmpipe)");
        return;
    }
    Split split(dev, std::int64_t(maxX) + 1001);
    auto ref = split.reference();
    Buffer sparks(dev, vec4Format(0), 3 * split.n), colors(dev, vec2Format(), 3 * split.n);
    Pipeline pipeline(dev, split.program, {{&split.state, &split.scratch}, {nullptr, &sparks}, {nullptr, &colors}},
                      emitting(1));
    pipeline.step();
    requireEqual(split.state.readAs<float>(), ref.state, "state over two rows of groups");
    requireEqual(prefix(sparks.readAs<float>(), ref.sparks.size()), ref.sparks, "sparks over two rows of groups");
    requireEqual(prefix(colors.readAs<float>(), ref.colors.size()), ref.colors, "colors over two rows of groups");
    CHECK(pipeline.emitted()[0].written == std::int64_t(ref.sparks.size() / 4));
}

TEST_CASE_FIXTURE(GlTest, "the fragment backend emits the same bytes and totals as compute, on ES 3.0 too") {
    // 70000 elements: level 0 of the pyramid spans 18 rows of 4096, and 9 levels above it.
    Split split(dev, 70000);
    const auto ref = split.reference();
    const auto records = std::int64_t(ref.sparks.size() / 4);
    std::vector<std::byte> bytes[2];
    std::vector<EmitReport> reports[2];
    const bool compute = dev.capabilities().compute;
    for (int run = 0; run < (compute ? 2 : 1); ++run) {
        Split fresh(dev, split.n);
        // Filled past the records: what a step leaves there is compared too.
        const std::vector<float> fill(std::size_t(3 * split.n) * 4, -7.0f);
        Buffer sparks(dev, vec4Format(0), 3 * split.n, view(fill)), colors(dev, vec2Format(), 3 * split.n);
        PipelineOptions o = emitting();
        o.backend = run == 0 ? Backend::Fragment : Backend::Compute;
        Pipeline pipeline(dev, fresh.program, {{&fresh.state, &fresh.scratch}, {nullptr, &sparks}, {nullptr, &colors}},
                          o);
        CHECK(pipeline.stepChecked().written == split.n);
        bytes[run] = sparks.read();
        const auto c = colors.read(), s = fresh.state.read();
        bytes[run].insert(bytes[run].end(), c.begin(), c.end());
        bytes[run].insert(bytes[run].end(), s.begin(), s.end());
        reports[run] = pipeline.emitted();
        if (run == 0) {
            requireEqual(fresh.state.readAs<float>(), ref.state, "state");
            requireEqual(prefix(sparks.readAs<float>(), ref.sparks.size()), ref.sparks, "sparks");
            requireEqual(prefix(colors.readAs<float>(), ref.colors.size()), ref.colors, "colors");
            CHECK(sparks.readAs<float>().back() == -7.0f); // past the records: untouched
        }
    }
    REQUIRE(reports[0].size() == 1);
    CHECK(reports[0][0].requested == records);
    CHECK(reports[0][0].written == records);
    CHECK(reports[0][0].capacity == 3 * split.n);
    if (!compute) return;
    CHECK(bytes[0] == bytes[1]);
    CHECK(reports[1][0].requested == reports[0][0].requested);
    CHECK(reports[1][0].written == reports[0][0].written);
}
