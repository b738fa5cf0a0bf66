// xfb-bench: the engine against hand-written GL loops, the copy bandwidth floor and the C++
// reference, in one process, per element count. Warm-up, then the median of timed steps, each
// synchronised with a fence. Prints a table; --json writes every figure.
// Every result is checked: each simulation variant's state against the C++ reference advanced on
// the CPU by as many steps as that variant took, each copy's destination against the pattern it
// copied. Any mismatch is printed and the exit status is 1 (ctest's bench.smoke relies on it).
// GL calls per step are measured by the counting layer under every GL function (tests/support).
//
//   xfb-bench [--api gl43core|gles30] [--sizes 1e4,1e5,...] [--steps K] [--max-step-ms MS] [--json FILE]
//             [--only variant,variant,...] [--tolerance ABS] [--fusion [--substeps 1,4,16]]
//   --fusion: instead of the variants above, fused substeps against as many passes, per backend:
//             fused_<backend>_k<K> runs step(K) as one pass, passes_<backend>_k<K> runs step(K) with
//             fusion off (K passes); ms_per_substep = ms per step(K) / K, every state verified.
//   --tolerance: accept results within ABS of the reference (drivers that fuse multiply-adds);
//                default 0: bit-identical only.
#include "gl_call_counter.hpp"
#include "handwritten.hpp"
#include "bench_util.hpp"
#include "xfb/headless_context.hpp"
#include "xfb/xfb.hpp"
#include "xfb_shaders.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <iostream>
#include <map>
#include <optional>
#include <random>
#include <sstream>
#include <stdexcept>

using namespace xfb;
using json = nlohmann::ordered_json;

