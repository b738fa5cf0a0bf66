// Declared capture layouts (xfb/capture_plan.hpp): the shader's xfb_* qualifiers, a Direct3D-style
// declaration and GL's gl_SkipComponents / gl_NextBuffer list give one model; every rule has its code.
#include "declared_options.hpp"
#include "test_util.hpp"
#include "plan/vertex_wrapper.hpp"
#include "xfb/capture_plan.hpp"
#include "xfb/glsl_dialect.hpp"
#include "xfb/pass_plan.hpp"

#include <algorithm>

using namespace xfb;
using xfbtest::declared, xfbtest::field, xfbtest::list;

namespace {

CapturePlan capture(std::string_view src, CaptureOptions o = {}, Limits l = Limits::portable()) {
    return planCapture(readShaderInterface(src), o, l);
}

DeclaredEntry semantic(std::string name, int index = 0, int first = 0, int components = 0, int buffer = 0) {
    return {{}, std::move(name), index, first, components, buffer};
}

// The layout as text: "b0 stride 36: out_position@0+4[0] ...", to compare the ways in one line.
std::string layoutOf(const CapturePlan& p) {
    std::string s;
    for (const auto& b : p.buffers) {
        s += "b" + std::to_string(b.binding) + " stride " + std::to_string(b.stride) + ":";
        for (const auto& f : b.fields)
            s += " " + f.varying + "@" + std::to_string(f.offset) + "+" + std::to_string(f.components) + "[" +
                 std::to_string(f.firstComponent) + "]";
        s += "; ";
    }
    return s;
}

const char* kSeedShader = "out vec4 out_position; out vec3 out_normal; out vec2 out_texCoord0;";

} // namespace

TEST_CASE("the seed's declaration (4 + 3 + 2 components: stride 36, offsets 0/16/28) the three ways") {
    const std::string expected = "b0 stride 36: out_position@0+4[0] out_normal@16+3[0] out_texCoord0@28+2[0]; ";
    // 1. The shader's own qualifiers (GLSL 4.40), here in a GLSL ES source.
    auto q = capture("#version 300 es\n"
                     "layout(xfb_buffer = 0, xfb_offset = 0) out vec4 out_position;\n"
                     "layout(xfb_offset = 16) out vec3 out_normal;\n"
                     "layout(xfb_offset = 28) out vec2 out_texCoord0;\n");
    CHECK(q.declared);
    CHECK(layoutOf(q) == expected);
    // 2. The Direct3D declaration, by semantic as the seed's table writes it, and by varying.
    auto d =
        capture(kSeedShader,
                declared({semantic("POSITION", 0, 0, 4), semantic("NORMAL", 0, 0, 3), semantic("TEXCOORD", 0, 0, 2)}));
    CHECK(d.declared);
    CHECK(layoutOf(d) == expected);
    CHECK(layoutOf(capture(kSeedShader, declared({field("out_position"), field("out_normal"),
                                                  field("out_texCoord0")}))) == expected);
    // 3. GL's list: whole varyings in order are the layout GL derives, no words needed.
    auto l = capture(kSeedShader, list({"out_position", "out_normal", "out_texCoord0"}));
    CHECK(!l.declared);
    CHECK(layoutOf(l) == expected);
    CHECK(q.tight(0));
    CHECK(q.buffers[0].asVertexFormat().describe() == l.buffers[0].asVertexFormat().describe());
}

