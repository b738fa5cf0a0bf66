// xfb-bench-stream: what the stream-output contract costs.
//  - Primitive capture of one triangle strip of N vertices (N-2 triangles, 36-byte records):
//    the driver's expansion (desktop GL) against the engine's (the ES 3.0 / WebGL2 path: a POINTS
//    pass, a copy into textures, a gather pass), per capture.
//  - Variable-count output: a particle step that also emits 0..3 sparks per element, written in
//    input order by the engine (the path it chooses for the driver, then the single pass with a
//    decoupled look-back and the count pass + prefix sum, each forced), against the same step
//    without sparks and against a hand-written kernel that appends with atomicAdd (unordered).
// Every variant of a size is set up first, then timed in rounds, each step fenced; medians.
// Then every variant's output is read back and compared with a CPU reference written here (not
// the engine's planner): the captured records vertex by vertex, the sparks in input order (the
// atomic append's as a set), the totals the GPU counted, the particles' state. The "records"
// column is what was measured on the GPU; any mismatch is printed and the exit status is 1.
//
//  - The same emitting step on the fragment backend (its pyramid of counts, issue 41): in the
//    main context and, with --es30-fragment, in a second context of exactly ES 3.0 (WebGL2's
//    rules: MESA_GLES_VERSION_OVERRIDE=3.0, no compute) made in the same process, so that its
//    ratio to GL compute comes from one run.
//   xfb-bench-stream [--api gl43core|gles30] [--es30-fragment] [--sizes 1e5,1e6] [--steps K] [--json FILE]
// With --geometry it measures a geometry program's capture instead: the GL's geometry shader
// against its compute translation (geometry_bench.cpp says how); with --population an
// xfb::Population step against a dead-list + atomic-append population (population_bench.cpp).
#include "bench_util.hpp"
#include "geometry_bench.hpp"
#include "population_bench.hpp"
#include "raw_gl.hpp"
#include "compute/ordered_emit.hpp"
#include "gl_call_counter.hpp"
#include "xfb/headless_context.hpp"
#include "xfb/xfb.hpp"

#include <GL/glcorearb.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <cstdio>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <tuple>

using namespace xfb;
using json = nlohmann::ordered_json;

namespace {

constexpr const char* kMesh = R"(#version 300 es
in vec4 a_position;
in vec2 a_uv;
out vec4 out_position;
out vec3 out_normal;
out vec2 out_uv;
void main() {
    out_position = a_position * 2.0;
    out_normal = normalize(vec3(a_uv, 1.0));
    out_uv = a_uv;
    gl_Position = out_position;
}
)";

// The particle of the emit bench: moves one unit along z, keeps its energy and throws off
// energy / 0.5 - 1 sparks (0..3) at every step, so every timed step emits the same number.
constexpr const char* kSplit = R"(#version 300 es
in vec4 a_particle;
out vec4 out_particle;
out vec4 emit_spark[3];
flat out int emit_count;
void main() {
    float e = a_particle.w;
    out_particle = vec4(a_particle.xyz + vec3(0.0, 0.0, 1.0), e);
    emit_count = int(e / 0.5) - 1;
    for (int k = 0; k < 3; ++k) emit_spark[k] = vec4(a_particle.xyz + float(k), float(gl_VertexID));
    gl_Position = vec4(0.0);
}
)";

