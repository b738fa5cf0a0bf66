// Emitted outputs on the fragment backend (GL 4.3 core, ES 3.0 = WebGL2's rules): each element's
// count in a texture, a HistoPyramid of sums, one fragment per record descending it. Records are
// compared byte for byte with a C++ reference and, where the context has compute, with the bytes
// GL compute leaves in the same buffers (past the total too), and so are emitted()'s reports.
#include "gl_fixture.hpp"

#include "offscreen.hpp"

#include "../unit/test_util.hpp"

#include <numeric>

using namespace xfb;
using namespace xfbtest;

namespace {

// Element i emits a_count[i] records (the engine clamps to 0..8): record k is (i, 1000 k + count).
constexpr const char* kCountedShader = R"(#version 300 es
in uint a_count;
flat out uint out_count;
flat out uvec2 emit_pair[8];
flat out uint emit_n;
void main() {
    out_count = a_count;
    emit_n = a_count;
    for (int k = 0; k < 8; ++k) emit_pair[k] = uvec2(uint(gl_VertexID), uint(k) * 1000u + a_count);
    gl_Position = vec4(0.0);
}
)";

VertexFormat uintFormat(int components) {
    return VertexFormat::interleaved({{attr(0), ComponentType::UInt32, components}});
}

constexpr std::uint32_t kUntouched = 0xDEADBEEFu; // what a buffer holds where no record was written

struct Counted {
    std::vector<std::uint32_t> counts;
    Program program;
    Buffer input, scratch; // a state pair that keeps the counts
    Counted(Device& dev, std::vector<std::uint32_t> c)
        : counts(std::move(c)),
          program(dev, {kCountedShader, {}, {}, "counted"}),
          input(dev, uintFormat(1), std::int64_t(counts.size()), view(counts)),
          scratch(dev, uintFormat(1), std::int64_t(counts.size())) {}
    // The records in input order, then the untouched words up to `capacity` records.
    std::vector<std::uint32_t> reference(std::int64_t capacity, std::int64_t* requested = nullptr) const {
        std::vector<std::uint32_t> r;
        std::int64_t asked = 0;
        for (std::size_t i = 0; i < counts.size(); ++i)
            for (std::uint32_t k = 0; k < std::min(counts[i], 8u); ++k, ++asked)
                if (asked < capacity) r.insert(r.end(), {std::uint32_t(i), k * 1000u + counts[i]});
        if (requested) *requested = asked;
        r.resize(std::size_t(capacity) * 2, kUntouched);
        return r;
    }
    // One step on `backend` into a fresh buffer of `capacity` records filled with kUntouched.
    std::vector<std::uint32_t> step(Device& dev, Backend backend, std::int64_t capacity, EmitReport* report) {
        const std::vector<std::uint32_t> fill(std::size_t(capacity) * 2, kUntouched);
        Buffer pairs(dev, uintFormat(2), capacity, view(fill));
        PipelineOptions o;
        o.backend = backend;
        o.emits = {{"emit_pair", "emit_n"}};
        o.overflow = EmitOverflow::Clamp;
        Pipeline pipeline(dev, program, {{&input, &scratch}, {nullptr, &pairs}}, o);
        CHECK(pipeline.backend().backend == backend);
        pipeline.step();
        *report = pipeline.emitted().at(0);
        return pairs.readAs<std::uint32_t>();
    }
};

template<class T>
std::vector<T> bytesAs(const std::vector<std::byte>& bytes) {
    std::vector<T> v(bytes.size() / sizeof(T));
    std::memcpy(v.data(), bytes.data(), v.size() * sizeof(T));
    return v;
}

std::vector<std::uint32_t> pseudoRandomCounts(std::size_t n, unsigned seed) {
    std::vector<std::uint32_t> c(n);
    for (auto& x : c) {
        seed = seed * 1664525u + 1013904223u;
        x = (seed >> 16) % 11u; // 0..10: 9 and 10 are clamped to 8
    }
    return c;
}