TEST_CASE("a padded layout (a gap, stride 40, two buffers) the three ways") {
    const std::string expected =
        "b0 stride 40: out_position@0+4[0] out_normal@20+3[0]; b1 stride 12: out_texCoord0@0+2[0] out_id@8+1[0]; ";
    const std::string shader =
        "out vec4 out_position; out vec3 out_normal; out vec2 out_texCoord0; flat out int out_id;";
    auto q = capture("#version 440 core\n"
                     "layout(xfb_buffer = 0, xfb_stride = 40) out;\n"
                     "layout(xfb_offset = 0) out vec4 out_position;\n"
                     "layout(xfb_offset = 20) out vec3 out_normal;\n"
                     "layout(xfb_buffer = 1) out;\n" // the default buffer from here on
                     "layout(xfb_offset = 0) out vec2 out_texCoord0;\n"
                     "layout(xfb_offset = 8) flat out int out_id;\n");
    CHECK(layoutOf(q) == expected);
    auto d = capture(shader, declared({field("out_position"), DeclaredEntry::gap(1), field("out_normal"),
                                       field("out_texCoord0", 0, 0, 1), field("out_id", 0, 0, 1)},
                                      {40}));
    CHECK(layoutOf(d) == expected);
    auto l = capture(shader, list({"out_position", "gl_SkipComponents1", "out_normal", "gl_SkipComponents2",
                                   "gl_NextBuffer", "out_texCoord0", "out_id"}));
    CHECK(l.declared);
    CHECK(layoutOf(l) == expected);
    CHECK(!l.tight(0));
    CHECK(l.tight(1));
    CHECK(l.buffers[1].fields[1].type == ComponentType::Int32);
    // Drawn from: the vertex format keeps the offsets and the stride, the gap unread.
    VertexFormat f = l.buffers[0].asVertexFormat();
    CHECK(f.stride == 40);
    REQUIRE(f.attributes.size() == 2);
    CHECK(f.attributes[1].offset == 20);
    CHECK(f.attributes[1].components == 3);
    // Entries of one buffer in offset order, whatever order the qualifiers come in.
    auto r = capture("layout(xfb_offset = 16) out vec4 out_b; layout(xfb_offset = 0) out vec4 out_a;");
    CHECK(layoutOf(r) == "b0 stride 32: out_a@0+4[0] out_b@16+4[0]; ");
}

TEST_CASE("partial and element captures") {
    // POSITION.xyz of a vec4, and components 2-3 of another.
    auto p = capture("out vec4 out_position; out vec4 out_color;",
                     declared({semantic("POSITION", 0, 0, 3), field("out_color", 2, 2)}));
    CHECK(layoutOf(p) == "b0 stride 20: out_position@0+3[0] out_color@12+2[2]; ");
    CHECK(p.varyings.size() == 2);
    CHECK(p.varyings[0].components() == 4); // the varying whole; the field takes part of it
    // An element of an array output, whole or in part; the two halves of one varying apart.
    auto e =
        capture("out vec4 out_r[3]; out vec4 out_q;",
                declared({field("out_r[1]"), field("out_r[2]", 1, 2), field("out_q", 0, 2), field("out_q", 2, 2, 1)}));
    CHECK(layoutOf(e) == "b0 stride 32: out_r[1]@0+4[0] out_r[2]@16+2[1] out_q@24+2[0]; b1 stride 8: out_q@0+2[2]; ");
    CHECK(e.varyings.size() == 3);
    // A matrix, flattened column by column: components 4..7 are its second column.
    CHECK(layoutOf(capture("out mat4 out_m;", declared({field("out_m", 4, 4)}))) == "b0 stride 16: out_m@0+4[4]; ");
    // SV_Position and TEXCOORD indices.
    auto s = capture("out vec2 out_texCoord3;", declared({semantic("SV_Position"), semantic("TEXCOORD", 3)}));
    CHECK(layoutOf(s) == "b0 stride 24: gl_Position@0+4[0] out_texCoord3@16+2[0]; ");
}

