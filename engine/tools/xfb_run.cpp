// xfb-run SCENARIO.json [--out RESULT.json] [--binary DIR] [--api gl43core|gles30] [--steps N] [--backend
// tf|compute|auto] [--brief] Runs a simulation headless (EGL) from a scenario file (format: engine/tools/README.md).
// Prints a summary as JSON on stdout (--brief: one line); --out writes every buffer's values as JSON,
// --binary writes DIR/NAME.bin.
// Invalid input: exit status 1, "SCENARIO: XFB_CODE: message" on stderr; bad arguments: exit status 2.
#include "xfb/plan_json.hpp"
#include "file_io.hpp"
#include "last_resort.hpp"
#include "scenario.hpp"
#include "xfb/error.hpp"
#include "xfb/headless_context.hpp"
#include "xfb/xfb.hpp"

#include <chrono>
#include <cstdio>
#include <climits>
#include <cmath>
#include <filesystem>
#include <iostream>

using namespace xfb;
using json = nlohmann::ordered_json;

namespace {

[[noreturn]] void usage(const std::string& why) {
    std::cerr << "xfb-run: " << why << "\n"
              << "usage: xfb-run SCENARIO.json [--out RESULT.json] [--binary DIR] [--api gl43core|gles30] [--steps N] "
                 "[--backend tf|compute|auto] [--brief]\n";
    std::exit(2);
}

// JSON numbers -> the uniform's declared scalar kind.
void setUniform(Program& program, const std::string& name, const nlohmann::json& value) {
    const auto& decls = program.shader().uniforms;
    auto it = std::find_if(decls.begin(), decls.end(), [&](const Declaration& d) { return d.name == name; });
    ScalarKind kind = it == decls.end() ? ScalarKind::Float : it->type.kind;
    if (kind == ScalarKind::Bool) kind = ScalarKind::Int;
    std::vector<std::byte> bytes;
    auto push = [&](const nlohmann::json& v) {
        if (!v.is_number())
            throw Error(ErrorCode::Scenario, "field 'uniforms." + name + "': must be a number or an array of numbers");
        std::byte b[4];
        double d = v.get<double>();
        // Integers must fit their uniform's type: 2^40 in an int uniform is an error, not 0.
        bool fits = kind == ScalarKind::Float  ? true
                    : kind == ScalarKind::UInt ? d >= 0 && d <= 4294967295.0 && d == std::floor(d)
                                               : d >= INT_MIN && d <= INT_MAX && d == std::floor(d);
        if (!fits)
            throw Error(ErrorCode::Scenario, "field 'uniforms." + name + "': " + v.dump() + " is not " +
                                                 (kind == ScalarKind::UInt ? "a uint" : "an int") + " value");
        if (kind == ScalarKind::Float) {
            float f = v.get<float>();
            std::memcpy(b, &f, 4);
        } else if (kind == ScalarKind::UInt) {
            std::uint32_t u = v.get<std::uint32_t>();
            std::memcpy(b, &u, 4);
        } else {
            std::int32_t i = v.get<std::int32_t>();
            std::memcpy(b, &i, 4);
        }
        bytes.insert(bytes.end(), b, b + 4);
    };
    if (value.is_array())
        for (auto& v : value) push(v);
    else
        push(value);
    program.setUniform(name, kind, bytes);
}

} // namespace

