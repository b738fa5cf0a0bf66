#include "process.hpp"
#include "reference.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <string>

using json = nlohmann::json;
using xfbtest::freshPath, xfbtest::run, xfbtest::writeFile;

namespace {

const std::string kShaders = std::string(XFB_SOURCE_DIR) + "/shaders/";

} // namespace

TEST_CASE("xfb-inspect prints the attribute assignment, captured varyings and the buffer plan") {
    auto r = run(std::string(XFB_INSPECT) + " " + kShaders + "layout36.vert");
    REQUIRE(r.status == 0);
    json j = json::parse(r.out);
    CHECK(j["mode"] == "interleaved");
    CHECK(j["attributes"][1]["name"] == "normal");
    CHECK(j["attributes"][1]["semantic"] == "ATTR1");
    CHECK(j["attributes"][2]["slots"] == json::array({"ATTR2"}));
    REQUIRE(j["buffers"].size() == 1);
    CHECK(j["buffers"][0]["stride"] == 36);
    CHECK(j["buffers"][0]["fields"][0]["offset"] == 0);
    CHECK(j["buffers"][0]["fields"][1]["offset"] == 16);
    CHECK(j["buffers"][0]["fields"][2]["offset"] == 28);
    CHECK(j["limits"]["max_separate_components"] == 4);
    CHECK(j["fusion"]["element_local"] == true);

    r = run(std::string(XFB_INSPECT) + " " + kShaders +
            "flock_separate.vert --mode separate --varyings out_instance,out_position");
    REQUIRE(r.status == 0);
    j = json::parse(r.out);
    CHECK(j["buffers"].size() == 2);
    CHECK(j["buffers"][1]["fields"][0]["varying"] == "out_position");
    CHECK(j["buffers"][1]["binding"] == 1);
}

TEST_CASE("xfb-inspect says whether substeps fuse and why not") {
    auto path = writeFile(
        "reads_texture.vert",
        "#version 300 es\nprecision highp float;\nin vec4 p;\nuniform highp sampler2D all_;\nout vec4 out_p;\n"
        "void main() { out_p = p + texelFetch(all_, ivec2(gl_VertexID, 0), 0); }\n");
    auto r = run(std::string(XFB_INSPECT) + " " + path);
    REQUIRE(r.status == 0);
    json j = json::parse(r.out);
    CHECK(j["fusion"]["element_local"] == false);
    CHECK(j["fusion"]["reason"].get<std::string>().find("line 4: uniform 'all_' is a sampler2D") != std::string::npos);
}

TEST_CASE("xfb-inspect prints the records and bytes a draw writes") {
    auto r = run(std::string(XFB_INSPECT) + " " + kShaders + "layout36.vert --draw triangle_strip:4");
    REQUIRE(r.status == 0);
    json d = json::parse(r.out)["draw"];
    CHECK(d["captured_as"] == "triangles");
    CHECK(d["primitives"] == 2);
    CHECK(d["records"] == 6);
    CHECK(d["bytes"] == json::array({216}));
    r = run(std::string(XFB_INSPECT) + " " + kShaders +
            "layout36.vert --draw triangle_strip --indices 0,1,2,3,65535,4,5,6 --restart 65535");
    REQUIRE(r.status == 0);
    CHECK(json::parse(r.out)["draw"]["records"] == 9);
    CHECK(run(std::string(XFB_INSPECT) + " " + kShaders + "layout36.vert --draw quads:4").status == 2);
}

TEST_CASE("xfb-inspect plans an append session: several --draw, each part's range") {
    auto r = run(std::string(XFB_INSPECT) + " " + kShaders +
                 "layout36.vert --draw triangle_strip:5 --draw line_loop:3 --draw triangle_fan --indices "
                 "3,9,4,99,20,21 --restart 99 --first-record 7");
    REQUIRE(r.status == 0);
    json s = json::parse(r.out)["session"];
    CHECK(s["first_record"] == 7);
    CHECK(s["end_record"] == 25);
    CHECK(s["end_bytes"] == json::array({900}));
    REQUIRE(s["parts"].size() == 3);
    CHECK(s["parts"][1]["captured_as"] == "lines");
    CHECK(s["parts"][1]["first_record"] == 16);
    CHECK(s["parts"][1]["first_byte"] == json::array({576}));
    CHECK(s["parts"][2]["records"] == 3);
    CHECK(s["parts"][2]["first_record"] == 22);
    // A negative record offset is a bad argument (exit 2, like every out-of-range number).
    r = run(std::string(XFB_INSPECT) + " " + kShaders + "layout36.vert --draw points:2 --first-record -1");
    CHECK(r.status == 2);
    CHECK(r.err.find("--first-record needs a number") != std::string::npos);
}

