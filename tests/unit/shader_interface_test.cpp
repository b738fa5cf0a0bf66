#include "xfb/error.hpp"
#include "xfb/glsl_dialect.hpp"
#include "xfb/shader_interface.hpp"

#include <doctest/doctest.h>

using namespace xfb;

TEST_CASE("inputs and outputs in declaration order with types, arrays and locations") {
    auto s = readShaderInterface(R"(#version 300 es
precision highp float;
layout(location = 3) in vec4 a, b;
in mat4 model;
in highp ivec3 cells[2];
in uint flags;
flat out uvec2 out_ids;
smooth centroid out vec3 out_normal;
invariant out highp vec4 out_pos[2];
out float notCaptured;
uniform float dt;
uniform mat3 rotation[2];
invariant gl_Position;
)");
    REQUIRE(s.inputs.size() == 5);
    CHECK(s.inputs[0].name == "a");
    CHECK(s.inputs[0].location == 3);
    CHECK(s.inputs[1].name == "b");
    CHECK(s.inputs[1].location == 3); // the qualifier applies to every declarator
    CHECK(s.inputs[2].type.name == "mat4");
    CHECK(s.inputs[2].locationCount() == 4);
    CHECK(s.inputs[2].components() == 16);
    CHECK(s.inputs[3].type.kind == ScalarKind::Int);
    CHECK(s.inputs[3].arraySize == 2);
    CHECK(s.inputs[3].components() == 6);
    CHECK(s.inputs[3].locationCount() == 2);
    CHECK(s.inputs[4].type.kind == ScalarKind::UInt);
    REQUIRE(s.outputs.size() == 4);
    CHECK(s.outputs[0].qualifiers == std::vector<std::string>{"flat"});
    CHECK(s.outputs[1].qualifiers == std::vector<std::string>{"smooth", "centroid"});
    CHECK(s.outputs[2].components() == 8);
    CHECK(s.uniforms.size() == 2);
    CHECK(s.uniforms[1].arraySize == 2);
}

TEST_CASE("declarations split over lines, function bodies and identifiers containing keywords") {
    auto s = readShaderInterface(R"(#version 330 core
in
  vec4
    spread
;
float input_scale;           // not an input: 'input' is part of the name
vec4 outer(in vec4 x, out vec4 y) { y = x; return x; }
vec3 helper(vec3 p);
in vec2 uvs[ 2 * 2 ];
const int N = 3;
in float weights[N];
struct Light { vec3 dir; float power; };
out Light out_light;
out vec4 inside_out;
void main() {
    in_between: ;
    vec4 out_local = spread;
}
)");
    REQUIRE(s.inputs.size() == 3);
    CHECK(s.inputs[0].name == "spread");
    CHECK(s.inputs[0].line == 4);
    CHECK(s.inputs[1].arraySize == 4);
    CHECK(s.inputs[2].arraySize == 3);
    REQUIRE(s.outputs.size() == 2);
    CHECK(s.outputs[0].type.kind == ScalarKind::Struct);
    CHECK(s.outputs[0].components() == 4);
    CHECK(s.outputs[1].name == "inside_out");
    CHECK(s.structs.at("Light").members.size() == 2);
}

TEST_CASE("legacy GLSL ES 1.00 attribute/varying") {
    auto s = readShaderInterface(R"(
attribute vec4 vertex_position; // xyz = position, w = lifetime
varying vec4 out_vertex_position;
uniform float deltaTime;
void main(void) { out_vertex_position = vertex_position; }
)");
    CHECK(s.version == 100);
    CHECK(s.es);
    REQUIRE(s.inputs.size() == 1);
    CHECK(s.inputs[0].name == "vertex_position");
    REQUIRE(s.outputs.size() == 1);
    CHECK(s.outputs[0].name == "out_vertex_position");
}

TEST_CASE("interface blocks are listed, not expanded") {
    auto s = readShaderInterface(R"(#version 330 core
layout(std140) uniform Params { float dt; vec3 gravity; } params;
out Block { vec4 v; } blk;
in vec4 a;
)");
    CHECK(s.interfaceBlocks == std::vector<std::string>{"Params", "Block"});
    CHECK(s.inputs.size() == 1);
    CHECK(s.outputs.empty());
}

TEST_CASE("syntax errors name the line") {
    auto code = [](std::string_view src) {
        try {
            readShaderInterface(src);
        } catch (const Error& e) { return e.code(); }
        return ErrorCode::InvalidArgument;
    };
    CHECK(code("in vec4 a") == ErrorCode::ShaderSyntax);
    CHECK(code("in blorp a;") == ErrorCode::ShaderSyntax);
    CHECK(code("in vec4 a[];") == ErrorCode::ShaderSyntax);
    CHECK(code("in vec4 a[0];") == ErrorCode::ShaderSyntax);
    CHECK(code("in vec4 a[2][2];") == ErrorCode::ShaderSyntax);
    CHECK(code("void main() {") == ErrorCode::ShaderSyntax);
    CHECK(code("}") == ErrorCode::ShaderSyntax);
    CHECK(code("in vec4 a,;") == ErrorCode::ShaderSyntax);
    CHECK(code("in vec4 a[SIZE];") == ErrorCode::PreprocessorUnevaluable);
    try {
        readShaderInterface("#version 300 es\n\nin vec4 a b;\n");
        FAIL("expected an error");
    } catch (const Error& e) { CHECK(e.message().find("line 3") != std::string::npos); }
}

