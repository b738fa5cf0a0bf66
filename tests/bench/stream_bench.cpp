// xfb-bench-stream: what the stream-output contract costs.
//  - Primitive capture of one triangle strip of N vertices (N-2 triangles, 36-byte records):
//    the driver's expansion (desktop GL) against the engine's (the ES 3.0 / WebGL2 path: a POINTS
//    pass, a copy into textures, a gather pass), per capture.
//  - Variable-count output: a particle step that also emits 0..3 sparks per element, written in
//    input order through the engine's count pass + prefix sum, against the same step without
//    sparks and against a hand-written kernel that appends with atomicAdd (unordered).
// Every variant of a size is set up first, then timed in rounds, each step fenced; medians.
//
//   xfb-bench-stream [--api gl43core|gles30] [--sizes 1e5,1e6] [--steps K] [--json FILE]
#include "bench_util.hpp"
#include "xfb/headless_context.hpp"
#include "xfb/xfb.hpp"

#include <GL/glcorearb.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>

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

// The particle of the emit bench: keeps half its energy, throws off energy / 0.5 - 1 sparks (0..3).
constexpr const char* kSplit = R"(#version 300 es
in vec4 a_particle;
out vec4 out_particle;
out vec4 emit_spark[3];
flat out int emit_count;
void main() {
    float e = a_particle.w;
    out_particle = vec4(a_particle.xyz, e * 0.5);
    emit_count = int(e / 0.5) - 1;
    for (int k = 0; k < 3; ++k) emit_spark[k] = vec4(a_particle.xyz + float(k), float(gl_VertexID));
    gl_Position = vec4(0.0);
}
)";

// The unordered baseline, written by hand: the same particle, sparks appended with atomicAdd.
class AtomicAppend {
public:
    AtomicAppend(GLuint state, GLuint next, GLuint sparks, GLuint groups, bool es, GLint capacity) : groups_(groups), capacity_(capacity) {
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
    next[i] = vec4(p.xyz, p.w * 0.5);
    uint c = uint(clamp(int(p.w / 0.5) - 1, 0, 3));
    uint base = atomicAdd(counter, c);
    for (uint k = 0u; k < c && base + k < capacity; ++k) sparks[base + k] = vec4(p.xyz + float(k), float(i));
}
)";
        const char* s = src.c_str();
        GLuint cs = glCreateShader(GL_COMPUTE_SHADER);
        glShaderSource(cs, 1, &s, nullptr);
        glCompileShader(cs);
        program_ = glCreateProgram();
        glAttachShader(program_, cs);
        glLinkProgram(program_);
        glDeleteShader(cs);
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

} // namespace

