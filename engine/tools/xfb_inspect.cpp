// xfb-inspect SHADER [--mode interleaved|separate] [--varyings a,b] [--limits webgl2|native]
//                    [--define NAME=VALUE]... [--no-portable]
//                    [--draw MODE:COUNT | --draw MODE --indices i,j,k [--restart N]]
// Prints what the engine will do with a shader, as JSON (format: engine/tools/README.md).
// Invalid input: exit status 1, "XFB_CODE: message" on stderr.
#include "xfb/plan_json.hpp"
#include "xfb/device.hpp"
#include "xfb/error.hpp"
#include "xfb/headless_context.hpp"
#include "xfb/fusion_plan.hpp"
#include "xfb/primitive_count.hpp"

#include <fstream>
#include <optional>
#include <iostream>
#include <sstream>

using namespace xfb;

namespace {

[[noreturn]] void usage(const std::string& why) {
    std::cerr << "xfb-inspect: " << why << "\n"
              << "usage: xfb-inspect SHADER [--mode interleaved|separate] [--varyings a,b,...] [--limits webgl2|native]\n"
              << "                          [--define NAME=VALUE]... [--no-portable]\n"
              << "                          [--draw MODE:COUNT | --draw MODE --indices i,j,k [--restart N]]   (MODE: points, lines,\n"
              << "                          line_strip, line_loop, triangles, triangle_strip, triangle_fan)\n";
    std::exit(2);
}

std::vector<std::string> splitComma(const std::string& s) {
    std::vector<std::string> out;
    std::stringstream in(s);
    for (std::string item; std::getline(in, item, ',');)
        if (!item.empty()) out.push_back(item);
    return out;
}

} // namespace

int main(int argc, char** argv) {
    std::string path, limitsName = "webgl2";
    CaptureOptions capture;
    ReadOptions read;
    std::optional<DrawDesc> draw;
    auto number = [](const std::string& s, const char* what) -> long long {
        try {
            std::size_t used = 0;
            long long v = std::stoll(s, &used, 0);
            if (used == s.size()) return v;
        } catch (...) {
        }
        usage(std::string(what) + " needs a number, got '" + s + "'");
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
        } else if (a == "--varyings") capture.varyings = splitComma(value());
        else if (a == "--limits") limitsName = value();
        else if (a == "--no-portable") capture.portable = false;
        else if (a == "--define") {
            std::string d = value();
            auto eq = d.find('=');
            read.defines[d.substr(0, eq)] = eq == std::string::npos ? "1" : d.substr(eq + 1);
        } else if (a == "--draw") {
            std::string d = value();
            auto colon = d.find(':');
            auto mode = drawModeFromName(d.substr(0, colon));
            if (!mode) usage("--draw: unknown mode '" + d.substr(0, colon) + "'");
            draw = DrawDesc{*mode, colon == std::string::npos ? 0 : number(d.substr(colon + 1), "--draw MODE:COUNT"), {}, std::nullopt};
        } else if (a == "--indices" || a == "--restart") {
            if (!draw) usage(a + " needs --draw MODE before it");
            if (a == "--restart") draw->restartIndex = std::uint32_t(number(value(), "--restart"));
            else
                for (auto& i : splitComma(value())) draw->indices.push_back(std::uint32_t(number(i, "--indices")));
        } else if (a == "--help" || a == "-h") usage("help");
        else if (!a.empty() && a[0] == '-') usage("unknown option " + a);
        else if (path.empty()) path = a;
        else usage("only one shader file, got '" + path + "' and '" + a + "'");
    }
    if (path.empty()) usage("no shader file given");
    if (limitsName != "webgl2" && limitsName != "native") usage("--limits must be webgl2 or native, got '" + limitsName + "'");
    std::ifstream file(path);
    if (!file) {
        std::cerr << "xfb-inspect: cannot read '" << path << "'\n";
        return 1;
    }
    std::string source((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    try {
        Limits limits = Limits::portable();
        std::string limitsSource = "webgl2 (the minimums WebGL2 and OpenGL ES 3.0 guarantee)";
        if (limitsName == "native") {
            HeadlessContext context(Api::OpenGL43Core);
            Device device;
            limits = device.limits();
            limitsSource = device.capabilities().version + ", " + device.capabilities().renderer;
        }
        ShaderInterface shader = readShaderInterface(source, read);
        auto attributes = planAttributes(shader, limits);
        auto plan = planCapture(shader, capture, limits);
        nlohmann::ordered_json out = {{"shader", path}};
        out.update(toJson(shader, attributes, plan));
        if (draw) out["draw"] = toJson(*draw, countCapture(*draw, plan));
        FusionDecision fusion = checkElementLocal(source, read); // the shader's half; a pipeline's layout may still refuse
        out["fusion"] = {{"element_local", fusion.fused}, {"reason", fusion.reason}};
        out["portable"] = capture.portable;
        out["limits"] = toJson(limits);
        out["limits"]["source"] = limitsSource;
        std::cout << out.dump(2) << "\n";
    } catch (const Error& e) {
        std::cerr << path << ": " << e.what() << "\n";
        return 1;
    }
    return 0;
}
