// Every limit of xfb/limits.hpp and every arithmetic rule of the reader, provoked on purpose:
// the code, and a message that names the line and the offending value.
#include "test_util.hpp"
#include "xfb/capture_plan.hpp"
#include "xfb/compute_translation.hpp"
#include "xfb/glsl_dialect.hpp"
#include "xfb/limits.hpp"
#include "xfb/pass_plan.hpp"
#include "xfb/shader_interface.hpp"

#include <climits>

using namespace xfb;

namespace {
const std::string kV = "#version 300 es\n";
std::string repeat(const std::string& s, int n) {
    std::string out;
    for (int i = 0; i < n; ++i) out += s;
    return out;
}
std::string doublingMacros(int levels) {
    std::string s = kV + "#define A0 x\n";
    for (int i = 1; i <= levels; ++i)
        s += "#define A" + std::to_string(i) + " A" + std::to_string(i - 1) + " A" + std::to_string(i - 1) + "\n";
    return s + "A" + std::to_string(levels) + "\nvoid main() {}\n";
}
std::string outputs(int n) {
    std::string s = kV + "in vec4 p;\n";
    for (int i = 0; i < n; ++i) s += "out float out_v" + std::to_string(i) + ";\n";
    return s + "void main() {}\n";
}
} // namespace

TEST_CASE("#if arithmetic that overflows 64 bits is an error with the line, never a wrapped value") {
    auto m = XFB_REQUIRE_ERROR(readShaderInterface(kV + "\n#if (-9223372036854775807 - 1) / -1\n#endif\n"),
                               ErrorCode::ConstantExpression);
    CHECK(contains(m, "line 3"));
    CHECK(contains(m, "-9223372036854775808 / -1 overflows"));
    XFB_REQUIRE_ERROR(readShaderInterface(kV + "#if (-9223372036854775807 - 1) % -1\n#endif\n"),
                      ErrorCode::ConstantExpression);
    m = XFB_REQUIRE_ERROR(readShaderInterface(kV + "#if 9223372036854775807 * 2 < 0\nin vec4 wrong;\n#endif\n"),
                          ErrorCode::ConstantExpression);
    CHECK(contains(m, "9223372036854775807 * 2 overflows"));
    XFB_REQUIRE_ERROR(readShaderInterface(kV + "#if 9223372036854775807 + 1\n#endif\n"), ErrorCode::ConstantExpression);
    XFB_REQUIRE_ERROR(readShaderInterface(kV + "#if -9223372036854775807 - 2\n#endif\n"),
                      ErrorCode::ConstantExpression);
    XFB_REQUIRE_ERROR(readShaderInterface(kV + "#if -(-9223372036854775807 - 1)\n#endif\n"),
                      ErrorCode::ConstantExpression);
    XFB_REQUIRE_ERROR(readShaderInterface(kV + "#if 1 << 63\n#endif\n"), ErrorCode::ConstantExpression);
    m = XFB_REQUIRE_ERROR(readShaderInterface(kV + "#if 1 << 64\n#endif\n"), ErrorCode::ConstantExpression);
    CHECK(contains(m, "shift by 64"));
    m = XFB_REQUIRE_ERROR(readShaderInterface(kV + "#if 18446744073709551616\n#endif\n"),
                          ErrorCode::ConstantExpression);
    CHECK(contains(m, "18446744073709551616"));
    // What does fit is computed exactly.
    CHECK(readShaderInterface(kV + "#if (1 << 62) - 1 + (1 << 62) == 9223372036854775807 && -4 / 3 == -1 && -4 % 3 == "
                                   "-1\nin vec4 a;\n#endif\n")
              .inputs.size() == 1);
    CHECK(readShaderInterface(kV + "#if (-1 << 63) < 0\nin vec4 a;\n#endif\n").inputs.size() == 1);
}

