// The preprocessor subset decides which declarations exist; these pin its behaviour.
#include "shader/preprocessor.hpp"
#include "xfb/error.hpp"
#include "xfb/shader_interface.hpp"

#include <doctest/doctest.h>

using namespace xfb;

namespace {
std::vector<std::string> inputNames(const ShaderInterface& s) {
    std::vector<std::string> n;
    for (auto& d : s.inputs) n.push_back(d.name);
    return n;
}
ErrorCode codeOf(std::string_view src, const ReadOptions& o = {}) {
    try {
        readShaderInterface(src, o);
    } catch (const Error& e) { return e.code(); }
    FAIL("expected an error");
    return ErrorCode::InvalidArgument;
}
} // namespace

TEST_CASE("comments, continuations and string-like noise are not declarations") {
    auto s = readShaderInterface(R"(#version 300 es
// in vec4 commented;
/* in vec4 blockCommented;
   out vec4 out_alsoCommented; */
in vec4 /* inline */ real;
#define LONG_MACRO in vec4 \
   spliced;
LONG_MACRO
#pragma message "in vec4 fromString;"
in vec4 after; // trailing "in vec4 noise;"
)");
    CHECK(inputNames(s) == std::vector<std::string>{"real", "spliced", "after"});
    CHECK(s.inputs[2].line == 10);
    CHECK(s.version == 300);
    CHECK(s.es);
}

TEST_CASE("#if/#ifdef/#elif/#else/#endif with defined names") {
    const char* src = R"(#version 300 es
#define USE_VELOCITY 1
#define COUNT 3
#if USE_VELOCITY && COUNT > 2
in vec4 velocity;
#elif defined(OTHER)
in vec4 other;
#else
in vec4 fallback;
#endif
#ifdef GL_ES
in float esOnly;
#endif
#ifndef USE_VELOCITY
in float never;
#endif
#if defined OTHER || (COUNT * 2 == 6 && __VERSION__ >= 300)
in float arithmetic;
#endif
#undef COUNT
#ifdef COUNT
in float undefined;
#endif
)";
    auto s = readShaderInterface(src);
    CHECK(inputNames(s) == std::vector<std::string>{"velocity", "esOnly", "arithmetic"});
    ReadOptions o;
    o.defines["OTHER"] = "1";
    o.defines["USE_VELOCITY"] = "0"; // the source's #define wins, as in GLSL
    CHECK(inputNames(readShaderInterface(src, o)) == std::vector<std::string>{"velocity", "esOnly", "arithmetic"});
}

TEST_CASE("nested conditionals in an inactive region are not evaluated") {
    auto s = readShaderInterface(R"(#version 330 core
#if 0
#if UNKNOWN_THING(2) > 1
in vec4 a;
#endif
#else
in vec4 b;
#endif
#ifdef GL_ES
in vec4 esOnly;
#endif
)");
    CHECK(inputNames(s) == std::vector<std::string>{"b"});
    CHECK_FALSE(s.es);
    CHECK(s.version == 330);
}

TEST_CASE("what cannot be evaluated is reported, with the line") {
    try {
        readShaderInterface("#version 300 es\n\n#if QUALITY > 2\nin vec4 a;\n#endif\n");
        FAIL("expected an error");
    } catch (const Error& e) {
        CHECK(e.code() == ErrorCode::PreprocessorUnevaluable);
        CHECK(e.message().find("line 3") != std::string::npos);
        CHECK(e.message().find("QUALITY") != std::string::npos);
    }
    CHECK(codeOf("#define F(x) x\n#if F(1)\n#endif\n") == ErrorCode::PreprocessorUnevaluable);
    CHECK(codeOf("#if 1 / 0\n#endif\n") == ErrorCode::ConstantExpression); // arithmetic errors: limits_test.cpp
    ReadOptions o;
    o.defines["QUALITY"] = "3";
    CHECK(readShaderInterface("#if QUALITY > 2\nin vec4 a;\n#endif\n", o).inputs.size() == 1);
}