// The records of `counts` on the fragment backend against the reference, and against GL compute.
void checkCounts(Device& dev, std::vector<std::uint32_t> counts, std::int64_t capacity) {
    Counted c(dev, std::move(counts));
    std::int64_t requested = 0;
    const auto want = c.reference(capacity, &requested);
    EmitReport fragment;
    const auto got = c.step(dev, Backend::Fragment, capacity, &fragment);
    requireEqual(got, want, "records on the fragment backend");
    CHECK(fragment.budget == "emit_n");
    CHECK(fragment.requested == requested);
    CHECK(fragment.written == std::min(requested, capacity));
    CHECK(fragment.capacity == capacity);
    if (!dev.capabilities().compute) return;
    EmitReport compute;
    requireEqual(c.step(dev, Backend::Compute, capacity, &compute), got, "compute's bytes");
    CHECK(compute.requested == fragment.requested);
    CHECK(compute.written == fragment.written);
}

} // namespace

TEST_CASE_FIXTURE(GlTest, "the fragment backend's pyramid finds every record in input order at every size") {
    // 1 element (the pyramid is its level 0), 3..5 around one 4-node step, 4^k and 4^k + 1 (a level
    // more), and 4097: past the widest texture row (4096), so level 0 and the records span two rows.
    for (std::size_t n : {1, 3, 4, 5, 16, 17, 256, 257, 4096, 4097}) {
        CAPTURE(n);
        checkCounts(dev, pseudoRandomCounts(n, unsigned(n)), std::int64_t(8 * n));
    }
}

TEST_CASE_FIXTURE(GlTest, "the fragment backend's pyramid: no records, and one element emitting every record") {
    for (std::size_t n : {1, 5, 4097}) {
        CAPTURE(n);
        checkCounts(dev, std::vector<std::uint32_t>(n, 0u), 16); // nothing written, every word untouched
        for (std::size_t at : {std::size_t(0), n / 2, n - 1}) {
            CAPTURE(at);
            std::vector<std::uint32_t> counts(n, 0u);
            counts[at] = 8;
            checkCounts(dev, counts, 8); // its 8 records fill the capacity exactly
        }
    }
}

TEST_CASE_FIXTURE(GlTest, "the fragment backend keeps the first records in input order when they overflow") {
    auto counts = pseudoRandomCounts(300, 7u);
    const auto total = std::accumulate(counts.begin(), counts.end(), std::int64_t(0),
                                       [](std::int64_t s, std::uint32_t c) { return s + std::min(c, 8u); });
    for (std::int64_t capacity : {std::int64_t(1), total / 3, total - 1}) {
        CAPTURE(capacity);
        checkCounts(dev, counts, capacity);
    }
}