// The unordered baseline, written by hand: the same particle, sparks appended with atomicAdd.
class AtomicAppend {
public:
    AtomicAppend(GLuint state, GLuint next, GLuint sparks, GLuint groups, bool es, GLint capacity)
        : groups_(groups), capacity_(capacity) {
        std::string src = std::string(es ? "#version 310 es\nprecision highp float;\n" : "#version 430\n") + R"(
layout(local_size_x = 256) in;
layout(std430, binding = 0) readonly buffer In { vec4 particles[]; };
layout(std430, binding = 1) writeonly buffer Out { vec4 next[]; };
layout(std430, binding = 2) writeonly buffer Sparks { vec4 sparks[]; };
layout(std430, binding = 3) buffer Counter { uint counter; };
uniform uint n;
uniform uint capacity;
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= n) return;
    vec4 p = particles[i];
    next[i] = vec4(p.xyz + vec3(0.0, 0.0, 1.0), p.w);
    uint c = uint(clamp(int(p.w / 0.5) - 1, 0, 3));
    uint base = atomicAdd(counter, c);
    for (uint k = 0u; k < c && base + k < capacity; ++k) sparks[base + k] = vec4(p.xyz + float(k), float(i));
}
)";
        program_ = xfbtest::computeProgram(src, "the atomic-append kernel");
        glGenBuffers(1, &counter_);
        glBindBuffer(GL_SHADER_STORAGE_BUFFER, counter_);
        glBufferData(GL_SHADER_STORAGE_BUFFER, 4, nullptr, GL_DYNAMIC_COPY);
        glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
        buffers_[0] = state, buffers_[1] = next, buffers_[2] = sparks;
        n_ = glGetUniformLocation(program_, "n");
        capacityLocation_ = glGetUniformLocation(program_, "capacity");
        count_ = GLint(groups * 256);
    }
    ~AtomicAppend() {
        glDeleteProgram(program_);
        glDeleteBuffers(1, &counter_);
    }
    void setCount(GLuint n) {
        glUseProgram(program_);
        glUniform1ui(n_, n);
        glUniform1ui(capacityLocation_, GLuint(capacity_));
    }
    GLuint counter() const { return counter_; }
    GLuint current() const { return buffers_[0]; } // the state the last step wrote
    GLuint sparks() const { return buffers_[2]; }
    void step() {
        static const GLuint zero = 0;
        glBindBuffer(GL_SHADER_STORAGE_BUFFER, counter_);
        glBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, 4, &zero);
        glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
        glUseProgram(program_);
        for (GLuint b = 0; b < 3; ++b) glBindBufferBase(GL_SHADER_STORAGE_BUFFER, b, buffers_[b]);
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 3, counter_);
        glDispatchCompute(groups_, 1, 1);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_VERTEX_ATTRIB_ARRAY_BARRIER_BIT);
        std::swap(buffers_[0], buffers_[1]);
    }

private:
    GLuint program_ = 0, counter_ = 0, buffers_[3]{}, groups_;
    GLint n_ = -1, capacityLocation_ = -1, count_ = 0, capacity_;
};

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

// The CPU side of the emit workload: element i has position (i % 13, 0, 0), energy 0.5 (i % 5),
// so it emits max(0, i % 5 - 1) sparks per step.
float particleX(std::size_t i) { return float(i % 13); }
float particleEnergy(std::size_t i) { return 0.5f * float(i % 5); }
int sparksOf(std::size_t i) { return std::max(0, int(i % 5) - 1); }

// The sparks of the `steps`-th step, in input order: element i's k-th is p + k (xyz), i (w),
// where p is the position it read, (x, 0, steps - 1).
std::vector<float> referenceSparks(std::size_t n, int steps) {
    std::vector<float> out;
    for (std::size_t i = 0; i < n; ++i)
        for (int k = 0; k < sparksOf(i); ++k)
            out.insert(out.end(), {particleX(i) + float(k), float(k), float(steps - 1) + float(k), float(i)});
    return out;
}

// "" when the particles' state after `steps` steps is right, else the first difference.
std::string checkParticles(const std::vector<float>& state, std::size_t n, int steps) {
    if (state.size() != n * 4) return "state holds " + std::to_string(state.size()) + " floats";
    for (std::size_t i = 0; i < n; ++i) {
        const float want[4] = {particleX(i), 0.0f, float(steps), particleEnergy(i)};
        if (std::memcmp(&state[i * 4], want, sizeof want) != 0)
            return "particle " + std::to_string(i) + " is (" + std::to_string(state[i * 4]) + ", " +
                   std::to_string(state[i * 4 + 1]) + ", " + std::to_string(state[i * 4 + 2]) + ", " +
                   std::to_string(state[i * 4 + 3]) + ") after " + std::to_string(steps) + " steps";
    }
    return "";
}

