// Populations (xfb/population.hpp) on the compute backend: a state whose live count stays on the
// GPU, stepped over its live elements only, each element writing 0, 1 or k records of the next
// state in element order, then record order. Compared byte for byte with a C++ reference after
// every step, on both paths of the ordered emit (the count pass + prefix sum, and the single pass
// with its look-back, forced on llvmpipe), with empty populations, spawns into full ones under both
// overflow policies, all elements dying, and a count of the CPU readbacks of steady steps: zero.
// Without compute (the ES 3.0 run) the population is refused with Unsupported.
#include "gl_call_counter.hpp"
#include "gl_fixture.hpp"
#include "offscreen.hpp"
#include "compute/ordered_emit.hpp"

#include "../unit/test_util.hpp"

#include <cstring>
#include <set>

using namespace xfb;
using namespace xfbtest;

namespace {

// An element: a vec4 (x, y, fuel, parent index) and a uint tag. With fuel left it lives on, or
// with a tag divisible by 5 bursts into 3; without fuel it dies. Every child has one less fuel.
constexpr const char* kSparks = R"(#version 300 es
// [docs:population-shader]
in vec4 a_p;
in uint a_tag;
uniform int u_max;
out vec4 emit_p[3];
flat out uint emit_tag[3];
flat out int emit_n;
void main() {
    emit_n = a_p.z <= 0.0 ? 0 : (a_tag % 5u == 0u ? u_max : 1);
    for (int k = 0; k < 3; ++k) {
        emit_p[k] = vec4(a_p.x + float(k), a_p.y + 1.0, a_p.z - 1.0, float(gl_VertexID));
        emit_tag[k] = a_tag * 3u + uint(k) + 1u;
    }
    gl_Position = vec4(0.0);
}
// [docs:end]
)";

struct Element {
    float p[4];
    std::uint32_t tag;
};

// The C++ reference of one step: the records in element order, then record order; the first
// `capacity` kept. `burst`: what a bursting element asks for (u_max), clamped to 0..3 as the GPU does.
struct Stepped {
    std::vector<Element> next;
    std::int64_t requested = 0;
};
Stepped referenceStep(const std::vector<Element>& now, std::int64_t capacity, int burst = 3) {
    Stepped s;
    for (std::size_t i = 0; i < now.size(); ++i) {
        const Element& e = now[i];
        const int n = e.p[2] <= 0.0f ? 0 : (e.tag % 5u == 0u ? std::clamp(burst, 0, 3) : 1);
        for (int k = 0; k < n; ++k, ++s.requested)
            if (std::int64_t(s.next.size()) < capacity)
                s.next.push_back(
                    {{e.p[0] + float(k), e.p[1] + 1.0f, e.p[2] - 1.0f, float(i)}, e.tag * 3u + std::uint32_t(k) + 1u});
    }
    return s;
}

std::vector<Element> someElements(int n, int firstTag = 0) {
    std::vector<Element> v;
    for (int i = 0; i < n; ++i)
        v.push_back({{float(i), 0.0f, float((i * 7) % 6), 0.0f}, std::uint32_t(firstTag + i)}); // fuel 0..5
    return v;
}

// The fields' bytes of `elements`: the vec4s, the tags.
std::vector<float> positions(const std::vector<Element>& v) {
    std::vector<float> out;
    for (const auto& e : v) out.insert(out.end(), e.p, e.p + 4);
    return out;
}
std::vector<std::uint32_t> tags(const std::vector<Element>& v) {
    std::vector<std::uint32_t> out;
    for (const auto& e : v) out.push_back(e.tag);
    return out;
}

void spawnElements(Population& pop, const std::vector<Element>& v) {
    const auto p = positions(v);
    const auto t = tags(v);
    const std::span<const std::byte> fields[] = {std::as_bytes(std::span<const float>(p)),
                                                 std::as_bytes(std::span<const std::uint32_t>(t))};
    pop.spawn(std::span<const std::span<const std::byte>>(fields));
}

// The population's live elements equal `want`, byte for byte, and its count says so.
void requireState(const Population& pop, const std::vector<Element>& want, const char* what) {
    const PopulationCount c = pop.count();
    REQUIRE_MESSAGE(c.live == std::int64_t(want.size()), what, ": live ", c.live, ", reference ", want.size());
    requireEqual(pop.state(0).readAs<float>(0, c.live), positions(want), what);
    requireEqual(pop.state(1).readAs<std::uint32_t>(0, c.live), tags(want), what);
}

