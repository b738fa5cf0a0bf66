// xfb-inspect SHADER [--geometry GEOMETRY] [--mode interleaved|separate] [--varyings a,b] [--limits webgl2|native]
//                    [--define NAME=VALUE]... [--no-portable] [--wgsl]
//                    [--declaration JSON] [--strides 40,12]   (a declared capture layout)
//                    [--draw MODE:COUNT | --draw MODE --indices i,j,k [--restart N]]...
//                    [--first-record N]   (several --draw: an append session, each part's range)
// Prints what the engine will do with a shader, as JSON (format: engine/tools/README.md).
// Invalid input: exit status 1, "SHADER: XFB_CODE: message" on stderr; bad arguments: exit status 2.
#include "xfb/plan_json.hpp"
#include "xfb/capture_session.hpp"
#include "xfb/device.hpp"
#include "xfb/error.hpp"
#include "xfb/headless_context.hpp"
#include "xfb/fusion_plan.hpp"
#include "xfb/primitive_count.hpp"
#include "file_io.hpp"
#include "last_resort.hpp"
#include "xfb/wgsl_translation.hpp"

#include <cmath>
#include <optional>
#include <iostream>
#include <sstream>

using namespace xfb;

namespace {

[[noreturn]] void usage(const std::string& why) {
    std::cerr
        << "xfb-inspect: " << why << "\n"
        << "usage: xfb-inspect SHADER [--geometry GEOMETRY] [--mode interleaved|separate] [--varyings a,b,...]\n"
        << "                          [--limits webgl2|native]\n"
        << "                          [--define NAME=VALUE]... [--no-portable] [--wgsl]\n"
        << "                          [--declaration '[{\"semantic\": \"POSITION\"}, {\"skip\": 1}, ...]'] [--strides "
           "40,12]\n"
        << "                          [--draw MODE:COUNT | --draw MODE --indices i,j,k [--restart N]]...   (MODE: "
           "points, lines,\n"
        << "                          line_strip, line_loop, triangles, triangle_strip, triangle_fan)\n"
        << "                          [--first-record N]   (several --draw: an append session; prints each part's "
           "range)\n";
    std::exit(2);
}

std::vector<std::string> splitComma(const std::string& s) {
    std::vector<std::string> out;
    std::stringstream in(s);
    for (std::string item; std::getline(in, item, ',');)
        if (!item.empty()) out.push_back(item);
    return out;
}

/// --declaration: a JSON array of the JavaScript package's entries (ProgramOptions.declaration):
/// { varying | semantic (+ semanticIndex) | skip, components?: [start, count], buffer? }. Shapes
/// and types are checked here (exit status 2, naming the entry and the field); the layout's rules
/// are the planner's (exit status 1 with their codes).
std::vector<DeclaredEntry> parseDeclaration(const std::string& text) {
    nlohmann::json list = nlohmann::json::parse(text, nullptr, false);
    if (list.is_discarded()) usage("--declaration is not JSON: give an array such as '[{\"semantic\": \"POSITION\"}]'");
    if (!list.is_array())
        usage("--declaration must be a JSON array of { varying | semantic | skip, components?, buffer? }");
    std::vector<DeclaredEntry> entries;
    for (std::size_t i = 0; i < list.size(); ++i) {
        const nlohmann::json& e = list[i];
        const std::string at = "--declaration[" + std::to_string(i) + "]";
        if (!e.is_object()) usage(at + " must be an object");
        for (const auto& [key, value] : e.items())
            if (key != "varying" && key != "semantic" && key != "semanticIndex" && key != "components" &&
                key != "skip" && key != "buffer")
                usage(at + ": unknown key '" + key +
                      "' (allowed: varying, semantic, semanticIndex, components, skip, buffer)");
        auto integer = [&](const nlohmann::json& v, const std::string& what) {
            if (!v.is_number() || v.get<double>() < 0 || v.get<double>() > 2147483647.0 ||
                v.get<double>() != std::floor(v.get<double>()))
                usage(what + " must be an integer 0..2^31-1, got " + v.dump());
            return v.get<int>();
        };
        auto name = [&](const char* key) {
            if (!e.contains(key)) return std::string();
            if (!e[key].is_string()) usage(at + "." + key + " must be a string, got " + e[key].dump());
            return e[key].get<std::string>();
        };
        DeclaredEntry d;
        d.buffer = e.contains("buffer") ? integer(e["buffer"], at + ".buffer") : 0;
        if (e.contains("skip")) {
            d.components = integer(e["skip"], at + ".skip");
            for (const char* key : {"varying", "semantic", "semanticIndex", "components"})
                if (e.contains(key))
                    usage(at + ": a {skip} entry is a gap of words and takes no " + key +
                          "; give the gap and the varying as two entries");
            entries.push_back(d);
            continue;
        }
        d.varying = name("varying");
        d.semantic = name("semantic");
        if (!e.contains("varying") && !e.contains("semantic"))
            usage(at + " must name a varying or a semantic, or be a gap {\"skip\": words}");
        if (e.contains("semanticIndex")) {
            if (!e.contains("semantic"))
                usage(at + ".semanticIndex is a semantic's index (TEXCOORD 2): give semantic with it, or drop it");
            d.semanticIndex = integer(e["semanticIndex"], at + ".semanticIndex");
        }
        if (e.contains("components")) {
            const nlohmann::json& c = e["components"];
            if (!c.is_array() || c.size() != 2)
                usage(at + ".components must be [start, count] (count 0: to the varying's end), got " + c.dump());
            d.firstComponent = integer(c[0], at + ".components[0]");
            d.components = integer(c[1], at + ".components[1]");
        }
        entries.push_back(d);
    }
    return entries;
}

} // namespace