TEST_CASE("declared layouts: every rule has its code and names the varying, the offset and the rule") {
    // An offset not on 4 bytes.
    auto msg = XFB_REQUIRE_ERROR(capture("layout(xfb_offset = 2) out float out_a;"), ErrorCode::LayoutOffset);
    CHECK(contains(msg, "'out_a'"));
    CHECK(contains(msg, "xfb_offset 2"));
    CHECK(contains(msg, "multiple of 4"));
    // Overlap.
    msg = XFB_REQUIRE_ERROR(capture("layout(xfb_offset = 0) out vec4 out_a; layout(xfb_offset = 8) out vec2 out_b;"),
                            ErrorCode::LayoutOverlap);
    CHECK(contains(msg, "'out_b' at offset 8"));
    CHECK(contains(msg, "inside 'out_a'"));
    CHECK(contains(msg, "offset 16"));
    // Strides: not a multiple of 4, below the extent, two for one buffer, over the limit.
    msg =
        XFB_REQUIRE_ERROR(capture("layout(xfb_stride = 30, xfb_offset = 0) out vec4 out_a;"), ErrorCode::LayoutStride);
    CHECK(contains(msg, "30 bytes, not a multiple of 4"));
    msg = XFB_REQUIRE_ERROR(capture("layout(xfb_stride = 24) out; layout(xfb_offset = 16) out vec3 out_a;"),
                            ErrorCode::LayoutStride);
    CHECK(contains(msg, "less than its extent of 28 bytes ('out_a' at offset 16"));
    msg = XFB_REQUIRE_ERROR(capture("layout(xfb_stride = 32) out;\nlayout(xfb_stride = 48) out;\n"
                                    "layout(xfb_offset = 0) out vec4 out_a;"),
                            ErrorCode::LayoutStride);
    CHECK(contains(msg, "line 2"));
    CHECK(contains(msg, "line 1 gave it 32"));
    XFB_REQUIRE_ERROR(capture("out vec4 out_a;", declared({field("out_a")}, {12})), ErrorCode::LayoutStride);
    msg = XFB_REQUIRE_ERROR(capture("out vec4 out_a;", declared({field("out_a")}, {264})),
                            ErrorCode::InterleavedComponents);
    CHECK(contains(msg, "66 components, gaps included"));
    // Buffers: past the binding points, holes, a trailing gl_NextBuffer, a stride of no buffer.
    msg = XFB_REQUIRE_ERROR(capture("layout(xfb_buffer = 4, xfb_offset = 0) out vec4 out_a;"), ErrorCode::LayoutBuffer);
    CHECK(contains(msg, "buffer 4"));
    CHECK(contains(msg, "0..3"));
    XFB_REQUIRE_ERROR(capture("out vec4 out_a; out vec4 out_b;", declared({field("out_a"), field("out_b", 0, 0, 2)})),
                      ErrorCode::LayoutBuffer);
    XFB_REQUIRE_ERROR(capture("out vec4 out_a;", list({"out_a", "gl_NextBuffer"})), ErrorCode::LayoutBuffer);
    XFB_REQUIRE_ERROR(capture("out vec4 out_a;", declared({field("out_a")}, {16, 16})), ErrorCode::LayoutBuffer);
    msg = XFB_REQUIRE_ERROR(capture("out vec4 out_a;", declared({field("out_a")}, std::vector<int>(5, 16))),
                            ErrorCode::LayoutBuffer);
    CHECK(contains(msg, "gives 5 strides"));
    // Counts near 2^31 do not wrap into range.
    XFB_REQUIRE_ERROR(capture("out vec4 out_a;", declared({field("out_a", 1, 0x7fffffff)})),
                      ErrorCode::LayoutComponents);
    msg = XFB_REQUIRE_ERROR(capture("out vec4 out_a;", declared({DeclaredEntry::gap(0x7fffffff), field("out_a")})),
                            ErrorCode::InterleavedComponents);
    CHECK(contains(msg, "declaration entry 0 reaches byte 8589934588 of buffer 0"));
    XFB_REQUIRE_ERROR(capture("layout(xfb_offset = 4194300) out vec4 out_a;"), ErrorCode::InterleavedComponents);
    // Hostile sizes stop before the pairwise checks.
    msg =
        XFB_REQUIRE_ERROR(capture("out vec4 out_a;", declared(std::vector<DeclaredEntry>(5000, DeclaredEntry::gap(1)))),
                          ErrorCode::TooManyDeclarations);
    CHECK(contains(msg, "5000 entries"));
    // Components: outside the varying, a gap of nothing, a skip GL does not have.
    msg = XFB_REQUIRE_ERROR(capture("out vec4 out_a;", declared({field("out_a", 3, 2)})), ErrorCode::LayoutComponents);
    CHECK(contains(msg, "components 3..4 of 'out_a' (vec4)"));
    XFB_REQUIRE_ERROR(capture("out vec4 out_a;", declared({field("out_a"), DeclaredEntry::gap(0)})),
                      ErrorCode::LayoutComponents);
    XFB_REQUIRE_ERROR(capture("out vec4 out_a;", list({"out_a", "gl_SkipComponents5"})), ErrorCode::LayoutComponents);
    // Two ways at once, separate mode, strides alone, qualifiers the reader cannot place.
    msg = XFB_REQUIRE_ERROR(capture("layout(xfb_offset = 0) out vec4 out_a;", list({"out_a"})),
                            ErrorCode::LayoutConflict);
    CHECK(contains(msg, "xfb_offset qualifiers and by the varyings list"));
    XFB_REQUIRE_ERROR(capture("out vec4 out_a;",
                              [] {
                                  auto o = declared({field("out_a")});
                                  o.varyings = {"out_a"};
                                  return o;
                              }()),
                      ErrorCode::LayoutConflict);
    XFB_REQUIRE_ERROR(capture("out vec4 out_a;",
                              [] {
                                  auto o = list({"out_a", "gl_SkipComponents1"});
                                  o.mode = CaptureMode::Separate;
                                  return o;
                              }()),
                      ErrorCode::LayoutConflict);
    XFB_REQUIRE_ERROR(capture("out vec4 out_a;", declared({}, {16})), ErrorCode::LayoutConflict);
    XFB_REQUIRE_ERROR(capture("layout(xfb_stride = 16) out; out vec4 out_a;"), ErrorCode::LayoutConflict);
    msg = XFB_REQUIRE_ERROR(capture("out Block { layout(xfb_offset = 0) vec4 p; } b;"), ErrorCode::LayoutConflict);
    CHECK(contains(msg, "line 1"));
    XFB_REQUIRE_ERROR(capture("layout(xfb_offset = 0) in vec4 in_a; out vec4 out_a;"), ErrorCode::LayoutConflict);
    XFB_REQUIRE_ERROR(capture("out vec4 out_a;", declared({{"out_a", "POSITION", 0, 0, 0, 0}})),
                      ErrorCode::LayoutConflict);
    // The same components twice; unknown names and semantics.
    msg = XFB_REQUIRE_ERROR(capture("out vec4 out_a;", declared({field("out_a", 0, 2), field("out_a", 1, 1, 1)})),
                            ErrorCode::DuplicateVarying);
    CHECK(contains(msg, "declaration entry 1"));
    CHECK(contains(msg, "declaration entry 0"));
    XFB_REQUIRE_ERROR(capture("out vec4 out_r[2];", declared({field("out_r"), field("out_r[1]", 0, 0, 1)})),
                      ErrorCode::DuplicateVarying);
    XFB_REQUIRE_ERROR(capture("out vec4 out_a;", declared({semantic("POSITION")})), ErrorCode::UnknownVarying);
    msg = XFB_REQUIRE_ERROR(capture("out vec4 out_a;", declared({semantic("POSITION", 1)})), ErrorCode::UnknownVarying);
    CHECK(contains(msg, "semantic 'POSITION' index 1"));
    XFB_REQUIRE_ERROR(capture("out vec4 out_a;", list({"out_b", "gl_NextBuffer", "out_a"})), ErrorCode::UnknownVarying);
}