namespace {

constexpr float kDt = 1.0f / 64.0f;
constexpr double kBytesPerElement = 64.0; // 32 read + 32 written per step

// GL_NVX_gpu_memory_info, where the driver has it: free video memory in bytes.
std::optional<long long> freeVideoMemory() {
    GLint n = 0;
    glGetIntegerv(GL_NUM_EXTENSIONS, &n);
    for (GLint i = 0; i < n; ++i)
        if (std::strcmp(reinterpret_cast<const char*>(glGetStringi(GL_EXTENSIONS, GLuint(i))),
                        "GL_NVX_gpu_memory_info") == 0) {
            GLint kb = 0;
            glGetIntegerv(0x9049 /* GL_GPU_MEMORY_INFO_CURRENT_AVAILABLE_VIDMEM_NVX */, &kb);
            return (long long)kb * 1024;
        }
    return std::nullopt;
}

std::vector<float> readFloats(GLuint buffer, std::size_t count) { return xfbbench::readBack<float>(buffer, count); }

// "" when `got` matches `expected` (bit for bit, or within `tolerance` when it is > 0), else
// where it first differs.
std::string compareStates(const std::vector<float>& got, const std::vector<float>& expected, float tolerance) {
    if (got.size() != expected.size())
        return std::to_string(got.size()) + " floats, expected " + std::to_string(expected.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
        bool same = std::memcmp(&got[i], &expected[i], 4) == 0 ||
                    (tolerance > 0 && std::fabs(got[i] - expected[i]) <= tolerance);
        if (!same)
            return "float " + std::to_string(i) + " (element " + std::to_string(i / 8) + ") is " +
                   std::to_string(got[i]) + ", the reference " + std::to_string(expected[i]);
    }
    return "";
}

// A copy variant's destination against the pattern its source was filled with.
std::string checkCopy(GLuint destination, std::size_t bytes) {
    auto got = xfbbench::readBack<unsigned char>(destination, bytes);
    for (std::size_t i = 0; i < bytes; ++i)
        if (got[i] != xfbbench::BufferCopy::patternByte(i))
            return "byte " + std::to_string(i) + " of the destination is " + std::to_string(got[i]) +
                   ", the source's " + std::to_string(xfbbench::BufferCopy::patternByte(i));
    return "";
}

// shaders/bench_particles.vert, operation for operation (built with -ffp-contract=off).
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
    xfbbench::CommonOptions options{.sizes = {10'000, 100'000, 1'000'000, 4'000'000, 16'000'000}};
    auto& [api, jsonPath, sizes, steps] = options;
    double maxStepMs = 1000;
    float tolerance = 0;
    int mismatches = 0;
    std::vector<std::string> only; // empty: every variant
    bool fusionMode = false;
    std::vector<long long> substepCounts = {1, 4, 16};
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
        if (options.take(a, next)) continue;
        if (a == "--max-step-ms")
            maxStepMs = std::stod(next());
        else if (a == "--only") {
            std::stringstream in(next());
            for (std::string v; std::getline(in, v, ',');) only.push_back(v);
        } else if (a == "--tolerance")
            tolerance = std::stof(next());
        else if (a == "--fusion")
            fusionMode = true;
        else if (a == "--substeps")
            substepCounts = xfbbench::parseSizes(next());
        else {
            std::cerr << "usage: xfb-bench [--api gl43core|gles30] [--sizes 1e4,1e5,...] [--steps K] [--max-step-ms "
                         "MS] [--json FILE] [--only a,b] [--tolerance ABS] [--fusion [--substeps 1,4,16]]\n";
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

    json report = {
        {"machine", {{"renderer", caps.renderer}, {"version", caps.version}, {"api", api}}},
        {"workload",
         "shaders/bench_particles.vert: vec4 position + vec4 velocity, 64 bytes read+written per element per step"},
        {"steps_timed", steps},
        {"gl_calls",
         "measured by tests/support/gl_call_counter (every GL function counted) on a warm-up step; glGetError apart"},
        {"result_check", tolerance > 0 ? "within " + std::to_string(tolerance) + " of the C++ reference"
                                       : "bit-identical to the C++ reference"},
        {"mode",
         fusionMode ? "fusion: step(k) fused into one pass vs k passes (fuseSubsteps off), same run" : "single steps"},
        {"results", json::array()},
        {"fusion", json::array()},
        {"ratios", json::array()},
        {"auto", json::array()}};
    std::sort(sizes.begin(), sizes.end(), std::greater<>()); // largest first, on memory nothing has used yet
    std::printf("%-24s %10s %10s %12s %8s %9s %11s %10s %s\n", "variant", "elements", "ms/step", "Melem/s", "GB/s",
                "GL calls", "glGetError", "buffers MB", "result (vs C++ reference)");

    for (long long n : sizes) {
        std::mt19937 rng(7);
        std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
        std::vector<float> initial(std::size_t(n) * 8);
        for (auto& x : initial) x = dist(rng);
        std::vector<float> pos(std::size_t(n) * 4), vel(std::size_t(n) * 4);
        for (std::size_t e = 0; e < std::size_t(n); ++e)
            for (int i = 0; i < 4; ++i)
                pos[e * 4 + std::size_t(i)] = initial[e * 8 + std::size_t(i)],
                            vel[e * 4 + std::size_t(i)] = initial[e * 8 + 4 + std::size_t(i)];

        // Every variant of this size is set up before any is timed, then timed in rounds (one step
        // of each per round): no variant runs on memory another just freed (on the H200 that
        // halves the speed of the next 1 GB allocation), and machine noise hits all alike.
        struct Run {
            std::string name;
            bool gpu;
            std::function<void()> step;
            std::function<std::vector<float>()> result; // simulation variants: the state now
            std::function<std::string()> check;         // other variants: "" when right, else what is wrong
            std::optional<long long> memoryUsed;
            std::vector<double> ms;
            xfbtest::GlCalls glCalls;
            int stepsTaken = 0;
            int substeps = 1; // per advance(): step(k) takes k
            void advance() { step(), stepsTaken += substeps; }
        };
        std::vector<Run> runs;
        auto add = [&](const std::string& name, bool gpu, const std::function<void(Run&)>& setup) {
            if (!only.empty() && std::find(only.begin(), only.end(), name) == only.end()) return;
            bool fusionVariant = name.starts_with("fused_") || name.starts_with("passes_");
            if (fusionVariant != fusionMode) return;
            Run r{name, gpu, {}, {}, {}, std::nullopt, {}, {}, 0};
            auto before = gpu ? freeVideoMemory() : std::nullopt;
            setup(r);
            r.advance(); // drivers allocate on first write
            if (gpu) xfbbench::finish();
            if (auto after = gpu ? freeVideoMemory() : std::nullopt; before && after) r.memoryUsed = *before - *after;
            runs.push_back(std::move(r));
        };
        add("handwritten_tf", true, [&](Run& r) {
            auto h = std::make_shared<xfbbench::HandwrittenTransformFeedback>(shader, initial, GLsizei(n), kDt);
            r.step = [h] { h->step(); };
            r.result = [h, n] { return readFloats(h->current(), std::size_t(n) * 8); };
        });
        add("engine_tf_interleaved", true, [&](Run& r) {
            auto a = std::make_shared<Buffer>(device, stateFormat, n, std::span<const float>(initial)),
                 b = std::make_shared<Buffer>(device, stateFormat, n);
            auto p = std::make_shared<Pipeline>(device, interleaved, std::vector<Entry>{{a.get(), b.get()}},
                                                PipelineOptions{.backend = Backend::TransformFeedback});
            r.step = [p, a, b] { p->step(); };
            r.result = [a] { return a->readAs<float>(); };
        });
        add("engine_tf_separate", true, [&](Run& r) {
            auto f0 = VertexFormat::interleaved({{attr(0)}}), f1 = VertexFormat::interleaved({{attr(1)}});
            auto p0 = std::make_shared<Buffer>(device, f0, n, std::span<const float>(pos)),
                 p1 = std::make_shared<Buffer>(device, f0, n);
            auto v0 = std::make_shared<Buffer>(device, f1, n, std::span<const float>(vel)),
                 v1 = std::make_shared<Buffer>(device, f1, n);
            auto p = std::make_shared<Pipeline>(device, separate,
                                                std::vector<Entry>{{p0.get(), p1.get()}, {v0.get(), v1.get()}},
                                                PipelineOptions{.backend = Backend::TransformFeedback});
            r.step = [p, p0, p1, v0, v1] { p->step(); };
            r.result = [p0, v0, n] {
                auto ps = p0->readAs<float>(), vs = v0->readAs<float>();
                std::vector<float> out(std::size_t(n) * 8);
                for (std::size_t e = 0; e < std::size_t(n); ++e)
                    for (int i = 0; i < 4; ++i)
                        out[e * 8 + std::size_t(i)] = ps[e * 4 + std::size_t(i)],
                                    out[e * 8 + 4 + std::size_t(i)] = vs[e * 4 + std::size_t(i)];
                return out;
            };
        });
        // The fragment backend (GL 4.3 / ES 3.0): the same pipeline as engine_tf_interleaved and
        // engine_tf_separate (its separate buffers share one pass, two colour attachments).
        add("engine_fragment", true, [&](Run& r) {
            auto a = std::make_shared<Buffer>(device, stateFormat, n, std::span<const float>(initial)),
                 b = std::make_shared<Buffer>(device, stateFormat, n);
            auto p = std::make_shared<Pipeline>(device, interleaved, std::vector<Entry>{{a.get(), b.get()}},
                                                PipelineOptions{.backend = Backend::Fragment});
            r.step = [p, a, b] { p->step(); };
            r.result = [a] { return a->readAs<float>(); };
        });
        add("engine_fragment_separate", true, [&](Run& r) {
            auto f0 = VertexFormat::interleaved({{attr(0)}}), f1 = VertexFormat::interleaved({{attr(1)}});
            auto p0 = std::make_shared<Buffer>(device, f0, n, std::span<const float>(pos)),
                 p1 = std::make_shared<Buffer>(device, f0, n);
            auto v0 = std::make_shared<Buffer>(device, f1, n, std::span<const float>(vel)),
                 v1 = std::make_shared<Buffer>(device, f1, n);
            auto p = std::make_shared<Pipeline>(device, separate,
                                                std::vector<Entry>{{p0.get(), p1.get()}, {v0.get(), v1.get()}},
                                                PipelineOptions{.backend = Backend::Fragment});
            r.step = [p, p0, p1, v0, v1] { p->step(); };
            r.result = [p0, v0, n] {
                auto ps = p0->readAs<float>(), vs = v0->readAs<float>();
                std::vector<float> out(std::size_t(n) * 8);
                for (std::size_t e = 0; e < std::size_t(n); ++e)
                    for (int i = 0; i < 4; ++i)
                        out[e * 8 + std::size_t(i)] = ps[e * 4 + std::size_t(i)],
                                    out[e * 8 + 4 + std::size_t(i)] = vs[e * 4 + std::size_t(i)];
                return out;
            };
        });
        const int groupSize = std::min(256, caps.maxComputeInvocations);
        if (caps.compute) {
            add("handwritten_compute", true, [&](Run& r) {
                auto h = std::make_shared<xfbbench::HandwrittenCompute>(initial, GLsizei(n), kDt, groupSize, caps.es);
                r.step = [h] { h->step(); };
                r.result = [h, n] { return readFloats(h->current(), std::size_t(n) * 8); };
            });
            add("engine_compute", true, [&](Run& r) {
                auto a = std::make_shared<Buffer>(device, stateFormat, n, std::span<const float>(initial)),
                     b = std::make_shared<Buffer>(device, stateFormat, n);
                auto p = std::make_shared<Pipeline>(device, interleaved, std::vector<Entry>{{a.get(), b.get()}},
                                                    PipelineOptions{.backend = Backend::Compute});
                r.step = [p, a, b] { p->step(); };
                r.result = [a] { return a->readAs<float>(); };
            });
            add("copy_kernel", true, [&](Run& r) {
                auto c = std::make_shared<xfbbench::BufferCopy>(GLsizeiptr(n) * 32, true, groupSize, caps.es);
                r.step = [c] { c->step(); };
                r.check = [c, n] { return checkCopy(c->destination(), std::size_t(n) * 32); };
            });
        }
        add("copy_buffer_sub_data", true, [&](Run& r) {
            auto c = std::make_shared<xfbbench::BufferCopy>(GLsizeiptr(n) * 32, false, 0, caps.es);
            r.step = [c] { c->step(); };
            r.check = [c, n] { return checkCopy(c->destination(), std::size_t(n) * 32); };
        });
        // Fused substeps: the same pipeline shape as engine_tf_interleaved / engine_compute.
        for (Backend backend : {Backend::TransformFeedback, Backend::Compute, Backend::Fragment}) {
            if (backend == Backend::Compute && !caps.compute) continue;
            for (long long k : substepCounts)
                for (bool fuse : {true, false}) {
                    if (k == 1 && fuse) continue; // step(1) is one ordinary pass either way
                    std::string name = std::string(fuse ? "fused_" : "passes_") + std::string(backendName(backend)) +
                                       "_k" + std::to_string(k);
                    add(name, true, [&, backend, k, fuse](Run& r) {
                        auto a = std::make_shared<Buffer>(device, stateFormat, n, std::span<const float>(initial)),
                             b = std::make_shared<Buffer>(device, stateFormat, n);
                        auto p = std::make_shared<Pipeline>(device, interleaved, std::vector<Entry>{{a.get(), b.get()}},
                                                            PipelineOptions{.backend = backend, .fuseSubsteps = fuse});
                        if (fuse && !p->fusion().fused)
                            throw std::runtime_error("bench_particles.vert does not fuse: " + p->fusion().reason);
                        r.substeps = int(k);
                        r.step = [p, a, b, k] { p->step(int(k)); };
                        r.result = [a] { return a->readAs<float>(); };
                    });
                }
        }
        add("cpp_reference", false, [&](Run& r) {
            auto s = std::make_shared<std::vector<float>>(initial);
            r.step = [s] { referenceStep(*s); };
            r.result = [s] { return *s; };
        });

        for (auto& r : runs) { // warm-up (with the setup step: 3), the last one counted
            r.advance();
            xfbtest::resetGlCalls();
            r.advance();
            r.glCalls = xfbtest::glCalls();
        }
        xfbbench::finish();
        std::vector<bool> skipped(runs.size());
        for (int round = 0; round < steps; ++round)
            for (std::size_t i = 0; i < runs.size(); ++i) {
                Run& r = runs[i];
                if (skipped[i]) continue;
                r.ms.push_back(xfbbench::millisecondsOf([&] {
                    r.advance();
                    if (r.gpu) xfbbench::finish();
                }));
                if (round == 0 && r.ms.back() > maxStepMs) skipped[i] = true; // too slow here: one timed step only
            }

        std::map<std::string, double> median;
        // The C++ reference advanced on its own, once per step count a variant reached (a variant
        // skipped as too slow took fewer steps than the others).
        std::map<int, std::vector<float>> reference;
        auto referenceAfter = [&](int stepCount) -> const std::vector<float>& {
            auto it = reference.find(stepCount);
            if (it != reference.end()) return it->second;
            std::vector<float> s = initial;
            for (int k = 0; k < stepCount; ++k) referenceStep(s);
            return reference.emplace(stepCount, std::move(s)).first->second;
        };
        for (auto& r : runs) {
            std::sort(r.ms.begin(), r.ms.end());
            double ms = r.ms[r.ms.size() / 2];
            median[r.name] = ms;
            std::string problem;
            if (r.result)
                problem = compareStates(r.result(), referenceAfter(r.stepsTaken), tolerance);
            else if (r.check)
                problem = r.check();
            std::string same = !problem.empty()            ? "DIFFERS: " + problem
                               : r.name == "cpp_reference" ? "bit-identical (the reference, run in the timed loop)"
                               : r.result                  ? (tolerance > 0 ? "matches" : "bit-identical")
                                                           : "copy verified";
            if (!problem.empty()) xfbbench::reportMismatch(mismatches, r.name, n, r.stepsTaken, problem);
            double bytes = double(n) * 32 * (r.name == "cpp_reference" ? 1 : 2);
            double passesPerCall = r.name.starts_with("passes_") ? r.substeps : 1; // memory traffic: once per pass
            json row = {{"elements", n},
                        {"variant", r.name},
                        {"ms_per_step", ms},
                        {"ms_min", r.ms.front()},
                        {"timed_steps", r.ms.size()},
                        {"elements_per_s", double(n) / (ms / 1000)},
                        {"effective_gb_per_s", double(n) * kBytesPerElement * passesPerCall / (ms / 1000) / 1e9},
                        {"substeps_per_step", r.substeps},
                        {"ms_per_substep", ms / r.substeps},
                        {"gl_calls_per_step", r.gpu ? json(r.glCalls.withoutGetError()) : json(nullptr)},
                        {"gl_get_error_per_step", r.gpu ? json(r.glCalls.getError) : json(nullptr)},
                        {"gl_objects_created_per_step", r.gpu ? json(r.glCalls.created) : json(nullptr)},
                        {"gl_calls_by_function", r.gpu ? json(r.glCalls.byFunction) : json(nullptr)},
                        {"buffer_bytes", bytes},
                        {"steps_taken", r.stepsTaken},
                        {"result_vs_cpp_reference", same}};
            if (r.memoryUsed) row["gpu_memory_used_bytes"] = *r.memoryUsed;
            report["results"].push_back(row);
            std::printf("%-24s %10lld %10.3f %12.1f %8.1f %9s %11s %10.1f %s\n", r.name.c_str(), n, ms,
                        double(n) / ms / 1000, row["effective_gb_per_s"].get<double>(),
                        r.gpu ? std::to_string(r.glCalls.withoutGetError()).c_str() : "-",
                        r.gpu ? std::to_string(r.glCalls.getError).c_str() : "-", bytes / 1e6, same.c_str());
        }
        runs.clear();
        if (fusionMode) {
            for (const char* b : {"tf", "compute", "fragment"}) {
                std::string single = std::string("passes_") + b + "_k1";
                for (long long k : substepCounts) {
                    std::string fused = std::string("fused_") + b + "_k" + std::to_string(k),
                                passes = std::string("passes_") + b + "_k" + std::to_string(k);
                    if (k == 1 || !median.count(fused) || !median.count(passes)) continue;
                    double fusedSub = median[fused] / double(k), passesSub = median[passes] / double(k);
                    json f = {{"elements", n},
                              {"backend", b},
                              {"substeps", k},
                              {"fused_ms_per_substep", fusedSub},
                              {"passes_ms_per_substep", passesSub},
                              {"passes_over_fused", passesSub / fusedSub},
                              {"single_step_over_fused",
                               median.count(single) ? json(median[single] / fusedSub) : json(nullptr)}};
                    report["fusion"].push_back(f);
                    std::printf("  fusion %s k=%lld: fused %.4f ms/substep, %lld passes %.4f ms/substep: %.2fx\n", b, k,
                                fusedSub, k, passesSub, passesSub / fusedSub);
                }
            }
            continue; // the Auto probe and the single-step ratios belong to the default mode
        }
        {
            Buffer a(device, stateFormat, n, std::span<const float>(initial)), b(device, stateFormat, n);
            Pipeline p(device, interleaved, {{&a, &b}}, {.backend = Backend::Auto});
            p.step(); // Auto times its trial passes at the first step
            report["auto"].push_back(
                {{"elements", n}, {"chose", backendName(p.backend().backend)}, {"reason", p.backend().reason}});
            std::printf("  auto at %lld elements: %s\n", n, p.backend().reason.c_str());
        }
        auto ratio = [&](const char* a, const char* b) { return xfbbench::ratioOf(median, a, b); };
        json r = {{"elements", n},
                  {"engine_tf_over_handwritten_tf", ratio("engine_tf_interleaved", "handwritten_tf")},
                  {"engine_compute_over_handwritten_compute", ratio("engine_compute", "handwritten_compute")},
                  {"engine_fragment_over_engine_tf", ratio("engine_fragment", "engine_tf_interleaved")},
                  {"engine_fragment_over_engine_compute", ratio("engine_fragment", "engine_compute")},
                  {"engine_fragment_over_handwritten_tf", ratio("engine_fragment", "handwritten_tf")},
                  {"engine_fragment_separate_over_engine_tf_separate",
                   ratio("engine_fragment_separate", "engine_tf_separate")},
                  {"copy_kernel_over_engine_compute", ratio("copy_kernel", "engine_compute")},
                  {"copy_kernel_over_handwritten_compute", ratio("copy_kernel", "handwritten_compute")},
                  {"copy_call_over_engine_compute", ratio("copy_buffer_sub_data", "engine_compute")},
                  {"copy_call_over_engine_tf", ratio("copy_buffer_sub_data", "engine_tf_interleaved")}};
        report["ratios"].push_back(r);
        std::printf("  ratios: engine/hand-written tf %s, compute %s; copy-kernel time / step time: engine compute %s, "
                    "hand-written compute %s\n",
                    r["engine_tf_over_handwritten_tf"].dump().c_str(),
                    r["engine_compute_over_handwritten_compute"].dump().c_str(),
                    r["copy_kernel_over_engine_compute"].dump().c_str(),
                    r["copy_kernel_over_handwritten_compute"].dump().c_str());
        std::printf("  ratios: fragment / engine tf %s, fragment / engine compute %s, fragment / hand-written tf %s, "
                    "fragment separate / tf separate %s\n",
                    r["engine_fragment_over_engine_tf"].dump().c_str(),
                    r["engine_fragment_over_engine_compute"].dump().c_str(),
                    r["engine_fragment_over_handwritten_tf"].dump().c_str(),
                    r["engine_fragment_separate_over_engine_tf_separate"].dump().c_str());
    }
    return xfbbench::finishReport(report, jsonPath, mismatches, "result(s)", "every result matches its reference");
}
