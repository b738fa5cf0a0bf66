// xfb-bench: the engine against hand-written GL loops, the copy bandwidth floor and the C++
// reference, in one process, per element count. Warm-up, then the median of timed steps, each
// synchronised with a fence. Prints a table; --json writes every figure.
//
//   xfb-bench [--api gl43core|gles30] [--sizes 1e4,1e5,...] [--steps K] [--max-step-ms MS] [--json FILE]
#include "gl_call_counter.hpp"
#include "handwritten.hpp"
#include "xfb/headless_context.hpp"
#include "xfb/xfb.hpp"
#include "xfb_shaders.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <optional>
#include <random>
#include <sstream>

using namespace xfb;
using json = nlohmann::ordered_json;

namespace {

constexpr float kDt = 1.0f / 64.0f;
constexpr double kBytesPerElement = 64.0; // 32 read + 32 written per step

void finish() {
    GLsync f = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    while (glClientWaitSync(f, GL_SYNC_FLUSH_COMMANDS_BIT, 1'000'000'000) == GL_TIMEOUT_EXPIRED) {}
    glDeleteSync(f);
}

// GL_NVX_gpu_memory_info, where the driver has it: free video memory in bytes.
std::optional<long long> freeVideoMemory() {
    GLint n = 0;
    glGetIntegerv(GL_NUM_EXTENSIONS, &n);
    for (GLint i = 0; i < n; ++i)
        if (std::strcmp(reinterpret_cast<const char*>(glGetStringi(GL_EXTENSIONS, GLuint(i))), "GL_NVX_gpu_memory_info") == 0) {
            GLint kb = 0;
            glGetIntegerv(0x9049 /* GL_GPU_MEMORY_INFO_CURRENT_AVAILABLE_VIDMEM_NVX */, &kb);
            return (long long)kb * 1024;
        }
    return std::nullopt;
}

struct Timing {
    double median = 0, min = 0;
    long glCalls = 0;
};

Timing measure(const std::function<void()>& step, int steps, bool gpu) {
    for (int i = 0; i < 3; ++i) step();
    if (gpu) finish();
    std::vector<double> ms;
    Timing t;
    for (int i = 0; i < steps; ++i) {
        xfbbench::resetGlCalls();
        auto t0 = std::chrono::steady_clock::now();
        step();
        if (i == 0) t.glCalls = xfbbench::glCalls();
        if (gpu) finish();
        ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    std::sort(ms.begin(), ms.end());
    t.median = ms[ms.size() / 2];
    t.min = ms.front();
    return t;
}

std::vector<float> readFloats(GLuint buffer, std::size_t count) {
    std::vector<float> v(count);
    glBindBuffer(GL_COPY_READ_BUFFER, buffer);
    if (const void* p = glMapBufferRange(GL_COPY_READ_BUFFER, 0, GLsizeiptr(count * 4), GL_MAP_READ_BIT)) {
        std::memcpy(v.data(), p, count * 4);
        glUnmapBuffer(GL_COPY_READ_BUFFER);
    }
    glBindBuffer(GL_COPY_READ_BUFFER, 0);
    return v;
}

void referenceStep(std::vector<float>& s) {
    for (std::size_t e = 0; e < s.size(); e += 8) {
        float v[4];
        for (int i = 0; i < 4; ++i) v[i] = s[e + 4 + std::size_t(i)] + (i == 1 ? -9.81f : 0.0f) * kDt;
        for (int i = 0; i < 4; ++i) {
            s[e + std::size_t(i)] = s[e + std::size_t(i)] + v[i] * kDt;
            s[e + 4 + std::size_t(i)] = v[i];
        }
    }
}

} // namespace

int main(int argc, char** argv) {
    std::string api = "gl43core", jsonPath;
    std::vector<long long> sizes = {10'000, 100'000, 1'000'000, 4'000'000, 16'000'000};
    int steps = 15;
    double maxStepMs = 1000;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
        if (a == "--api") api = next();
        else if (a == "--json") jsonPath = next();
        else if (a == "--steps") steps = std::max(3, std::stoi(next()));
        else if (a == "--max-step-ms") maxStepMs = std::stod(next());
        else if (a == "--sizes") {
            sizes.clear();
            std::stringstream in(next());
            for (std::string s; std::getline(in, s, ',');) sizes.push_back((long long)std::stod(s));
        } else {
            std::cerr << "usage: xfb-bench [--api gl43core|gles30] [--sizes 1e4,1e5,...] [--steps K] [--max-step-ms MS] [--json FILE]\n";
            return 2;
        }
    }
    HeadlessContext context(api == "gles30" ? Api::OpenGLES30 : Api::OpenGL43Core);
    Device device;
    const auto& caps = device.capabilities();
    const std::string shader(xfb_shaders::bench_particles_vert);
    Program interleaved(device, {shader, {CaptureMode::Interleaved}, {}, "bench"});
    Program separate(device, {shader, {CaptureMode::Separate}, {}, "bench-separate"});
    interleaved.setUniform("dt", kDt);
    separate.setUniform("dt", kDt);
    const VertexFormat stateFormat = VertexFormat::interleaved({{attr(0)}, {attr(1)}});

    json report = {{"machine", {{"renderer", caps.renderer}, {"version", caps.version}, {"api", api}}},
                   {"workload", "shaders/bench_particles.vert: vec4 position + vec4 velocity, 64 bytes read+written per element per step"},
                   {"steps_timed", steps},
                   {"results", json::array()},
                   {"ratios", json::array()},
                   {"auto", json::array()}};
    std::map<std::string, bool> stopped; // variants past --max-step-ms
    std::printf("%-22s %10s %10s %12s %8s %9s %10s %s\n", "variant", "elements", "ms/step", "Melem/s", "GB/s", "GL calls", "buffers MB", "same result");

    for (long long n : sizes) {
        std::mt19937 rng(7);
        std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
        std::vector<float> initial(std::size_t(n) * 8);
        for (auto& x : initial) x = dist(rng);
        std::vector<float> pos(std::size_t(n) * 4), vel(std::size_t(n) * 4);
        for (std::size_t e = 0; e < std::size_t(n); ++e)
            for (int i = 0; i < 4; ++i) pos[e * 4 + std::size_t(i)] = initial[e * 8 + std::size_t(i)], vel[e * 4 + std::size_t(i)] = initial[e * 8 + 4 + std::size_t(i)];

        std::map<std::string, Timing> timings;
        std::vector<float> expected; // the hand-written transform feedback result, for comparisons
        auto run = [&](const std::string& name, bool gpu, const std::function<void(std::function<void()>&, std::function<std::vector<float>()>&)>& setup) {
            if (stopped[name]) return;
            auto before = gpu ? freeVideoMemory() : std::nullopt;
            std::function<void()> step;
            std::function<std::vector<float>()> result;
            setup(step, result);
            Timing t = measure(step, steps, gpu);
            auto after = gpu ? freeVideoMemory() : std::nullopt; // after steps: drivers allocate on first write
            timings[name] = t;
            if (t.median > maxStepMs) stopped[name] = true;
            std::string same = "-";
            if (result) {
                auto r = result();
                if (expected.empty()) expected = r;
                same = r.size() == expected.size() && std::memcmp(r.data(), expected.data(), r.size() * 4) == 0 ? "bit-identical" : "differs";
            }
            double bytes = double(n) * 32 * (name == "cpp_reference" ? 1 : 2);
            json row = {{"elements", n},
                        {"variant", name},
                        {"ms_per_step", t.median},
                        {"ms_min", t.min},
                        {"elements_per_s", double(n) / (t.median / 1000)},
                        {"effective_gb_per_s", double(n) * kBytesPerElement / (t.median / 1000) / 1e9},
                        {"gl_calls_per_step", gpu ? json(t.glCalls) : json(nullptr)},
                        {"buffer_bytes", bytes},
                        {"result_vs_handwritten_tf", same}};
            if (before && after) row["gpu_memory_used_bytes"] = *before - *after;
            report["results"].push_back(row);
            std::printf("%-22s %10lld %10.3f %12.1f %8.1f %9s %10.1f %s\n", name.c_str(), n, t.median, double(n) / t.median / 1000,
                        row["effective_gb_per_s"].get<double>(), gpu ? std::to_string(t.glCalls).c_str() : "-", bytes / 1e6, same.c_str());
        };
        // Every GPU variant runs 3 + steps steps from the same initial state, so results compare.
        run("handwritten_tf", true, [&](auto& step, auto& result) {
            auto h = std::make_shared<xfbbench::HandwrittenTransformFeedback>(shader, initial, GLsizei(n), kDt);
            step = [h] { h->step(); };
            result = [h, n] { return readFloats(h->current(), std::size_t(n) * 8); };
        });
        run("engine_tf_interleaved", true, [&](auto& step, auto& result) {
            auto a = std::make_shared<Buffer>(device, stateFormat, n, std::span<const float>(initial)), b = std::make_shared<Buffer>(device, stateFormat, n);
            auto p = std::make_shared<Pipeline>(device, interleaved, std::vector<Entry>{{a.get(), b.get()}});
            step = [p, a, b] { p->step(); };
            result = [a] { return a->readAs<float>(); };
        });
        run("engine_tf_separate", true, [&](auto& step, auto& result) {
            auto f0 = VertexFormat::interleaved({{attr(0)}}), f1 = VertexFormat::interleaved({{attr(1)}});
            auto p0 = std::make_shared<Buffer>(device, f0, n, std::span<const float>(pos)), p1 = std::make_shared<Buffer>(device, f0, n);
            auto v0 = std::make_shared<Buffer>(device, f1, n, std::span<const float>(vel)), v1 = std::make_shared<Buffer>(device, f1, n);
            auto p = std::make_shared<Pipeline>(device, separate, std::vector<Entry>{{p0.get(), p1.get()}, {v0.get(), v1.get()}});
            step = [p, p0, p1, v0, v1] { p->step(); };
            result = [p0, v0, n] {
                auto ps = p0->readAs<float>(), vs = v0->readAs<float>();
                std::vector<float> out(std::size_t(n) * 8);
                for (std::size_t e = 0; e < std::size_t(n); ++e)
                    for (int i = 0; i < 4; ++i) out[e * 8 + std::size_t(i)] = ps[e * 4 + std::size_t(i)], out[e * 8 + 4 + std::size_t(i)] = vs[e * 4 + std::size_t(i)];
                return out;
            };
        });
        if (caps.compute) {
            run("handwritten_compute", true, [&](auto& step, auto& result) {
                auto h = std::make_shared<xfbbench::HandwrittenCompute>(initial, GLsizei(n), kDt, std::min(256, caps.maxComputeInvocations), caps.es);
                step = [h] { h->step(); };
                result = [h, n] { return readFloats(h->current(), std::size_t(n) * 8); };
            });
            run("engine_compute", true, [&](auto& step, auto& result) {
                auto a = std::make_shared<Buffer>(device, stateFormat, n, std::span<const float>(initial)), b = std::make_shared<Buffer>(device, stateFormat, n);
                auto p = std::make_shared<Pipeline>(device, interleaved, std::vector<Entry>{{a.get(), b.get()}}, PipelineOptions{.backend = Backend::Compute});
                step = [p, a, b] { p->step(); };
                result = [a] { return a->readAs<float>(); };
            });
        }
        run("copy_buffer_sub_data", true, [&](auto& step, auto&) {
            auto c = std::make_shared<xfbbench::BufferCopy>(GLsizeiptr(n) * 32, false, 0, caps.es);
            step = [c] { c->step(); };
        });
        if (caps.compute)
            run("copy_kernel", true, [&](auto& step, auto&) {
                auto c = std::make_shared<xfbbench::BufferCopy>(GLsizeiptr(n) * 32, true, std::min(256, caps.maxComputeInvocations), caps.es);
                step = [c] { c->step(); };
            });
        run("cpp_reference", false, [&](auto& step, auto& result) {
            auto s = std::make_shared<std::vector<float>>(initial);
            step = [s] { referenceStep(*s); };
            result = [s] { return *s; };
        });
        {
            Buffer a(device, stateFormat, n, std::span<const float>(initial)), b(device, stateFormat, n);
            Pipeline p(device, interleaved, {{&a, &b}}, {.backend = Backend::Auto});
            report["auto"].push_back({{"elements", n}, {"chose", backendName(p.backend().backend)}, {"reason", p.backend().reason}});
            std::printf("  auto at %lld elements: %s\n", n, p.backend().reason.c_str());
        }
        auto ratio = [&](const char* a, const char* b) -> json {
            return timings.count(a) && timings.count(b) ? json(timings[a].median / timings[b].median) : json(nullptr);
        };
        json r = {{"elements", n},
                  {"engine_tf_over_handwritten_tf", ratio("engine_tf_interleaved", "handwritten_tf")},
                  {"engine_compute_over_handwritten_compute", ratio("engine_compute", "handwritten_compute")},
                  {"copy_kernel_over_engine_compute", ratio("copy_kernel", "engine_compute")},
                  {"copy_kernel_over_handwritten_compute", ratio("copy_kernel", "handwritten_compute")},
                  {"copy_call_over_engine_compute", ratio("copy_buffer_sub_data", "engine_compute")},
                  {"copy_call_over_engine_tf", ratio("copy_buffer_sub_data", "engine_tf_interleaved")}};
        report["ratios"].push_back(r);
        std::printf("  ratios: engine/hand-written tf %s, compute %s; copy-kernel time / step time: engine compute %s, hand-written compute %s\n",
                    r["engine_tf_over_handwritten_tf"].dump().c_str(), r["engine_compute_over_handwritten_compute"].dump().c_str(),
                    r["copy_kernel_over_engine_compute"].dump().c_str(), r["copy_kernel_over_handwritten_compute"].dump().c_str());
    }
    if (!jsonPath.empty()) std::ofstream(jsonPath) << report.dump(2) << "\n";
    return 0;
}