TEST_CASE("division by zero is an error with the line, except where && or || does not evaluate it") {
    auto m = XFB_REQUIRE_ERROR(readShaderInterface(kV + "in vec4 a;\n#if 7 / (2 - 2)\n#endif\n"),
                               ErrorCode::ConstantExpression);
    CHECK(contains(m, "line 3"));
    CHECK(contains(m, "division by zero"));
    XFB_REQUIRE_ERROR(readShaderInterface(kV + "#if 7 % 0\n#endif\n"), ErrorCode::ConstantExpression);
    XFB_REQUIRE_ERROR(readShaderInterface(kV + "in vec4 a[4 / 0];\n"), ErrorCode::ConstantExpression);
    // The GLSL ES preprocessor does not evaluate the decided side: no error, and no undefined-identifier error either.
    CHECK(readShaderInterface(kV + "#if 0 && (1 / 0)\nin vec4 a;\n#else\nin vec4 b;\n#endif\n").inputs.at(0).name ==
          "b");
    CHECK(readShaderInterface(kV + "#if 1 || UNDEFINED_NAME > 2\nin vec4 a;\n#endif\n").inputs.size() == 1);
    CHECK(readShaderInterface(kV + "#if defined(Q) && Q > 2\nin vec4 a;\n#endif\n").inputs.empty());
    XFB_REQUIRE_ERROR(readShaderInterface(kV + "#if 1 && UNDEFINED_NAME > 2\n#endif\n"),
                      ErrorCode::PreprocessorUnevaluable);
}

TEST_CASE("#line and #version numbers beyond int range are coded errors") {
    auto m =
        XFB_REQUIRE_ERROR(readShaderInterface(kV + "#line 99999999999\nin vec4 a;\n"), ErrorCode::ConstantExpression);
    CHECK(contains(m, "line 2"));
    CHECK(contains(m, "#line 99999999999 is out of range"));
    m = XFB_REQUIRE_ERROR(readShaderInterface("#version 99999999999\nin vec4 a;\n"), ErrorCode::ConstantExpression);
    CHECK(contains(m, "#version 99999999999"));
    XFB_REQUIRE_ERROR(readShaderInterface("#version 0x12c es\n"), ErrorCode::PreprocessorDirective);
    // #line at the largest int, then one line more: numbering would pass INT_MAX.
    m = XFB_REQUIRE_ERROR(readShaderInterface(kV + "#line 2147483647\nin vec4 a;\nin vec4 b;\n"),
                          ErrorCode::ConstantExpression);
    CHECK(contains(m, "2147483648"));
    CHECK(readShaderInterface(kV + "#line 2147483647\nin vec4 a;\n").inputs.at(0).line == INT_MAX);
    // The same number through the compute translation and the GLSL ES 3.00 conversion.
    CHECK(toGlslEs300("#version 99999999999\nvoid main() {}\n") == "#version 99999999999\nvoid main() {}\n");
    XFB_REQUIRE_ERROR(translateToCompute("#version 99999999999\nin vec4 a;\n", {}, {}, {}, 0),
                      ErrorCode::ConstantExpression);
}

TEST_CASE("array sizes are checked, never wrapped") {
    auto m = XFB_REQUIRE_ERROR(readShaderInterface(kV + "in vec4 x[2147483648];\n"), ErrorCode::ArraySize);
    CHECK(contains(m, "line 2"));
    CHECK(contains(m, "array size 2147483648 is over the limit of 65536"));
    XFB_REQUIRE_ERROR(readShaderInterface(kV + "out mat4 out_m[536870912];\n"), ErrorCode::ArraySize);
    XFB_REQUIRE_ERROR(readShaderInterface(kV + "out vec4 o[4294967297];\n"), ErrorCode::ArraySize);
    XFB_REQUIRE_ERROR(readShaderInterface(kV + "out vec4 o[99999999999999999999];\n"), ErrorCode::ConstantExpression);
    // At the limits: 65536 elements, 2^20 components.
    auto s = readShaderInterface(kV + "uniform float u[65536];\nuniform mat4 m[65536];\n");
    CHECK(s.uniforms.at(0).arraySize == 65536);
    CHECK(s.uniforms.at(1).components() == 1 << 20);
    m = XFB_REQUIRE_ERROR(
        readShaderInterface(kV + "struct S { vec4 a[65536]; vec4 b[65536]; vec4 c[65536]; vec4 d[65536]; vec4 e; };\n"
                                 "uniform S s;\n"),
        ErrorCode::ArraySize);
    CHECK(contains(m, "struct S has 1048580 components"));
    m = XFB_REQUIRE_ERROR(readShaderInterface(kV + "struct S { vec4 a[65536]; };\nuniform S s[5];\n"),
                          ErrorCode::ArraySize);
    CHECK(contains(m, "'s' (S[5]) has 1310720 components"));
    m = XFB_REQUIRE_ERROR(readShaderInterface(kV + "layout(location = 4294967296) in vec4 a;\n"),
                          ErrorCode::ConstantExpression);
    CHECK(contains(m, "layout(location = 4294967296) is out of range"));
}

