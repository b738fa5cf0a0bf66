// Backend::Auto for programs with emitted outputs (issue 41): where the context has compute and
// the fragment backend, the first step times both and keeps the faster, saying why and with what
// figures; transform feedback, which cannot write them, is named as such. A program holding
// emittedDrawSnippet() draws the records with drawEmitted() whichever backend stepped.
#include "gl_fixture.hpp"

#include "offscreen.hpp"

#include "../unit/test_util.hpp"

#include <algorithm>

using namespace xfb;
using namespace xfbtest;

namespace {

// Element i emits min(a_count[i], 4) records (i, k, 7 k + 1, i + k); its state keeps its count.
constexpr const char* kShader = R"(#version 300 es
in uint a_count;
flat out uint out_count;
flat out uvec4 emit_rec[4];
flat out uint emit_n;
void main() {
    out_count = a_count;
    emit_n = a_count;
    for (int k = 0; k < 4; ++k) emit_rec[k] = uvec4(uint(gl_VertexID), uint(k), uint(7 * k + 1), uint(gl_VertexID + k));
    gl_Position = vec4(0.0);
}
)";

constexpr std::uint32_t kUntouched = 0xDEADBEEFu;

VertexFormat uintFormat(int components) {
    return VertexFormat::interleaved({{attr(0), ComponentType::UInt32, components}});
}

std::vector<std::uint32_t> countsOf(std::size_t n) {
    std::vector<std::uint32_t> c(n);
    for (std::size_t i = 0; i < n; ++i) c[i] = std::uint32_t((i * 7 + 3) % 6); // 0..5: 5 clamps to 4
    return c;
}

// The records in input order, then the untouched words up to `capacity` records; `total` requested.
std::vector<std::uint32_t> reference(const std::vector<std::uint32_t>& counts, std::int64_t capacity,
                                     std::int64_t& total) {
    std::vector<std::uint32_t> r;
    total = 0;
    for (std::uint32_t i = 0; i < counts.size(); ++i)
        for (std::uint32_t k = 0; k < std::min(counts[i], 4u); ++k, ++total)
            if (total < capacity) r.insert(r.end(), {i, k, 7 * k + 1, i + k});
    r.resize(std::size_t(capacity) * 4, kUntouched);
    return r;
}

struct Emitting {
    std::vector<std::uint32_t> counts;
    Program program;
    Buffer state, scratch, records;
    Emitting(Device& dev, std::size_t n, std::int64_t capacity)
        : counts(countsOf(n)),
          program(dev, {kShader, {}, {}, "emitting"}),
          state(dev, uintFormat(1), std::int64_t(n), view(counts)),
          scratch(dev, uintFormat(1), std::int64_t(n)),
          records(dev, uintFormat(4), capacity,
                  view(std::vector<std::uint32_t>(std::size_t(capacity) * 4, kUntouched))) {}
    Pipeline pipeline(Device& dev, Backend backend) {
        PipelineOptions o;
        o.backend = backend;
        o.emits = {{"emit_rec", "emit_n"}};
        o.overflow = EmitOverflow::Clamp;
        return Pipeline(dev, program, {{&state, &scratch}, {nullptr, &records}}, o);
    }
};

} // namespace