int main(int argc, char** argv) {
    std::string api = "gl43core", jsonPath;
    std::vector<long long> sizes = {100'000, 1'000'000, 4'000'000};
    int steps = 15;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
        if (a == "--api") api = next();
        else if (a == "--json") jsonPath = next();
        else if (a == "--steps") steps = std::max(3, std::stoi(next()));
        else if (a == "--sizes") sizes = xfbbench::parseSizes(next());
        else {
            std::cerr << "usage: xfb-bench-stream [--api gl43core|gles30] [--sizes 1e5,1e6] [--steps K] [--json FILE]\n";
            return 2;
        }
    }
    HeadlessContext context(api == "gles30" ? Api::OpenGLES30 : Api::OpenGL43Core);
    Device device;
    const auto& caps = device.capabilities();
    Program mesh(device, {kMesh, {}, {}, "mesh"});
    Program split(device, {kSplit, {}, {}, "split"});
    const auto vec4 = VertexFormat::interleaved({{attr(0), ComponentType::Float32, 4}});
    json report = {{"machine", {{"renderer", caps.renderer}, {"version", caps.version}, {"api", api}}}, {"steps_timed", steps}, {"results", json::array()}};
    std::sort(sizes.begin(), sizes.end(), std::greater<>());
    std::printf("%-26s %10s %10s %10s  %s\n", "variant", "elements", "ms", "records", "note");

    for (long long n : sizes) {
        struct Run {
            std::string name;
            std::function<void()> step;
            std::int64_t records = 0;
            std::vector<double> ms;
        };
        std::vector<Run> runs;
        std::vector<std::shared_ptr<void>> keep; // objects the runs use

        // Capture: one strip over n vertices.
        std::vector<float> vertices(std::size_t(n) * 6);
        for (std::size_t i = 0; i < vertices.size(); ++i) vertices[i] = float(i % 97) / 97.0f;
        auto input = std::make_shared<Buffer>(device, VertexFormat::interleaved({{attr(0), ComponentType::Float32, 4}, {attr(1), ComponentType::Float32, 2}}), n,
                                              std::span<const float>(vertices));
        auto captured = std::make_shared<Buffer>(device, mesh.capture().buffers[0].asVertexFormat(), 3 * (n - 2));
        keep.insert(keep.end(), {input, captured});
        for (Expansion e : {Expansion::Driver, Expansion::Engine}) {
            if (e == Expansion::Driver && caps.es) continue;
            auto cap = std::make_shared<PrimitiveCapture>(device, mesh, std::vector<Entry>{{input.get(), nullptr}, {nullptr, captured.get()}},
                                                          PrimitiveCaptureOptions{std::nullopt, e});
            keep.push_back(cap);
            runs.push_back({"capture_strip_" + std::string(expansionName(e)), [cap, n] { cap->capture({DrawMode::TriangleStrip, n}); }, 3 * (n - 2), {}});
        }

        // Emit: energies 0 .. 2 in steps of 0.5: 0, 0, 1, 2, 3 sparks; capacity for all of them.
        if (caps.compute) {
            std::vector<float> particles(std::size_t(n) * 4);
            for (std::size_t i = 0; i < std::size_t(n); ++i) particles[i * 4 + 3] = 0.5f * float(i % 5), particles[i * 4] = float(i % 13);
            std::int64_t sparks = 0;
            for (std::size_t i = 0; i < std::size_t(n); ++i) sparks += std::max(0, int(i % 5) - 1);
            auto state = std::make_shared<Buffer>(device, vec4, n, std::span<const float>(particles)), scratch = std::make_shared<Buffer>(device, vec4, n);
            auto state2 = std::make_shared<Buffer>(device, vec4, n, std::span<const float>(particles)), scratch2 = std::make_shared<Buffer>(device, vec4, n);
            auto state3 = std::make_shared<Buffer>(device, vec4, n, std::span<const float>(particles)), scratch3 = std::make_shared<Buffer>(device, vec4, n);
            auto out = std::make_shared<Buffer>(device, vec4, 3 * n), out2 = std::make_shared<Buffer>(device, vec4, 3 * n);
            keep.insert(keep.end(), {state, scratch, state2, scratch2, state3, scratch3, out, out2});
            PipelineOptions o;
            o.backend = Backend::Compute;
            auto fixed = std::make_shared<Pipeline>(device, split, std::vector<Entry>{{state.get(), scratch.get()}}, o);
            o.emits = {{"emit_spark", "emit_count"}};
            auto emitting = std::make_shared<Pipeline>(device, split, std::vector<Entry>{{state2.get(), scratch2.get()}, {nullptr, out.get()}}, o);
            auto atomic = std::make_shared<AtomicAppend>(state3->glName(), scratch3->glName(), out2->glName(), GLuint((n + 255) / 256), caps.es, GLint(3 * n));
            atomic->setCount(GLuint(n));
            keep.insert(keep.end(), {fixed, emitting, atomic});
            runs.push_back({"step_compute_no_emit", [fixed] { fixed->step(); }, 0, {}});
            runs.push_back({"step_compute_emit_ordered", [emitting] { emitting->step(); }, sparks, {}});
            runs.push_back({"handwritten_atomic_append", [atomic] { atomic->step(); }, sparks, {}});
        }

        for (auto& r : runs) r.step(), r.step(), r.step();
        xfbbench::finish();
        for (int round = 0; round < steps; ++round)
            for (auto& r : runs) {
                auto t0 = std::chrono::steady_clock::now();
                r.step();
                xfbbench::finish();
                r.ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
            }
        std::map<std::string, double> med;
        for (auto& r : runs) {
            med[r.name] = median(r.ms);
            report["results"].push_back({{"elements", n}, {"variant", r.name}, {"ms", med[r.name]}, {"records", r.records}});
            std::printf("%-26s %10lld %10.3f %10lld\n", r.name.c_str(), n, med[r.name], (long long)r.records);
        }
        auto ratio = [&](const char* a, const char* b) { return med.count(a) && med.count(b) ? json(med[a] / med[b]) : json(nullptr); };
        json ratios = {{"elements", n},
                       {"engine_expansion_over_driver", ratio("capture_strip_engine", "capture_strip_driver")},
                       {"ordered_emit_over_atomic_append", ratio("step_compute_emit_ordered", "handwritten_atomic_append")},
                       {"ordered_emit_over_no_emit", ratio("step_compute_emit_ordered", "step_compute_no_emit")}};
        report["ratios"].push_back(ratios);
        std::printf("  ratios: engine/driver expansion %s; ordered emit / atomic append %s; ordered emit / no emit %s\n",
                    ratios["engine_expansion_over_driver"].dump().c_str(), ratios["ordered_emit_over_atomic_append"].dump().c_str(),
                    ratios["ordered_emit_over_no_emit"].dump().c_str());
    }
    if (!jsonPath.empty()) std::ofstream(jsonPath) << report.dump(2) << "\n";
    return 0;
}
