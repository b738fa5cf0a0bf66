// Both paths of the compute backend's ordered emit (compute/ordered_emit.hpp) against a CPU
// reference: the single pass (tile tickets, a subgroup scan where GL_KHR_shader_subgroup is there
// and the shared-memory scan, decoupled look-back, totals from the last tile) and the count pass +
// prefix sum it falls back to. Sizes around one work group
// and over many tiles, two budgets, counts clamped to maxRecords, a budget over its capacity,
// the indirect commands, three steps in a row (the look-back state alternates between steps).
#include "gl_call_counter.hpp"
#include "gl_fixture.hpp"
#include "compute/ordered_emit.hpp"
#include "gl/prefix_scan.hpp"
#include "gl/readback.hpp"

#include "../unit/test_util.hpp"

#include <cstring>

using namespace xfb;
using namespace xfbtest;

namespace {

// Budget a: -1..4 asked, 0..3 kept; budget b: 0..8 asked, 0..5 kept. Both depend on the step
// (w counts steps), so each step's records differ from the last one's.
constexpr const char* kTwoBudgets = R"(#version 300 es
in vec4 a_p;
out vec4 out_p;
out vec4 emit_a[3];
flat out int emit_na;
out float emit_b[5];
flat out uint emit_nb;
void main() {
    int i = gl_VertexID, s = int(a_p.w);
    out_p = a_p + vec4(0.0, 0.0, 0.0, 1.0);
    emit_na = (i * 7 + s) % 6 - 1;
    emit_nb = uint((i * 13 + s * 5) % 9);
    for (int k = 0; k < 3; ++k) emit_a[k] = vec4(float(i), float(k), a_p.x, a_p.w);
    for (int k = 0; k < 5; ++k) emit_b[k] = float(i * 8 + k) + a_p.w * 0.5;
    gl_Position = vec4(0.0);
}
)";

// A path, and for the single pass its scan: the subgroup scan where the driver has
// GL_KHR_shader_subgroup (Capabilities::subgroupArithmetic), else the shared-memory scan.
struct Path {
    detail::OrderedEmitPath path;
    bool sharedScan = false; // the single pass with its shared-memory scan forced
};

struct PathGuard {
    explicit PathGuard(Path p) {
        detail::orderedEmitPath = p.path;
        detail::orderedEmitSubgroupScan = !p.sharedScan;
    }
    ~PathGuard() {
        detail::orderedEmitPath = detail::OrderedEmitPath::Auto;
        detail::orderedEmitSubgroupScan = true;
    }
};

struct Expected {
    std::vector<float> a, b;
    std::int64_t requestedA = 0, requestedB = 0;
};

Expected reference(const std::vector<float>& state, std::int64_t n) {
    Expected e;
    for (std::int64_t i = 0; i < n; ++i) {
        const float* p = &state[std::size_t(i) * 4];
        int s = int(p[3]);
        int na = std::clamp(int((i * 7 + s) % 6) - 1, 0, 3), nb = std::min(int((i * 13 + s * 5) % 9), 5);
        for (int k = 0; k < na; ++k) e.a.insert(e.a.end(), {float(i), float(k), p[0], p[3]});
        for (int k = 0; k < nb; ++k) e.b.push_back(float(i * 8 + k) + p[3] * 0.5f);
        e.requestedA += na, e.requestedB += nb;
    }
    return e;
}

std::vector<std::uint32_t> commands(std::int64_t requested, std::int64_t capacity, int groupSize) {
    auto written = std::uint32_t(std::min(requested, capacity));
    return {written,
            1,
            0,
            0,
            (written + std::uint32_t(groupSize) - 1) / std::uint32_t(groupSize),
            1,
            1,
            std::uint32_t(requested)};
}

std::string pathName(Path p) {
    return p.path == detail::OrderedEmitPath::MultiPass ? "multi-pass"
           : p.sharedScan                               ? "single pass, shared-memory scan"
                                                        : "single pass";
}