TEST_CASE("what the GL compiler of the #version refuses is ShaderCompile, with the line and the fix") {
    auto message = [](std::string_view src) -> std::string {
        try {
            readShaderInterface(src);
        } catch (const Error& e) {
            CHECK(e.code() == ErrorCode::ShaderCompile);
            return e.message();
        }
        return "accepted";
    };
    // GLSL ES 3.00 section 4.3.6: integer vertex outputs must be flat (glslang and Mesa refuse them).
    const std::string unflat = message("#version 300 es\nin ivec2 c;\n\nout ivec2 out_c;\nvoid main() { out_c = c; }");
    CHECK(unflat.find("line 4") != std::string::npos);
    CHECK(unflat.find("'out_c' (ivec2)") != std::string::npos);
    CHECK(unflat.find("flat out ivec2 out_c") != std::string::npos);
    CHECK(message("#version 300 es\nin uint c;\nout uint r[2];\nvoid main() { r[0] = c; r[1] = c; }")
              .find("'r' (uint)") != std::string::npos);
    CHECK(message("#version 300 es\nin ivec2 c;\nflat out ivec2 out_c;\nvoid main() { out_c = c; }") == "accepted");
    CHECK(message("#version 310 es\nin ivec2 c;\nout ivec2 out_c;\nvoid main() { out_c = c; }") == "accepted");
    CHECK(message("#version 330\nin ivec2 c;\nout ivec2 out_c;\nvoid main() { out_c = c; }") == "accepted");
    // Built-in functions newer than the version: ES 3.10 / GLSL 4.00 (bitCount), 4.20 (packHalf2x16).
    const std::string bits =
        message("#version 300 es\nin uvec2 b;\nflat out uint out_n;\nvoid main() {\n out_n = uint(bitCount(b.x)); }");
    CHECK(bits.find("line 5") != std::string::npos);
    CHECK(bits.find("'bitCount()' is not a built-in function of GLSL ES 3.00; it needs #version 310 es") !=
          std::string::npos);
    CHECK(message("#version 330\nin vec2 v;\nflat out uint out_h;\nvoid main() { out_h = packHalf2x16(v); }")
              .find("GLSL 3.30; it needs #version 420") != std::string::npos);
    CHECK(message("#version 310 es\nin uvec2 b;\nflat out int out_n;\nvoid main() { out_n = bitCount(b.x); }") ==
          "accepted");
    CHECK(message("#version 300 es\nin vec2 v;\nflat out uint out_h;\nvoid main() { out_h = packHalf2x16(v); }") ==
          "accepted");
    // A function of the shader's own with that name is not the built-in.
    CHECK(message("#version 300 es\nin uvec2 b;\nflat out uint out_n;\nuint bitCount(uint x) { return x & 1u; }\n"
                  "void main() { out_n = bitCount(b.x); }") == "accepted");
}

TEST_CASE("builtin type table") {
    CHECK(builtinType("mat3x2")->columns == 3);
    CHECK(builtinType("mat3x2")->rows == 2);
    CHECK(builtinType("uvec3")->kind == ScalarKind::UInt);
    CHECK(builtinType("bvec2")->kind == ScalarKind::Bool);
    CHECK(builtinType("dvec4")->kind == ScalarKind::Double);
    CHECK(builtinType("sampler2D")->kind == ScalarKind::Opaque);
    CHECK_FALSE(builtinType("vec5"));
    CHECK_FALSE(builtinType("mat5"));
}

TEST_CASE("legacy sources are rewritten as GLSL ES 3.00 with the user's line numbers") {
    std::string legacy = "// header\nattribute vec4 vertex_position;\nvarying vec4 out_p; // a varying comment\nvoid "
                         "main() { out_p = vertex_position; }\n";
    std::string modern = toGlslEs300(legacy);
    auto s = readShaderInterface(modern);
    CHECK(s.version == 300);
    REQUIRE(s.inputs.size() == 1);
    CHECK(s.inputs[0].line == 2);
    REQUIRE(s.outputs.size() == 1);
    CHECK(s.outputs[0].line == 3);
    CHECK(modern.find("attribute") == std::string::npos);
    CHECK(modern.find("vec4 vertex_position") != std::string::npos); // identifiers containing the words are untouched
    std::string v300 = "#version 300 es\nin vec4 attribute_like;\n";
    CHECK(toGlslEs300(v300) == v300);
    CHECK(readShaderInterface(toGlslEs300("#version 100\nattribute float a;\n")).inputs[0].line == 2);
}