TEST_CASE_FIXTURE(GlTest, "the fragment backend: an overflow under EmitOverflow::Error refuses the step, not swapped") {
    const char* src = R"(#version 300 es
in vec4 a_p;
out vec4 out_p;
out vec4 emit_spark[3];
flat out int emit_count;
void main() {
    out_p = a_p + vec4(1.0);
    emit_count = gl_VertexID % 4; // 0..3, clamped to 3
    for (int k = 0; k < 3; ++k) emit_spark[k] = vec4(a_p.xyz, float(gl_VertexID * 3 + k));
    gl_Position = vec4(0.0);
}
)";
    Program program(dev, {src, {}, {}, "overflowing"});
    const int n = 40; // 10 x (0 + 1 + 2 + 3) = 60 records
    const auto init = pseudoRandom(std::size_t(n) * 4, -1.0f, 1.0f, 3u);
    Buffer state(dev, vec4Format(0), n, view(init)), scratch(dev, vec4Format(0), n);
    Buffer sparks(dev, vec4Format(0), 50);
    PipelineOptions o;
    o.backend = Backend::Fragment;
    o.emits = {{"emit_spark", "emit_count"}};
    Pipeline pipeline(dev, program, {{&state, &scratch}, {nullptr, &sparks}}, o);
    const unsigned before = state.glName();
    std::string msg = XFB_REQUIRE_ERROR(pipeline.stepChecked(), ErrorCode::Capacity);
    CHECK(contains(msg, "emitted 60 records for budget 'emit_count'"));
    CHECK(contains(msg, "hold 50"));
    CHECK(state.glName() == before);
    requireEqual(state.readAs<float>(), init, "state kept");
    const auto r = pipeline.emitted().at(0);
    CHECK(r.requested == 60);
    CHECK(r.written == 50);
    CHECK(r.overflowed());
    // The first 50 records were written all the same, as compute writes them.
    std::vector<float> want;
    for (int i = 0; i < n && want.size() < 200; ++i)
        for (int k = 0; k < i % 4 && want.size() < 200; ++k)
            want.insert(want.end(), {init[std::size_t(i) * 4], init[std::size_t(i) * 4 + 1],
                                     init[std::size_t(i) * 4 + 2], float(i * 3 + k)});
    requireEqual(sparks.readAs<float>(), want, "the first 50 sparks");
}

