// The guide's declared-layout examples (docs/guide/declared-layouts.md), run by ctest
// docs.example.declared_layout on headless contexts (GL 4.3 core and ES 3.0): the three ways of
// declaring the padded layout give one plan, and a step writes it with the gap words untouched.
#define GL_GLEXT_PROTOTYPES
#include <GL/glcorearb.h>
#include <xfb/headless_context.hpp>
#include <xfb/xfb.hpp>

#include <cstdio>
#include <cstring>
#include <span>
#include <vector>

namespace {

int failures = 0, checks = 0;

void check(bool ok, const char* what) {
    ++checks;
    if (!ok) {
        std::printf("docs.example.declared_layout: FAIL: %s\n", what);
        ++failures;
    }
}

// The seed's record (vec4 + vec3 + vec2) with the normal moved to offset 20: 40 bytes, one of them a gap.
// [docs:declared-qualifiers]
const char* qualified = R"(#version 300 es
layout(xfb_buffer = 0, xfb_stride = 40) out;   // the record is 40 bytes
in vec4 position;
layout(xfb_offset = 0)  out vec4 out_position; // bytes 0..15
layout(xfb_offset = 20) out vec3 out_normal;   // bytes 20..31: 16..19 are a gap, never written
layout(xfb_offset = 32) out vec2 out_texCoord0;
void main() { out_position = position; out_normal = position.xyz * 2.0; out_texCoord0 = position.xy; })";
// [docs:end]

// The same outputs without qualifiers, for the two other ways.
const char* plain = R"(#version 300 es
in vec4 position;
out vec4 out_position;
out vec3 out_normal;
out vec2 out_texCoord0;
void main() { out_position = position; out_normal = position.xyz * 2.0; out_texCoord0 = position.xy; })";

bool samePlan(const xfb::CapturePlan& a, const xfb::CapturePlan& b) {
    if (a.buffers.size() != b.buffers.size()) return false;
    for (std::size_t i = 0; i < a.buffers.size(); ++i) {
        const auto &x = a.buffers[i], &y = b.buffers[i];
        if (x.stride != y.stride || x.fields.size() != y.fields.size()) return false;
        for (std::size_t f = 0; f < x.fields.size(); ++f)
            if (x.fields[f].varying != y.fields[f].varying || x.fields[f].offset != y.fields[f].offset ||
                x.fields[f].components != y.fields[f].components)
                return false;
    }
    return true;
}

void run(xfb::Api api) {
    xfb::HeadlessContext context(api);
    xfb::Device device;
    // [docs:declared-d3d]
    xfb::CaptureOptions d3d; // D3D11_SO_DECLARATION_ENTRY rows: semantic, index, start, count, slot
    d3d.declaration = {{{}, "POSITION", 0, 0, 4, 0},
                       xfb::DeclaredEntry::gap(1), // a NULL semantic: one word skipped
                       {{}, "NORMAL", 0, 0, 3, 0},
                       {{}, "TEXCOORD", 0, 0, 2, 0}};
    d3d.strides = {40}; // the buffer strides of CreateGeometryShaderWithStreamOutput
    xfb::Program byDeclaration(device, {plain, d3d});
    // [docs:end]
    // [docs:declared-gl-list]
    xfb::CaptureOptions list; // GL 4.0 / ARB_transform_feedback3 words, on every runtime
    list.varyings = {"out_position", "gl_SkipComponents1", "out_normal", "out_texCoord0"};
    xfb::Program byList(device, {plain, list});
    // [docs:end]
    xfb::Program byQualifiers(device, {qualified});
    check(byQualifiers.capture().buffers[0].stride == 40, "the qualifiers give stride 40");
    check(samePlan(byQualifiers.capture(), byDeclaration.capture()), "the declaration gives the qualifiers' plan");
    check(samePlan(byQualifiers.capture(), byList.capture()), "the list gives the qualifiers' plan");

    // [docs:declared-step]
    const xfb::OutputLayout& layout = byQualifiers.capture().buffers[0]; // offsets 0, 20, 32; stride 40
    std::vector<float> positions{1, 2, 3, 4, 5, 6, 7, 8};
    xfb::Buffer input(device, xfb::VertexFormat::interleaved({{xfb::attr(0)}}), 2, std::span<const float>(positions));
    std::vector<float> records(20, -1.0f); // the gap words keep their -1
    xfb::Buffer output(device, layout.asVertexFormat(), 2, std::span<const float>(records));
    xfb::Pipeline step(device, byQualifiers, {{&input, nullptr}, {nullptr, &output}});
    step.step();
    // [docs:end]
    const std::vector<float> got = output.readAs<float>();
    const std::vector<float> want{1, 2, 3, 4, -1, 2, 4, 6, 1, 2, 5, 6, 7, 8, -1, 10, 12, 14, 5, 6};
    check(got == want, "the step writes 0..15, 20..39 of each record and keeps bytes 16..19");
}

} // namespace

int main() {
    for (xfb::Api api : {xfb::Api::OpenGL43Core, xfb::Api::OpenGLES30}) {
        try {
            run(api);
        } catch (const xfb::Error& e) {
            std::printf("docs.example.declared_layout: FAIL: %s\n", e.what());
            ++failures;
        }
    }
    std::printf("docs.example.declared_layout: %s (%d of %d checks)\nxfb-test-run: cases=2 asserts=%d\n",
                failures ? "FAIL" : "PASS", checks - failures, checks, checks);
    return failures ? 1 : 0;
}