struct Sparks {
    Program program;
    explicit Sparks(Device& dev, int burst = 3) : program(dev, desc()) { program.setUniform("u_max", burst); }
    static ProgramDesc desc() {
        ProgramDesc d;
        d.source = kSparks;
        d.capture.varyings = {"gl_Position"}; // a Program captures something; a population keeps its records
        d.label = "sparks";
        return d;
    }
};

PopulationOptions sparkOptions(std::int64_t capacity, EmitOverflow overflow = EmitOverflow::Error, int group = 0) {
    PopulationOptions o;
    o.capacity = capacity;
    o.state = {{"a_p", "emit_p"}, {"a_tag", "emit_tag"}};
    o.count = "emit_n";
    o.overflow = overflow;
    o.workGroupSize = group;
    return o;
}

struct PathGuard {
    explicit PathGuard(detail::OrderedEmitPath p) { detail::orderedEmitPath = p; }
    ~PathGuard() { detail::orderedEmitPath = detail::OrderedEmitPath::Auto; }
};

// Without compute (the ES 3.0 run) a population is refused; returns true then.
bool refusedWithoutCompute(Device& dev) {
    if (dev.capabilities().compute) return false;
    Sparks sparks(dev);
    const std::string msg =
        XFB_REQUIRE_ERROR(Population(dev, sparks.program, sparkOptions(16)), ErrorCode::Unsupported);
    CHECK(contains(msg, "a population needs the compute backend (OpenGL 4.3+ or OpenGL ES 3.1+)"));
    // The description is still judged first, the same on every context.
    XFB_REQUIRE_ERROR(Population(dev, sparks.program, sparkOptions(0)), ErrorCode::InvalidArgument);
    return true;
}

} // namespace

TEST_CASE_FIXTURE(GlTest, "a population stepped N times equals the C++ reference byte for byte, on both emit paths") {
    if (refusedWithoutCompute(dev)) return;
    Sparks sparks(dev);
    for (auto path : {detail::OrderedEmitPath::MultiPass, detail::OrderedEmitPath::SinglePass})
        for (int group : {32, 64}) {
            CAPTURE(int(path));
            CAPTURE(group);
            std::optional<Population> made;
            {
                PathGuard guard(path);
                made.emplace(dev, sparks.program, sparkOptions(4096, EmitOverflow::Error, group));
            }
            Population& pop = *made;
            CHECK(pop.capacity() == 4096);
            std::vector<Element> ref = someElements(300);
            spawnElements(pop, ref);
            requireState(pop, ref, "after the spawn");
            for (int step = 0; step < 10; ++step) {
                CAPTURE(step);
                Stepped s = referenceStep(ref, 4096);
                pop.step();
                ref = s.next;
                requireState(pop, ref, "after a step");
                CHECK(pop.count().requested == s.requested);
                if (step == 3) { // births from the CPU land after the live elements
                    std::vector<Element> born = someElements(40, 1000);
                    spawnElements(pop, born);
                    ref.insert(ref.end(), born.begin(), born.end());
                    requireState(pop, ref, "after a spawn between steps");
                }
            }
            // Fuel runs out (5 at most, the last births at step 3): everything died, and the empty
            // population stepped to nothing.
            CHECK(ref.empty());
            CHECK(pop.count().live == 0);
            CHECK(pop.count().dropped == 0);
            CHECK(pop.stepsTaken() == 10);
        }
}

TEST_CASE_FIXTURE(GlTest,
                  "an empty population steps to an empty one, all dying empties it, spawning starts at 0 again") {
    if (refusedWithoutCompute(dev)) return;
    Sparks sparks(dev);
    for (auto path : {detail::OrderedEmitPath::MultiPass, detail::OrderedEmitPath::SinglePass}) {
        CAPTURE(int(path));
        std::optional<Population> made;
        {
            PathGuard guard(path);
            made.emplace(dev, sparks.program, sparkOptions(100, EmitOverflow::Error, 32));
        }
        Population& pop = *made;
        PopulationCount c = pop.count();
        CHECK(c.live == 0);
        CHECK(c.capacity == 100);
        pop.step();
        c = pop.stepChecked();
        CHECK(c.live == 0);
        CHECK(c.requested == 0);
        // 70 elements without fuel: every one dies (three tiles of 32, the last part full).
        std::vector<Element> dying = someElements(70);
        for (auto& e : dying) e.p[2] = 0.0f;
        spawnElements(pop, dying);
        CHECK(pop.count().live == 70);
        c = pop.stepChecked();
        CHECK(c.live == 0);
        CHECK(c.requested == 0);
        pop.step();
        CHECK(pop.count().live == 0);
        // The next births start at slot 0 again.
        std::vector<Element> born = someElements(5, 7);
        spawnElements(pop, born);
        requireState(pop, born, "born into an emptied population");
        Stepped s = referenceStep(born, 100);
        pop.step();
        requireState(pop, s.next, "stepped after the births");
    }
}