TEST_CASE("xfb qualifiers as the reader records them") {
    auto s = readShaderInterface("layout(xfb_buffer = 2) out;\n"
                                 "layout(xfb_offset = 4) out float a;\n"
                                 "layout(xfb_buffer = 1, xfb_offset = 8, xfb_stride = 16) out float b;\n"
                                 "out float c;\n");
    REQUIRE(s.outputs.size() == 3);
    CHECK(s.outputs[0].xfbBuffer == 2);
    CHECK(s.outputs[0].xfbOffset == 4);
    CHECK(s.outputs[1].xfbBuffer == 1);
    CHECK(s.outputs[1].xfbOffset == 8);
    CHECK(!s.outputs[2].xfbOffset);
    REQUIRE(s.xfbStrides.size() == 1);
    CHECK(s.xfbStrides[0].buffer == 1);
    CHECK(s.xfbStrides[0].stride == 16);
    CHECK(s.declaresXfbLayout());
    CHECK(!readShaderInterface("layout(location = 0) out vec4 a;").declaresXfbLayout());
}

TEST_CASE("the compiled source loses its xfb qualifiers, and keeps its lines and other qualifiers") {
    const std::string src = "#version 300 es\n"
                            "layout(xfb_buffer = 0, xfb_stride = 40) out;\n"
                            "layout(location = 1, xfb_offset = 4) out vec4 a; // a comment\n"
                            "layout(xfb_offset = 20) flat out int b;\n"
                            "void main() {}\n";
    const std::string out = withoutXfbQualifiers(src);
    CHECK(out.find("xfb_") == std::string::npos);
    CHECK(contains(out, "layout(location = 1) out vec4 a;"));
    CHECK(contains(out, "flat out int b;"));
    CHECK(!contains(out, "out;"));
    CHECK(std::count(out.begin(), out.end(), '\n') == std::count(src.begin(), src.end(), '\n'));
    CHECK(withoutXfbQualifiers("out vec4 a;") == "out vec4 a;"); // unchanged without xfb_
}