TEST_CASE("macro expansion has a budget: doubling macros stop with a coded error") {
    CHECK(readShaderInterface(doublingMacros(10)).version == 300); // 1024 tokens: fine
    auto m = XFB_REQUIRE_ERROR(readShaderInterface(doublingMacros(20)), ErrorCode::ExpansionLimit);
    CHECK(contains(m, "line 23"));
    CHECK(contains(m, "more than 500000 tokens"));
    XFB_REQUIRE_ERROR(readShaderInterface(doublingMacros(40)), ErrorCode::ExpansionLimit);
    // In an #if condition, and with macros that expand to nothing (no output, still work).
    std::string ifs = kV + "#define A0 1\n";
    for (int i = 1; i <= 40; ++i)
        ifs += "#define A" + std::to_string(i) + " (A" + std::to_string(i - 1) + " + A" + std::to_string(i - 1) + ")\n";
    XFB_REQUIRE_ERROR(readShaderInterface(ifs + "#if A40\n#endif\n"), ErrorCode::ExpansionLimit);
    std::string empty = kV + "#define E\n#define D " + repeat("E ", 200) + "\n#define C " + repeat("D ", 200) +
                        "\n#define B " + repeat("C ", 200) + "\nB\n";
    XFB_REQUIRE_ERROR(readShaderInterface(empty), ErrorCode::ExpansionLimit);
}

TEST_CASE("nesting is depth-checked: parentheses, unary operators, #if blocks, structs, macro chains") {
    std::string deep = repeat("(", 50000) + "1" + repeat(")", 50000);
    auto m = XFB_REQUIRE_ERROR(readShaderInterface(kV + "#if " + deep + "\n#endif\n"), ErrorCode::NestingDepth);
    CHECK(contains(m, "line 2"));
    CHECK(contains(m, "deeper than 256"));
    XFB_REQUIRE_ERROR(readShaderInterface(kV + "in vec4 a[" + deep + "];\n"), ErrorCode::NestingDepth);
    XFB_REQUIRE_ERROR(readShaderInterface(kV + "#if " + repeat("- ", 50000) + "1\n#endif\n"), ErrorCode::NestingDepth);
    XFB_REQUIRE_ERROR(readShaderInterface(kV + "#if " + repeat("!", 257) + "1\n#endif\n"), ErrorCode::NestingDepth);
    CHECK(readShaderInterface(kV + "in vec4 a[" + repeat("(", 200) + "3" + repeat(")", 200) + "];\n")
              .inputs.at(0)
              .arraySize == 3);
    m = XFB_REQUIRE_ERROR(readShaderInterface(kV + repeat("#if 1\n", 257) + repeat("#endif\n", 257)),
                          ErrorCode::NestingDepth);
    CHECK(contains(m, "line 258"));
    CHECK(readShaderInterface(kV + repeat("#if 1\n", 256) + "in vec4 a;\n" + repeat("#endif\n", 256)).inputs.size() ==
          1);
    std::string structs;
    for (int i = 0; i < 300; ++i) structs += "struct S" + std::to_string(i) + " { ";
    structs += "float x;" + repeat(" } s;", 300) + "\n";
    m = XFB_REQUIRE_ERROR(readShaderInterface(kV + structs), ErrorCode::NestingDepth);
    CHECK(contains(m, "struct definitions nested deeper than 256"));
    std::string chain = kV + "#define M0 1\n";
    for (int i = 1; i <= 1000; ++i) chain += "#define M" + std::to_string(i) + " M" + std::to_string(i - 1) + "\n";
    m = XFB_REQUIRE_ERROR(readShaderInterface(chain + "#if M1000\n#endif\n"), ErrorCode::NestingDepth);
    CHECK(contains(m, "macros expand macros deeper than 256"));
}

TEST_CASE("source size and declaration count are limited") {
    std::string big = kV + std::string(limits::maxSourceBytes, ' ');
    auto m = XFB_REQUIRE_ERROR(readShaderInterface(big), ErrorCode::SourceTooLarge);
    CHECK(contains(m, std::to_string(big.size()) + " bytes"));
    CHECK(readShaderInterface(kV + std::string(limits::maxSourceBytes - kV.size(), ' ')).version == 300);
    m = XFB_REQUIRE_ERROR(readShaderInterface(outputs(20000)), ErrorCode::TooManyDeclarations);
    CHECK(contains(m, "line 4098")); // the 4097th declaration: p and out_v0..out_v4095 come first
    CHECK(contains(m, "out_v4095"));
}