TEST_CASE_FIXTURE(GlTest,
                  "an element emitting k records: its k records in record order, clamped to the arrays' length") {
    if (refusedWithoutCompute(dev)) return;
    for (int burst : {2, 3, 7, -1}) { // 7 clamps to 3 records, -1 to none
        CAPTURE(burst);
        Sparks sparks(dev, burst);
        Population pop(dev, sparks.program, sparkOptions(64));
        std::vector<Element> one{{{4.0f, 1.0f, 3.0f, 0.0f}, 10u}}; // tag 10: bursts
        spawnElements(pop, one);
        Stepped s = referenceStep(one, 64, burst);
        pop.step();
        requireState(pop, s.next, "the burst");
        CHECK(pop.count().live == std::clamp(burst, 0, 3));
    }
}

TEST_CASE_FIXTURE(GlTest, "spawning into a full population: Error refuses at the next checked step, Clamp counts") {
    if (refusedWithoutCompute(dev)) return;
    Sparks sparks(dev);
    const std::vector<Element> first = someElements(6);
    std::vector<Element> second = someElements(4, 100);
    second[0].p[2] = 2.0f; // tag 100 bursts
    std::vector<Element> kept = first;
    kept.insert(kept.end(), second.begin(), second.begin() + 2); // the first 2 of the second spawn fit
    {
        Population pop(dev, sparks.program, sparkOptions(8, EmitOverflow::Error));
        spawnElements(pop, first);
        spawnElements(pop, second);
        requireState(pop, kept, "the first records kept");
        PopulationCount c = pop.count();
        CHECK(c.requested == 10);
        CHECK(c.dropped == 2);
        CHECK(c.droppedUnchecked == 2);
        const std::string msg = XFB_REQUIRE_ERROR(pop.stepChecked(), ErrorCode::Capacity);
        CHECK(contains(msg, "2 records were dropped past the population's capacity of 8"));
        CHECK(contains(msg, "This step was not run"));
        CHECK(pop.stepsTaken() == 0);
        requireState(pop, kept, "not stepped");
        CHECK(pop.count().droppedUnchecked == 0); // reported once
        // Its own records overflow too: tags 1..4 and 101 live on, 5 and 100 burst into 3, 0 dies: 11 > 8.
        Stepped s = referenceStep(kept, 8);
        REQUIRE(s.requested > 8);
        const std::string over = XFB_REQUIRE_ERROR(pop.stepChecked(), ErrorCode::Capacity);
        CHECK(contains(over,
                       "wrote " + std::to_string(s.requested) + " records of the next state but its capacity is 8"));
        requireState(pop, kept, "an overflowing checked step is not swapped");
        CHECK(pop.count().dropped == 2);
        // An unchecked step keeps the first 8 and counts the rest, as Clamp does.
        pop.step();
        requireState(pop, s.next, "an unchecked step keeps the first records");
        CHECK(pop.count().dropped == 2 + s.requested - 8);
        XFB_REQUIRE_ERROR(pop.stepChecked(), ErrorCode::Capacity);
    }
    {
        Population pop(dev, sparks.program, sparkOptions(8, EmitOverflow::Clamp));
        spawnElements(pop, first);
        spawnElements(pop, second);
        PopulationCount c = pop.stepChecked(); // not an error
        Stepped s = referenceStep(kept, 8);
        requireState(pop, s.next, "clamped");
        CHECK(c.live == 8);
        CHECK(c.requested == s.requested);
        CHECK(c.dropped == 2 + s.requested - 8);
    }
    // A spawn larger than the capacity is refused whole, before any GL work.
    Population pop(dev, sparks.program, sparkOptions(8));
    const std::string msg = XFB_REQUIRE_ERROR(spawnElements(pop, someElements(9)), ErrorCode::Capacity);
    CHECK(contains(msg, "spawn of 9 records into a population whose capacity is 8"));
    CHECK(pop.count().live == 0);
}

