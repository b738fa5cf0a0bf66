// xfb-inspect and xfb-run on hostile input, as processes: every failure is exit status 1 with
// "PATH: XFB_CODE: message" on stderr (exit 2 for bad arguments), never a crash or a hang.
#include "process.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string>

namespace {

using xfbtest::Result, xfbtest::freshPath, xfbtest::run, xfbtest::writeFile;

// Exit 1 and exactly one line "PATH: CODE: message", the message naming `needle`.
void expectCoded(const Result& r, const std::string& path, const std::string& code, const std::string& needle) {
    CHECK_MESSAGE(r.exited, "killed by a signal: ", r.err);
    CHECK_MESSAGE(r.status == 1, r.err);
    CHECK(r.out.empty());
    CHECK_MESSAGE(r.err.rfind(path + ": " + code + ": ", 0) == 0, r.err);
    CHECK_MESSAGE(r.err.find(needle) != std::string::npos, r.err);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
}

std::string inspect(const std::string& args) { return std::string(XFB_INSPECT) + " " + args; }
std::string xfbRun(const std::string& args) { return std::string(XFB_RUN) + " " + args; }

const std::string kParticles = std::string(XFB_SOURCE_DIR) + "/shaders/particles.vert";
const std::string kRegressions = std::string(XFB_SOURCE_DIR) + "/tests/fuzz/regressions/";

std::string scenario(const std::string& fields) {
    return "{\"shader\": \"" + kParticles + "\", " + fields +
           ", \"buffers\": [{\"role\": [\"input\", \"output\"], \"format\": [{\"semantic\": \"ATTR0\", \"components\": "
           "4}, "
           "{\"semantic\": \"ATTR1\", \"components\": 4}]}]}";
}

} // namespace

TEST_CASE("xfb-inspect: a directory, a missing file or an unreadable path is XFB_FILE_READ") {
    expectCoded(run(inspect(XFB_WORK_DIR)), XFB_WORK_DIR, "XFB_FILE_READ", "is a directory");
    expectCoded(run(inspect("/nonexistent/x.vert")), "/nonexistent/x.vert", "XFB_FILE_READ",
                "No such file or directory");
    expectCoded(run(inspect(kParticles + "/x.vert")), kParticles + "/x.vert", "XFB_FILE_READ", "Not a directory");
}

TEST_CASE("xfb-inspect: each limit and arithmetic rule of the reader gives its code") {
    struct Case {
        const char* file;
        const char* code;
        const char* needle;
    };
    const Case cases[] = {
        {"line-beyond-int.vert", "XFB_CONSTANT_EXPRESSION", "line 2: #line 99999999999 is out of range"},
        {"version-beyond-int.vert", "XFB_CONSTANT_EXPRESSION", "#version 99999999999"},
        {"if-int64-min-div-minus-one.vert", "XFB_CONSTANT_EXPRESSION",
         "line 2: #if condition: -9223372036854775808 / -1 overflows"},
        {"if-int64-min-mod-minus-one.vert", "XFB_CONSTANT_EXPRESSION", "% -1 overflows"},
        {"if-mul-overflow.vert", "XFB_CONSTANT_EXPRESSION", "9223372036854775807 * 2 overflows"},
        {"if-division-by-zero.vert", "XFB_CONSTANT_EXPRESSION", "division by zero"},
        {"macro-doubling-20.vert", "XFB_EXPANSION_LIMIT", "more than 500000 tokens"},
        {"macro-doubling-40-in-if.vert", "XFB_EXPANSION_LIMIT", "more than 500000 tokens"},
        {"if-parens-50000.vert", "XFB_NESTING_DEPTH", "deeper than 256"},
        {"array-size-parens-50000.vert", "XFB_NESTING_DEPTH", "deeper than 256"},
        {"struct-nesting-300.vert", "XFB_NESTING_DEPTH", "struct definitions nested deeper than 256"},
        {"array-2147483648.vert", "XFB_ARRAY_SIZE", "array size 2147483648 is over the limit"},
        {"array-mat4-536870912.vert", "XFB_ARRAY_SIZE", "array size 536870912"},
        {"array-4294967297.vert", "XFB_ARRAY_SIZE", "array size 4294967297"},
        {"location-beyond-int.vert", "XFB_CONSTANT_EXPRESSION", "layout(location = 4294967296)"},
        {"outs-4200.vert", "XFB_TOO_MANY_DECLARATIONS", "more than 4096"},
    };
    for (const Case& c : cases) {
        CAPTURE(c.file);
        expectCoded(run(inspect(kRegressions + c.file)), kRegressions + c.file, c.code, c.needle);
    }
    std::string big = writeFile("big.vert", "#version 300 es\n" + std::string(2 << 20, ' '));
    expectCoded(run(inspect(big)), big, "XFB_SOURCE_TOO_LARGE", "2097168 bytes");
    std::string huge = writeFile("huge.vert", std::string(5 << 20, ' '));
    expectCoded(run(inspect(huge)), huge, "XFB_FILE_READ", "longer than");
    expectCoded(run(inspect(kParticles + " --draw line_strip:9223372036854775807")), kParticles, "XFB_BUFFER_TOO_LARGE",
                "overflows 64 bits");
}