TEST_CASE("thousands of outputs plan in linear time, with exact offsets") {
    // 4095 outputs + 1 input: at the declaration limit. Capture planning was quadratic (a linear
    // name search per varying); with wide limits the plan is complete and exact.
    ShaderInterface s = readShaderInterface(outputs(4095));
    REQUIRE(s.outputs.size() == 4095);
    Limits wide;
    wide.maxInterleavedComponents = 1 << 20;
    wide.maxVaryingVectors = 1 << 20;
    CapturePlan plan = planCapture(s, {}, wide);
    REQUIRE(plan.buffers.at(0).fields.size() == 4095);
    CHECK(plan.buffers[0].stride == 4095 * 4);
    CHECK(plan.buffers[0].fields[4094].varying == "out_v4094");
    CHECK(plan.buffers[0].fields[4094].offset == 4094 * 4);
    // Over the portable limit the message counts them instead of listing 4095 names.
    auto m = XFB_REQUIRE_ERROR(planCapture(s, {}, Limits::portable()), ErrorCode::InterleavedComponents);
    CHECK(contains(m, "needs 4095 components"));
    CHECK(contains(m, "(4095 in all)"));
    CHECK(m.size() < 1000);
    XFB_REQUIRE_ERROR(planCapture(s, {CaptureMode::Interleaved, {"out_v7", "out_v9", "out_v7"}}, wide),
                      ErrorCode::DuplicateVarying);
}

TEST_CASE("buffer byte sizes are checked: count x stride never wraps") {
    CHECK(checkedBufferBytes(536870911, 4, limits::maxWebGLBufferBytes, "b") == 2147483644u);
    auto m = XFB_REQUIRE_ERROR(checkedBufferBytes(std::int64_t(1) << 31, 4, limits::maxWebGLBufferBytes, "buffers[0]"),
                               ErrorCode::BufferTooLarge);
    CHECK(contains(m, "buffers[0]: 2147483648 elements x 4 bytes exceeds 2147483647 bytes"));
    XFB_REQUIRE_ERROR(checkedBufferBytes(std::int64_t(1) << 62, 8, UINT64_MAX, "b"), ErrorCode::BufferTooLarge);
    XFB_REQUIRE_ERROR(checkedBufferBytes(-1, 8, UINT64_MAX, "b"), ErrorCode::InvalidArgument);
    // The pass plan: an explicit count whose output bytes overflow 64 bits.
    ShaderInterface s = readShaderInterface(kV + "out vec4 out_a;\nvoid main() {}\n");
    CapturePlan cap = planCapture(s, {}, Limits::portable());
    VertexFormat f = cap.buffers[0].asVertexFormat();
    std::vector<EntryDesc> entries{{std::nullopt, BufferDesc{f, 1024}}};
    CHECK(planPass({}, cap, entries, 64).outputs.at(0).bytesPerStep == 1024);
    m = XFB_REQUIRE_ERROR(planPass({}, cap, entries, INT64_MAX), ErrorCode::BufferTooLarge);
    CHECK(contains(m, "9223372036854775807 elements x 16 bytes"));
}

TEST_CASE("a #line jump is re-stated in the compute translation, not padded with newlines") {
    // Found by the fuzzer: `#line 2147483647` made the translation write 2^31 newlines (2 GB).
    std::string src =
        kV + "in vec4 a;\nout vec4 out_a;\n#line 2000000000\nvoid main() { out_a = a; }\n#line 7\nvoid f() {}\n";
    ShaderInterface s = readShaderInterface(src);
    CapturePlan cap = planCapture(s, {}, Limits::portable());
    VertexFormat f = VertexFormat::interleaved({{attr(0), ComponentType::Float32, 4}});
    std::vector<EntryDesc> entries{{BufferDesc{f, 64}, BufferDesc{f, 64}}};
    PassPlan pass = planPass(planAttributes(s, Limits::portable()), cap, entries, std::nullopt);
    ComputeShader c = translateToCompute(src, {}, pass, cap, entries.size());
    CHECK(c.source.size() < 4000);
    CHECK(contains(c.source, "\n#line 2000000000\nvoid xfb_user_main ( )"));
    CHECK(contains(c.source, "\n#line 7\nvoid f ( )")); // backwards too: the log keeps naming the user's lines
}