TEST_CASE("xfb-inspect --geometry prints the per-stream plan: records, strides, budgets from max_vertices") {
    const std::string vertex = writeFile(
        "pass.vert", "#version 330 core\nin vec4 a_position;\nout vec4 v_position;\nvoid main() { v_position = "
                     "a_position; }\n");
    const std::string geometry = writeFile("streams.geom", R"(#version 400 core
layout(triangles, invocations = 2) in;
layout(points, max_vertices = 3) out;
in vec4 v_position[];
layout(stream = 0) out vec4 out_centroid;
layout(stream = 0) out float out_area;
layout(stream = 1) out vec3 out_normal;
layout(stream = 1) flat out int out_face;
void main() {}
)");
    auto r = run(std::string(XFB_INSPECT) + " " + vertex + " --geometry " + geometry + " --draw triangle_strip:5");
    REQUIRE(r.status == 0);
    json j = json::parse(r.out);
    // The vertex shader's attributes, the geometry shader's capture: one buffer per stream.
    CHECK(j["attributes"][0]["name"] == "a_position");
    REQUIRE(j["buffers"].size() == 2);
    CHECK(j["buffers"][0]["stride"] == 20);
    CHECK(j["buffers"][1]["stride"] == 16);
    json g = j["geometry"];
    CHECK(g["shader"] == geometry);
    CHECK(g["input"] == "triangles");
    CHECK(g["output"] == "points");
    CHECK(g["captured_as"] == "points");
    CHECK(g["max_vertices"] == 3);
    CHECK(g["invocations"] == 2);
    CHECK(g["stream_count"] == 2);
    REQUIRE(g["streams"].size() == 2);
    CHECK(g["streams"][1]["stream"] == 1);
    CHECK(g["streams"][1]["buffers"] == json::array({1}));
    CHECK(g["streams"][1]["strides"] == json::array({16}));
    CHECK(g["streams"][1]["varyings"] == json::array({"out_normal", "out_face"}));
    CHECK(g["streams"][0]["records_per_invocation"] == 3);
    CHECK(g["streams"][0]["records_per_input_primitive"] == 6);
    CHECK(g["limits"]["max_streams"] == 4);
    CHECK(g["limits"]["source"].get<std::string>().find("OpenGL 4.0 minimums") != std::string::npos);
    // The draw's budget: 3 triangles x 2 invocations x 3 points, per stream.
    json d = j["draw"];
    CHECK(d["budget"] == true);
    CHECK(d["input_primitives"] == 3);
    CHECK(d["records"] == 36);
    CHECK(d["bytes"] == json::array({360, 288}));
    REQUIRE(d["streams"].size() == 2);
    CHECK(d["streams"][1]["records"] == 18);
    CHECK(d["streams"][1]["bytes"] == json::array({288}));

    // Lines out: a strip of 6 vertices is 5 lines, 10 records per input primitive.
    const std::string fins = writeFile("fins.geom", "#version 400 core\nlayout(triangles) in;\nlayout(line_strip, "
                                                    "max_vertices = 6) out;\nout vec3 out_position;\nvoid main() {}\n");
    r = run(std::string(XFB_INSPECT) + " " + vertex + " --geometry " + fins + " --draw triangles:6");
    REQUIRE(r.status == 0);
    j = json::parse(r.out);
    CHECK(j["geometry"]["streams"][0]["captured_as"] == "lines");
    CHECK(j["geometry"]["streams"][0]["records_per_input_primitive"] == 10);
    CHECK(j["draw"]["records"] == 20);
    CHECK(j["draw"]["bytes"] == json::array({240}));

    // The planner's refusals, with their codes (exit 1).
    r = run(std::string(XFB_INSPECT) + " " + vertex + " --geometry " + fins + " --draw points:3");
    CHECK(r.status == 1);
    CHECK(r.err.find("XFB_GEOMETRY_INPUT") != std::string::npos);
    const std::string noMax = writeFile("nomax.geom", "#version 400 core\nlayout(triangles) in;\nlayout(points) "
                                                      "out;\nout vec3 out_position;\nvoid main() {}\n");
    r = run(std::string(XFB_INSPECT) + " " + vertex + " --geometry " + noMax);
    CHECK(r.status == 1);
    CHECK(r.err.find("XFB_GEOMETRY_LAYOUT") != std::string::npos);
    CHECK(r.err.find("no max_vertices") != std::string::npos);
    r = run(std::string(XFB_INSPECT) + " " + vertex + " --geometry " + geometry + " --draw points:1 --draw points:2");
    CHECK(r.status == 1);
    CHECK(r.err.find("XFB_UNSUPPORTED") != std::string::npos);
    r = run(std::string(XFB_INSPECT) + " " + vertex + " --geometry " + geometry + " --wgsl");
    CHECK(r.status == 1);
    CHECK(r.err.find("XFB_COMPUTE_TRANSLATION") != std::string::npos);
    r = run(std::string(XFB_INSPECT) + " " + vertex + " --geometry /nonexistent.geom");
    CHECK(r.status == 1);
    CHECK(r.err.find("XFB_FILE_READ") != std::string::npos);
    CHECK(run(std::string(XFB_INSPECT) + " " + vertex + " --geometry").status == 2);
}