TEST_CASE_FIXTURE(GlTest, "steady population steps and spawns make no CPU readback and create nothing") {
    if (refusedWithoutCompute(dev)) return;
    Sparks sparks(dev);
    for (auto path : {detail::OrderedEmitPath::MultiPass, detail::OrderedEmitPath::SinglePass}) {
        CAPTURE(int(path));
        std::optional<Population> made;
        {
            PathGuard guard(path);
            made.emplace(dev, sparks.program, sparkOptions(2048, EmitOverflow::Clamp, 64));
        }
        Population& pop = *made;
        std::vector<Element> ref = someElements(500);
        spawnElements(pop, ref);
        pop.step();
        ref = referenceStep(ref, 2048).next;
        resetGlCalls();
        for (int i = 0; i < 3; ++i) {
            pop.step();
            ref = referenceStep(ref, 2048).next;
        }
        const std::vector<Element> born = someElements(30, 77);
        spawnElements(pop, born);
        ref.insert(ref.end(), born.begin(), born.end());
        pop.step();
        ref = referenceStep(ref, 2048).next;
        const GlCalls calls = glCalls();
        MESSAGE("4 steps and a spawn: ", calls.describe());
        for (const char* readBack :
             {"glMapBufferRange", "glGetBufferSubData", "glReadPixels", "glClientWaitSync", "glWaitSync", "glFenceSync",
              "glFinish", "glGetQueryObjectuiv", "glGetBufferParameteriv", "glGetBufferParameteri64v"})
            CHECK_MESSAGE(calls.of(readBack) == 0, readBack, " in a steady step: ", calls.describe());
        CHECK(calls.created == 0);
        // The passes over the live elements run indirectly: one per step.
        CHECK(calls.of("glDispatchComputeIndirect") == 4);
        CHECK(calls.of("glBufferData") == 2); // the spawn's two fields, into their staging buffers
        requireState(pop, ref, "after the counted steps");
    }
}

TEST_CASE_FIXTURE(GlTest, "draw() draws the live elements from the GPU count, and countAsync() reads it later") {
    if (refusedWithoutCompute(dev)) return;
    Sparks sparks(dev);
    Population pop(dev, sparks.program, sparkOptions(64));
    std::vector<Element> ref = someElements(12);
    spawnElements(pop, ref);
    pop.step();
    ref = referenceStep(ref, 64).next;
    std::set<int> columns; // each element lights the pixel of its x
    for (const auto& e : ref) columns.insert(int(e.p[0]));
    REQUIRE(columns.size() > 3);

    PopulationCountRequest request = pop.countAsync();
    Offscreen row(64, 1);
    row.clear();
    GLuint draw = linkDrawProgram(
        "#version 300 es\nlayout(location = 0) in vec4 p;\nvoid main() { gl_Position = vec4(-1.0 + (2.0 * p.x + 1.0) / "
        "64.0, 0.0, 0.0, 1.0); gl_PointSize = 1.0; }\n",
        "#version 300 es\nprecision mediump float;\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n");
    GLuint vao = 0;
    glUseProgram(draw);
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    pop.state(0).bindAsVertexInput(0, attr(0));
    resetGlCalls();
    pop.draw(DrawMode::Points);
    CHECK(glCalls().of("glDrawArraysIndirect") == 1);
    auto lit = row.lit();
    std::set<int> litColumns;
    for (int x = 0; x < 64; ++x)
        if (lit[std::size_t(x)]) litColumns.insert(x);
    CHECK(litColumns == columns);
    CHECK(contains(XFB_REQUIRE_ERROR(pop.draw(DrawMode(99)), ErrorCode::InvalidArgument), "Population::draw"));
    glBindVertexArray(0);
    glUseProgram(0);
    glDeleteVertexArrays(1, &vao);
    glDeleteProgram(draw);

    const PopulationCount c = request.take();
    CHECK(c.live == std::int64_t(ref.size()));
    CHECK(c.capacity == 64);
    XFB_REQUIRE_ERROR(request.take(), ErrorCode::Disposed);
}

