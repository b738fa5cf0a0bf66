// GLSL ES 3.00 vertex shader -> WGSL compute shader: the entry point, the uniform layout and the
// bindings around the user's code, which the shader front-end parses into its typed module and
// the WGSL printer writes (shader/parser.hpp, shader/wgsl_printer.hpp). See wgsl_translation.hpp.
#include "xfb/wgsl_translation.hpp"

#include "component_index.hpp"
#include "wgsl_code.hpp"
#include "fusion_source.hpp"
#include "text.hpp"
#include "shader/preprocessor.hpp"
#include "shader/parser.hpp"
#include "shader/wgsl_names.hpp"
#include "shader/wgsl_printer.hpp"
#include "xfb/error.hpp"
#include "xfb/attribute_plan.hpp"
#include "xfb/fusion_plan.hpp"
#include "xfb/glsl_dialect.hpp"

#include <algorithm>
#include <cctype>
#include <span>
#include <string_view>
#include <map>
#include <set>

namespace xfb {
namespace {

using plan::Token;
using plan::TokenKind;
using S = std::string;

using plan::cat; // strings built by appending pieces (plan/text.hpp)
using shader::Storage;
using shader::wgslIdent;
using shader::wgslShape;
using shader::wgslType;
using Ty = shader::Type;
[[noreturn]] void refuse(int line, std::initializer_list<std::string_view> what) {
    throw Error(ErrorCode::ComputeTranslation, cat({"WGSL: line ", std::to_string(line), ": "}) + cat(what));
}

S ident(const S& name) { return wgslIdent(name); }
S shapeW(ScalarKind k, int rows) { return wgslShape(k, rows); }
// A captured varying's variable: an element `a[1]` (CaptureOptions::varyings) keeps its index.
S identVarying(const S& name) {
    auto open = name.find('[');
    return open == S::npos ? ident(name) : ident(name.substr(0, open)) + name.substr(open);
}

// An interface declaration's type in the module.
Ty interfaceType(const Declaration& d) {
    return Ty{d.type.kind, d.type.columns, d.type.rows, d.arraySize,
              d.type.kind == ScalarKind::Struct || d.type.kind == ScalarKind::Opaque ? d.type.name : S()};
}
shader::InterfaceSymbol interfaceSymbol(const Declaration& d, Storage storage) {
    return {d.name, interfaceType(d), storage, d.line};
}

// The user's code of a shader as WGSL: parsed into the module (shader/parser.hpp), printed
// (shader/wgsl_printer.hpp).
shader::WgslCode printedCode(const plan::PreprocessedSource& pre, std::vector<shader::InterfaceSymbol> interface,
                             int geometryVertices, const S& uniformBlock) {
    shader::ParseInput input{&pre.tokens, std::move(interface), geometryVertices};
    return shader::printWgsl(shader::parseModule(input), uniformBlock);
}

// Size and alignment of a host-shareable type in the uniform address space (WGSL rules).
struct Layout {
    int align, size, columnStride = 0;
};
Layout uniformLayout(const GlslType& t) {
    int vecAlign = t.rows == 1 ? 4 : t.rows == 2 ? 8 : 16, vecSize = 4 * t.rows;
    if (t.columns == 1) return {vecAlign, vecSize};
    int stride = (vecSize + vecAlign - 1) / vecAlign * vecAlign;
    return {vecAlign, stride * t.columns, stride};
}
int roundUp(int v, int a) { return (v + a - 1) / a * a; }

// One uniform of a shader's uniform block (the vertex kernel's XfbUniforms, the geometry kernels'
// XfbGeometryUniforms): placed at `cursor` by WGSL's uniform rules (cursor and maxAlign advanced),
// its member appended to `fields`. WebGPU buffers hold no bool: a bool / bvecN uniform is an i32 /
// vecN<i32> in the buffer (setUniform takes ints for it on every runtime, as GL's glUniform1i
// does), read as `!= 0` where the shader names it (shader/wgsl_expression.cpp).
WgslUniform layoutUniform(const Declaration& d, const Ty& ty, int& cursor, int& maxAlign, S& fields) {
    const bool isBool = d.type.kind == ScalarKind::Bool;
    if (isBool && d.arraySize)
        refuse(d.line, {"bool uniform array '", d.name, "': declare it int[", std::to_string(d.arraySize),
                        "] (or ivecN[]) and compare with 0"});
    if (d.type.kind != ScalarKind::Float && d.type.kind != ScalarKind::Int && d.type.kind != ScalarKind::UInt &&
        !isBool)
        refuse(d.line, {"uniform '", d.name, "' of type ", d.type.name,
                        ": the WGSL translation takes float, int, uint and bool vectors and matrices"});
    Layout lay = uniformLayout(d.type);
    WgslUniform u{d.name, d.type, d.arraySize, 0, lay.size, 0, lay.columnStride};
    int align = lay.align;
    if (d.arraySize) {
        u.arrayStride = roundUp(lay.size, lay.align);
        if (u.arrayStride % 16)
            refuse(d.line, {"uniform array '", d.name, "' of ", d.type.name,
                            ": WGSL uniform arrays need a 16-byte element stride; declare it vec4[" +
                                std::to_string(d.arraySize),
                            "] (or ivec4/uvec4)"});
        align = roundUp(align, 16);
        u.size = u.arrayStride * d.arraySize;
    }
    u.offset = cursor = roundUp(cursor, align);
    cursor += u.size;
    maxAlign = std::max(maxAlign, align);
    cat(fields, {S("    "), (d.arraySize ? "@align(16) " : ""), ident(d.name), ": ",
                 isBool ? shapeW(ScalarKind::Int, d.type.rows) : wgslType(ty, d.line), ",\n"});
    return u;
}

} // namespace

WgslShader translateToWgsl(std::string_view vertexSource, const ReadOptions& read, const PassPlan& pass,
                           const CapturePlan& capture, std::size_t entryCount, const WgslTranslationOptions& options) {
    if (options.workGroupSize < 1 || options.workGroupSize > 256)
        throw Error(ErrorCode::InvalidArgument, "work-group size must be 1..256");
    const std::string modern = toGlslEs300(vertexSource);
    const ShaderInterface shader = readShaderInterface(modern, read);
    plan::PreprocessedSource pre = plan::preprocess(modern, read.defines, plan::expandFunctionMacro);
    const bool fused = options.fuseSubsteps;
    const bool gather = options.gather;
    if (gather && (fused || (options.emits && !options.emits->empty())))
        throw Error(ErrorCode::InvalidArgument,
                    "a primitive capture's translation (gather) runs neither fused substeps nor emitted outputs");
    if (fused) {
        if (options.emits && !options.emits->empty())
            throw Error(ErrorCode::InvalidArgument, "emitted outputs cannot run fused substeps");
        FusionDecision decision = checkFusion(vertexSource, read, pass, capture);
        if (!decision.fused)
            throw Error(ErrorCode::InvalidArgument, "the substeps of this shader cannot be fused: " + decision.reason);
    }

    WgslShader result;
    result.workGroupSize = options.workGroupSize;
    result.readBinding.assign(entryCount, -1);
    result.writeBinding.assign(entryCount, -1);
    std::vector<shader::InterfaceSymbol> interface;
    bool substepBuiltin = false;
    S textures; // the texture bindings, before the user's code

    // Uniform buffer: the element count, then the shader's uniforms by WGSL's uniform rules.
    S uniformStruct = "struct XfbUniforms {\n    xfb_count: u32,\n";
    int cursor = 4, maxAlign = 16, binding = 1;
    for (const auto& d : shader.uniforms) {
        Ty ty{d.type.kind, d.type.columns, d.type.rows, d.arraySize,
              d.type.kind == ScalarKind::Opaque ? d.type.name : S()};
        if (d.type.kind == ScalarKind::Opaque) {
            if (d.arraySize) refuse(d.line, {"sampler array '", d.name, "': declare one sampler per texture"});
            S w = wgslType(ty, d.line);
            ScalarKind k = d.type.name[0] == 'i'   ? ScalarKind::Int
                           : d.type.name[0] == 'u' ? ScalarKind::UInt
                                                   : ScalarKind::Float;
            result.textures.push_back({d.name, binding, k});
            cat(textures, {"@group(0) @binding(", std::to_string(binding++), ") var ", ident(d.name), ": ", w, ";\n"});
            interface.push_back(interfaceSymbol(d, Storage::Sampler));
            continue;
        }
        if (d.name == kSubstepUniform && (d.type.kind != ScalarKind::Int || d.type.components() != 1 || d.arraySize))
            refuse(d.line, {"the built-in '", d.name, "' must be declared `uniform int ", d.name, ";`"});
        const WgslUniform u = layoutUniform(d, ty, cursor, maxAlign, uniformStruct);
        const bool substep = d.name == kSubstepUniform;
        if (substep) substepBuiltin = true; // the entry point (or the substep loop) sets the private
        interface.push_back(interfaceSymbol(d, substep ? Storage::Substep : Storage::Uniform));
        result.uniforms.push_back(u);
    }
    if (fused) {
        result.substepsOffset = cursor = roundUp(cursor, 4);
        cursor += 4;
        uniformStruct += "    xfb_substeps: u32,\n";
    }
    if (gather) {
        result.gatherOffset = cursor = roundUp(cursor, 4);
        cursor += 8;
        uniformStruct += "    xfb_first_record: u32,\n    xfb_first_source: u32,\n";
    }
    result.uniformBytes = roundUp(cursor, maxAlign);
    uniformStruct += "};\n@group(0) @binding(0) var<uniform> xfb_u: XfbUniforms;\n";

    // Storage buffers, after the textures: word views as in the GL compute translation.
    std::map<int, std::pair<bool, bool>> views; // binding -> {read-only, vec4 view}
    for (const auto& a : pass.attributes) {
        int& b = result.readBinding[std::size_t(a.entry)];
        if (b < 0) views[b = binding++] = {true, true};
        views[b].second = views[b].second && a.componentsPerLocation == 4 && a.stride % 16 == 0 && a.offset % 16 == 0;
    }
    for (const auto& o : pass.outputs) {
        int b = result.writeBinding[std::size_t(o.entry)] = binding++;
        views[b] = {false, true};
        for (const auto& f : capture.buffers[std::size_t(o.binding)].fields) {
            auto v = std::find_if(capture.varyings.begin(), capture.varyings.end(),
                                  [&](auto& x) { return x.name == f.varying; });
            views[b].second = views[b].second && v->type.rows == 4 && f.firstComponent % 4 == 0 &&
                              f.components % 4 == 0 && f.offset % 16 == 0 && o.stride % 16 == 0;
        }
    }
    const EmitPlan noEmits;
    const EmitPlan& emits = options.emits ? *options.emits : noEmits;
    if (pass.emitEntries.size() != emits.outputs.size())
        throw Error(ErrorCode::InvalidArgument, "the pass plan has " + std::to_string(pass.emitEntries.size()) +
                                                    " emitted entries but the emit plan " +
                                                    std::to_string(emits.outputs.size()) +
                                                    " outputs; give WgslTranslationOptions::emits from planEmits()");
    for (const auto& o : emits.outputs)
        views[result.writeBinding[std::size_t(o.entry)] = binding++] = {false, o.type.rows == 4};
    S buffers, countBuffers, firstBuffers;
    if (gather) {
        result.sourceBinding = binding++;
        buffers += "@group(0) @binding(" + std::to_string(result.sourceBinding) +
                   ") var<storage, read> xfb_source: array<u32>;\n";
    }
    for (const auto& [b, v] : views)
        buffers += "@group(0) @binding(" + std::to_string(b) + ") var<storage, " + (v.first ? "read" : "read_write") +
                   "> xfb_b" + std::to_string(b) + ": array<" + (v.second ? "vec4<u32>" : "u32") + ">;\n";
    for (std::size_t k = 0; k < emits.budgets.size(); ++k) {
        result.countsBinding.push_back(binding++);
        result.firstBinding.push_back(binding++);
        S n = std::to_string(k), head = "@group(0) @binding(";
        cat(countBuffers, {head, std::to_string(result.countsBinding[k]), ") var<storage, read_write> xfb_emitted", n,
                           ": array<u32>;\n"});
        cat(firstBuffers,
            {head, std::to_string(result.firstBinding[k]), ") var<storage, read> xfb_first", n, ": array<u32>;\n"});
    }

    // Interface variables: private globals the entry point loads and stores.
    S privates = "var<private> xfb_vertex_id: i32;\nconst xfb_instance_id: i32 = 0;\nvar<private> xfb_position: "
                 "vec4<f32>;\nvar<private> xfb_point_size: f32;\n";
    for (const auto& d : shader.inputs)
        privates += "var<private> " + ident(d.name) + ": " + wgslType(interfaceType(d), d.line) + ";\n";
    if (substepBuiltin) privates += "var<private> xfb_substep: i32;\n";
    // Struct outputs need their struct definitions first: their declarations follow the user's code.
    // Private variables start at zero in WGSL, so one pass reads 0 from an output no code path
    // writes, as the GL programs do (plan/vertex_wrapper.hpp); fused substeps zero them again each.
    S outputs, zeroes;
    std::set<S, std::less<>> zeroed;
    for (const auto& d : shader.outputs) {
        S type = wgslType(interfaceType(d), d.line);
        outputs += "var<private> " + ident(d.name) + ": " + type + ";\n";
        if (zeroed.insert(d.name).second) zeroes += "        " + ident(d.name) + " = " + type + "();\n";
    }
    for (const auto& v : capture.varyings)
        if (v.name == "gl_Position")
            zeroes += "        xfb_position = vec4<f32>();\n";
        else if (v.name == "gl_PointSize")
            zeroes += "        xfb_point_size = 0.0;\n";

    for (const auto& d : shader.inputs) interface.push_back(interfaceSymbol(d, Storage::In));
    for (const auto& d : shader.outputs) interface.push_back(interfaceSymbol(d, Storage::Out));
    const shader::WgslCode user = printedCode(pre, std::move(interface), 0, "xfb_u");
    for (const S& name : user.sampled) { // a sampler beside each sampled texture, after every other binding
        auto t = std::find_if(result.textures.begin(), result.textures.end(), [&](auto& x) { return x.name == name; });
        t->samplerBinding = binding++;
        cat(textures,
            {"@group(0) @binding(", std::to_string(t->samplerBinding), ") var xfb_sampler_", name, ": sampler;\n"});
    }

    // Entry point: the index, the bound check, loads, the user's main, stores.
    // Inputs are read at the vertex, outputs written at the record: both the invocation index,
    // except in a gather (the source vertex, the capture's record).
    const S vertex = gather ? "xfb_v" : "xfb_i", record = gather ? "xfb_r" : "xfb_i";
    auto element = [&](int b, int strideWords, int word, const S& index) {
        bool vec4 = views.at(b).second;
        int div = vec4 ? 4 : 1;
        return "xfb_b" + std::to_string(b) + "[" + index + " * " + std::to_string(strideWords / div) + "u + " +
               std::to_string(word / div) + "u]";
    };
    S wg = std::to_string(options.workGroupSize);
    S main = "@compute @workgroup_size(" + wg +
             ")\nfn xfb_main(@builtin(global_invocation_id) xfb_gid: vec3<u32>, @builtin(num_workgroups) xfb_groups: "
             "vec3<u32>) {\n"
             "    let xfb_i = xfb_gid.x + xfb_gid.y * xfb_groups.x * " +
             wg + "u;\n    if (xfb_i >= xfb_u.xfb_count) {\n        return;\n    }\n";
    if (gather)
        main += "    let xfb_v = xfb_source[xfb_u.xfb_first_source + xfb_i];\n"
                "    let xfb_r = xfb_u.xfb_first_record + xfb_i;\n";
    main += "    xfb_vertex_id = i32(" + vertex + ");\n";
    for (const auto& a : pass.attributes) {
        const Declaration* d = shader.findInput(a.input);
        int b = result.readBinding[std::size_t(a.entry)];
        int n = a.componentsPerLocation;
        for (int l = 0; l < a.locationCount; ++l) {
            int word = a.offset / 4 + l * n;
            S bits;
            if (views.at(b).second)
                bits = element(b, a.stride / 4, word, vertex);
            else if (n == 1)
                bits = element(b, a.stride / 4, word, vertex);
            else {
                bits = "vec" + std::to_string(n) + "<u32>(";
                for (int c = 0; c < n; ++c) bits += (c ? ", " : "") + element(b, a.stride / 4, word + c, vertex);
                bits += ")";
            }
            S target = ident(d->name);
            if (d->arraySize > 0) target += "[" + std::to_string(d->type.isMatrix() ? l / d->type.columns : l) + "]";
            if (d->type.isMatrix()) target += "[" + std::to_string(l % d->type.columns) + "]";
            cat(main,
                {"    ", target, " = ",
                 (d->type.kind == ScalarKind::UInt ? bits : "bitcast<" + shapeW(d->type.kind, n) + ">(" + bits + ")"),
                 ";\n"});
        }
    }
    if (fused) {
        // The state stays in the input privates between substeps; stores follow the loop, so
        // write-only outputs keep the last substep's values.
        std::string refusal;
        S feedback = plan::substepFeedback(
            shader, pass, capture, [](const S& n) { return ident(n); },
            [](const S& n) {
                return n == "gl_Position"    ? S("xfb_position")
                       : n == "gl_PointSize" ? S("xfb_point_size")
                                             : identVarying(n);
            },
            "        ", refusal);
        main += "    for (var xfb_s = 0u; xfb_s < xfb_u.xfb_substeps; xfb_s++) {\n";
        if (substepBuiltin) main += "        xfb_substep = i32(xfb_s);\n";
        main += zeroes + "        xfb_user_main();\n" + feedback + "    }\n";
    } else {
        if (substepBuiltin) main += "    xfb_substep = xfb_u.xfb_substep;\n";
        main += "    xfb_user_main();\n";
    }
    // Per budget: the element's count, clamped to 0..maxRecords (the count pass stores it).
    S countMain = main;
    auto clampedCount = [&](const EmitBudgetPlan& b) {
        S max = std::to_string(b.maxRecords);
        return b.kind == ScalarKind::UInt ? "min(" + ident(b.count) + ", " + max + "u)"
                                          : "u32(clamp(" + ident(b.count) + ", 0, " + max + "))";
    };
    for (std::size_t k = 0; k < emits.budgets.size(); ++k)
        cat(countMain, {"    xfb_emitted", std::to_string(k), "[xfb_i] = ", clampedCount(emits.budgets[k]), ";\n"});
    countMain += "}\n";
    for (const auto& o : pass.outputs) {
        int b = result.writeBinding[std::size_t(o.entry)];
        bool vec4 = views.at(b).second;
        for (const auto& f : capture.buffers[std::size_t(o.binding)].fields) {
            const CapturedVarying& v = *std::find_if(capture.varyings.begin(), capture.varyings.end(),
                                                     [&](auto& x) { return x.name == f.varying; });
            S name = v.name == "gl_Position"    ? "xfb_position"
                     : v.name == "gl_PointSize" ? "xfb_point_size"
                                                : identVarying(v.name);
            const int rows = v.type.rows, cols = v.type.columns;
            // `per` components at a time: a whole column when the view is vec4, else one; the
            // field's component c is the varying's f.firstComponent + c (a partial capture).
            for (int fc = 0; fc < f.components; fc += vec4 ? 4 : 1) {
                const plan::ComponentIndex i = plan::componentIndex(v.type, f.firstComponent + fc);
                S expr = cat({name, (v.arraySize > 0 ? "[" + std::to_string(i.element) + "]" : ""),
                              (cols > 1 ? "[" + std::to_string(i.column) + "]" : "")});
                if (!vec4 && rows > 1) expr += "[" + std::to_string(i.row) + "]";
                int n = vec4 ? 4 : 1;
                S value = v.type.kind == ScalarKind::UInt
                              ? expr
                              : "bitcast<" + shapeW(ScalarKind::UInt, n) + ">(" + expr + ")";
                cat(main, {"    ", element(b, o.stride / 4, f.offset / 4 + fc, record), " = ", value, ";\n"});
            }
        }
    }
    // Emitted records: the k-th record of element i at first + k, in input order, within capacity.
    for (std::size_t k = 0; k < emits.budgets.size(); ++k) {
        const EmitBudgetPlan& bp = emits.budgets[k];
        S n = std::to_string(k), r = "(xfb_first" + n + "[xfb_i] + xfb_k)";
        cat(main, {"    for (var xfb_k = 0u; xfb_k < ", clampedCount(bp), " && ", r, " < ", std::to_string(bp.capacity),
                   "u; xfb_k++) {\n"});
        for (int oi : bp.outputs) {
            const EmitOutputPlan& o = emits.outputs[std::size_t(oi)];
            int b = result.writeBinding[std::size_t(o.entry)], rows = o.type.rows;
            bool vec4 = views.at(b).second;
            for (int c = 0; c < rows; c += vec4 ? 4 : 1) {
                S expr = ident(o.varying) + "[xfb_k]" + (!vec4 && rows > 1 ? "[" + std::to_string(c) + "]" : "");
                S value = o.type.kind == ScalarKind::UInt
                              ? expr
                              : "bitcast<" + shapeW(ScalarKind::UInt, vec4 ? 4 : 1) + ">(" + expr + ")";
                int div = vec4 ? 4 : 1;
                cat(main, {"        xfb_b", std::to_string(b), "[", r, " * ", std::to_string(o.stride / 4 / div),
                           "u + ", std::to_string(c / div), "u] = ", value, ";\n"});
            }
        }
        main += "    }\n";
    }
    main += "}\n";
    S shared = "// Generated by xfb from a GLSL vertex shader: one invocation per element.\n" + uniformStruct + buffers;
    S code = textures + user.helpers + privates + outputs + "\n" + user.code;
    result.source = shared + firstBuffers + code + main;
    if (!emits.empty()) result.countSource = shared + countBuffers + code + countMain;
    return result;
}

WgslShader translateToWgsl(std::string_view vertexSource, const ReadOptions& read, const CaptureOptions& captureOptions,
                           const WgslTranslationOptions& options) {
    const ShaderInterface shader = readShaderInterface(toGlslEs300(vertexSource), read);
    const auto attributes = planAttributes(shader, Limits::portable());
    const auto capture = planCapture(shader, captureOptions, Limits::webgpu());
    std::vector<EntryDesc> entries;
    std::vector<VertexAttribute> packed;
    for (const auto& a : attributes) {
        auto type = componentTypeOf(a.type.kind);
        if (!type) throw Error(ErrorCode::AttributeType, "input '" + a.name + "' cannot be a vertex attribute");
        packed.push_back({a.semantic, *type, a.components()});
    }
    if (!packed.empty()) {
        VertexFormat f = VertexFormat::interleaved(packed);
        entries.push_back({BufferDesc{f, std::uint64_t(f.stride)}, std::nullopt});
    }
    for (const auto& b : capture.buffers)
        entries.push_back({std::nullopt, BufferDesc{b.asVertexFormat(20), std::uint64_t(b.stride)}});
    const auto pass = planPass(attributes, capture, entries, std::int64_t(1));
    return translateToWgsl(vertexSource, read, pass, capture, entries.size(), options);
}

namespace plan {

WgslGeometryCode translateGeometryCodeToWgsl(std::string_view geometrySource, const ShaderInterface& shader,
                                             const ReadOptions& read, int inputVertices, int firstUniformByte) {
    PreprocessedSource pre = preprocess(geometrySource, read.defines, expandFunctionMacro);
    std::vector<shader::InterfaceSymbol> interface;
    WgslGeometryCode result;
    // The shader's uniforms join the kernels' uniform block after its counts, laid out as the
    // vertex kernel's (layoutUniform).
    int cursor = firstUniformByte, maxAlign = 16;
    for (const auto& d : shader.uniforms) {
        if (d.name.starts_with("xfb_"))
            refuse(d.line, {"identifier '", d.name, "' uses the reserved prefix xfb_; rename it"});
        if (d.type.kind == ScalarKind::Opaque)
            refuse(d.line, {"sampler '", d.name,
                            "' of the geometry shader: the WebGPU geometry capture's kernels bind no textures; "
                            "read the texture in the vertex shader and pass the value as an output"});
        Ty ty{d.type.kind, d.type.columns, d.type.rows, d.arraySize, S()};
        result.uniforms.push_back(layoutUniform(d, ty, cursor, maxAlign, result.uniformFields));
        interface.push_back(interfaceSymbol(d, Storage::Uniform));
    }
    result.uniformBytes = roundUp(cursor, maxAlign);
    auto declare = [&](const Declaration& d, Storage storage) {
        if (d.name.starts_with("xfb_"))
            refuse(d.line, {"identifier '", d.name, "' uses the reserved prefix xfb_; rename it"});
        result.privates += "var<private> " + ident(d.name) + ": " + wgslType(interfaceType(d), d.line) + ";\n";
        interface.push_back(interfaceSymbol(d, storage));
    };
    for (const auto& d : shader.inputs) declare(d, Storage::In);
    for (const auto& d : shader.outputs) declare(d, Storage::Out);
    const shader::WgslCode user = printedCode(pre, std::move(interface), inputVertices, "xfb_g");
    result.code = user.helpers + user.code;
    return result;
}

std::string wgslCapturedWord(const CapturePlan& capture, const BufferField& f, int c) {
    const CapturedVarying& v =
        *std::find_if(capture.varyings.begin(), capture.varyings.end(), [&](auto& x) { return x.name == f.varying; });
    const S name = v.name == "gl_Position"    ? S("xfb_position")
                   : v.name == "gl_PointSize" ? S("xfb_point_size")
                                              : identVarying(v.name);
    const S expr = componentExpression(name, v.type, v.arraySize > 0, f.firstComponent + c);
    return v.type.kind == ScalarKind::UInt ? expr : "bitcast<u32>(" + expr + ")";
}

std::string wgslShape(ScalarKind kind, int rows) { return shapeW(kind, rows); }

} // namespace plan
} // namespace xfb