TEST_CASE_FIXTURE(GlTest, "the fragment backend: five budgets (two pyramid groups), int and uint counts, as compute") {
    const char* src = R"(#version 300 es
in vec4 a_p;
out vec4 out_p;
out float emit_a[2];
flat out int emit_na;
flat out ivec2 emit_b[3];
flat out uint emit_nb;
flat out uvec3 emit_c[4];
flat out int emit_nc;
out vec4 emit_d[2];
flat out uint emit_nd;
flat out int emit_e[5];
flat out int emit_ne;
out vec2 emit_a2[2];
void main() {
    out_p = a_p * 2.0;
    int i = gl_VertexID;
    emit_na = i % 3 - 1;            // -1 .. 1: negative counts clamp to 0
    emit_nb = uint(i % 4);          // 0 .. 3
    emit_nc = 7 - i % 9;            // past 4 clamps to 4
    emit_nd = uint(i % 2) * 5u;     // 0 or 5 (clamped to 2)
    emit_ne = i % 6;
    for (int k = 0; k < 2; ++k) { emit_a[k] = float(i) + 0.25 * float(k); emit_a2[k] = vec2(float(k), a_p.x); }
    for (int k = 0; k < 3; ++k) emit_b[k] = ivec2(-i, k);
    for (int k = 0; k < 4; ++k) emit_c[k] = uvec3(uint(i), uint(k), 7u);
    for (int k = 0; k < 2; ++k) emit_d[k] = a_p + vec4(float(k));
    for (int k = 0; k < 5; ++k) emit_e[k] = i * 100 + k;
    gl_Position = vec4(0.0);
}
)";
    Program program(dev, {src, {}, {}, "five budgets"});
    const int n = 1000;
    const auto init = pseudoRandom(std::size_t(n) * 4, -4.0f, 4.0f, 5u);
    auto f = [](ComponentType t, int c) { return VertexFormat::interleaved({{attr(0), t, c}}); };
    std::vector<std::vector<std::byte>> results[2];
    std::vector<EmitReport> reports[2];
    std::vector<Backend> backends{Backend::Fragment};
    // Compute binds 2 buffers per budget on its multi-pass path (llvmpipe's): 18 here, over 16 on llvmpipe.
    if (dev.capabilities().compute && dev.capabilities().maxComputeStorageBlocks >= 18)
        backends.push_back(Backend::Compute);
    for (std::size_t run = 0; run < backends.size(); ++run) {
        CAPTURE(backendName(backends[run]));
        Buffer state(dev, vec4Format(0), n, view(init)), scratch(dev, vec4Format(0), n);
        std::vector<Buffer> out;
        out.emplace_back(dev, f(ComponentType::Float32, 1), 2 * n);
        out.emplace_back(dev, f(ComponentType::Int32, 2), 3 * n);
        out.emplace_back(dev, f(ComponentType::UInt32, 3), 4 * n);
        out.emplace_back(dev, vec4Format(0), 700); // budget emit_nd overflows: 500 x 2 asked
        out.emplace_back(dev, f(ComponentType::Int32, 1), 5 * n);
        out.emplace_back(dev, f(ComponentType::Float32, 2), 2 * n);
        PipelineOptions o;
        o.backend = backends[run];
        o.overflow = EmitOverflow::Clamp;
        o.emits = {{"emit_a", "emit_na"}, {"emit_b", "emit_nb"}, {"emit_c", "emit_nc"},
                   {"emit_d", "emit_nd"}, {"emit_e", "emit_ne"}, {"emit_a2", "emit_na"}};
        Pipeline pipeline(dev, program,
                          {{&state, &scratch},
                           {nullptr, &out[0]},
                           {nullptr, &out[1]},
                           {nullptr, &out[2]},
                           {nullptr, &out[3]},
                           {nullptr, &out[4]},
                           {nullptr, &out[5]}},
                          o);
        pipeline.step();
        pipeline.step(); // the second step reads the first's state: the planes carry it
        for (auto& b : out) results[run].push_back(b.read());
        results[run].push_back(state.read());
        reports[run] = pipeline.emitted();
    }
    // The reference of the counts: per budget the records asked for (clamped per element).
    auto asked = [&](auto count) {
        std::int64_t s = 0;
        for (int i = 0; i < n; ++i) s += count(i);
        return s;
    };
    const std::int64_t want[5] = {asked([](int i) { return std::clamp(i % 3 - 1, 0, 2); }),
                                  asked([](int i) { return i % 4; }),
                                  asked([](int i) { return std::clamp(7 - i % 9, 0, 4); }),
                                  asked([](int i) { return (i % 2) * 2; }), asked([](int i) { return i % 6; })};
    REQUIRE(reports[0].size() == 5);
    for (std::size_t b = 0; b < 5; ++b) {
        CAPTURE(b);
        CHECK(reports[0][b].requested == want[b]);
        CHECK(reports[0][b].written == std::min(want[b], reports[0][b].capacity));
    }
    CHECK(reports[0][3].capacity == 700);
    // Budget emit_na: element i emits one record when i % 3 == 2 (333 of them), into both its outputs.
    const auto a = bytesAs<float>(results[0][0]);
    for (int r = 0; r < 333; ++r) REQUIRE(a[std::size_t(r)] == float(3 * r + 2));
    const auto e = bytesAs<std::int32_t>(results[0][4]);
    std::vector<std::int32_t> wantE;
    for (int i = 0; i < n; ++i)
        for (int k = 0; k < i % 6; ++k) wantE.push_back(i * 100 + k);
    requireEqual(std::vector<std::int32_t>(e.begin(), e.begin() + std::ptrdiff_t(wantE.size())), wantE, "emit_e");
    if (backends.size() == 2) {
        for (std::size_t k = 0; k < results[0].size(); ++k) {
            CAPTURE(k);
            CHECK(results[0][k] == results[1][k]); // every buffer, byte for byte, past the totals too
        }
        for (std::size_t b = 0; b < 5; ++b) {
            CHECK(reports[0][b].requested == reports[1][b].requested);
            CHECK(reports[0][b].written == reports[1][b].written);
        }
    }
}

