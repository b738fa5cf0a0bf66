// xfb-corpus-translate SHADER...: the engine's three translations of each vertex shader, as one JSON
// array on stdout, for tests/shader_corpus/run.mjs. Per shader: its inputs and uniforms (what a run
// must feed), then per printer (wgsl, compute, fragment) either the translated source or the refusal's
// stable code and message. A test tool, not an engine one: the engine's CLI (xfb-inspect --wgsl) has
// only the WGSL printer, and the corpus must measure all three on the same role list.
#include "xfb/compute_translation.hpp"
#include "xfb/enum_tables.hpp"
#include "xfb/error.hpp"
#include "xfb/fragment_translation.hpp"
#include "xfb/glsl_dialect.hpp"
#include "xfb/wgsl_translation.hpp"

#include <nlohmann/json.hpp>

#include <fstream>
#include <functional>
#include <iostream>
#include <sstream>

using namespace xfb;
using json = nlohmann::ordered_json;

namespace {

// The role list xfb-inspect --wgsl uses (translateToWgsl's inspection overload): every input packed
// in one {input} buffer in declaration order, then one {output} entry per captured buffer. The GL
// printers get the same list, planned with the limits WebGL2 / ES 3.0 guarantee.
struct Roles {
    std::vector<AttributeSlot> attributes;
    CapturePlan capture;
    std::vector<EntryDesc> entries;
    PassPlan pass;
};

// Every output is captured, in declaration order, as an engine passes its varying list (Babylon's
// outPosition, three's vUv): the out_ naming convention is xfb's, not the corpus's. A shader that
// declares no output (three's basic, points, shadow, sprite) captures gl_Position, its one result.
CaptureOptions captureAll(const std::string& source) {
    CaptureOptions options;
    for (const auto& d : readShaderInterface(toGlslEs300(source)).outputs) options.varyings.push_back(d.name);
    if (options.varyings.empty()) options.varyings.push_back("gl_Position");
    return options;
}

Roles planRoles(const std::string& source) {
    Roles r;
    const ShaderInterface shader = readShaderInterface(toGlslEs300(source));
    r.attributes = planAttributes(shader, Limits::portable());
    r.capture = planCapture(shader, captureAll(source), Limits::portable());
    std::vector<VertexAttribute> packed;
    for (const auto& a : r.attributes) {
        auto type = componentTypeOf(a.type.kind);
        if (!type) throw Error(ErrorCode::AttributeType, "input '" + a.name + "' cannot be a vertex attribute");
        packed.push_back({a.semantic, *type, a.components()});
    }
    if (!packed.empty()) {
        VertexFormat f = VertexFormat::interleaved(packed);
        r.entries.push_back({BufferDesc{f, std::uint64_t(f.stride)}, std::nullopt});
    }
    for (const auto& b : r.capture.buffers)
        r.entries.push_back({std::nullopt, BufferDesc{b.asVertexFormat(20), std::uint64_t(b.stride)}});
    r.pass = planPass(r.attributes, r.capture, r.entries, std::int64_t(1));
    return r;
}

// {ok: true, source} or {ok: false, code, message}: an xfb::Error is a refusal; anything else is a
// crash of the translator, reported as such so that the corpus counts it and the test fails on it.
json attempt(const std::function<std::string()>& translate) {
    try {
        return {{"ok", true}, {"source", translate()}};
    } catch (const Error& e) {
        return {{"ok", false}, {"code", std::string(errorCodeName(e.code()))}, {"message", e.message()}};
    } catch (const std::exception& e) { return {{"ok", false}, {"code", "CRASH"}, {"message", e.what()}}; }
}

template<class Declared>
json declarations(const std::vector<Declared>& list) {
    json out = json::array();
    for (const auto& d : list)
        out.push_back({{"name", d.name},
                       {"type", d.type.name},
                       {"kind", std::string(scalarKindNames[int(d.type.kind)])},
                       {"components", d.type.components()},
                       {"array_size", d.arraySize}});
    return out;
}

json translateAll(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    const std::string source = text.str();
    json out = {{"file", path}};
    json interface = attempt([&] {
        ShaderInterface shader = readShaderInterface(toGlslEs300(source));
        out["inputs"] = declarations(shader.inputs);
        // The semantic each input is fed by (ATTRn, or POSITION for vertex_position, ...).
        for (const auto& a : planAttributes(shader, Limits::portable()))
            for (auto& d : out["inputs"])
                if (d["name"] == a.name) d["semantic"] = semanticName(a.semantic);
        out["uniforms"] = declarations(shader.uniforms);
        // What a run captures: the outputs, or gl_Position (captureAll()).
        out["outputs"] = declarations(planCapture(shader, captureAll(source), Limits::portable()).varyings);
        return std::string();
    });
    if (!interface["ok"]) out["interface"] = interface;
    out["wgsl"] = attempt([&] { return translateToWgsl(source, ReadOptions{}, captureAll(source)).source; });
    out["compute"] = attempt([&] {
        Roles r = planRoles(source);
        return translateToCompute(source, ReadOptions{}, r.pass, r.capture, r.entries.size()).source;
    });
    out["fragment"] = attempt([&] {
        Roles r = planRoles(source);
        FragmentShader f = translateToFragment(source, ReadOptions{}, r.pass, r.capture, r.entries.size());
        // One fragment shader per pass; glslang judges each, so they travel as a list.
        std::string all;
        for (const auto& p : f.passes) all += p.source + "\n//--xfb-pass--\n";
        return all;
    });
    return out;
}

} // namespace

int main(int argc, char** argv) {
    json all = json::array();
    for (int i = 1; i < argc; ++i) all.push_back(translateAll(argv[i]));
    std::cout << all.dump() << "\n";
    return 0;
}
