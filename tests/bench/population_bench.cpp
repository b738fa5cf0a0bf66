// xfb-bench-stream --population: an xfb::Population step against the design GPU particle engines
// use for a population whose size lives on the GPU (issue 42): a fixed pool of slots, an alive
// list per side and a dead list of free slots, every death pushed and every birth popped with
// atomicAdd, so the order of the alive list changes from run to run. Both run one simulation:
//
//   an element is vec4(x, y, life, seed); with life < 1 it dies, else it lives on as
//   (x, y + 0.5, life - 1, next(seed)) and, when (seed >> 8) % 8 == 0, bears a child
//   (x + 0.25, y + 0.5, 8, next(seed) + 1); next(s) = (s * 1103515245 + 12345) & 0xFFFFFF.
//
// Every value is exact in float, so both variants hold the same elements after every step: the
// population's in the reference's order (byte for byte), the dead-list version's as a set (sorted
// words). The live count stays near the initial size (about one child per lifetime), within the
// capacity of twice that. Per size both are built, then stepped in lockstep, each step fenced and
// timed; medians, and the ratio population / dead list (issue 42's goal: at most 1.25 at 1e6).
// The population runs on both of its backends: compute (GL 4.3) and fragment (what ES 3.0 runs).
//
//   xfb-bench-stream --population [--sizes 1e4,1e5,1e6] [--steps K] [--json FILE]
#include "population_bench.hpp"

#include "raw_gl.hpp"

#include "xfb/headless_context.hpp"
#include "xfb/xfb.hpp"

#include <GL/glcorearb.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <span>
#include <string>
#include <vector>

using namespace xfb;
using json = nlohmann::ordered_json;

namespace xfbbench {
namespace {

using Element = std::array<float, 4>; // x, y, life, seed

constexpr const char* kPopulationSource = R"(#version 300 es
in vec4 a_p;
out vec4 emit_p[2];
flat out int emit_n;
void main() {
    uint seed = uint(a_p.w);
    emit_n = a_p.z < 1.0 ? 0 : ((seed >> 8u) % 8u == 0u ? 2 : 1);
    for (int k = 0; k < 2; ++k) {
        uint s = (seed * 1103515245u + 12345u + uint(k)) & 0xFFFFFFu;
        emit_p[k] = vec4(a_p.x + 0.25 * float(k), a_p.y + 0.5, k == 0 ? a_p.z - 1.0 : 8.0, float(s));
    }
    gl_Position = vec4(0.0);
}
)";

std::uint32_t nextSeed(std::uint32_t seed, std::uint32_t k) { return (seed * 1103515245u + 12345u + k) & 0xFFFFFFu; }

std::vector<Element> initialElements(std::size_t n) {
    std::vector<Element> v(n);
    for (std::size_t i = 0; i < n; ++i)
        v[i] = {0.0f, 0.0f, float(1 + i % 8), float(std::uint32_t(i * 2654435761u) & 0xFFFFFFu)};
    return v;
}

// One step of the simulation in C++, in the population's order (element, then record).
std::vector<Element> referenceStep(const std::vector<Element>& now) {
    std::vector<Element> next;
    next.reserve(now.size() + now.size() / 4);
    for (const Element& e : now) {
        const auto seed = std::uint32_t(e[3]);
        const int n = e[2] < 1.0f ? 0 : ((seed >> 8u) % 8u == 0u ? 2 : 1);
        for (int k = 0; k < n; ++k)
            next.push_back({e[0] + 0.25f * float(k), e[1] + 0.5f, k == 0 ? e[2] - 1.0f : 8.0f,
                            float(nextSeed(seed, std::uint32_t(k)))});
    }
    return next;
}

// The hand-written baseline's three kernels over one counter block (words: 0-1 the alive counts of
// the two sides, 2 the dead list's top, 3 pops this step, 4 frees this step, 5 where the frees
// go, 6 how many, 7 births dropped for want of a free slot, 8-10 and 11-13 the indirect dispatches
// of the next simulate and free passes).
constexpr const char* kDeadListHeader = R"(#version 430 core
layout(std430, binding = 0) buffer Pool { vec4 pool[]; };
layout(std430, binding = 1) buffer AliveNow { uint aliveNow[]; };
layout(std430, binding = 2) buffer AliveNext { uint aliveNext[]; };
layout(std430, binding = 3) buffer Dead { uint dead[]; };
layout(std430, binding = 4) buffer Freed { uint freed[]; };
layout(std430, binding = 5) buffer Counters { uint c[14]; };
uniform uint u_now;
)";