// Runs `steps` steps of n elements on one path, each checked against the reference.
void runAndCompare(Device& dev, Path path, std::int64_t n, int groupSize, std::int64_t capacityA,
                   std::int64_t capacityB, int steps = 3) {
    PathGuard guard(path);
    const std::string name = pathName(path);
    CAPTURE(name);
    CAPTURE(n);
    CAPTURE(groupSize);
    std::vector<float> init = pseudoRandom(std::size_t(n) * 4, -4.0f, 4.0f, 23u);
    for (std::int64_t i = 0; i < n; ++i) init[std::size_t(i) * 4 + 3] = 0.0f;
    Program program(dev, {kTwoBudgets, {}, {}, "two budgets"});
    Buffer state(dev, vec4Format(0), n, view(init)), scratch(dev, vec4Format(0), n);
    Buffer a(dev, vec4Format(0), capacityA),
        b(dev, VertexFormat::interleaved({{attr(0), ComponentType::Float32, 1}}), capacityB);
    PipelineOptions o;
    o.backend = Backend::Compute;
    o.workGroupSize = groupSize;
    o.overflow = EmitOverflow::Clamp;
    o.emits = {{"emit_a", "emit_na"}, {"emit_b", "emit_nb"}};
    Pipeline pipeline(dev, program, {{&state, &scratch}, {nullptr, &a}, {nullptr, &b}}, o);
    std::vector<float> current = init;
    for (int step = 0; step < steps; ++step) {
        CAPTURE(step);
        Expected want = reference(current, n);
        resetGlCalls();
        pipeline.step();
        // The path really taken: one dispatch for the single pass, count + scan + main otherwise.
        long dispatches = glCalls().byFunction["glDispatchCompute"];
        if (path.path == detail::OrderedEmitPath::SinglePass)
            CHECK(dispatches == 1);
        else
            CHECK(dispatches >= 5);
        for (std::int64_t i = 0; i < n; ++i) current[std::size_t(i) * 4 + 3] += 1.0f;
        requireEqual(state.readAs<float>(), current, "state");
        auto reports = pipeline.emitted();
        REQUIRE(reports.size() == 2);
        CHECK(reports[0].requested == want.requestedA);
        CHECK(reports[0].written == std::min(want.requestedA, capacityA));
        CHECK(reports[1].requested == want.requestedB);
        CHECK(reports[1].written == std::min(want.requestedB, capacityB));
        auto gotA = a.readAs<float>(), gotB = b.readAs<float>();
        gotA.resize(std::size_t(reports[0].written) * 4);
        gotB.resize(std::size_t(reports[1].written));
        want.a.resize(gotA.size());
        want.b.resize(gotB.size());
        requireEqual(gotA, want.a, "budget a records");
        requireEqual(gotB, want.b, "budget b records");
        auto raw = gl::readBytes(pipeline.emitTotalsBuffer(), 0, 2 * detail::kTotalsWords * 4);
        std::vector<std::uint32_t> words(2 * detail::kTotalsWords);
        std::memcpy(words.data(), raw.data(), raw.size());
        const int g = groupSize ? groupSize : 256;
        CHECK(std::vector<std::uint32_t>(words.begin(), words.begin() + 8) == commands(want.requestedA, capacityA, g));
        CHECK(std::vector<std::uint32_t>(words.begin() + 8, words.end()) == commands(want.requestedB, capacityB, g));
    }
}

// Every path this device can take: the single pass (with subgroups where it has them), the
// single pass with the shared-memory scan where that is not already the first, the multi-pass path.
std::vector<Path> paths(const Device& dev) {
    std::vector<Path> p{{detail::OrderedEmitPath::SinglePass}};
    if (dev.capabilities().subgroupArithmetic) p.push_back({detail::OrderedEmitPath::SinglePass, true});
    p.push_back({detail::OrderedEmitPath::MultiPass});
    return p;
}

} // namespace

TEST_CASE_FIXTURE(GlTest, "ordered emit, both paths: sizes around one work group match the reference, two budgets, "
                          "clamped counts, commands") {
    if (!dev.capabilities().compute) return; // ES 3.0: emit_test.cpp checks the refusal
    const std::string scans = dev.capabilities().subgroupArithmetic ? "yes, both scans tested" : "no";
    MESSAGE("GL_KHR_shader_subgroup with arithmetic in compute shaders: " << scans);
    for (auto path : paths(dev))
        for (std::int64_t n : {1, 63, 64, 65, 129}) runAndCompare(dev, path, n, 64, 3 * n, 5 * n);
    // 100 invocations: the last subgroup of every tile is partial (4 of 32 on NVIDIA).
    for (auto path : paths(dev)) runAndCompare(dev, path, 250, 100, 3 * 250, 5 * 250);
}

TEST_CASE_FIXTURE(GlTest,
                  "ordered emit, both paths: 100003 elements over 1563 tiles match the reference at every step") {
    if (!dev.capabilities().compute) return;
    for (auto path : paths(dev)) runAndCompare(dev, path, 100003, 64, 3 * 100003, 5 * 100003);
    // The default work-group size (256): 391 tiles.
    for (auto path : paths(dev)) runAndCompare(dev, path, 100003, 0, 3 * 100003, 5 * 100003, 1);
}

TEST_CASE_FIXTURE(
    GlTest,
    "ordered emit, both paths: a budget over its capacity keeps the first records and reports what was requested") {
    if (!dev.capabilities().compute) return;
    // 5000 elements ask for about 7500 a-records and 14000 b-records; the buffers hold 1000 and 20000.
    for (auto path : paths(dev)) runAndCompare(dev, path, 5000, 64, 1000, 20000);
}

TEST_CASE_FIXTURE(
    GlTest,
    "ordered emit: the single pass is refused where its 30-bit values or 16 KB of shared memory could not suffice") {
    EmitPlan plan;
    plan.budgets.resize(2);
    plan.budgets[0].maxRecords = 3;
    plan.budgets[1].maxRecords = 5;
    // 8 records per element over both budgets: 2^27 - 1 elements stay below 2^30, 2^27 do not.
    CHECK(detail::singlePassEmitUnsafe(plan, (std::int64_t(1) << 27) - 1, 256).empty());
    CHECK(contains(detail::singlePassEmitUnsafe(plan, std::int64_t(1) << 27, 256), "30-bit"));
    // Two budgets of 1024-wide scans: 8348 bytes fit; four do not (16556 > 16384).
    CHECK(detail::singlePassEmitUnsafe(plan, 1000, 1024).empty());
    plan.budgets.resize(4, plan.budgets[0]);
    CHECK(contains(detail::singlePassEmitUnsafe(plan, 1000, 1024), "16556 bytes of shared memory"));
}