TEST_CASE("malformed directives") {
    CHECK(codeOf("#if 1\nin vec4 a;\n") == ErrorCode::PreprocessorDirective);
    CHECK(codeOf("#endif\n") == ErrorCode::PreprocessorDirective);
    CHECK(codeOf("#if 1\n#else\n#else\n#endif\n") == ErrorCode::PreprocessorDirective);
    CHECK(codeOf("#error stop here\n") == ErrorCode::PreprocessorDirective);
    CHECK(codeOf("#frobnicate\n") == ErrorCode::PreprocessorDirective);
    CHECK(codeOf("in vec4 a;\n#version 300 es\n") == ErrorCode::PreprocessorDirective);
    CHECK_NOTHROW(readShaderInterface("#if 0\n#error not active\n#endif\n"));
}

TEST_CASE("a macro with a parenthesised body is object-like") {
    auto s = readShaderInterface("#define N (2 + 1)\n#define F(x) x\nin vec4 a[N];\n");
    CHECK(s.inputs[0].arraySize == 3);
}

namespace {
// The active code after preprocessing, tokens joined by spaces (expandFunctionMacro).
std::string expanded(std::string_view src) {
    std::string s;
    for (const auto& t : plan::preprocess(src, {}, plan::expandFunctionMacro).tokens)
        s += (s.empty() ? "" : " ") + t.text;
    return s;
}
} // namespace

TEST_CASE("expandFunctionMacro expands function-like macros as C does (the WGSL translation: no preprocessor)") {
    // Arguments are macro-expanded first, nested parentheses and commas stay in their argument, the
    // result is rescanned; a name without '(' is a plain identifier.
    CHECK(expanded("#define N 2\n#define MAD(x, y, z) ((x) * (y) + (z))\nfloat v = MAD(f(a, b), N, 1.0);") ==
          "float v = ( ( f ( a , b ) ) * ( 2 ) + ( 1.0 ) ) ;");
    CHECK(expanded("#define SQ(x) ((x) * (x))\n#define QUAD(x) SQ(SQ(x))\nfloat q = QUAD(a);") ==
          "float q = ( ( ( ( a ) * ( a ) ) ) * ( ( ( a ) * ( a ) ) ) ) ;");
    CHECK(expanded("#define F(x) x\nfloat F = 1.0;") == "float F = 1.0 ;");
    CHECK(expanded("#define ZERO() 0.0\nfloat z = ZERO();") == "float z = 0.0 ;");
    // An invocation over several lines; ## pastes; __LINE__ is the line of its use.
    CHECK(expanded("#define ADD(a, b) (a + b)\nfloat s = ADD(1.0,\n  2.0);\nint l = __LINE__;") ==
          "float s = ( 1.0 + 2.0 ) ; int l = 4 ;");
    CHECK(expanded("#define NAME(p, i) p ## i\nfloat NAME(value, 2) = 1.0;") == "float value2 = 1.0 ;");
    // The default (GLSL outputs) keeps them for the GL compiler.
    auto kept = plan::preprocess("#define F(x) x\nfloat v = F(1.0);", {});
    CHECK(kept.functionMacros == std::vector<std::string>{"F"});
    CHECK(kept.passThrough.size() == 1);
    // Coded errors: a wrong argument count, an unclosed argument list.
    CHECK_THROWS_AS(expanded("#define F(x, y) x\nfloat v = F(1.0);"), Error);
    try {
        expanded("#define F(x, y) x\nfloat v = F(1.0);");
    } catch (const Error& e) {
        CHECK(e.code() == ErrorCode::PreprocessorDirective);
        CHECK(std::string(e.what()).find("line 2: macro 'F' takes 2 arguments, given 1") != std::string::npos);
    }
    try {
        expanded("#define F(x) x\nfloat v = F(1.0;");
    } catch (const Error& e) {
        CHECK(e.code() == ErrorCode::PreprocessorDirective);
        CHECK(std::string(e.what()).find("macro 'F' have no closing ')'") != std::string::npos);
    }
}