TEST_CASE_FIXTURE(GlTest, "auto times compute and the fragment backend for an emitting program and keeps the faster") {
    // Counts no other case steps: Auto's decisions live as long as the device.
    const std::size_t n = 1733;
    const std::int64_t capacity = 4 * std::int64_t(n);
    Emitting e(dev, n, capacity);
    Pipeline pipeline = e.pipeline(dev, Backend::Auto);
    std::int64_t total = 0;
    const auto want = reference(e.counts, capacity, total);
    if (!dev.capabilities().compute) {
        // ES 3.0 (WebGL2's rules): the fragment backend is the only one that writes emitted outputs.
        CHECK(pipeline.backend().backend == Backend::Fragment);
        CHECK(contains(pipeline.backend().reason, "auto: fragment, the only backend here"));
        CHECK(contains(pipeline.backend().reason, "pyramid of counts"));
        CHECK(contains(pipeline.backend().reason, "transform feedback cannot write emitted outputs"));
        CHECK(contains(pipeline.backend().reason, "compute is not available"));
        pipeline.step();
        requireEqual(e.records.readAs<std::uint32_t>(), want, "records");
        return;
    }
    // Nothing is timed (or written) before the first step: the trial passes write the outputs.
    CHECK(pipeline.backend().backend == Backend::Auto);
    CHECK(contains(pipeline.backend().reason, "auto: the first step times compute, fragment"));
    CHECK(contains(pipeline.backend().reason, "transform feedback cannot write emitted outputs"));
    requireEqual(e.records.readAs<std::uint32_t>(), std::vector<std::uint32_t>(std::size_t(capacity) * 4, kUntouched),
                 "the records before the first step");
    pipeline.step();
    const BackendChoice c = pipeline.backend();
    MESSAGE("auto (emitting, ", n, " elements) on ", dev.capabilities().renderer, ": ", c.reason);
    CHECK(c.computeMs > 0);
    CHECK(c.fragmentMs > 0);
    CHECK(c.transformFeedbackMs == 0); // not timed: it cannot write them
    const Backend fastest = c.computeMs <= c.fragmentMs ? Backend::Compute : Backend::Fragment;
    CHECK(c.backend == fastest);
    CHECK(contains(c.reason, std::string("auto: ") + (fastest == Backend::Compute ? "compute" : "fragment") +
                                 " was fastest, compute "));
    CHECK(contains(c.reason, " vs fragment "));
    CHECK(contains(c.reason, " ms per pass ("));
    CHECK(contains(c.reason, std::to_string(n) + " elements"));
    CHECK(contains(c.reason, "transform feedback cannot write emitted outputs"));
    // The trial passes were not swapped: one step, its records in input order.
    CHECK(pipeline.stepsTaken() == 1);
    requireEqual(e.records.readAs<std::uint32_t>(), want, "records after auto's trial passes and one step");
    const EmitReport r = pipeline.emitted().at(0);
    CHECK(r.requested == total);
    CHECK(r.written == total);
    // The same shape reuses the decision; another capacity (the gathers' cost) is timed again.
    Emitting same(dev, n, capacity);
    Pipeline second = same.pipeline(dev, Backend::Auto);
    CHECK(second.backend().backend == c.backend);
    CHECK(contains(second.backend().reason, "decided earlier"));
    Emitting larger(dev, n, capacity + 1);
    Pipeline third = larger.pipeline(dev, Backend::Auto);
    CHECK(third.backend().backend == Backend::Auto);
}

// drawEmitted() with a program holding emittedDrawSnippet(): after a fragment step the capacity is
// drawn and the records past the GPU total clipped away; after a compute step the draw is indirect
// (the total's records) and the snippet keeps every vertex (xfb_emitted_at.w = 1). Either way the
// lit pixels are the first `written` record slots, so one draw program serves whatever Auto chose.
TEST_CASE_FIXTURE(
    GlTest, "drawEmitted: a program holding emittedDrawSnippet draws the total after compute and fragment steps") {
    constexpr int kWidth = 64, kHeight = 48;
    const std::size_t n = 500;
    const std::int64_t capacity = kWidth * kHeight;
    const std::string vertex = std::string("#version 300 es\n") + std::string(emittedDrawSnippet()) + R"(
    void main() {
        vec2 pixel = vec2(float(gl_VertexID % 64), float(gl_VertexID / 64)) + 0.5;
        gl_Position = xfb_emittedPosition(vec4(pixel / vec2(64.0, 48.0) * 2.0 - 1.0, 0.0, 1.0));
        gl_PointSize = 1.0;
    }
    )";
    GLuint draw = linkDrawProgram(
        vertex.c_str(), "#version 300 es\nprecision mediump float;\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n");
    GLint linked = 0;
    glGetProgramiv(draw, GL_LINK_STATUS, &linked);
    REQUIRE(linked == GL_TRUE);
    Offscreen screen(kWidth, kHeight);
    GLuint vao = 0;
    glGenVertexArrays(1, &vao);
    std::int64_t total = 0;
    Emitting e(dev, n, capacity);
    (void)reference(e.counts, capacity, total);
    REQUIRE(total > 0);
    REQUIRE(total < capacity);
    for (Backend b : backendsOf(dev)) {
        if (b == Backend::TransformFeedback) continue;
        CAPTURE(int(b));
        Pipeline pipeline = e.pipeline(dev, b);
        pipeline.step();
        screen.clear();
        glUseProgram(draw);
        glBindVertexArray(vao);
        pipeline.drawEmitted("emit_n", DrawMode::Points);
        const auto lit = screen.lit();
        const auto count = std::count(lit.begin(), lit.end(), true);
        CHECK(count == total);
        for (std::int64_t s = 0; s < capacity; ++s)
            if (lit[std::size_t(s)] != (s < total)) {
                FAIL_CHECK("pixel " << s << " is " << (lit[std::size_t(s)] ? "lit" : "dark") << "; " << total
                                    << " records should be drawn");
                break;
            }
    }
    glBindVertexArray(0);
    glUseProgram(0);
    glDeleteVertexArrays(1, &vao);
    glDeleteProgram(draw);
}
