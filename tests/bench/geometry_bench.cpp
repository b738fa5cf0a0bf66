// xfb-bench-stream --geometry: a geometry program's capture by the GL's geometry shader
// (PrimitiveCaptureOptions::backend = TransformFeedback) against its compute translation
// (Backend::Compute), and a capture with default options (Backend::Auto, which times the two at
// its first capture), per workload and size, in one process and run (issue 27).
//
// Workloads, each over one triangle strip of P + 2 vertices (P triangles, the "primitives"),
// the vertex shader passing positions (x 2) and gl_VertexID on:
//  - faces:   triangles in, 2 points out (centroid and face normal, with an ivec4 tag): 32-byte
//             records, 2 per triangle, budget 2;
//  - fins:    triangles in, a line strip of 2 vertices per corner (3 fins), captured as lines:
//             16-byte records, 6 per triangle, budget 10 (max_vertices 6 as lines);
//  - streams: two vertex streams (desktop GL only): every centroid to stream 0, the face normal
//             and index of every odd triangle to stream 1: 16-byte records, 1.5 per triangle.
// Positions are multiples of 1/16, so sums, differences and products are exact in float: fused
// or not, every driver must give the reference's bits. Every variant of a size is built first
// (output buffers filled with a sentinel), then timed in interleaved rounds, each capture fenced;
// medians. Afterwards every output buffer of the three is read back whole and compared word
// for word (records and the sentinels after them), and the geometry shader's is compared with
// a C++ reference of the shaders; the records column is what the GPU said it wrote
// (statistics()). Any difference is printed and the exit status is 1.
//
//   xfb-bench-stream --geometry [--api gl43core|gles30] [--sizes 1e4,1e5,1e6] [--steps K]
//                    [--workloads faces,fins,streams] [--large] [--json FILE]
// Sizes above 4e6 primitives need --large (up to 1.6e7: several GB of buffers and host copies).
#include "geometry_bench.hpp"

#include "gl_call_counter.hpp"
#include "xfb/headless_context.hpp"
#include "xfb/xfb.hpp"
#include "xfb_shaders.hpp"

#include <GL/glcorearb.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string_view>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>

using namespace xfb;
using json = nlohmann::ordered_json;

namespace xfbbench {
namespace {

constexpr std::uint32_t kSentinel = 0xDEADBEEFu;
constexpr long long kLargeSize = 4'000'000; // above it: --large

// The vertex shader of every workload (its dialect's header is added).
constexpr const char* kVertex = R"(in vec4 a_position;
out vec4 v_position;
flat out int v_id;
void main() {
    v_position = vec4(a_position.xyz * 2.0, 1.0);
    v_id = gl_VertexID;
    gl_Position = v_position;
}
)";

constexpr const char* kFaces = R"(layout(triangles) in;
layout(points, max_vertices = 2) out;
in vec4 v_position[];
flat in int v_id[];
out vec4 out_point;
flat out ivec4 out_tag;
void main() {
    vec3 a = v_position[0].xyz, b = v_position[1].xyz, c = v_position[2].xyz;
    out_point = vec4(a + b + c, 0.0);
    out_tag = ivec4(gl_PrimitiveIDIn, 0, v_id[0], v_id[2]);
    EmitVertex();
    vec3 u = b - a, v = c - a;
    out_point = vec4(u.y * v.z - u.z * v.y, u.z * v.x - u.x * v.z, u.x * v.y - u.y * v.x, 1.0);
    out_tag = ivec4(gl_PrimitiveIDIn, 1, v_id[0], v_id[2]);
    EmitVertex();
}
)";

constexpr const char* kFins = R"(layout(triangles) in;
layout(line_strip, max_vertices = 6) out;
in vec4 v_position[];
out vec4 out_position;
void main() {
    for (int i = 0; i < 3; ++i) {
        vec4 p = v_position[i];
        out_position = p;
        EmitVertex();
        out_position = p + vec4(0.0, 0.0, v_position[(i + 1) % 3].x - p.x, 0.0);
        EmitVertex();
        EndPrimitive();
    }
}
)";

// Vertex i's input position: multiples of 1/16 in [-1, 1] (exact arithmetic downstream).
float coordinate(std::size_t i, int c) { return float(int((i * 7 + std::size_t(c) * 5 + i / 3) % 33) - 16) / 16.0f; }