TEST_CASE("xfb-inspect: bad arguments exit with status 2") {
    for (const char* args : {"--draw points --indices 4294967296", "--draw points --indices -1", "--draw points:-3",
                             "--draw points --restart 1e3"}) {
        CAPTURE(args);
        auto r = run(inspect(kParticles + " " + args));
        CHECK(r.exited);
        CHECK(r.status == 2);
    }
}

TEST_CASE("xfb-run: a directory or missing file as scenario, shader or data_file is XFB_FILE_READ") {
    expectCoded(run(xfbRun(XFB_WORK_DIR)), XFB_WORK_DIR, "XFB_FILE_READ",
                "scenario '" + std::string(XFB_WORK_DIR) + "' is a directory");
    expectCoded(run(xfbRun("/nonexistent.json")), "/nonexistent.json", "XFB_FILE_READ", "No such file or directory");
    std::string s = writeFile("dir-shader.json", "{\"shader\": \"/\", \"count\": 1, \"buffers\": []}");
    expectCoded(run(xfbRun(s)), s, "XFB_FILE_READ", "field 'shader' '/' is a directory");
    s = writeFile(
        "dir-data.json",
        "{\"shader\": \"" + kParticles +
            "\", \"count\": 2, \"buffers\": [{\"role\": [\"input\", \"output\"], \"data_file\": \"/\", \"format\": ["
            "{\"semantic\": \"ATTR0\", \"components\": 4}, {\"semantic\": \"ATTR1\", \"components\": 4}]}]}");
    expectCoded(run(xfbRun(s)), s, "XFB_FILE_READ", "field 'buffers[0].data_file'");
}

TEST_CASE("xfb-run: counts whose buffers exceed 2^31-1 bytes are XFB_BUFFER_TOO_LARGE, before allocating") {
    for (const char* count : {"1000000000000", "2147483648", "67108864", "9223372036854775807"}) {
        CAPTURE(count);
        std::string s = writeFile("count.json", scenario(std::string("\"count\": ") + count));
        expectCoded(run(xfbRun(s)), s, "XFB_BUFFER_TOO_LARGE",
                    std::string("buffers[0]: ") + count + " elements x 32 bytes exceeds 2147483647");
    }
    std::string s = writeFile("count-huge.json", scenario("\"count\": 18446744073709551615"));
    expectCoded(run(xfbRun(s)), s, "XFB_SCENARIO", "'count'");
}

