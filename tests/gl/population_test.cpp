// Populations (xfb/population.hpp): a state whose live count stays on the GPU, stepped over its
// live elements only, each element writing 0, 1 or k records of the next state in element order,
// then record order. Compared byte for byte with a C++ reference after every step, on every backend
// the context has: the fragment backend everywhere (the ES 3.0 run: WebGL2's rules), and where the
// context has compute (GL 4.5 core, ES 3.2) GL compute on both paths of the ordered emit (the count
// pass + prefix sum, and the single pass with its look-back, forced on llvmpipe), whose states the
// fragment backend's must equal. With empty populations, spawns into full ones under both overflow
// policies, all elements dying, and a count of the CPU readbacks of steady steps: zero.
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
    REQUIRE_MESSAGE(c.live == std::int64_t(want.size()), std::string(what), ": live ", c.live, ", reference ",
                    want.size());
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

// A way to run a population: the fragment backend, or compute on one path of its ordered emit.
struct Way {
    Backend backend;
    detail::OrderedEmitPath path = detail::OrderedEmitPath::Auto;
    std::string name() const {
        if (backend == Backend::Fragment) return "fragment";
        return path == detail::OrderedEmitPath::SinglePass ? "compute (single pass)" : "compute (multi-pass)";
    }
};

// Every way this context runs a population: the fragment backend, and both compute paths where it has compute.
std::vector<Way> waysOf(const Device& dev) {
    std::vector<Way> ways{{Backend::Fragment}};
    if (dev.capabilities().compute)
        for (auto path : {detail::OrderedEmitPath::MultiPass, detail::OrderedEmitPath::SinglePass})
            ways.push_back({Backend::Compute, path});
    return ways;
}

Population make(Device& dev, const Program& program, PopulationOptions o, const Way& way) {
    o.backend = way.backend;
    PathGuard guard(way.path);
    Population pop(dev, program, o);
    CHECK(pop.backend() == way.backend);
    return pop;
}

// The live elements of `a` and `b` are the same bytes, and so are their counts.
void requireSameState(const Population& a, const Population& b, const char* what) {
    const PopulationCount ca = a.count(), cb = b.count();
    REQUIRE_MESSAGE(ca.live == cb.live, what);
    CHECK(ca.requested == cb.requested);
    CHECK(ca.dropped == cb.dropped);
    CHECK(ca.droppedUnchecked == cb.droppedUnchecked);
    for (std::size_t f = 0; f < 2; ++f)
        requireEqual(a.state(f).readAs<std::uint32_t>(0, ca.live), b.state(f).readAs<std::uint32_t>(0, cb.live), what);
}

} // namespace