// "" when `got` holds `want`'s records (4 floats each) bit for bit, else the first difference.
std::string compareRecords(const float* got, const std::vector<float>& want, const char* what) {
    for (std::size_t f = 0; f < want.size(); ++f)
        if (std::memcmp(&got[f], &want[f], 4) != 0)
            return std::string(what) + " record " + std::to_string(f / 4) + " float " + std::to_string(f % 4) + " is " +
                   std::to_string(got[f]) + ", the reference " + std::to_string(want[f]);
    return "";
}

// The strip's vertices: position (4 floats) and uv (2), value (i % 97) / 97 at float i.
float stripValue(std::size_t i) { return float(i % 97) / 97.0f; }
constexpr float kUnwritten = -12345.0f; // what the capture buffers hold before any capture

// Triangle t of a strip, corner c (0..2), as the GL spec orders it for transform feedback:
// (t, t+1, t+2) for even t, (t+1, t, t+2) for odd t (the winding kept).
std::size_t stripVertex(std::size_t t, int c) {
    if (c == 2) return t + 2;
    return (t % 2 == 0) == (c == 0) ? t : t + 1;
}

// Checks a capture buffer (36-byte records: position*2, normalize(uv, 1), uv). Returns the number
// of records written (not holding kUnwritten) and sets `problem` at the first wrong record.
std::int64_t checkCapture(const std::vector<float>& got, std::int64_t vertices, std::string& problem) {
    const std::size_t records = got.size() / 9;
    std::int64_t written = 0;
    for (std::size_t r = 0; r < records; ++r) {
        const float* g = &got[r * 9];
        if (std::all_of(g, g + 9, [](float x) { return x == kUnwritten; })) continue;
        ++written;
        if (!problem.empty()) continue;
        std::size_t v = stripVertex(r / 3, int(r % 3));
        if (std::int64_t(v) >= vertices) {
            problem = "record " + std::to_string(r) + " exists past the last triangle";
            continue;
        }
        float want[9];
        for (int i = 0; i < 4; ++i) want[i] = stripValue(v * 6 + std::size_t(i)) * 2.0f;
        float u = stripValue(v * 6 + 4), w = stripValue(v * 6 + 5), len = std::sqrt(u * u + w * w + 1.0f);
        want[4] = u / len, want[5] = w / len, want[6] = 1.0f / len;
        want[7] = u, want[8] = w;
        for (int i = 0; i < 9; ++i) {
            bool normal = i >= 4 && i < 7; // normalize() may round differently on the GPU
            if (normal ? std::fabs(g[i] - want[i]) > 1e-6f : std::memcmp(&g[i], &want[i], 4) != 0) {
                problem = "record " + std::to_string(r) + " (vertex " + std::to_string(v) + ") float " +
                          std::to_string(i) + " is " + std::to_string(g[i]) + ", the reference " +
                          std::to_string(want[i]);
                break;
            }
        }
    }
    return written;
}

} // namespace