TEST_CASE_FIXTURE(GlTest, "every misuse of a population is refused with its code") {
    if (refusedWithoutCompute(dev)) return;
    Sparks sparks(dev);
    auto with = [](auto change) {
        PopulationOptions o = sparkOptions(16);
        change(o);
        return o;
    };
    CHECK(contains(XFB_REQUIRE_ERROR(Population(dev, sparks.program, with([](auto& o) { o.capacity = 0; })),
                                     ErrorCode::InvalidArgument),
                   "capacity must be > 0, got 0"));
    // A program without the emitted state output.
    CHECK(contains(
        XFB_REQUIRE_ERROR(Population(dev, sparks.program, with([](auto& o) { o.state[0].emitted = "emit_position"; })),
                          ErrorCode::UnknownVarying),
        "the program declares no output 'emit_position'"));
    ProgramDesc plain;
    plain.source = "#version 300 es\nin vec4 a_p;\nout vec4 out_p;\nvoid main() { out_p = a_p; }\n";
    Program noEmits(dev, plain);
    PopulationOptions o = sparkOptions(16);
    o.state = {{"a_p", "emit_p"}};
    CHECK(contains(XFB_REQUIRE_ERROR(Population(dev, noEmits, o), ErrorCode::UnknownVarying), "no output 'emit_p'"));
    CHECK(contains(XFB_REQUIRE_ERROR(Population(dev, sparks.program, with([](auto& o) { o.count = "emit_count"; })),
                                     ErrorCode::UnknownVarying),
                   "count output 'emit_count'"));
    XFB_REQUIRE_ERROR(Population(dev, sparks.program, with([](auto& o) { o.state.pop_back(); })),
                      ErrorCode::SemanticMissing);
    XFB_REQUIRE_ERROR(
        Population(dev, sparks.program, with([](auto& o) { std::swap(o.state[0].emitted, o.state[1].emitted); })),
        ErrorCode::SemanticTypeMismatch);
    CHECK(contains(XFB_REQUIRE_ERROR(
                       Population(dev, sparks.program, with([](auto& o) { o.backend = Backend::TransformFeedback; })),
                       ErrorCode::Unsupported),
                   "transform feedback writes one record per element"));
    CHECK(contains(
        XFB_REQUIRE_ERROR(Population(dev, sparks.program, with([](auto& o) { o.backend = Backend::Fragment; })),
                          ErrorCode::Unsupported),
        "not built yet"));
    CHECK(contains(XFB_REQUIRE_ERROR(Population(dev, sparks.program, with([](auto& o) { o.workGroupSize = 1 << 20; })),
                                     ErrorCode::InvalidArgument),
                   "work-group size 1048576 exceeds"));

    Population pop(dev, sparks.program, sparkOptions(16));
    const std::vector<float> p(8, 1.0f);
    const std::vector<std::uint32_t> t(3, 1u);
    CHECK(contains(XFB_REQUIRE_ERROR(pop.spawn(std::as_bytes(std::span<const float>(p))), ErrorCode::InvalidArgument),
                   "1 spans given for a state of 2 field(s)"));
    const std::span<const std::byte> uneven[] = {std::as_bytes(std::span<const float>(p)),
                                                 std::as_bytes(std::span<const std::uint32_t>(t))};
    CHECK(contains(
        XFB_REQUIRE_ERROR(pop.spawn(std::span<const std::span<const std::byte>>(uneven)), ErrorCode::InvalidArgument),
        "field #1 ('a_tag') gets 3 records but field #0 gets 2"));
    const std::span<const std::byte> partial[] = {std::as_bytes(std::span<const float>(p)).first(20),
                                                  std::as_bytes(std::span<const std::uint32_t>(t))};
    CHECK(contains(
        XFB_REQUIRE_ERROR(pop.spawn(std::span<const std::span<const std::byte>>(partial)), ErrorCode::InvalidArgument),
        "gets 20 bytes, not a whole number of 16-byte records"));
    CHECK(pop.count().live == 0); // nothing refused was spawned
    CHECK(contains(XFB_REQUIRE_ERROR(pop.state(2), ErrorCode::InvalidArgument), "the state has 2 field(s)"));
    Population moved = std::move(pop);
    CHECK(moved.count().live == 0);
    CHECK(contains(XFB_REQUIRE_ERROR(pop.step(), ErrorCode::Disposed), "this Population was moved from"));
}

TEST_CASE_FIXTURE(GlTest, "after a context loss a population comes back empty and steps as a new one") {
    if (refusedWithoutCompute(dev)) return;
    Sparks sparks(dev);
    Population pop(dev, sparks.program, sparkOptions(256));
    spawnElements(pop, someElements(20));
    pop.step();
    dev.contextLost();
    CHECK(contains(XFB_REQUIRE_ERROR(pop.step(), ErrorCode::ContextLost), "Population::step"));
    XFB_REQUIRE_ERROR(spawnElements(pop, someElements(2)), ErrorCode::ContextLost);
    dev.contextRestored(); // here the context never went away: new objects are made all the same
    const PopulationCount c = pop.count();
    CHECK(c.live == 0);
    CHECK(c.dropped == 0);
    std::vector<Element> ref = someElements(30, 3);
    spawnElements(pop, ref);
    for (int step = 0; step < 3; ++step) {
        pop.step();
        ref = referenceStep(ref, 256).next;
        requireState(pop, ref, "stepped after the restore");
    }
}