TEST_CASE_FIXTURE(GlTest, "a population stepped N times equals the C++ reference byte for byte, on every backend") {
    Sparks sparks(dev);
    for (const Way& way : waysOf(dev))
        for (int group : {32, 64}) {
            if (way.backend == Backend::Fragment && group == 64) continue; // no work groups there
            CAPTURE(way.name());
            CAPTURE(group);
            Population pop = make(dev, sparks.program, sparkOptions(4096, EmitOverflow::Error, group), way);
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
    Sparks sparks(dev);
    for (const Way& way : waysOf(dev)) {
        CAPTURE(way.name());
        Population pop = make(dev, sparks.program, sparkOptions(100, EmitOverflow::Error, 32), way);
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
    for (const Way& way : waysOf(dev))
        for (int burst : {2, 3, 7, -1}) { // 7 clamps to 3 records, -1 to none
            CAPTURE(way.name());
            CAPTURE(burst);
            Sparks sparks(dev, burst);
            Population pop = make(dev, sparks.program, sparkOptions(64), way);
            // Tag 10 bursts; the others live on around it, so its records land between theirs.
            std::vector<Element> some{
                {{1.0f, 0.0f, 2.0f, 0.0f}, 1u}, {{4.0f, 1.0f, 3.0f, 0.0f}, 10u}, {{7.0f, 2.0f, 1.0f, 0.0f}, 3u}};
            spawnElements(pop, some);
            Stepped s = referenceStep(some, 64, burst);
            pop.step();
            requireState(pop, s.next, "the burst");
            CHECK(pop.count().live == 2 + std::clamp(burst, 0, 3));
            CHECK(pop.count().requested == 2 + std::clamp(burst, 0, 3));
        }
}

TEST_CASE_FIXTURE(GlTest, "spawning into a full population: Error refuses at the next checked step, Clamp counts") {
    Sparks sparks(dev);
    for (const Way& way : waysOf(dev)) {
        CAPTURE(way.name());
        const std::vector<Element> first = someElements(6);
        std::vector<Element> second = someElements(4, 100);
        second[0].p[2] = 2.0f; // tag 100 bursts
        std::vector<Element> kept = first;
        kept.insert(kept.end(), second.begin(), second.begin() + 2); // the first 2 of the second spawn fit
        {
            Population pop = make(dev, sparks.program, sparkOptions(8, EmitOverflow::Error), way);
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
            CHECK(contains(over, "wrote " + std::to_string(s.requested) +
                                     " records of the next state but its capacity is 8"));
            requireState(pop, kept, "an overflowing checked step is not swapped");
            CHECK(pop.count().dropped == 2);
            // An unchecked step keeps the first 8 and counts the rest, as Clamp does.
            pop.step();
            requireState(pop, s.next, "an unchecked step keeps the first records");
            CHECK(pop.count().dropped == 2 + s.requested - 8);
            XFB_REQUIRE_ERROR(pop.stepChecked(), ErrorCode::Capacity);
        }
        {
            Population pop = make(dev, sparks.program, sparkOptions(8, EmitOverflow::Clamp), way);
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
        Population pop = make(dev, sparks.program, sparkOptions(8), way);
        const std::string msg = XFB_REQUIRE_ERROR(spawnElements(pop, someElements(9)), ErrorCode::Capacity);
        CHECK(contains(msg, "spawn of 9 records into a population whose capacity is 8"));
        CHECK(pop.count().live == 0);
        // A spawn into a full population keeps nothing of it, and counts all of it dropped.
        spawnElements(pop, someElements(8));
        spawnElements(pop, someElements(3, 50));
        requireState(pop, someElements(8), "the full population, unchanged");
        CHECK(pop.count().dropped == 3);
        CHECK(pop.count().requested == 11);
    }
}

TEST_CASE_FIXTURE(GlTest,
                  "the fragment backend's population equals compute's, step by step, spawns and overflow included") {
    if (!dev.capabilities().compute) return; // the ES 3.0 run has the fragment backend only
    Sparks sparks(dev);
    // Desktop GL sizes points by glPointSize unless a program's size is enabled: the spawn's points
    // must stay one texel wide all the same.
    if (!dev.capabilities().es) glPointSize(5.0f);
    for (auto path : {detail::OrderedEmitPath::MultiPass, detail::OrderedEmitPath::SinglePass}) {
        CAPTURE(int(path));
        // A capacity the bursts overflow: both keep the first records and count the same drops.
        Population compute =
            make(dev, sparks.program, sparkOptions(700, EmitOverflow::Clamp), {Backend::Compute, path});
        Population fragment = make(dev, sparks.program, sparkOptions(700, EmitOverflow::Clamp), {Backend::Fragment});
        std::vector<Element> ref = someElements(500);
        for (Population* p : {&compute, &fragment}) spawnElements(*p, ref);
        requireSameState(compute, fragment, "after the spawn");
        for (int step = 0; step < 6; ++step) {
            CAPTURE(step);
            compute.step();
            fragment.step();
            ref = referenceStep(ref, 700).next;
            requireState(fragment, ref, "the fragment backend's step");
            requireSameState(compute, fragment, "after a step");
            if (step == 1) {
                const std::vector<Element> born = someElements(300, 2000); // past the capacity: some dropped
                for (Population* p : {&compute, &fragment}) spawnElements(*p, born);
                for (const auto& e : born)
                    if (ref.size() < 700) ref.push_back(e);
                requireSameState(compute, fragment, "after a spawn past the capacity");
            }
        }
        CHECK(fragment.count().dropped > 0);
    }
    if (!dev.capabilities().es) {
        CHECK_FALSE(glIsEnabled(GL_PROGRAM_POINT_SIZE)); // as it was
        glPointSize(1.0f);
    }
}

TEST_CASE_FIXTURE(GlTest, "a population past one texture row: spawns and records cross the rows of the planes") {
    // The fragment backend's planes are 4096 texels wide: 10000 slots span three rows, and so do the
    // pyramid's level 0 and the spawns placed at the live count.
    Sparks sparks(dev);
    for (const Way& way : waysOf(dev)) {
        CAPTURE(way.name());
        Population pop = make(dev, sparks.program, sparkOptions(10000, EmitOverflow::Clamp), way);
        std::vector<Element> ref = someElements(4000);
        spawnElements(pop, ref);
        const std::vector<Element> born = someElements(300, 5000); // slots 4000..4299: across the first row's end
        spawnElements(pop, born);
        ref.insert(ref.end(), born.begin(), born.end());
        requireState(pop, ref, "spawned across a row");
        for (int step = 0; step < 3; ++step) {
            CAPTURE(step);
            pop.step();
            ref = referenceStep(ref, 10000).next;
            requireState(pop, ref, "stepped");
        }
        CHECK(pop.count().live > 4096);
    }
}

TEST_CASE_FIXTURE(GlTest, "steady population steps and spawns make no CPU readback and create nothing") {
    Sparks sparks(dev);
    for (const Way& way : waysOf(dev)) {
        CAPTURE(way.name());
        Population pop = make(dev, sparks.program, sparkOptions(2048, EmitOverflow::Clamp, 64), way);
        std::vector<Element> ref = someElements(500);
        spawnElements(pop, ref);
        for (int i = 0; i < 2; ++i) { // both sides once: the fragment backend's framebuffers of each are made
            pop.step();
            ref = referenceStep(ref, 2048).next;
        }
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
        MESSAGE(way.name(), ": 4 steps and a spawn: ", calls.describe());
        for (const char* readBack :
             {"glMapBufferRange", "glGetBufferSubData", "glReadPixels", "glClientWaitSync", "glWaitSync", "glFenceSync",
              "glFinish", "glGetQueryObjectuiv", "glGetBufferParameteriv", "glGetBufferParameteri64v"})
            CHECK_MESSAGE(calls.of(readBack) == 0, readBack, " in a steady step: ", calls.describe());
        CHECK(calls.created == 0);
        CHECK(calls.of("glBufferData") == 2); // the spawn's two fields, into their staging buffers
        if (way.backend == Backend::Compute) {
            // The passes over the live elements run indirectly: one per step.
            CHECK(calls.of("glDispatchComputeIndirect") == 4);
        } else {
            // No copy between the buffers and their planes: the state stays in the planes.
            CHECK(calls.of("glTexSubImage2D") == 0);
            CHECK(calls.of("glCopyBufferSubData") == 0);
            CHECK(calls.of("glDispatchCompute") == 0);
        }
        requireState(pop, ref, "after the counted steps");
    }
}

TEST_CASE_FIXTURE(GlTest, "draw() draws the live elements from the GPU count, and countAsync() reads it later") {
    Sparks sparks(dev);
    // One program for both backends: emittedDrawSnippet() clips what is past the live count on the
    // fragment backend (which draws the capacity) and keeps every vertex of compute's indirect draw.
    const std::string vertex = std::string("#version 300 es\n") + std::string(emittedDrawSnippet()) +
                               "layout(location = 0) in vec4 p;\nvoid main() { gl_Position = "
                               "xfb_emittedPosition(vec4(-1.0 + (2.0 * p.x + 1.0) / 64.0, 0.0, 0.0, 1.0)); "
                               "gl_PointSize = 1.0; }\n";
    const char* white = "#version 300 es\nprecision mediump float;\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n";
    GLuint draw = linkDrawProgram(vertex.c_str(), white);
    GLuint plain = linkDrawProgram("#version 300 es\nlayout(location = 0) in vec4 p;\nvoid main() { gl_Position = "
                                   "vec4(p.xy, 0.0, 1.0); gl_PointSize = 1.0; }\n",
                                   white);
    for (const Way& way : waysOf(dev)) {
        CAPTURE(way.name());
        Population pop = make(dev, sparks.program, sparkOptions(64), way);
        // Slots past the live count hold records of an earlier step (x 20..29), which must not be drawn.
        std::vector<Element> ref = someElements(30);
        for (auto& e : ref) e.p[2] = 1.0f; // each lives one more step
        spawnElements(pop, ref);
        pop.step();
        ref = referenceStep(ref, 64).next;
        pop.step();
        ref = referenceStep(ref, 64).next; // tags divisible by 5 burst, then everything dies
        spawnElements(pop, someElements(12));
        pop.step();
        ref = referenceStep(someElements(12), 64).next;
        std::set<int> columns; // each element lights the pixel of its x
        for (const auto& e : ref) columns.insert(int(e.p[0]));
        REQUIRE(columns.size() > 3);
        REQUIRE(columns.size() < 20);

        PopulationCountRequest request = pop.countAsync();
        Offscreen row(64, 1);
        row.clear();
        GLuint vao = 0;
        glUseProgram(draw);
        glGenVertexArrays(1, &vao);
        glBindVertexArray(vao);
        pop.state(0).bindAsVertexInput(0, attr(0));
        resetGlCalls();
        pop.draw(DrawMode::Points);
        if (way.backend == Backend::Compute)
            CHECK(glCalls().of("glDrawArraysIndirect") == 1);
        else {
            CHECK(glCalls().of("glDrawArrays") == 1);
            CHECK(glCalls().of("glReadPixels") == 0);
        }
        auto lit = row.lit();
        std::set<int> litColumns;
        for (int x = 0; x < 64; ++x)
            if (lit[std::size_t(x)]) litColumns.insert(x);
        CHECK(litColumns == columns);
        CHECK(contains(XFB_REQUIRE_ERROR(pop.draw(DrawMode(99)), ErrorCode::InvalidArgument), "Population::draw"));
        if (way.backend == Backend::Fragment) {
            CHECK(contains(XFB_REQUIRE_ERROR(pop.draw(DrawMode::TriangleStrip), ErrorCode::Unsupported),
                           "whole primitives of a list only"));
            glUseProgram(plain); // without the snippet nothing would clip the capacity at the live count
            CHECK(contains(XFB_REQUIRE_ERROR(pop.draw(DrawMode::Points), ErrorCode::InvalidArgument),
                           "paste xfb::emittedDrawSnippet()"));
            CHECK(pop.countTexture() != 0);
            CHECK(pop.countBuffer() == 0);
        } else {
            CHECK(pop.countTexture() == 0);
            CHECK(pop.countBuffer() != 0);
        }
        glBindVertexArray(0);
        glUseProgram(0);
        glDeleteVertexArrays(1, &vao);

        const PopulationCount c = request.take();
        CHECK(c.live == std::int64_t(ref.size()));
        CHECK(c.capacity == 64);
        XFB_REQUIRE_ERROR(request.take(), ErrorCode::Disposed);
    }
    glDeleteProgram(draw);
    glDeleteProgram(plain);
}

TEST_CASE_FIXTURE(GlTest, "Auto runs a population on compute where the context has it, else on the fragment backend") {
    Sparks sparks(dev);
    Population pop(dev, sparks.program, sparkOptions(16));
    CHECK(pop.backend() == (dev.capabilities().compute ? Backend::Compute : Backend::Fragment));
    CHECK(pop.computeSource().empty() == !dev.capabilities().compute);
    if (dev.capabilities().compute) return;
    PopulationOptions o = sparkOptions(16);
    o.backend = Backend::Compute;
    CHECK(contains(XFB_REQUIRE_ERROR(Population(dev, sparks.program, o), ErrorCode::Unsupported),
                   "Use Backend::Fragment (or Auto), which runs on OpenGL ES 3.0 and WebGL2"));
    // The description is still judged first, the same on every context.
    o.capacity = 0;
    XFB_REQUIRE_ERROR(Population(dev, sparks.program, o), ErrorCode::InvalidArgument);
}

TEST_CASE_FIXTURE(GlTest, "every misuse of a population is refused with its code") {
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
    if (dev.capabilities().compute)
        CHECK(contains(
            XFB_REQUIRE_ERROR(Population(dev, sparks.program, with([](auto& o) { o.workGroupSize = 1 << 20; })),
                              ErrorCode::InvalidArgument),
            "work-group size 1048576 exceeds"));

    for (const Way& way : waysOf(dev)) {
        CAPTURE(way.name());
        Population pop = make(dev, sparks.program, sparkOptions(16), way);
        const std::vector<float> p(8, 1.0f);
        const std::vector<std::uint32_t> t(3, 1u);
        CHECK(
            contains(XFB_REQUIRE_ERROR(pop.spawn(std::as_bytes(std::span<const float>(p))), ErrorCode::InvalidArgument),
                     "1 spans given for a state of 2 field(s)"));
        const std::span<const std::byte> uneven[] = {std::as_bytes(std::span<const float>(p)),
                                                     std::as_bytes(std::span<const std::uint32_t>(t))};
        CHECK(contains(XFB_REQUIRE_ERROR(pop.spawn(std::span<const std::span<const std::byte>>(uneven)),
                                         ErrorCode::InvalidArgument),
                       "field #1 ('a_tag') gets 3 records but field #0 gets 2"));
        const std::span<const std::byte> partial[] = {std::as_bytes(std::span<const float>(p)).first(20),
                                                      std::as_bytes(std::span<const std::uint32_t>(t))};
        CHECK(contains(XFB_REQUIRE_ERROR(pop.spawn(std::span<const std::span<const std::byte>>(partial)),
                                         ErrorCode::InvalidArgument),
                       "gets 20 bytes, not a whole number of 16-byte records"));
        CHECK(pop.count().live == 0); // nothing refused was spawned
        CHECK(contains(XFB_REQUIRE_ERROR(pop.state(2), ErrorCode::InvalidArgument), "the state has 2 field(s)"));
        Population moved = std::move(pop);
        CHECK(moved.count().live == 0);
        CHECK(contains(XFB_REQUIRE_ERROR(pop.step(), ErrorCode::Disposed), "this Population was moved from"));
    }
}

TEST_CASE_FIXTURE(GlTest, "after a context loss a population comes back empty and steps as a new one") {
    Sparks sparks(dev);
    for (const Way& way : waysOf(dev)) {
        CAPTURE(way.name());
        Population pop = make(dev, sparks.program, sparkOptions(256), way);
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
}