constexpr const char* kSimulate = R"(layout(local_size_x = 256) in;
vec4 record(vec4 p, uint seed, uint k) {
    uint s = (seed * 1103515245u + 12345u + k) & 0xFFFFFFu;
    return vec4(p.x + 0.25 * float(k), p.y + 0.5, k == 0u ? p.z - 1.0 : 8.0, float(s));
}
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= c[u_now]) return;
    uint slot = aliveNow[i];
    vec4 p = pool[slot];
    uint seed = uint(p.w);
    if (p.z < 1.0) { freed[atomicAdd(c[4], 1u)] = slot; return; }
    pool[slot] = record(p, seed, 0u);
    aliveNext[atomicAdd(c[1u - u_now], 1u)] = slot;
    if ((seed >> 8u) % 8u != 0u) return;
    uint j = atomicAdd(c[3], 1u);
    if (j >= c[2]) { atomicAdd(c[7], 1u); return; }
    uint child = dead[c[2] - 1u - j];
    pool[child] = record(p, seed, 1u);
    aliveNext[atomicAdd(c[1u - u_now], 1u)] = child;
}
)";

constexpr const char* kFinish = R"(layout(local_size_x = 1) in;
void main() {
    uint popped = min(c[3], c[2]);
    c[5] = c[2] - popped;
    c[6] = c[4];
    c[2] = c[5] + c[4];
    c[3] = 0u;
    c[4] = 0u;
    c[u_now] = 0u;
    c[8] = (c[1u - u_now] + 255u) / 256u; c[9] = 1u; c[10] = 1u;
    c[11] = (c[6] + 255u) / 256u; c[12] = 1u; c[13] = 1u;
}
)";

constexpr const char* kFree = R"(layout(local_size_x = 256) in;
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < c[6]) dead[c[5] + i] = freed[i];
}
)";

GLuint computeProgram(const char* body) {
    return xfbtest::computeProgram(std::string(kDeadListHeader) + body, "a dead-list kernel");
}

GLuint storage(GLsizeiptr bytes, const void* data) {
    GLuint b = 0;
    glGenBuffers(1, &b);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, b);
    glBufferData(GL_SHADER_STORAGE_BUFFER, bytes, data, GL_DYNAMIC_COPY);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
    return b;
}