int main(int argc, char** argv) {
    std::string path, geometryPath, limitsName = "webgl2";
    CaptureOptions capture;
    ReadOptions read;
    std::vector<DrawDesc> draws; // several: an append session
    long long firstRecord = 0;
    bool wgsl = false; // --wgsl: print the WebGPU compute shader instead of the plan
    auto number = [](const std::string& s, const char* what, long long max) -> long long {
        try {
            std::size_t used = 0;
            long long v = std::stoll(s, &used, 0);
            if (used == s.size() && v >= 0 && v <= max) return v;
        } catch (...) {}
        usage(std::string(what) + " needs a number 0.." + std::to_string(max) + ", got '" + s + "'");
    };
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) usage(a + " needs a value");
            return argv[++i];
        };
        if (a == "--mode") {
            std::string m = value();
            if (m != "interleaved" && m != "separate") usage("--mode must be interleaved or separate, got '" + m + "'");
            capture.mode = m == "separate" ? CaptureMode::Separate : CaptureMode::Interleaved;
        } else if (a == "--geometry")
            geometryPath = value();
        else if (a == "--varyings")
            capture.varyings = splitComma(value());
        else if (a == "--declaration")
            capture.declaration = parseDeclaration(value());
        else if (a == "--strides") {
            capture.strides.clear();
            for (const auto& s : splitComma(value())) capture.strides.push_back(int(number(s, "--strides", INT32_MAX)));
        } else if (a == "--limits")
            limitsName = value();
        else if (a == "--no-portable")
            capture.portable = false;
        else if (a == "--wgsl")
            wgsl = true;
        else if (a == "--define") {
            std::string d = value();
            auto eq = d.find('=');
            read.defines[d.substr(0, eq)] = eq == std::string::npos ? "1" : d.substr(eq + 1);
        } else if (a == "--draw") {
            std::string d = value();
            auto colon = d.find(':');
            auto mode = drawModeFromName(d.substr(0, colon));
            if (!mode) usage("--draw: unknown mode '" + d.substr(0, colon) + "'");
            draws.push_back(
                {*mode,
                 colon == std::string::npos ? 0 : number(d.substr(colon + 1), "--draw MODE:COUNT", INT64_MAX),
                 {},
                 std::nullopt});
        } else if (a == "--first-record")
            firstRecord = number(value(), "--first-record", INT64_MAX);
        else if (a == "--indices" || a == "--restart") {
            if (draws.empty()) usage(a + " needs --draw MODE before it");
            auto* draw = &draws.back();
            if (a == "--restart")
                draw->restartIndex = std::uint32_t(number(value(), "--restart", UINT32_MAX));
            else
                for (auto& i : splitComma(value()))
                    draw->indices.push_back(std::uint32_t(number(i, "--indices", UINT32_MAX)));
        } else if (a == "--help" || a == "-h")
            usage("help");
        else if (!a.empty() && a[0] == '-')
            usage("unknown option " + a);
        else if (path.empty())
            path = a;
        else
            usage("only one shader file, got '" + path + "' and '" + a + "'");
    }
    if (path.empty()) usage("no shader file given");
    if (limitsName != "webgl2" && limitsName != "native")
        usage("--limits must be webgl2 or native, got '" + limitsName + "'");
    return tools::reportFailures(path, [&] {
        // Files up to 4x the reader's limit are read, so that a long shader gets XFB_SOURCE_TOO_LARGE.
        std::string source = tools::readFile(path, "shader", 4 * limits::maxSourceBytes);
        Limits limits = Limits::portable();
        std::string limitsSource = "webgl2 (the minimums WebGL2 and OpenGL ES 3.0 guarantee)";
        // Geometry shaders: the minimums of OpenGL 4.0 (WebGL2 and ES 3.0 have none), or the context's.
        GeometryLimits geometryLimits;
        std::string geometryLimitsSource = "OpenGL 4.0 minimums (WebGL2 and OpenGL ES 3.0 have no geometry shaders: "
                                           "XFB_GEOMETRY_UNSUPPORTED; OpenGL ES 3.2 has stream 0 only)";
        if (limitsName == "native") {
            HeadlessContext context(Api::OpenGL43Core);
            Device device;
            limits = device.limits();
            limitsSource = device.capabilities().version + ", " + device.capabilities().renderer;
            geometryLimits = device.capabilities().geometryLimits;
            geometryLimitsSource = limitsSource;
        }
        const std::string geometrySource =
            geometryPath.empty() ? std::string()
                                 : tools::readFile(geometryPath, "geometry shader", 4 * limits::maxSourceBytes);
        if (wgsl) {
            if (!geometryPath.empty())
                throw Error(ErrorCode::ComputeTranslation,
                            "--wgsl: a geometry shader has no WGSL translation yet; its capture runs on desktop "
                            "GL 4.0+ (every stream), OpenGL ES 3.2 (stream 0) and as GL compute passes (GL 4.3+ / "
                            "ES 3.1+: PrimitiveCapture with Backend::Compute)");
            std::cout << translateToWgsl(source, read, capture).source;
            return 0;
        }
        ShaderInterface shader = readShaderInterface(source, read);
        auto attributes = planAttributes(shader, limits);
        // A geometry program captures its geometry shader's outputs.
        std::optional<GeometryInterface> geometryShader;
        std::optional<GeometryPlan> geometry;
        if (!geometryPath.empty()) geometryShader = readGeometryInterface(geometrySource, read);
        auto plan = geometryShader ? planGeometryCapture(geometryShader->shader, capture, limits)
                                   : planCapture(shader, capture, limits);
        if (geometryShader) geometry = planGeometry(*geometryShader, plan, geometryLimits);
        nlohmann::ordered_json out = {{"shader", path}};
        out.update(toJson(shader, attributes, plan));
        if (geometry) {
            out["geometry"] = {{"shader", geometryPath}};
            out["geometry"].update(toJson(*geometry, plan));
            out["geometry"]["limits"] = toJson(geometryLimits);
            out["geometry"]["limits"]["source"] = geometryLimitsSource;
        }
        if (geometry && draws.size() == 1 && firstRecord == 0)
            out["draw"] = toJson(draws[0], countGeometryCapture(draws[0], *geometry, plan), *geometry);
        else if (geometry && !draws.empty())
            throw Error(ErrorCode::Unsupported,
                        "a geometry program's record count is known only on the GPU: an append session (several "
                        "--draw, --first-record) cannot be planned; give one --draw for its budget");
        else if (draws.size() == 1 && firstRecord == 0)
            out["draw"] = toJson(draws[0], countCapture(draws[0], plan));
        else if (!draws.empty())
            out["session"] = toJson(draws, planCaptureSession(draws, plan, firstRecord));
        FusionDecision fusion =
            checkElementLocal(source, read); // the shader's half; a pipeline's layout may still refuse
        out["fusion"] = {{"element_local", fusion.fused}, {"reason", fusion.reason}};
        out["portable"] = capture.portable;
        out["limits"] = toJson(limits);
        out["limits"]["source"] = limitsSource;
        std::cout << out.dump(2) << "\n";
        return 0;
    });
}