TEST_CASE("xfb-inspect: invalid input gives a non-zero exit and the code on stderr") {
    std::string mat =
        writeFile("mat.vert", "#version 300 es\nin vec4 p;\nout mat4 out_m;\nvoid main() { out_m = mat4(p.x); }\n");
    auto r = run(std::string(XFB_INSPECT) + " " + mat + " --mode separate");
    CHECK(r.status == 1);
    CHECK(r.out.empty());
    CHECK(r.err.find("XFB_SEPARATE_COMPONENTS") != std::string::npos);
    CHECK(r.err.find("out_m") != std::string::npos);
    // The driver (llvmpipe: 64) would allow it; only --no-portable with native limits says so.
    r = run(std::string(XFB_INSPECT) + " " + mat + " --mode separate --limits native --no-portable");
    CHECK(r.status == 0);
    CHECK(json::parse(r.out)["limits"]["source"].get<std::string>().find("llvmpipe") != std::string::npos);
    r = run(std::string(XFB_INSPECT) + " " + mat + " --mode sideways");
    CHECK(r.status == 2);
    r = run(std::string(XFB_INSPECT) + " /nonexistent.vert");
    CHECK(r.status == 1);
}

TEST_CASE("xfb-run runs a scenario and writes the buffers, equal to the C++ reference") {
    std::vector<float> state{0.5f,  1.0f, -0.25f, 0.75f, 1.0f, 2.0f,  0.0f, 7.0f,
                             -1.0f, 0.0f, 0.125f, 2.0f,  0.0f, -1.0f, 0.5f, 8.0f};
    json scenario = {
        {"shader", kShaders + "particles.vert"},
        {"count", 2},
        {"steps", 5},
        {"checked", true},
        {"uniforms", {{"dt", 0.25}, {"gravity", {0.0, -2.0, 0.0}}}},
        {"buffers",
         {{{"name", "state"},
           {"role", {"input", "output"}},
           {"format", {{{"semantic", "ATTR0"}, {"components", 4}}, {{"semantic", "ATTR1"}, {"components", 4}}}},
           {"data", state}}}}};
    std::string path = writeFile("particles.json", scenario.dump());
    for (std::string api : {"gl43core", "gles30"})
        for (std::string backend : {"tf", "compute", "auto"}) {
            CAPTURE(api);
            CAPTURE(backend);
            // Fresh paths each time: a run that writes nothing must not find the previous run's files.
            std::string out = freshPath("result.json"), bin = freshPath("bin");
            auto r = run(std::string(XFB_RUN) + " " + path + " --api " + api + " --backend " + backend + " --out " +
                         out + " --binary " + bin);
            REQUIRE_MESSAGE(r.status == 0, r.err);
            json summary = json::parse(r.out);
            CHECK(summary["api"] == api);
            if (backend != "auto")
                CHECK(summary["backend"] == backend);
            else
                CHECK(summary["backend_reason"].get<std::string>().find("auto") == 0);
            // Timing: steps 2..5 fenced, step 1 and the readback apart.
            CHECK(summary["ms_per_step"].is_number());
            CHECK(summary["first_step_ms"].is_number());
            CHECK(summary["readback_ms"].is_number());
            std::vector<float> ref = state;
            for (int s = 0; s < 5; ++s) xfbtest::particlesStep(ref, 0.25f, {0.0f, -2.0f, 0.0f});
            std::ifstream f(out);
            auto values = json::parse(f)["buffers"]["state"]["values"].get<std::vector<float>>();
            CHECK(values == ref);
            CHECK(std::filesystem::file_size(bin + "/state.bin") == 64);
        }
}

// A shader without inputs (gl_VertexID only): no buffer gives the element count, the scenario's
// `count` does, on every backend.
TEST_CASE("xfb-run runs a scenario with no input buffer: count gives the elements") {
    std::string shader = writeFile("vertex_id.vert", "#version 300 es\nflat out int out_id;\n"
                                                     "void main() { out_id = gl_VertexID * 3 + 1; }\n");
    json scenario = {{"shader", shader},
                     {"count", 4},
                     {"buffers",
                      {{{"name", "ids"},
                        {"role", {"output"}},
                        {"format", {{{"semantic", "ATTR0"}, {"components", 1}, {"type", "int32"}}}}}}}};
    std::string path = writeFile("vertex_id.json", scenario.dump());
    for (std::string backend : {"tf", "compute"}) {
        CAPTURE(backend);
        std::string out = freshPath("result.json");
        auto r = run(std::string(XFB_RUN) + " " + path + " --backend " + backend + " --out " + out);
        REQUIRE_MESSAGE(r.status == 0, r.err);
        std::ifstream f(out);
        CHECK(json::parse(f)["buffers"]["ids"]["values"].get<std::vector<int>>() == std::vector<int>{1, 4, 7, 10});
    }
}