int main(int argc, char** argv) {
    std::string path, outPath, binaryDir, apiOverride, backendOverride;
    std::optional<int> stepsOverride;
    bool brief = false;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) usage(a + " needs a value");
            return argv[++i];
        };
        if (a == "--out")
            outPath = value();
        else if (a == "--binary")
            binaryDir = value();
        else if (a == "--api")
            apiOverride = value();
        else if (a == "--backend")
            backendOverride = value();
        else if (a == "--brief")
            brief = true;
        else if (a == "--steps") {
            std::string v = value();
            try {
                stepsOverride = std::stoi(v);
                if (*stepsOverride < 0) throw std::out_of_range(v);
            } catch (...) { usage("--steps needs an integer >= 0, got '" + v + "'"); }
        } else if (a == "--help" || a == "-h")
            usage("help");
        else if (!a.empty() && a[0] == '-')
            usage("unknown option " + a);
        else if (path.empty())
            path = a;
        else
            usage("only one scenario file");
    }
    if (path.empty()) usage("no scenario file given");
    return tools::reportFailures(path, [&] {
        tools::Scenario sc = tools::loadScenario(path);
        if (!apiOverride.empty()) {
            if (apiOverride != "gl43core" && apiOverride != "gles30") usage("--api must be gl43core or gles30");
            sc.api = apiOverride;
        }
        if (!backendOverride.empty()) {
            if (backendOverride != "tf" && backendOverride != "compute" && backendOverride != "auto")
                usage("--backend must be tf, compute or auto");
            sc.backend = backendOverride;
        }
        if (stepsOverride) sc.steps = *stepsOverride;

        HeadlessContext context(sc.api == "gles30" ? Api::OpenGLES30 : Api::OpenGL43Core);
        Device device;
        Program program(device,
                        {sc.source, sc.capture, sc.read, std::filesystem::path(sc.shaderPath).filename().string()});
        for (auto& [name, value] : sc.uniforms.items()) setUniform(program, name, value);

        // A state entry is one scenario buffer; its ping-pong partner is created here.
        std::vector<Buffer> buffers, partners;
        buffers.reserve(sc.buffers.size());
        partners.reserve(sc.buffers.size());
        std::vector<Entry> entries;
        for (auto& b : sc.buffers) {
            buffers.emplace_back(device, b.format, sc.count, std::span<const std::byte>(b.data));
            Entry e;
            if (b.input) e.input = &buffers.back();
            if (b.output) {
                if (b.input) {
                    partners.emplace_back(device, b.format, sc.count);
                    e.output = &partners.back();
                } else {
                    e.output = &buffers.back();
                }
            }
            entries.push_back(e);
        }
        Backend backend = sc.backend == "compute" ? Backend::Compute
                          : sc.backend == "auto"  ? Backend::Auto
                                                  : Backend::TransformFeedback;
        Pipeline pipeline(device, program, entries, {.count = sc.count, .backend = backend});

        // The first step alone (it carries the driver's first-use work), then the others, each
        // span ended by a fence: GPU time of the steps, without the readback.
        using Clock = std::chrono::steady_clock;
        auto since = [](Clock::time_point t) {
            return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
        };
        auto runStep = [&] { sc.checked ? (void)pipeline.stepChecked() : pipeline.step(); };
        device.finish();
        auto start = Clock::now();
        if (sc.steps > 0) runStep();
        device.finish();
        double firstMs = since(start);
        start = Clock::now();
        for (int s = 1; s < sc.steps; ++s) runStep();
        device.finish();
        double steadyMs = since(start);
        start = Clock::now();
        std::vector<std::vector<std::byte>> results;
        for (auto& b : buffers) results.push_back(b.read());
        double readbackMs = since(start);

        json summary = {{"scenario", path},
                        {"api", sc.api},
                        {"renderer", device.capabilities().renderer},
                        {"version", device.capabilities().version},
                        {"backend", backendName(pipeline.backend().backend)},
                        {"backend_reason", pipeline.backend().reason},
                        {"count", sc.count},
                        {"steps", sc.steps},
                        {"ms_per_step", sc.steps > 1 ? json(steadyMs / (sc.steps - 1)) : json(nullptr)},
                        {"first_step_ms", sc.steps > 0 ? json(firstMs) : json(nullptr)},
                        {"readback_ms", readbackMs},
                        {"plan", toJson(program.shader(), program.attributes(), program.capture())}};
        json full = summary;
        for (std::size_t i = 0; i < buffers.size(); ++i) {
            const auto& b = sc.buffers[i];
            json values = tools::bufferValues(b.format, sc.count, results[i]);
            json head = json::array();
            for (std::size_t k = 0; k < std::min<std::size_t>(values.size(), 8); ++k) head.push_back(values[k]);
            summary["buffers"][b.name] = {
                {"bytes", results[i].size()}, {"format", b.format.describe()}, {"first_values", head}};
            full["buffers"][b.name] = {{"format", b.format.describe()}, {"values", values}};
            if (!binaryDir.empty()) {
                std::error_code ec;
                std::filesystem::create_directories(binaryDir, ec);
                if (ec)
                    throw Error(ErrorCode::FileWrite,
                                "cannot create the --binary folder '" + binaryDir + "': " + ec.message());
                tools::writeFile((std::filesystem::path(binaryDir) / (b.name + ".bin")).string(), "--binary file",
                                 {reinterpret_cast<const char*>(results[i].data()), results[i].size()});
            }
        }
        if (!outPath.empty()) {
            std::string text = full.dump(1) + "\n";
            tools::writeFile(outPath, "--out file", text);
        }
        if (!brief) {
            std::cout << summary.dump(2) << "\n";
            return 0;
        }
        std::printf("%s: %lld elements, %d steps, backend %s (%s), %s on %s: %.3f ms/step\n", path.c_str(),
                    (long long)sc.count, sc.steps, std::string(backendName(pipeline.backend().backend)).c_str(),
                    pipeline.backend().reason.c_str(), sc.api.c_str(), device.capabilities().renderer.c_str(),
                    sc.steps > 1 ? summary["ms_per_step"].get<double>() : firstMs);
        for (auto& [name, b] : summary["buffers"].items())
            std::printf("  %-10s %s first values %s\n", name.c_str(), b["format"].get<std::string>().c_str(),
                        b["first_values"].dump().c_str());
        return 0;
    });
}