TEST_CASE_FIXTURE(GlTest, "emitting without compute: Auto takes the fragment backend and says why") {
    Counted c(dev, pseudoRandomCounts(100, 3u));
    Buffer pairs(dev, uintFormat(2), 800);
    PipelineOptions o;
    o.emits = {{"emit_pair", "emit_n"}};
    Pipeline pipeline(dev, c.program, {{&c.input, &c.scratch}, {nullptr, &pairs}}, o);
    if (dev.capabilities().compute) { // both backends timed at the first step (emit_auto_test.cpp)
        CHECK(pipeline.backend().backend == Backend::Auto);
        return;
    }
    CHECK(pipeline.backend().backend == Backend::Fragment);
    CHECK(contains(pipeline.backend().reason, "compute is not available"));
    pipeline.step();
    std::int64_t requested = 0;
    requireEqual(
        pairs.readAs<std::uint32_t>(),
        [&] {
            auto r = c.reference(800, &requested);
            for (std::size_t w = std::size_t(requested) * 2; w < r.size(); ++w) r[w] = 0; // a new buffer holds zeros
            return r;
        }(),
        "records");
    CHECK(pipeline.emitted().at(0).requested == requested);
    // The totals stay in the pyramid: no indirect-command buffer to hand out.
    std::string msg = XFB_REQUIRE_ERROR((void)pipeline.emitTotalsBuffer(), ErrorCode::Unsupported);
    CHECK(contains(msg, "pyramid's top texel"));
}

TEST_CASE_FIXTURE(GlTest, "emitting pipelines switch between compute and fragment between steps with the same bytes") {
    if (!dev.capabilities().compute) return;
    const char* src = R"(#version 300 es
in vec4 a_p;
out vec4 out_p;
out vec4 emit_r[2];
flat out int emit_n;
void main() {
    out_p = a_p * 0.5 + vec4(1.0);
    emit_n = int(a_p.w * 4.0) % 3;
    for (int k = 0; k < 2; ++k) emit_r[k] = vec4(a_p.xyz, float(gl_VertexID * 2 + k));
    gl_Position = vec4(0.0);
}
)";
    Program program(dev, {src, {}, {}, "switching"});
    const int n = 500;
    const auto init = pseudoRandom(std::size_t(n) * 4, 0.0f, 3.0f, 9u);
    std::vector<std::byte> bytes[2];
    for (int run = 0; run < 2; ++run) {
        Buffer state(dev, vec4Format(0), n, view(init)), scratch(dev, vec4Format(0), n);
        Buffer records(dev, vec4Format(0), 2 * n);
        PipelineOptions o;
        o.backend = Backend::Compute;
        o.emits = {{"emit_r", "emit_n"}};
        Pipeline pipeline(dev, program, {{&state, &scratch}, {nullptr, &records}}, o);
        for (int s = 0; s < 4; ++s) {
            // run 0: compute throughout; run 1: fragment, compute, fragment, compute
            if (run == 1) pipeline.setBackend(s % 2 ? Backend::Compute : Backend::Fragment);
            pipeline.step();
            CHECK(pipeline.emitted().at(0).written > 0);
        }
        bytes[run] = records.read();
        const auto st = state.read();
        bytes[run].insert(bytes[run].end(), st.begin(), st.end());
    }
    CHECK(bytes[0] == bytes[1]);
}