// The engines' design in raw GL: simulate (indirect over the alive list), finish (one invocation:
// the counts and the next dispatches), free (indirect: the step's dead slots onto the dead list).
class DeadListPopulation {
public:
    DeadListPopulation(const std::vector<Element>& initial, std::uint32_t capacity) : capacity_(capacity) {
        simulate_ = computeProgram(kSimulate), finish_ = computeProgram(kFinish), free_ = computeProgram(kFree);
        const auto n = std::uint32_t(initial.size());
        std::vector<Element> pool(capacity, Element{});
        std::copy(initial.begin(), initial.end(), pool.begin());
        std::vector<std::uint32_t> alive(capacity, 0), dead(capacity, 0);
        for (std::uint32_t i = 0; i < n; ++i) alive[i] = i;
        for (std::uint32_t i = 0; i < capacity - n; ++i) dead[i] = capacity - 1 - i; // popped from the top: n first
        std::array<std::uint32_t, 14> c{n, 0, capacity - n, 0, 0, 0, 0, 0, (n + 255) / 256, 1, 1, 0, 1, 1};
        pool_ = storage(GLsizeiptr(capacity) * 16, pool.data());
        alive_[0] = storage(GLsizeiptr(capacity) * 4, alive.data());
        alive_[1] = storage(GLsizeiptr(capacity) * 4, nullptr);
        dead_ = storage(GLsizeiptr(capacity) * 4, dead.data());
        freed_ = storage(GLsizeiptr(capacity) * 4, nullptr);
        counters_ = storage(sizeof c, c.data());
    }
    ~DeadListPopulation() {
        for (GLuint p : {simulate_, finish_, free_}) glDeleteProgram(p);
        const GLuint buffers[] = {pool_, alive_[0], alive_[1], dead_, freed_, counters_};
        glDeleteBuffers(6, buffers);
    }
    void step() {
        const GLuint bound[] = {pool_, alive_[now_], alive_[1 - now_], dead_, freed_, counters_};
        for (GLuint b = 0; b < 6; ++b) glBindBufferBase(GL_SHADER_STORAGE_BUFFER, b, bound[b]);
        glBindBuffer(GL_DISPATCH_INDIRECT_BUFFER, counters_);
        run(simulate_, 32);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
        glUseProgram(finish_);
        glUniform1ui(glGetUniformLocation(finish_, "u_now"), now_);
        glDispatchCompute(1, 1, 1);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_COMMAND_BARRIER_BIT);
        run(free_, 44);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_COMMAND_BARRIER_BIT);
        glBindBuffer(GL_DISPATCH_INDIRECT_BUFFER, 0);
        for (GLuint b = 0; b < 6; ++b) glBindBufferBase(GL_SHADER_STORAGE_BUFFER, b, 0);
        glUseProgram(0);
        now_ = 1 - now_;
    }
    // The live elements, sorted (the order is the atomics'), and the births dropped.
    std::vector<Element> sortedElements(std::uint32_t& dropped) const {
        const auto c = readBack<std::uint32_t>(counters_, 14);
        dropped = c[7];
        const auto alive = readBack<std::uint32_t>(alive_[now_], c[now_]);
        const auto pool = readBack<Element>(pool_, capacity_);
        std::vector<Element> out;
        for (std::uint32_t slot : alive) out.push_back(pool[slot]);
        std::sort(out.begin(), out.end());
        return out;
    }

private:
    void run(GLuint program, GLintptr indirect) {
        glUseProgram(program);
        glUniform1ui(glGetUniformLocation(program, "u_now"), now_);
        glDispatchComputeIndirect(indirect);
    }
    std::uint32_t capacity_;
    GLuint simulate_ = 0, finish_ = 0, free_ = 0, pool_ = 0, alive_[2]{}, dead_ = 0, freed_ = 0, counters_ = 0;
    GLuint now_ = 0;
};

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

std::vector<Element> sorted(std::vector<Element> v) {
    std::sort(v.begin(), v.end());
    return v;
}

} // namespace

