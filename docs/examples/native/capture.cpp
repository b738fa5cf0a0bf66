// The guide's capture examples (docs/guide/capture.md), run by ctest docs.example.capture on a
// headless GL 4.3 core context: a triangle strip captured as triangles (plain and indexed with
// primitive restart), then an append session of two parts, every record compared with the
// vertices it came from.
#define GL_GLEXT_PROTOTYPES
#include <GL/glcorearb.h>
#include <xfb/xfb.hpp>
#include <xfb/headless_context.hpp>

#include <cstdio>
#include <span>
#include <vector>

namespace {

int failures = 0, checks = 0;

void check(bool ok, const char* what) {
    ++checks;
    if (!ok) {
        std::printf("docs.example.capture: FAIL: %s\n", what);
        ++failures;
    }
}

// 36-byte records: vec4 + vec3 + vec2 at offsets 0, 16, 28.
const char* meshSource = R"(#version 300 es
in vec4 position;
out vec4 out_position;
out vec3 out_normal;
out vec2 out_uv;
void main() { out_position = position; out_normal = vec3(0.0, 0.0, 1.0); out_uv = position.xy; })";

// Record r of a capture holds the position of vertex `source[r]`.
void checkRecords(const std::vector<float>& records, const std::vector<float>& quad, std::vector<int> source,
                  const char* what) {
    bool ok = records.size() >= source.size() * 9;
    for (std::size_t r = 0; ok && r < source.size(); ++r)
        for (int c = 0; c < 4; ++c) ok = ok && records[r * 9 + c] == quad[source[r] * 4 + c];
    check(ok, what);
}

void run() {
    xfb::HeadlessContext context(xfb::Api::OpenGL43Core);
    xfb::Device device;
    const std::vector<float> quad{0, 0, 0, 1, 1, 0, 0, 1, 0, 1, 0, 1, 1, 1, 0, 1};
    auto vertexFormat = xfb::VertexFormat::interleaved({{xfb::attr(0)}});
    // [docs:capture]
    xfb::Program mesh(device, {meshSource}); // out_position vec4, out_normal vec3, out_uv vec2
    xfb::Buffer vertices(device, vertexFormat, 4, std::span<const float>(quad));
    xfb::Buffer captured(device, mesh.capture().buffers[0].asVertexFormat(), 6); // offsets 0, 16, 28
    xfb::PrimitiveCapture cap(device, mesh, {{&vertices, nullptr}, {nullptr, &captured}});
    xfb::CaptureCount c = cap.capture({xfb::DrawMode::TriangleStrip, 4}); // 2 triangles, 6 records, 216 bytes
    // [docs:end]
    check(c.primitives == 2 && c.records == 6 && c.bytes.size() == 1 && c.bytes[0] == 216,
          "a strip of 4: 2 triangles, 6 records, 216 bytes");
    checkRecords(captured.readAs<float>(), quad, {0, 1, 2, 2, 1, 3},
                 "the strip's odd triangle keeps the winding: (2, 1, 3)");
    // [docs:capture-indexed]
    std::vector<std::uint32_t> indices{0, 1, 2, 0xFFFF, 1, 2, 3};
    cap.capture({xfb::DrawMode::TriangleStrip, 0, indices, 0xFFFFu}); // indexed, primitive restart
    // [docs:end]
    checkRecords(captured.readAs<float>(), quad, {0, 1, 2, 1, 2, 3}, "indexed strip with a restart: two triangles");
    GLuint vao = 0; // a core profile draws only with a vertex array bound (here, an empty one)
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    // [docs:capture-draw]
    // bind your render program and a vertex array reading `captured`, then:
    cap.drawCaptured(); // glDrawTransformFeedback natively; the planned count on ES / WebGL2
    // [docs:end]

    xfb::Buffer appended(device, mesh.capture().buffers[0].asVertexFormat(), 10);
    xfb::PrimitiveCapture session(device, mesh, {{&vertices, nullptr}, {nullptr, &appended}});
    std::vector<std::uint32_t> bodyIndices{0, 1, 2, 3}, hairIndices{0, 3, 1, 2};
    // [docs:capture-session]
    std::vector<xfb::CapturePart> parts{{{xfb::DrawMode::TriangleStrip, 0, bodyIndices, 0xFFFFFFFFu}},
                                        {{xfb::DrawMode::Lines, 0, hairIndices}}};
    const xfb::SessionPlan& s = session.captureSession(parts, /*firstRecord*/ 0);
    // s.parts[i]: primitive, firstRecord, records, firstByte[] and bytes[] per output buffer; s.endRecord
    session.drawSession(1); // one part: glDrawArrays(LINES, firstRecord, records)
    // [docs:end]
    check(s.parts.size() == 2 && s.parts[0].records == 6 && s.parts[1].firstRecord == 6 && s.parts[1].records == 4 &&
              s.endRecord == 10,
          "the session plan: 6 triangle records then 4 line records, end 10");
    check(s.parts[1].firstByte.size() == 1 && s.parts[1].firstByte[0] == 216, "the lines start at byte 216");
    checkRecords(appended.readAs<float>(), quad, {0, 1, 2, 2, 1, 3, 0, 3, 1, 2}, "the parts land end to end");
    glBindVertexArray(0);
    glDeleteVertexArrays(1, &vao);
}

} // namespace

int main() {
    try {
        run();
    } catch (const xfb::Error& e) {
        std::printf("docs.example.capture: FAIL: %s\n", e.what());
        return 1;
    }
    std::printf("docs.example.capture: %s\nxfb-test-run: cases=1 asserts=%d\n", failures ? "FAIL" : "PASS", checks);
    return failures ? 1 : 0;
}