int main(int argc, char** argv) {
    xfbbench::CommonOptions options{.sizes = {100'000, 1'000'000, 4'000'000}};
    auto& [api, jsonPath, sizes, steps] = options;
    bool geometry = false, population = false, large = false, es30Fragment = false;
    std::string workloads = "faces,fins,streams";
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
        if (a == "--geometry")
            geometry = true;
        else if (a == "--population")
            population = true;
        else if (a == "--es30-fragment")
            es30Fragment = true;
        else if (a == "--large")
            large = true;
        else if (a == "--workloads")
            workloads = next();
        else if (!options.take(a, next)) {
            std::cerr
                << "usage: xfb-bench-stream [--api gl43core|gles30] [--es30-fragment] [--sizes 1e5,1e6] [--steps K] "
                   "[--json FILE]\n"
                   "       xfb-bench-stream --geometry [--api gl43core|gles30] [--sizes 1e4,1e5,1e6] [--steps K]\n"
                   "                        [--workloads faces,fins,streams] [--large] [--json FILE]\n"
                   "       xfb-bench-stream --population [--sizes 1e4,1e5,1e6] [--steps K] [--json FILE]\n";
            return 2;
        }
    }
    if (population) {
        if (!std::any_of(argv + 1, argv + argc, [](const char* a) { return std::string(a) == "--sizes"; }))
            sizes.clear(); // the population bench's own defaults
        return xfbbench::populationBench(options);
    }
    if (geometry) {
        if (!std::any_of(argv + 1, argv + argc, [](const char* a) { return std::string(a) == "--sizes"; }))
            sizes.clear(); // the geometry bench's own defaults
        return xfbbench::geometryBench(options, workloads, large);
    }
    // --es30-fragment: an exact ES 3.0 context first (Mesa reads the override at its first
    // context), its own Device; the main context is made current after it and stays current
    // except inside that context's runs.
    std::unique_ptr<HeadlessContext> es30Context;
    std::unique_ptr<Device> es30Device;
    if (es30Fragment) {
        setenv("MESA_GLES_VERSION_OVERRIDE", "3.0", 1);
        es30Context = std::make_unique<HeadlessContext>(Api::OpenGLES30);
        es30Device = std::make_unique<Device>();
    }
    HeadlessContext context(api == "gles30" ? Api::OpenGLES30 : Api::OpenGL43Core);
    Device device;
    const auto& caps = device.capabilities();
    Program mesh(device, {kMesh, {}, {}, "mesh"});
    Program split(device, {kSplit, {}, {}, "split"});
    const auto vec4 = VertexFormat::interleaved({{attr(0), ComponentType::Float32, 4}});
    json report = {{"machine",
                    {{"renderer", caps.renderer},
                     {"version", caps.version},
                     {"api", api},
                     {"subgroup_arithmetic", caps.subgroupArithmetic}}},
                   {"steps_timed", steps},
                   {"results", json::array()}};
    if (es30Device)
        report["machine"]["es30_context"] = {{"renderer", es30Device->capabilities().renderer},
                                             {"version", es30Device->capabilities().version}};
    std::sort(sizes.begin(), sizes.end(), std::greater<>());
    std::printf("%-26s %10s %10s %10s %10s %9s %11s  %s\n", "variant", "elements", "ms", "records", "expected",
                "GL calls", "glGetError", "result");
    int mismatches = 0;

    for (long long n : sizes) {
        struct Run {
            std::string name;
            std::function<void()> step;
            std::int64_t expected = 0; // records per step, from the CPU
            std::function<std::int64_t(int, std::string&)>
                verify; // reads back after that many steps: records measured, `problem` set on a mismatch
            std::vector<double> ms;
            xfbtest::GlCalls glCalls;
            int stepsTaken = 0;
            void advance() { step(), ++stepsTaken; }
        };
        std::vector<Run> runs;
        std::vector<std::shared_ptr<void>> keep; // objects the runs use

        // Capture: one strip over n vertices, into a buffer per expansion that starts unwritten.
        std::vector<float> vertices(std::size_t(n) * 6);
        for (std::size_t i = 0; i < vertices.size(); ++i) vertices[i] = stripValue(i);
        auto input = std::make_shared<Buffer>(
            device,
            VertexFormat::interleaved({{attr(0), ComponentType::Float32, 4}, {attr(1), ComponentType::Float32, 2}}), n,
            std::span<const float>(vertices));
        keep.push_back(input);
        const std::int64_t records = 3 * (n - 2);
        const std::vector<float> unwritten(std::size_t(records) * 9, kUnwritten);
        for (Expansion e : {Expansion::Driver, Expansion::Engine}) {
            if (e == Expansion::Driver && caps.es) continue;
            auto captured = std::make_shared<Buffer>(device, mesh.capture().buffers[0].asVertexFormat(), records,
                                                     std::span<const float>(unwritten));
            auto cap = std::make_shared<PrimitiveCapture>(
                device, mesh, std::vector<Entry>{{input.get(), nullptr}, {nullptr, captured.get()}},
                PrimitiveCaptureOptions{std::nullopt, e});
            keep.insert(keep.end(), {captured, cap});
            runs.push_back({"capture_strip_" + std::string(expansionName(e)),
                            [cap, n] {
                                cap->capture({DrawMode::TriangleStrip, n});
                            },
                            records,
                            [captured, n](int, std::string& problem) {
                                return checkCapture(captured->readAs<float>(), n, problem);
                            }});
        }

        // Declared layouts: the mesh's record tight (36 bytes) against a padded declaration of the same
        // fields (a gap after the position, stride 48), written by transform feedback (gl_SkipComponents
        // on desktop GL; on ES 3.0 a staging capture and a packing pass) and by compute.
        {
            const std::uint32_t sentinel = 0xDEADBEEFu;
            auto tight = std::make_shared<Buffer>(device, mesh.capture().buffers[0].asVertexFormat(), n);
            auto tightStep = std::make_shared<Pipeline>(
                device, mesh, std::vector<Entry>{{input.get(), nullptr}, {nullptr, tight.get()}},
                PipelineOptions{.backend = Backend::TransformFeedback});
            CaptureOptions declared;
            declared.declaration = {{"out_position"}, DeclaredEntry::gap(1), {"out_normal"}, {"out_uv"}};
            declared.strides = {48};
            auto padded = std::make_shared<Program>(device, ProgramDesc{kMesh, declared, {}, "padded mesh"});
            keep.insert(keep.end(), {tight, tightStep, padded});
            runs.push_back(
                {"layout_tight_tf", [tightStep] { tightStep->step(); }, 0,
                 [tight, input, n](int, std::string& problem) -> std::int64_t {
                     const auto got = tight->readAs<float>(), in = input->readAs<float>();
                     for (std::size_t e = 0; e < std::size_t(n) && problem.empty(); ++e)
                         for (int c = 0; c < 4; ++c)
                             if (got[e * 9 + std::size_t(c)] != in[e * 6 + std::size_t(c)] * 2.0f ||
                                 (c < 2 && got[e * 9 + 7 + std::size_t(c)] != in[e * 6 + 4 + std::size_t(c)]))
                                 problem = "element " + std::to_string(e) + " of the tight record";
                     return 0;
                 }});
            std::vector<Backend> backends{Backend::TransformFeedback};
            if (caps.compute) backends.push_back(Backend::Compute);
            for (Backend b : backends) {
                const std::vector<std::uint32_t> fill(std::size_t(n) * 12, sentinel);
                auto out = std::make_shared<Buffer>(device, padded->capture().buffers[0].asVertexFormat(), n,
                                                    std::span<const std::uint32_t>(fill));
                auto step = std::make_shared<Pipeline>(device, *padded,
                                                       std::vector<Entry>{{input.get(), nullptr}, {nullptr, out.get()}},
                                                       PipelineOptions{.backend = b});
                keep.insert(keep.end(), {out, step});
                runs.push_back(
                    {std::string("layout_padded_") + std::string(backendName(b)), [step] { step->step(); }, 0,
                     [out, tight, n, sentinel](int, std::string& problem) -> std::int64_t {
                         const auto got = out->readAs<std::uint32_t>(), want = tight->readAs<std::uint32_t>();
                         // Padded word w of an element: its tight word, or the sentinel in a gap.
                         const int from[12] = {0, 1, 2, 3, -1, 4, 5, 6, 7, 8, -1, -1};
                         for (std::size_t e = 0; e < std::size_t(n) && problem.empty(); ++e)
                             for (int w = 0; w < 12; ++w)
                                 if (got[e * 12 + std::size_t(w)] !=
                                     (from[w] < 0 ? sentinel : want[e * 9 + std::size_t(from[w])]))
                                     problem = "element " + std::to_string(e) + " word " + std::to_string(w) +
                                               " of the padded record";
                         return 0;
                     }});
            }
        }

        // Emit: energies 0 .. 2 in steps of 0.5: 0, 0, 1, 2, 3 sparks; capacity for all of them.
        if (caps.compute) {
            std::vector<float> particles(std::size_t(n) * 4);
            std::int64_t sparks = 0;
            for (std::size_t i = 0; i < std::size_t(n); ++i)
                particles[i * 4] = particleX(i), particles[i * 4 + 3] = particleEnergy(i), sparks += sparksOf(i);
            auto state = std::make_shared<Buffer>(device, vec4, n, std::span<const float>(particles)),
                 scratch = std::make_shared<Buffer>(device, vec4, n);
            auto state3 = std::make_shared<Buffer>(device, vec4, n, std::span<const float>(particles)),
                 scratch3 = std::make_shared<Buffer>(device, vec4, n);
            auto out2 = std::make_shared<Buffer>(device, vec4, 3 * n);
            keep.insert(keep.end(), {state, scratch, state3, scratch3, out2});
            PipelineOptions o;
            o.backend = Backend::Compute;
            auto fixed = std::make_shared<Pipeline>(device, split, std::vector<Entry>{{state.get(), scratch.get()}}, o);
            auto atomic = std::make_shared<AtomicAppend>(state3->glName(), scratch3->glName(), out2->glName(),
                                                         GLuint((n + 255) / 256), caps.es, GLint(3 * n));
            atomic->setCount(GLuint(n));
            keep.insert(keep.end(), {fixed, atomic});
            runs.push_back({"step_compute_no_emit", [fixed] { fixed->step(); }, 0,
                            [state, n](int steps, std::string& problem) -> std::int64_t {
                                problem = checkParticles(state->readAs<float>(), std::size_t(n), steps);
                                return 0;
                            }});
            // The engine's ordered emit: the path it chooses for this driver, then each path forced
            // (compute/ordered_emit.hpp: the single pass, the single pass with its shared-memory scan
            // where the driver has subgroups, or the count pass + prefix sum).
            o.emits = {{"emit_spark", "emit_count"}};
            struct OrderedVariant {
                const char* name;
                detail::OrderedEmitPath path;
                bool subgroupScan = true;
            };
            std::vector<OrderedVariant> variants{{"step_compute_emit_ordered", detail::OrderedEmitPath::Auto},
                                                 {"emit_ordered_single_pass", detail::OrderedEmitPath::SinglePass}};
            if (caps.subgroupArithmetic)
                variants.push_back({"emit_ordered_shared_scan", detail::OrderedEmitPath::SinglePass, false});
            variants.push_back({"emit_ordered_multi_pass", detail::OrderedEmitPath::MultiPass});
            for (auto [name, path, subgroupScan] : variants) {
                auto state2 = std::make_shared<Buffer>(device, vec4, n, std::span<const float>(particles)),
                     scratch2 = std::make_shared<Buffer>(device, vec4, n);
                auto out = std::make_shared<Buffer>(device, vec4, 3 * n);
                detail::orderedEmitPath = path;
                detail::orderedEmitSubgroupScan = subgroupScan;
                auto emitting = std::make_shared<Pipeline>(
                    device, split, std::vector<Entry>{{state2.get(), scratch2.get()}, {nullptr, out.get()}}, o);
                detail::orderedEmitPath = detail::OrderedEmitPath::Auto;
                detail::orderedEmitSubgroupScan = true;
                keep.insert(keep.end(), {state2, scratch2, out, emitting});
                runs.push_back({name, [emitting] { emitting->step(); }, sparks,
                                [state2, out, n, emitting](int steps, std::string& problem) -> std::int64_t {
                                    const auto report = emitting->emitted().at(0); // the totals the GPU counted
                                    const auto want = referenceSparks(std::size_t(n), steps);
                                    const auto got = out->readAs<float>();
                                    problem = checkParticles(state2->readAs<float>(), std::size_t(n), steps);
                                    if (problem.empty() && report.requested != std::int64_t(want.size() / 4))
                                        problem = "the GPU counted " + std::to_string(report.requested) +
                                                  " sparks requested, the reference " + std::to_string(want.size() / 4);
                                    if (problem.empty()) problem = compareRecords(got.data(), want, "spark");
                                    return report.written;
                                }});
            }
            runs.push_back({"handwritten_atomic_append", [atomic] { atomic->step(); }, sparks,
                            [atomic, n](int steps, std::string& problem) -> std::int64_t {
                                const std::int64_t count = xfbbench::readBack<std::uint32_t>(atomic->counter(), 1)[0];
                                problem =
                                    checkParticles(xfbbench::readBack<float>(atomic->current(), std::size_t(n) * 4),
                                                   std::size_t(n), steps);
                                auto want = referenceSparks(std::size_t(n), steps);
                                if (problem.empty() && count != std::int64_t(want.size() / 4))
                                    problem = "the counter says " + std::to_string(count) + " sparks, the reference " +
                                              std::to_string(want.size() / 4);
                                if (problem.empty() && count > 0) {
                                    // Unordered: compare as sets, the sparks sorted by (element, k).
                                    auto read = xfbbench::readBack<float>(atomic->sparks(), std::size_t(count) * 4);
                                    std::vector<std::array<float, 4>> sorted(static_cast<std::size_t>(count));
                                    std::memcpy(sorted.data(), read.data(), read.size() * 4);
                                    std::sort(sorted.begin(), sorted.end(), [](const auto& x, const auto& y) {
                                        return std::tie(x[3], x[1]) < std::tie(y[3], y[1]);
                                    });
                                    problem = compareRecords(sorted.front().data(), want, "sorted spark");
                                }
                                return count;
                            }});
        }

        // The fragment backend's emit (the pyramid of counts), in this context and in the ES 3.0 one.
        {
            std::vector<float> particles(std::size_t(n) * 4);
            std::int64_t sparks = 0;
            for (std::size_t i = 0; i < std::size_t(n); ++i)
                particles[i * 4] = particleX(i), particles[i * 4 + 3] = particleEnergy(i), sparks += sparksOf(i);
            struct Where {
                const char* name;
                Device* device;
                HeadlessContext* context; // made current around the run (null: the main context)
            };
            std::vector<Where> where{{"step_fragment_emit", &device, nullptr}};
            if (es30Device) where.push_back({"es30_fragment_emit", es30Device.get(), es30Context.get()});
            for (auto [name, dev, ctx] : where) {
                // Each run's objects live in its own context: made, stepped, read and freed there.
                auto in = [ctx, &context](auto&& f) {
                    if (ctx) ctx->makeCurrent();
                    f();
                    if (ctx) xfbbench::finish(), context.makeCurrent();
                };
                struct Objects {
                    std::shared_ptr<Buffer> state, scratch, out;
                    std::shared_ptr<Program> program;
                    std::shared_ptr<Pipeline> pipeline;
                };
                auto objects = std::make_shared<Objects>();
                Objects* o = objects.get(); // the runs use it while `keep` holds it
                in([&] {
                    o->state = std::make_shared<Buffer>(*dev, vec4, n, std::span<const float>(particles));
                    o->scratch = std::make_shared<Buffer>(*dev, vec4, n);
                    o->out = std::make_shared<Buffer>(*dev, vec4, 3 * n);
                    o->program = std::make_shared<Program>(*dev, ProgramDesc{kSplit, {}, {}, "split"});
                    PipelineOptions options;
                    options.backend = Backend::Fragment;
                    options.emits = {{"emit_spark", "emit_count"}};
                    o->pipeline = std::make_shared<Pipeline>(
                        *dev, *o->program,
                        std::vector<Entry>{{o->state.get(), o->scratch.get()}, {nullptr, o->out.get()}}, options);
                });
                // Freed in their own context, the pipeline first.
                keep.push_back(std::shared_ptr<void>(nullptr, [in, objects](void*) {
                    in([&] {
                        objects->pipeline.reset(), objects->program.reset(), objects->out.reset();
                        objects->scratch.reset(), objects->state.reset();
                    });
                }));
                runs.push_back({name, [in, o] { in([&] { o->pipeline->step(); }); }, sparks,
                                [in, o, n](int steps, std::string& problem) -> std::int64_t {
                                    std::int64_t written = 0;
                                    in([&] {
                                        const auto report = o->pipeline->emitted().at(0);
                                        const auto want = referenceSparks(std::size_t(n), steps);
                                        problem = checkParticles(o->state->readAs<float>(), std::size_t(n), steps);
                                        if (problem.empty() && report.requested != std::int64_t(want.size() / 4))
                                            problem = "the GPU counted " + std::to_string(report.requested) +
                                                      " sparks requested, the reference " +
                                                      std::to_string(want.size() / 4);
                                        if (problem.empty())
                                            problem = compareRecords(o->out->readAs<float>().data(), want, "spark");
                                        written = report.written;
                                    });
                                    return written;
                                }});
            }
        }

        for (auto& r : runs) { // warm-up, the last step counted
            r.advance(), r.advance();
            xfbtest::resetGlCalls();
            r.advance();
            r.glCalls = xfbtest::glCalls();
        }
        xfbbench::finish();
        for (int round = 0; round < steps; ++round)
            for (auto& r : runs) {
                r.ms.push_back(xfbbench::millisecondsOf([&] {
                    r.advance();
                    xfbbench::finish();
                }));
            }
        std::map<std::string, double> med;
        for (auto& r : runs) {
            med[r.name] = median(r.ms);
            std::string problem;
            std::int64_t measured = r.verify(r.stepsTaken, problem);
            if (problem.empty() && measured != r.expected)
                problem = std::to_string(measured) + " records measured, " + std::to_string(r.expected) + " expected";
            if (!problem.empty()) xfbbench::reportMismatch(mismatches, r.name, n, r.stepsTaken, problem);
            const std::string result = problem.empty() ? "verified" : "DIFFERS: " + problem;
            report["results"].push_back({{"elements", n},
                                         {"variant", r.name},
                                         {"ms", med[r.name]},
                                         {"records", measured},
                                         {"records_expected", r.expected},
                                         {"gl_calls_per_step", r.glCalls.withoutGetError()},
                                         {"gl_get_error_per_step", r.glCalls.getError},
                                         {"gl_objects_created_per_step", r.glCalls.created},
                                         {"steps_taken", r.stepsTaken},
                                         {"result", result}});
            std::printf("%-26s %10lld %10.3f %10lld %10lld %9ld %11ld  %s\n", r.name.c_str(), n, med[r.name],
                        (long long)measured, (long long)r.expected, r.glCalls.withoutGetError(), r.glCalls.getError,
                        result.c_str());
        }
        auto ratio = [&](const char* a, const char* b) { return xfbbench::ratioOf(med, a, b); };
        json ratios = {
            {"elements", n},
            {"engine_expansion_over_driver", ratio("capture_strip_engine", "capture_strip_driver")},
            {"ordered_emit_over_atomic_append", ratio("step_compute_emit_ordered", "handwritten_atomic_append")},
            {"single_pass_over_atomic_append", ratio("emit_ordered_single_pass", "handwritten_atomic_append")},
            {"shared_scan_over_atomic_append", ratio("emit_ordered_shared_scan", "handwritten_atomic_append")},
            {"multi_pass_over_atomic_append", ratio("emit_ordered_multi_pass", "handwritten_atomic_append")},
            {"ordered_emit_over_no_emit", ratio("step_compute_emit_ordered", "step_compute_no_emit")},
            {"fragment_emit_over_compute_emit", ratio("step_fragment_emit", "step_compute_emit_ordered")},
            {"es30_fragment_emit_over_compute_emit", ratio("es30_fragment_emit", "step_compute_emit_ordered")},
            {"padded_layout_tf_over_tight", ratio("layout_padded_tf", "layout_tight_tf")},
            {"padded_layout_compute_over_tight_tf", ratio("layout_padded_compute", "layout_tight_tf")}};
        report["ratios"].push_back(ratios);
        std::printf("  ratios: engine/driver expansion %s; ordered emit / atomic append %s (single pass %s, its "
                    "shared-memory scan %s, multi-pass %s); ordered emit / no emit %s; padded / tight layout: "
                    "transform feedback %s, compute %s; fragment emit / compute emit %s (ES 3.0 context's %s)\n",
                    ratios["engine_expansion_over_driver"].dump().c_str(),
                    ratios["ordered_emit_over_atomic_append"].dump().c_str(),
                    ratios["single_pass_over_atomic_append"].dump().c_str(),
                    ratios["shared_scan_over_atomic_append"].dump().c_str(),
                    ratios["multi_pass_over_atomic_append"].dump().c_str(),
                    ratios["ordered_emit_over_no_emit"].dump().c_str(),
                    ratios["padded_layout_tf_over_tight"].dump().c_str(),
                    ratios["padded_layout_compute_over_tight_tf"].dump().c_str(),
                    ratios["fragment_emit_over_compute_emit"].dump().c_str(),
                    ratios["es30_fragment_emit_over_compute_emit"].dump().c_str());
    }
    return xfbbench::finishReport(report, jsonPath, mismatches, "variant(s)",
                                  "every variant's records match the reference");
}