TEST_CASE("xfb-run: out-of-range numbers are XFB_SCENARIO naming the field, not wrapped") {
    std::string s = writeFile("steps.json", scenario("\"count\": 1, \"steps\": 4294967296"));
    expectCoded(run(xfbRun(s)), s, "XFB_SCENARIO", "'steps'");
    s = writeFile("seed.json",
                  "{\"shader\": \"" + kParticles +
                      "\", \"count\": 1, \"buffers\": [{\"role\": [\"input\", \"output\"], \"random\": {\"seed\": "
                      "\"x\"}, \"format\": ["
                      "{\"semantic\": \"ATTR0\", \"components\": 4}, {\"semantic\": \"ATTR1\", \"components\": 4}]}]}");
    expectCoded(run(xfbRun(s)), s, "XFB_SCENARIO", "");
    s = writeFile("int-data.json",
                  "{\"shader\": \"" + kParticles +
                      "\", \"count\": 1, \"buffers\": [{\"role\": [\"input\"], \"data\": [4294967296], \"format\": ["
                      "{\"semantic\": \"ATTR0\", \"type\": \"int32\", \"components\": 1}]}]}");
    expectCoded(run(xfbRun(s)), s, "XFB_SCENARIO", "'buffers[0].data[0]'");
    auto r = run(xfbRun(kParticles + " --steps 99999999999"));
    CHECK(r.status == 2);
}

TEST_CASE("xfb-run: an output path that cannot be written is XFB_FILE_WRITE") {
    std::string s =
        writeFile("write.json",
                  "{\"shader\": \"" + kParticles +
                      "\", \"count\": 1, \"buffers\": [{\"role\": [\"input\", \"output\"], \"format\": ["
                      "{\"semantic\": \"ATTR0\", \"components\": 4}, {\"semantic\": \"ATTR1\", \"components\": 4}]}]}");
    auto r = run(xfbRun(s + " --brief --out " + XFB_WORK_DIR));
    CHECK(r.status == 1);
    CHECK_MESSAGE(r.err.rfind(s + ": XFB_FILE_WRITE: cannot write --out file", 0) == 0, r.err);
    r = run(xfbRun(s + " --brief --binary " + kParticles));
    CHECK(r.status == 1);
    CHECK_MESSAGE(r.err.rfind(s + ": XFB_FILE_WRITE: cannot create the --binary folder", 0) == 0, r.err);
}

TEST_CASE("xfb-run: an int uniform given 2^40 is XFB_SCENARIO, not a silent 0") {
    std::string shader = writeFile(
        "int_uniform.vert",
        "#version 300 es\nin vec4 p;\nuniform int n;\nout vec4 out_p;\nvoid main() { out_p = p * float(n); }\n");
    auto scenarioWith = [&](const std::string& n) {
        return "{\"shader\": \"" + shader + "\", \"count\": 1, \"uniforms\": {\"n\": " + n +
               "}, \"buffers\": [{\"name\": \"p\", \"role\": [\"input\", \"output\"], \"data\": [1, 2, 3, -4], "
               "\"format\": [{\"semantic\": \"ATTR0\", \"components\": 4}]}]}";
    };
    std::string s = writeFile("int-uniform-big.json", scenarioWith("1099511627776"));
    expectCoded(run(xfbRun(s)), s, "XFB_SCENARIO", "field 'uniforms.n': 1099511627776 is not an int value");
    s = writeFile("int-uniform-half.json", scenarioWith("2.5"));
    expectCoded(run(xfbRun(s)), s, "XFB_SCENARIO", "field 'uniforms.n'");
    s = writeFile("int-uniform-ok.json", scenarioWith("-3"));
    std::string out = freshPath("int-uniform-out.json");
    auto r = run(xfbRun(s + " --out " + out));
    REQUIRE_MESSAGE(r.status == 0, r.err);
    std::ifstream f(out);
    CHECK(nlohmann::json::parse(f)["buffers"]["p"]["values"] == nlohmann::json::array({-3.0, -6.0, -9.0, 12.0}));
}