// The bad formats the web suite gives both JavaScript engines (tests/web/page/webgpu.js): xfb-run
// reports the same code and message, the field prefixed with the buffer it belongs to.
TEST_CASE("xfb-run: a bad format gives the code and message JavaScript gives") {
    std::ifstream in(std::string(XFB_SOURCE_DIR) + "/tests/web/page/bad_formats.json");
    json cases = json::parse(in);
    REQUIRE(cases.size() >= 8);
    int n = 0;
    for (const auto& c : cases) {
        json scenario = {{"shader", kShaders + "particles.vert"},
                         {"count", 1},
                         {"buffers", {{{"role", {"input"}}, {"format", c["format"]}}}}};
        auto r =
            run(std::string(XFB_RUN) + " " + writeFile("bad_format" + std::to_string(n++) + ".json", scenario.dump()));
        CHECK(r.status == 1);
        std::string message = c["message"];
        if (message.starts_with("format")) message = "buffers[0]." + message;
        CHECK_MESSAGE(r.err.find(c["code"].get<std::string>() + ": " + message + "\n") != std::string::npos, r.err,
                      " expected ", message);
    }
}

TEST_CASE("xfb-run: a bad scenario names the field") {
    auto expect = [](const std::string& name, const std::string& text, const std::string& field) {
        auto r = run(std::string(XFB_RUN) + " " + writeFile(name, text));
        CHECK(r.status == 1);
        CHECK_MESSAGE(r.err.find("XFB_SCENARIO") != std::string::npos, r.err);
        CHECK_MESSAGE(r.err.find(field) != std::string::npos, r.err);
    };
    std::string shader = "\"shader\": \"" + kShaders + "particles.vert\"";
    std::string fmt = "\"format\": [{\"semantic\": \"ATTR0\"}, {\"semantic\": \"ATTR1\"}]";
    expect("no_count.json", "{" + shader + ", \"buffers\": [{\"role\": [\"input\"], " + fmt + "}]}", "'count'");
    expect("bad_role.json", "{" + shader + ", \"count\": 1, \"buffers\": [{\"role\": [\"inout\"], " + fmt + "}]}",
           "'buffers[0].role'");
    expect("bad_data.json",
           "{" + shader + ", \"count\": 2, \"buffers\": [{\"role\": [\"input\"], " + fmt + ", \"data\": [1, 2, 3]}]}",
           "'buffers[0].data'");
    expect("unknown.json", "{" + shader + ", \"count\": 1, \"stpes\": 3, \"buffers\": []}", "'stpes'");
    expect("backend.json",
           "{" + shader + ", \"count\": 1, \"backend\": \"vulkan\", \"buffers\": [{\"role\": [\"input\"], " + fmt +
               "}]}",
           "'backend'");
    expect("not_json.json", "{ count: 1 ", "not valid JSON");
    // Engine errors pass through with their own codes.
    auto r = run(
        std::string(XFB_RUN) + " " +
        writeFile("roles.json", "{" + shader + ", \"count\": 4, \"buffers\": [{\"role\": [\"input\"], " + fmt + "}]}"));
    CHECK(r.status == 1);
    CHECK(r.err.find("XFB_OUTPUT_COUNT_MISMATCH") != std::string::npos);
}

TEST_CASE("xfb-inspect --wgsl prints the WebGPU compute shader, and names what does not translate") {
    auto r = run(std::string(XFB_INSPECT) + " " + XFB_SOURCE_DIR + "/shaders/layout36.vert --wgsl");
    CHECK(r.status == 0);
    CHECK(r.out.find("@compute @workgroup_size(256)") != std::string::npos);
    CHECK(r.out.find("xfb_b2[xfb_i * 9u + 4u] = bitcast<u32>(out_normal[0]);") !=
          std::string::npos); // the 36-byte record
    std::string bad =
        writeFile("wgsl_bad.vert", "#version 300 es\nin vec4 p;\nout vec4 out_p;\nuniform highp isampler2D "
                                   "s;\nvoid main() {\n  out_p = vec4(texture(s, p.xy));\n}\n");
    r = run(std::string(XFB_INSPECT) + " " + bad + " --wgsl");
    CHECK(r.status == 1);
    CHECK(r.err.find("XFB_COMPUTE_TRANSLATION: WGSL: line 6: 'texture()' of an integer sampler") != std::string::npos);
}