int populationBench(const CommonOptions& options) {
    const std::vector<long long> sizes =
        options.sizes.empty() ? std::vector<long long>{10'000, 100'000, 1'000'000} : options.sizes;
    HeadlessContext context(Api::OpenGL43Core);
    Device device;
    const auto& caps = device.capabilities();
    json report = {{"machine", {{"renderer", caps.renderer}, {"version", caps.version}}},
                   {"steps_timed", options.steps},
                   {"results", json::array()}};
    if (!caps.compute) {
        std::printf("no compute on %s: a population needs GL 4.3\n", caps.version.c_str());
        return finishReport(report, options.jsonPath, 0, "", "skipped");
    }
    ProgramDesc desc;
    desc.source = kPopulationSource;
    desc.capture.varyings = {"gl_Position"}; // a Program captures something; the population keeps its records
    desc.label = "population-bench";
    Program program(device, desc);
    int mismatches = 0;
    std::printf("%-22s %10s %10s %10s  %s\n", "variant", "elements", "ms/step", "live", "result");
    for (long long n : sizes) {
        const auto capacity = std::uint32_t(2 * n);
        std::vector<Element> ref = initialElements(std::size_t(n));
        PopulationOptions o;
        o.capacity = capacity;
        o.state = {{"a_p", "emit_p"}};
        o.count = "emit_n";
        o.overflow = EmitOverflow::Clamp;
        // The population on both of its backends (Auto keeps compute here), and the dead list.
        Population compute(device, program, o);
        o.backend = Backend::Fragment;
        Population fragment(device, program, o);
        for (Population* p : {&compute, &fragment}) p->spawn(std::span<const Element>(ref));
        DeadListPopulation deadList(ref, capacity);
        finish();
        std::vector<double> ms[3];
        for (int s = 0; s < options.steps; ++s) { // lockstep: the same live elements at each step
            ms[0].push_back(millisecondsOf([&] { compute.step(), finish(); }));
            ms[1].push_back(millisecondsOf([&] { fragment.step(), finish(); }));
            ms[2].push_back(millisecondsOf([&] { deadList.step(), finish(); }));
            ref = referenceStep(ref);
        }
        // The populations: the reference's order, byte for byte; the dead list: the same set.
        std::string problems;
        for (const Population* p : {&compute, &fragment}) {
            const PopulationCount count = p->count();
            const auto words = p->state().readAs<float>(0, count.live);
            std::vector<Element> got(std::size_t(count.live));
            std::memcpy(got.data(), words.data(), words.size() * sizeof(float));
            if (count.dropped != 0) problems += " records dropped past the capacity;";
            if (got != ref)
                problems +=
                    p == &compute ? " compute differs from the reference;" : " fragment differs from the reference;";
        }
        std::uint32_t deadListDropped = 0;
        const auto deadListGot = deadList.sortedElements(deadListDropped);
        if (deadListDropped != 0) problems += " the dead list dropped births;";
        if (deadListGot != sorted(ref)) problems += " the dead-list version's elements differ from the reference's;";
        if (!problems.empty()) reportMismatch(mismatches, "population", n, options.steps, problems);
        const double compute_ms = median(ms[0]), fragment_ms = median(ms[1]), dead_list_ms = median(ms[2]);
        const char* result = problems.empty() ? "equal" : "MISMATCH";
        std::printf("%-22s %10lld %10.3f %10zu  %s (ratio to the dead list %.2f)\n", "population_compute", n,
                    compute_ms, ref.size(), result, compute_ms / dead_list_ms);
        std::printf("%-22s %10lld %10.3f %10zu  %s (ratio to the dead list %.2f)\n", "population_fragment", n,
                    fragment_ms, ref.size(), result, fragment_ms / dead_list_ms);
        std::printf("%-22s %10lld %10.3f %10zu  %s\n", "dead_list_atomic", n, dead_list_ms, ref.size(), result);
        report["results"].push_back({{"elements", n},
                                     {"capacity", capacity},
                                     {"live_after", ref.size()},
                                     {"population_ms", compute_ms},
                                     {"population_fragment_ms", fragment_ms},
                                     {"dead_list_atomic_ms", dead_list_ms},
                                     {"ratio_population_over_dead_list", compute_ms / dead_list_ms},
                                     {"ratio_population_fragment_over_dead_list", fragment_ms / dead_list_ms},
                                     {"population_ms_rounds", ms[0]},
                                     {"population_fragment_ms_rounds", ms[1]},
                                     {"dead_list_atomic_ms_rounds", ms[2]},
                                     {"equal", problems.empty()}});
    }
    return finishReport(report, options.jsonPath, mismatches, "populations",
                        "every population equals the reference (the dead list's as a set)");
}

} // namespace xfbbench