struct V3 {
    float x, y, z;
};
// What the vertex shader hands on: the position x 2.
V3 shaded(std::size_t i) { return {coordinate(i, 0) * 2.0f, coordinate(i, 1) * 2.0f, coordinate(i, 2) * 2.0f}; }
V3 operator+(V3 a, V3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
V3 operator-(V3 a, V3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
V3 cross(V3 u, V3 v) { return {u.y * v.z - u.z * v.y, u.z * v.x - u.x * v.z, u.x * v.y - u.y * v.x}; }

// Triangle t of the strip, corner c, in the GL's order: (t, t+1, t+2) even, (t+1, t, t+2) odd.
std::size_t corner(std::size_t t, int c) {
    if (c == 2) return t + 2;
    return (t % 2 == 0) == (c == 0) ? t : t + 1;
}

std::uint32_t word(float f) {
    std::uint32_t w;
    std::memcpy(&w, &f, 4);
    return w;
}

struct Workload {
    std::string name;
    std::string_view source; // the geometry shader without its #version line
    bool desktopOnly;
    std::vector<long long> budgetPerPrimitive; // records per triangle each output buffer must hold
    /// The reference contents of every output buffer (records, then sentinels to `capacity`).
    std::function<std::vector<std::vector<std::uint32_t>>(long long primitives,
                                                          const std::vector<std::int64_t>& capacityWords)>
        reference;
    std::function<std::int64_t(long long primitives)> records; // what one capture writes, all buffers
};

std::vector<Workload> workloads() {
    auto fill = [](const std::vector<std::int64_t>& words) {
        std::vector<std::vector<std::uint32_t>> out;
        for (std::int64_t w : words) {
            out.emplace_back();
            out.back().reserve(std::size_t(w));
        }
        return out;
    };
    auto pad = [](std::vector<std::vector<std::uint32_t>>& out, const std::vector<std::int64_t>& words) {
        for (std::size_t b = 0; b < out.size(); ++b) out[b].resize(std::size_t(words[b]), kSentinel);
    };
    std::vector<Workload> w;
    w.push_back({"faces",
                 kFaces,
                 false,
                 {2},
                 [=](long long p, const std::vector<std::int64_t>& words) {
                     auto out = fill(words);
                     for (std::size_t t = 0; t < std::size_t(p); ++t) {
                         const std::size_t i0 = corner(t, 0), i1 = corner(t, 1), i2 = corner(t, 2);
                         const V3 a = shaded(i0), b = shaded(i1), c = shaded(i2), s = a + b + c,
                                  n = cross(b - a, c - a);
                         const auto id = std::uint32_t(t), v0 = std::uint32_t(i0), v2 = std::uint32_t(i2);
                         out[0].insert(out[0].end(), {word(s.x), word(s.y), word(s.z), word(0.0f), id, 0u, v0, v2,
                                                      word(n.x), word(n.y), word(n.z), word(1.0f), id, 1u, v0, v2});
                     }
                     pad(out, words);
                     return out;
                 },
                 [](long long p) { return std::int64_t(2 * p); }});
    w.push_back({"fins",
                 kFins,
                 false,
                 {10},
                 [=](long long p, const std::vector<std::int64_t>& words) {
                     auto out = fill(words);
                     for (std::size_t t = 0; t < std::size_t(p); ++t)
                         for (int i = 0; i < 3; ++i) {
                             const V3 q = shaded(corner(t, i)), next = shaded(corner(t, (i + 1) % 3));
                             out[0].insert(out[0].end(), {word(q.x), word(q.y), word(q.z), word(1.0f), word(q.x),
                                                          word(q.y), word(q.z + (next.x - q.x)), word(1.0f)});
                         }
                     pad(out, words);
                     return out;
                 },
                 [](long long p) { return std::int64_t(6 * p); }});
    w.push_back({"streams",
                 xfb_shaders::geometry_two_streams_geom,
                 true,
                 {2, 2},
                 [=](long long p, const std::vector<std::int64_t>& words) {
                     auto out = fill(words);
                     for (std::size_t t = 0; t < std::size_t(p); ++t) {
                         const V3 a = shaded(corner(t, 0)), b = shaded(corner(t, 1)), c = shaded(corner(t, 2)),
                                  s = a + b + c;
                         out[0].insert(out[0].end(), {word(s.x), word(s.y), word(s.z), word(1.0f)});
                         if (t % 2 == 1) {
                             const V3 n = cross(b - a, c - a);
                             out[1].insert(out[1].end(), {word(n.x), word(n.y), word(n.z), std::uint32_t(t)});
                         }
                     }
                     pad(out, words);
                     return out;
                 },
                 [](long long p) { return std::int64_t(p + p / 2); }});
    return w;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

// Fills a buffer with the sentinel in windows (no host copy of the whole buffer).
void fillSentinel(GLuint buffer, std::int64_t bytes) {
    static const std::vector<std::uint32_t> window(std::size_t(16) << 20, kSentinel); // 64 MB
    glBindBuffer(GL_COPY_WRITE_BUFFER, buffer);
    for (std::int64_t at = 0; at < bytes; at += std::int64_t(window.size() * 4)) {
        const std::int64_t n = std::min<std::int64_t>(std::int64_t(window.size() * 4), bytes - at);
        glBufferSubData(GL_COPY_WRITE_BUFFER, GLintptr(at), GLsizeiptr(n), window.data());
    }
    glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
}

// "" when equal, else the first differing word and how many differ.
std::string compareWords(const std::vector<std::uint32_t>& got, const std::vector<std::uint32_t>& want, int strideWords,
                         const char* against) {
    if (got.size() != want.size())
        return std::to_string(got.size()) + " words read, " + std::to_string(want.size()) + " expected";
    std::size_t first = got.size(), count = 0;
    for (std::size_t i = 0; i < got.size(); ++i)
        if (got[i] != want[i]) {
            if (first == got.size()) first = i;
            ++count;
        }
    if (!count) return "";
    char text[256];
    std::snprintf(text, sizeof text, "%zu words differ from %s, the first record %zu word %zu: 0x%08x against 0x%08x",
                  count, against, first / std::size_t(strideWords), first % std::size_t(strideWords), got[first],
                  want[first]);
    return text;
}

} // namespace

int geometryBench(const CommonOptions& options, const std::string& workloadList, bool large) {
    std::vector<long long> sizes =
        options.sizes.empty() ? std::vector<long long>{10'000, 100'000, 1'000'000} : options.sizes;
    for (long long n : sizes) {
        if (n < 1) {
            std::cerr << "xfb-bench-stream --geometry: a size must be at least 1 primitive\n";
            return 2;
        }
        if (n > kLargeSize && !large) {
            std::cerr << "xfb-bench-stream --geometry: " << n << " primitives is above " << kLargeSize
                      << "; add --large (the fins workload alone holds 2 x 160 bytes a primitive on the GPU and "
                         "3 x that on the host while checking)\n";
            return 2;
        }
        if (n > 16'000'000) {
            std::cerr << "xfb-bench-stream --geometry: at most 1.6e7 primitives\n";
            return 2;
        }
    }
    std::vector<Workload> chosen;
    {
        std::stringstream in(workloadList);
        for (std::string name; std::getline(in, name, ',');) {
            bool found = false;
            for (auto& w : workloads())
                if (w.name == name) chosen.push_back(w), found = true;
            if (!found) {
                std::cerr << "xfb-bench-stream --geometry: no workload '" << name << "' (faces, fins, streams)\n";
                return 2;
            }
        }
    }
    HeadlessContext context(options.api == "gles30" ? Api::OpenGLES30 : Api::OpenGL43Core);
    Device device;
    const auto& caps = device.capabilities();
    json report = {{"machine",
                    {{"renderer", caps.renderer},
                     {"version", caps.version},
                     {"api", options.api},
                     {"geometry_shaders", caps.geometry},
                     {"compute", caps.compute}}},
                   {"bench", "geometry"},
                   {"steps_timed", options.steps},
                   {"results", json::array()},
                   {"ratios", json::array()}};
    if (!caps.geometry || !caps.compute) {
        std::fprintf(stderr, "xfb-bench-stream --geometry: this context (%s) lacks %s\n", caps.version.c_str(),
                     caps.geometry ? "compute shaders" : "geometry shaders");
        return 2;
    }
    const std::string vsHeader = caps.es ? "#version 300 es\n" : "#version 330 core\n";
    const std::string gsHeader =
        caps.es ? "#version 320 es\nprecision highp float;\nprecision highp int;\n" : "#version 400 core\n";
    std::sort(sizes.begin(), sizes.end(), std::greater<>());
    std::printf("%-8s %10s %-18s %10s %10s %10s %12s %9s  %s\n", "workload", "primitives", "backend", "ms", "records",
                "expected", "Mrecords/s", "GL calls", "result");
    int mismatches = 0;
    // Auto: what a capture with default options runs, its choice timed at its first capture.
    constexpr int kBackends = 3;
    const Backend backends[kBackends] = {Backend::TransformFeedback, Backend::Compute, Backend::Auto};
    const char* backendLabel[kBackends] = {"geometry_shader", "compute", "auto"};

    for (long long n : sizes) {
        // The strip: n + 2 vertices, n triangles.
        const std::int64_t vertices = n + 2;
        std::vector<float> positions(std::size_t(vertices) * 4);
        for (std::size_t i = 0; i < std::size_t(vertices); ++i)
            for (int c = 0; c < 4; ++c) positions[i * 4 + std::size_t(c)] = c == 3 ? 1.0f : coordinate(i, c);
        auto input = std::make_shared<Buffer>(device, VertexFormat::interleaved({{attr(0), ComponentType::Float32, 4}}),
                                              vertices, std::span<const float>(positions));
        positions = {};
        const DrawDesc draw{DrawMode::TriangleStrip, vertices};

        struct Run {
            std::string workload;
            int backend; // index into backends
            std::shared_ptr<Program> program;
            std::vector<std::shared_ptr<Buffer>> outs;
            std::shared_ptr<PrimitiveCapture> capture;
            std::vector<double> ms;
            xfbtest::GlCalls glCalls;
        };
        std::vector<Run> runs;
        for (const Workload& w : chosen) {
            if (w.desktopOnly && caps.es) continue; // ES: stream 0 only
            // A workload the engine or the driver refuses at this size (e.g. a buffer over a limit) is
            // reported and counted, and the others still run.
            try {
                auto program = std::make_shared<Program>(
                    device, ProgramDesc{vsHeader + kVertex, {}, {}, w.name, gsHeader + std::string(w.source)});
                const CapturePlan& plan = program->capture();
                std::vector<Run> pair;
                for (int k = 0; k < kBackends; ++k) {
                    Run r{w.name, k, program, {}, {}, {}, {}};
                    std::vector<Entry> entries{{input.get(), nullptr}};
                    for (std::size_t b = 0; b < plan.buffers.size(); ++b) {
                        const std::int64_t records = n * w.budgetPerPrimitive.at(b) + 1; // + 1: a sentinel record
                        r.outs.push_back(std::make_shared<Buffer>(device, plan.buffers[b].asVertexFormat(), records));
                        fillSentinel(r.outs.back()->glName(), records * plan.buffers[b].stride);
                    }
                    for (auto& o : r.outs) entries.push_back({nullptr, o.get()});
                    r.capture = std::make_shared<PrimitiveCapture>(
                        device, *program, entries, PrimitiveCaptureOptions{std::nullopt, Expansion::Auto, backends[k]});
                    // Warm-up (the compute path makes its count buffers at the first, Auto decides), the last
                    // one counted.
                    r.capture->capture(draw);
                    xfbtest::resetGlCalls();
                    r.capture->capture(draw);
                    r.glCalls = xfbtest::glCalls();
                    pair.push_back(std::move(r));
                }
                for (auto& r : pair) runs.push_back(std::move(r));
            } catch (const std::exception& e) {
                reportMismatch(mismatches, w.name, n, 0, std::string("not run: ") + e.what());
                report["results"].push_back(
                    {{"workload", w.name}, {"primitives", n}, {"result", std::string("NOT RUN: ") + e.what()}});
                std::printf("%-8s %10lld %-18s  NOT RUN: %s\n", w.name.c_str(), n, "both", e.what());
                finish();
            }
        }

        finish();
        for (int round = 0; round < options.steps; ++round)
            for (auto& r : runs)
                r.ms.push_back(millisecondsOf([&] {
                    r.capture->capture(draw);
                    finish();
                }));

        // Check: per workload, both paths' buffers word for word, and the geometry shader's against the reference.
        std::map<std::string, double> med;
        for (std::size_t at = 0; at < runs.size(); at += kBackends) {
            const Workload& w = *std::find_if(chosen.begin(), chosen.end(),
                                              [&](const Workload& x) { return x.name == runs[at].workload; });
            const CapturePlan& plan = runs[at].program->capture();
            std::vector<std::int64_t> words;
            for (std::size_t b = 0; b < plan.buffers.size(); ++b)
                words.push_back((n * w.budgetPerPrimitive[b] + 1) * plan.buffers[b].stride / 4);
            std::string problem[kBackends];
            std::int64_t measured[kBackends] = {0, 0, 0};
            {
                const auto reference = w.reference(n, words);
                for (std::size_t b = 0; b < plan.buffers.size(); ++b) {
                    const int stride = plan.buffers[b].stride / 4;
                    const auto gs = readBack<std::uint32_t>(runs[at].outs[b]->glName(), std::size_t(words[b]));
                    const std::string buffer = "buffer " + std::to_string(b) + ": ";
                    if (std::string p = compareWords(gs, reference[b], stride, "the C++ reference");
                        problem[0].empty() && !p.empty())
                        problem[0] = buffer + p;
                    for (int k = 1; k < kBackends; ++k) {
                        const auto other =
                            readBack<std::uint32_t>(runs[at + std::size_t(k)].outs[b]->glName(), std::size_t(words[b]));
                        if (std::string p = compareWords(other, gs, stride, "the geometry shader's capture");
                            problem[k].empty() && !p.empty())
                            problem[k] = buffer + p;
                    }
                }
                for (int k = 1; k < kBackends; ++k)
                    if (problem[k].empty() && !problem[0].empty())
                        problem[k] = "equal to the geometry shader's capture, which differs from the reference";
            }
            for (int k = 0; k < kBackends; ++k) {
                Run& r = runs[at + std::size_t(k)];
                for (const auto& s : r.capture->statistics()) measured[k] += s.recordsWritten;
                const std::int64_t expected = w.records(n);
                if (problem[k].empty() && measured[k] != expected)
                    problem[k] = "statistics() say " + std::to_string(measured[k]) + " records written, " +
                                 std::to_string(expected) + " expected";
                const std::string name = w.name + "_" + backendLabel[k];
                if (!problem[k].empty()) reportMismatch(mismatches, name, n, int(r.ms.size()) + 2, problem[k]);
                const double ms = median(r.ms);
                med[name] = ms;
                const double perSecond = double(measured[k]) / (ms / 1000.0);
                std::int64_t bytes = 0; // written, from each stream's records and its buffers' strides
                const auto stats = r.capture->statistics();
                for (std::size_t b = 0; b < plan.buffers.size(); ++b)
                    for (const auto& s : stats)
                        if (s.stream == plan.buffers[b].stream) bytes += s.recordsWritten * plan.buffers[b].stride;
                const std::string result = problem[k].empty() ? "verified" : "DIFFERS: " + problem[k];
                json row = {{"workload", w.name},
                            {"primitives", n},
                            {"backend", backendLabel[k]},
                            {"ms", ms},
                            {"records", measured[k]},
                            {"records_expected", expected},
                            {"records_per_second", perSecond},
                            {"bytes_written", bytes},
                            {"gl_calls_per_capture", r.glCalls.withoutGetError()},
                            {"gl_get_error_per_capture", r.glCalls.getError},
                            {"gl_objects_created_per_capture", r.glCalls.created},
                            {"captures_timed", r.ms.size()},
                            {"result", result}};
                if (backends[k] == Backend::Auto) {
                    row["auto_chose"] = r.capture->backend() == Backend::Compute ? "compute" : "geometry_shader";
                    row["auto_reason"] = r.capture->backendReason();
                }
                report["results"].push_back(row);
                std::printf("%-8s %10lld %-18s %10.3f %10lld %10lld %12.2f %9ld  %s\n", w.name.c_str(), n,
                            backendLabel[k], ms, (long long)measured[k], (long long)expected, perSecond / 1e6,
                            r.glCalls.withoutGetError(), result.c_str());
            }
            const json ratio = ratioOf(med, w.name + "_compute", w.name + "_geometry_shader");
            const std::string faster =
                med[w.name + "_compute"] < med[w.name + "_geometry_shader"] ? "_compute" : "_geometry_shader";
            const json autoRatio = ratioOf(med, w.name + "_auto", w.name + faster);
            const PrimitiveCapture& chooser = *runs[at + 2].capture;
            report["ratios"].push_back({{"workload", w.name},
                                        {"primitives", n},
                                        {"compute_over_geometry_shader", ratio},
                                        {"auto_over_faster", autoRatio}});
            std::printf("  %s at %lld: compute / geometry shader (time) %s; auto chose %s, auto / the faster %s\n",
                        w.name.c_str(), n, ratio.dump().c_str(),
                        chooser.backend() == Backend::Compute ? "compute" : "the geometry shader",
                        autoRatio.dump().c_str());
        }
    }
    return finishReport(report, options.jsonPath, mismatches, "variant(s)",
                        "every variant's records match the reference, and the three captures' buffers are equal");
}

} // namespace xfbbench