TEST_CASE("what the driver is asked: layout words on desktop GL, one tight buffer or small fields on ES") {
    const std::string shader = "out vec4 out_position; out vec3 out_normal; flat out int out_id;";
    auto names = [](const plan::DriverList& l) {
        std::vector<std::string> n;
        for (const auto& d : l.varyings) n.push_back(d.name);
        return n;
    };
    const CapturePlan padded = capture(shader, list({"out_position", "gl_SkipComponents1", "out_normal",
                                                     "gl_SkipComponents2", "gl_NextBuffer", "out_id"}));
    const plan::DriverList desktop = plan::driverList(padded, true);
    CHECK(desktop.interleaved);
    CHECK(names(desktop) == std::vector<std::string>{"out_position", "gl_SkipComponents1", "out_normal",
                                                     "gl_SkipComponents2", "gl_NextBuffer", "out_id"});
    // Without layout words: every field tight in one staging record, then packed per buffer.
    const plan::DriverList staged = plan::driverList(padded, false);
    CHECK(staged.staged);
    CHECK(staged.interleaved);
    CHECK(names(staged) == std::vector<std::string>{"out_position", "out_normal", "out_id"});
    const plan::StagedLayout layout = plan::stagedLayout(padded);
    CHECK(layout.stagingStride == 32);
    REQUIRE(layout.buffers.size() == 2);
    REQUIRE(layout.buffers[0].size() == 4); // field, gap, field, padding
    CHECK(!layout.buffers[0][0].gap);
    CHECK(layout.buffers[0][1].gap);
    CHECK(layout.buffers[0][1].from == 16);
    CHECK(layout.buffers[0][2].from == 16); // out_normal right after out_position in the staging record
    CHECK(layout.buffers[0][2].to == 20);
    CHECK(layout.buffers[0][3].words == 2);
    CHECK(layout.buffers[1][0].from == 28);
    const std::string msg = XFB_REQUIRE_ERROR(plan::driverList(padded, false, 7), ErrorCode::Unsupported);
    CHECK(contains(msg, "take 8 components"));
    // A partial capture is a generated output; one field per buffer is separate mode.
    const CapturePlan small = capture(shader, declared({field("out_position", 0, 3), field("out_id", 0, 0, 1)}));
    const plan::DriverList es = plan::driverList(small, false);
    CHECK(!es.interleaved);
    CHECK(names(es) == std::vector<std::string>{"xfb_part_0_0_0", "out_id"});
    const std::string wrapped =
        plan::wrapVertexMain("#version 300 es\nvoid main() {}\n", readShaderInterface(shader), small);
    CHECK(contains(wrapped, "out highp vec3 xfb_part_0_0_0;"));
    CHECK(contains(wrapped, "xfb_part_0_0_0 = vec3(out_position[0], out_position[1], out_position[2]);"));
    // Two fields in one tight buffer: interleaved, also on ES.
    const CapturePlan tight = capture(shader, declared({field("out_normal"), field("out_id")}));
    CHECK(plan::driverList(tight, false).interleaved);
}