// drawEmitted() after a fragment-backend step (ES 3.0 / WebGL2: no indirect draw): the capacity is
// drawn, and emittedDrawSnippet() in the application's vertex shader clips the records at or past
// the GPU total, whole primitives, without the total visiting the CPU.
TEST_CASE_FIXTURE(GlTest, "fragment backend: drawEmitted draws the GPU total through emittedDrawSnippet()") {
    constexpr int kWidth = 32, kHeight = 16; // one pixel per record slot (points) or per triangle
    const std::int64_t capacity = 400;
    Counted c(dev, pseudoRandomCounts(90, 5u));
    Buffer pairs(dev, uintFormat(2), capacity);
    PipelineOptions o;
    o.backend = Backend::Fragment;
    o.emits = {{"emit_pair", "emit_n"}};
    o.overflow = EmitOverflow::Clamp;
    Pipeline pipeline(dev, c.program, {{&c.input, &c.scratch}, {nullptr, &pairs}}, o);
    // Slot s's pixel (s % 32, s / 32); as triangles, triangle j = records 3j..3j+2 around pixel j.
    // [docs:fragment-draw-emitted]
    const std::string vertex = std::string("#version 300 es\n") + std::string(emittedDrawSnippet()) + R"(
    uniform int u_per;
    void main() {
        int j = gl_VertexID / u_per;
        vec2 pixel = vec2(float(j % 32), float(j / 32)) + 0.5;
        if (u_per == 3) pixel += vec2(gl_VertexID % 3 == 1 ? 0.45 : -0.4, gl_VertexID % 3 == 2 ? 0.45 : -0.4);
        gl_Position = xfb_emittedPosition(vec4(pixel / vec2(32.0, 16.0) * 2.0 - 1.0, 0.0, 1.0));
        gl_PointSize = 1.0;
    }
    )";
    // [docs:end]
    GLuint draw = linkDrawProgram(
        vertex.c_str(), "#version 300 es\nprecision mediump float;\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n");
    GLint linked = 0;
    glGetProgramiv(draw, GL_LINK_STATUS, &linked);
    REQUIRE(linked == GL_TRUE);
    Offscreen screen(kWidth, kHeight);
    GLuint vao = 0;
    glGenVertexArrays(1, &vao);
    // Each step's counts uploaded, the records drawn as points and as triangles: the lit pixels are
    // the first min(total, capacity) slots, or the whole triangles below the total.
    for (unsigned seed : {5u, 6u, 40u}) {
        CAPTURE(seed);
        auto counts = pseudoRandomCounts(90, seed);
        if (seed == 40u) counts.assign(90, 6u); // 540 records asked for: clamped at the capacity
        c.input.upload(std::span<const std::uint32_t>(counts));
        c.counts = counts;
        pipeline.step();
        std::int64_t requested = 0;
        (void)c.reference(capacity, &requested);
        const std::int64_t written = std::min(requested, capacity);
        for (auto [mode, per] : {std::pair{DrawMode::Points, 1}, std::pair{DrawMode::Triangles, 3}}) {
            CAPTURE(per);
            screen.clear();
            glUseProgram(draw);
            glUniform1i(glGetUniformLocation(draw, "u_per"), per);
            glBindVertexArray(vao);
            GLint activeBefore = 0;
            glGetIntegerv(GL_ACTIVE_TEXTURE, &activeBefore);
            pipeline.drawEmitted("emit_n", mode);
            GLint activeAfter = 0;
            glGetIntegerv(GL_ACTIVE_TEXTURE, &activeAfter);
            CHECK(activeAfter == activeBefore);
            const auto lit = screen.lit();
            const std::int64_t drawn = written / per; // whole primitives only
            for (std::int64_t s = 0; s < kWidth * kHeight; ++s)
                if (lit[std::size_t(s)] != (s < drawn)) {
                    FAIL_CHECK("pixel " << s << " is " << (lit[std::size_t(s)] ? "lit" : "dark") << "; " << drawn
                                        << " primitives of " << written << " records should be drawn");
                    break;
                }
        }
    }
    // Strips would draw part of a primitive past the total; a program without the snippet cannot clip.
    CHECK(contains(XFB_REQUIRE_ERROR(pipeline.drawEmitted("emit_n", DrawMode::TriangleStrip), ErrorCode::Unsupported),
                   "triangle_strip"));
    GLuint plain =
        linkDrawProgram("#version 300 es\nvoid main() { gl_Position = vec4(0.0); }\n",
                        "#version 300 es\nprecision mediump float;\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n");
    glUseProgram(plain);
    CHECK(contains(XFB_REQUIRE_ERROR(pipeline.drawEmitted("emit_n", DrawMode::Points), ErrorCode::InvalidArgument),
                   "GL name " + std::to_string(plain)));
    glBindVertexArray(0);
    glUseProgram(0);
    glDeleteVertexArrays(1, &vao);
    glDeleteProgram(draw);
    glDeleteProgram(plain);
}