TEST_CASE("a state pair must have the declared layout, and the error names both") {
    const char* src = "#version 300 es\nin vec4 a_pos; in vec3 a_nrm;\n"
                      "layout(xfb_stride = 40) out;\n"
                      "layout(xfb_offset = 0) out vec4 out_pos; layout(xfb_offset = 20) out vec3 out_nrm;\n";
    const ShaderInterface shader = readShaderInterface(src);
    const auto attrs = planAttributes(shader, Limits::portable());
    const CapturePlan cap = planCapture(shader, {}, Limits::portable());
    auto entries = [](VertexFormat f) {
        const BufferDesc d{f, std::uint64_t(f.stride) * 8};
        return std::vector<EntryDesc>{{d, d}};
    };
    // The declared layout itself, as a vertex format: planned.
    CHECK(planPass(attrs, cap, entries(cap.buffers[0].asVertexFormat())).count == 8);
    // The tight layout GL would derive without the qualifiers: refused, both layouts named.
    const VertexFormat tight =
        VertexFormat::interleaved({{attr(0), ComponentType::Float32, 4}, {attr(1), ComponentType::Float32, 3}});
    std::string msg = XFB_REQUIRE_ERROR(planPass(attrs, cap, entries(tight)), ErrorCode::OutputLayoutMismatch);
    CHECK(contains(msg, "stride 28"));
    CHECK(contains(msg, "out_nrm float32x3 @20} stride 40"));
    // Right stride, but the normal read from the gap.
    const VertexFormat gap =
        VertexFormat::interleaved({{attr(0), ComponentType::Float32, 4}, {attr(1), ComponentType::Float32, 3, 16}}, 40);
    msg = XFB_REQUIRE_ERROR(planPass(attrs, cap, entries(gap)), ErrorCode::OutputLayoutMismatch);
    CHECK(contains(msg, "reads byte 16, which no varying writes (a gap of the layout)"));
}

TEST_CASE("a declared layout's partial fields take varying rows of their own") {
    // 17 vec4s captured in parts of 4: 17 more rows beside the array's own 17.
    CaptureOptions o = declared({field("out_m", 0, 36), field("out_m", 36, 32, 1)});
    Limits limits = Limits::portable();
    limits.maxVaryingVectors = 32;
    const std::string msg = XFB_REQUIRE_ERROR(capture("out vec4 out_m[17];", o, limits), ErrorCode::VaryingVectors);
    CHECK(contains(msg, "xfb_part_0_0_0"));
    CHECK(contains(msg, "need 34 rows"));
    limits.maxVaryingVectors = 34;
    CHECK(capture("out vec4 out_m[17];", o, limits).declared);
}
