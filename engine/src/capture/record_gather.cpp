#include "capture/record_gather.hpp"

#include "gl/feedback_pass.hpp"
#include "gl/gl_check.hpp"
#include "gl/shader.hpp"
#include "gl/state_guard.hpp"
#include "plan/vertex_wrapper.hpp"
#include "xfb/error.hpp"

#include <algorithm>

namespace xfb::detail {

namespace {

// One flat output per 4 words of a record (uvec4, then a shorter tail), fetched from the
// buffer's word texture at source vertex `xfb_src`.
struct GatherSource {
    std::string vertex;
    std::vector<std::string> varyings; // in capture order
};

// The shader switches on DrawMode values.
static_assert(int(DrawMode::LineStrip) == 2 && int(DrawMode::LineLoop) == 3 && int(DrawMode::TriangleStrip) == 5 &&
              int(DrawMode::TriangleFan) == 6);

GatherSource gatherSource(const std::vector<int>& wordsPerRecord) {
    GatherSource g;
    std::string decl, body;
    for (std::size_t b = 0; b < wordsPerRecord.size(); ++b) {
        std::string n = std::to_string(b);
        decl += "uniform highp usampler2D xfb_words" + n + ";\n";
        body += "    uint base" + n + " = xfb_src * " + std::to_string(wordsPerRecord[b]) + "u;\n";
        for (int w = 0; w < wordsPerRecord[b]; w += 4) {
            int size = std::min(4, wordsPerRecord[b] - w);
            std::string name = "xfb_record" + n + "_" + std::to_string(w / 4);
            decl += "flat out " + plan::vectorType(ScalarKind::UInt, size) + " " + name + ";\n";
            std::string args;
            for (int c = 0; c < size; ++c)
                args += (c ? ", " : "") + std::string("xfb_word(xfb_words") + n + ", base" + n + " + " +
                        std::to_string(w + c) + "u)";
            body += "    " + name + " = " +
                    (size == 1 ? args : plan::vectorType(ScalarKind::UInt, size) + "(" + args + ")") + ";\n";
            g.varyings.push_back(name);
        }
    }
    // Non-indexed draws compute each record's source vertex from gl_VertexID (the same rules as
    // expandPrimitives, by DrawMode value); indexed ones read the CPU's list from xfb_source.
    g.vertex = "#version 300 es\nprecision highp float;\nprecision highp int;\nlayout(location = 0) in uint "
               "xfb_source;\n"
               "uniform int xfb_mode;\nuniform uint xfb_vertices;\n" +
               decl +
               "uint xfb_word(highp usampler2D words, uint i) {\n"
               "    uint width = uint(textureSize(words, 0).x);\n"
               "    return texelFetch(words, ivec2(int(i % width), int(i / width)), 0).r;\n}\n"
               "uint xfb_source_of(uint r) {\n"
               "    uint line = r / 2u, triangle = r / 3u, corner = r % 3u, odd = triangle & 1u;\n"
               "    switch (xfb_mode) {\n"
               "    case 2: return line + r % 2u;\n"                  // line strip
               "    case 3: return (line + r % 2u) % xfb_vertices;\n" // line loop
               "    case 5: return corner == 0u ? triangle + odd : corner == 1u ? triangle + 1u - odd : triangle + "
               "2u;\n"                                                       // strip
               "    case 6: return corner == 0u ? 0u : triangle + corner;\n" // fan
               "    default: return r;\n"                                    // points, lines, triangles
               "    }\n}\n"
               "void main() {\n    uint xfb_src = xfb_mode < 0 ? xfb_source : xfb_source_of(uint(gl_VertexID));\n" +
               body + "    gl_Position = vec4(0.0);\n}\n";
    return g;
}

} // namespace

RecordGather::RecordGather(const CapturePlan& capture, std::int64_t vertexCount,
                           const std::shared_ptr<DeviceState>& devicePtr) {
    DeviceState& device = *devicePtr;
    enroll(devicePtr);
    const Capabilities& caps = device.caps;
    GLint maxTexture = 0, units = 0;
    glGetIntegerv(GL_MAX_TEXTURE_SIZE, &maxTexture);
    glGetIntegerv(GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS, &units);
    // One buffer: its records interleaved; several: one varying of at most 4 words each (separate).
    const bool interleaved = capture.buffers.size() == 1;
    for (std::size_t i = 0; i < capture.buffers.size(); ++i) {
        const auto& b = capture.buffers[i];
        int words = b.stride / 4;
        // The gather writes whole records: a declared gap would get the scratch capture's bytes.
        if (capture.declared && !capture.tight(i))
            throw Error(ErrorCode::Unsupported,
                        "buffer " + std::to_string(i) + " of the declared layout leaves bytes unwritten (stride " +
                            std::to_string(b.stride) +
                            "), which the engine's primitive expansion cannot keep: it writes whole records. Use "
                            "Expansion::Driver (desktop GL), or declare the fields without gaps");
        if (!interleaved && words > 4)
            throw Error(ErrorCode::Unsupported, "varying '" + b.fields[0].varying + "' has " + std::to_string(words) +
                                                    " components; expanding primitives on " + caps.version +
                                                    " captures one varying of at most 4 components per separate "
                                                    "buffer. Keep the portable 4-component rule");
        wordsPerRecord.push_back(words);
    }
    // The widest row a texture may have; enough rows for every word of every vertex.
    std::int64_t maxWords = vertexCount * *std::max_element(wordsPerRecord.begin(), wordsPerRecord.end());
    textureWidth = int(std::clamp<std::int64_t>(maxWords, 1, maxTexture));
    if ((maxWords + textureWidth - 1) / textureWidth > maxTexture)
        throw Error(
            ErrorCode::Capacity,
            std::to_string(vertexCount) + " vertices of " +
                std::to_string(maxWords / std::max<std::int64_t>(vertexCount, 1)) + " words do not fit in a " +
                std::to_string(maxTexture) + "x" + std::to_string(maxTexture) +
                " texture, which primitive expansion on this context goes through; capture fewer vertices at once");
    firstUnit = GLuint(units) - GLuint(wordsPerRecord.size());

    GatherSource src = gatherSource(wordsPerRecord);
    // A member from here: deleted with the half-built gather if the link or anything later throws.
    program =
        gl::linkProgram({{GL_VERTEX_SHADER, src.vertex, "the generated record-gather shader"},
                         {GL_FRAGMENT_SHADER,
                          "#version 300 es\nprecision mediump float;\nout vec4 c;\nvoid main() { c = vec4(0.0); }\n",
                          "the record-gather fragment shader"}},
                        [&](GLuint p) { gl::feedbackVaryings(p, src.varyings, interleaved); });
    if (auto log = gl::linkFailure(program))
        throw Error(ErrorCode::ProgramLink, "the generated record-gather program does not link: " + *log);
    glUseProgram(program);
    for (std::size_t b = 0; b < wordsPerRecord.size(); ++b)
        glUniform1i(glGetUniformLocation(program, ("xfb_words" + std::to_string(b)).c_str()), GLint(firstUnit + b));
    values["xfb_mode"] = {-1, GL_INT, ScalarKind::Int, 1, 1, {}, 0};
    values["xfb_vertices"] = {-1, GL_UNSIGNED_INT, ScalarKind::UInt, 1, 1, {}, 0};
    mirror.track("xfb_mode", glGetUniformLocation(program, "xfb_mode"));
    mirror.track("xfb_vertices", glGetUniformLocation(program, "xfb_vertices"));
    versions = 0;
    setSource(-1, 0); // uploads both: the values later calls compare with
    glUseProgram(0);

    for (std::size_t b = 0; b < wordsPerRecord.size(); ++b) {
        scratch.push_back(gl::BufferName::create());
        textures.push_back(gl::TextureName::create());
    }
    scratchFeedback = gl::TransformFeedbackName::create();
    outputFeedback = gl::TransformFeedbackName::create();
    // The textures are created on the first unit the gather uses, not on the application's active one.
    gl::StateGuard textureGuard(device, gl::CachedTextures, firstUnit, 1);
    glActiveTexture(GL_TEXTURE0 + firstUnit);
    for (std::size_t b = 0; b < scratch.size(); ++b) {
        std::int64_t words = vertexCount * wordsPerRecord[b];
        glBindBuffer(GL_ARRAY_BUFFER, scratch[b]);
        glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(std::max<std::int64_t>(words, 1) * 4), nullptr, GL_DYNAMIC_COPY);
        glBindTexture(GL_TEXTURE_2D, textures[b]);
        glTexStorage2D(GL_TEXTURE_2D, 1, GL_R32UI, textureWidth,
                       GLsizei(std::max<std::int64_t>(1, (words + textureWidth - 1) / textureWidth)));
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST); // integer textures are incomplete otherwise
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, scratchFeedback);
        glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, GLuint(b), scratch[b]);
        glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, 0);
    }
    glBindTexture(GL_TEXTURE_2D, 0);
    glActiveTexture(GL_TEXTURE0); // as gather() leaves it when the context is owned
    glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, 0);

    sources = gl::BufferName::create();
    glBindBuffer(GL_ARRAY_BUFFER, sources);
    const std::uint32_t zero = 0;
    glBufferData(GL_ARRAY_BUFFER, 4, &zero, GL_DYNAMIC_DRAW);
    sourceCapacity = 4;
    vertexArray = gl::VertexArrayName::create();
    computedVertexArray = gl::VertexArrayName::create();
    for (GLuint vao : {vertexArray.get(), computedVertexArray.get()}) {
        glBindVertexArray(vao);
        glEnableVertexAttribArray(0);
        glVertexAttribIPointer(0, 1, GL_UNSIGNED_INT, 4, nullptr);
    }
    // Computed sources ignore xfb_source; it still needs a uint array in range for WebGL, so it
    // reads the first word once per instance.
    glVertexAttribDivisor(0, 1);
    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    gl::check("building the record gather of a primitive capture");
}

void RecordGather::setSource(int mode, GLuint vertexCount) {
    setUniformValue(values.find("xfb_mode")->second, versions, std::as_bytes(std::span<const int>(&mode, 1)));
    setUniformValue(values.find("xfb_vertices")->second, versions,
                    std::as_bytes(std::span<const GLuint>(&vertexCount, 1)));
    vertices = vertexCount;
    mirror.flush(values, versions);
}

void RecordGather::forget() {
    for (auto* n : {&vertexArray, &computedVertexArray}) n->forget();
    for (auto* n : {&scratchFeedback, &outputFeedback}) n->forget();
    program.forget();
    sources.forget();
    for (auto& b : scratch) b.forget();
    for (auto& t : textures) t.forget();
}

void RecordGather::gather(std::int64_t vertices, const DrawDesc& draw, std::int64_t records) {
    for (std::size_t b = 0; b < textures.size(); ++b) {
        glActiveTexture(GL_TEXTURE0 + firstUnit + GLuint(b));
        glBindTexture(GL_TEXTURE_2D, textures[b]);
        std::int64_t words = vertices * wordsPerRecord[b], rows = words / textureWidth, rest = words % textureWidth;
        glBindBuffer(GL_PIXEL_UNPACK_BUFFER, scratch[b]);
        if (rows)
            glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, textureWidth, GLsizei(rows), GL_RED_INTEGER, GL_UNSIGNED_INT,
                            nullptr);
        if (rest)
            glTexSubImage2D(GL_TEXTURE_2D, 0, 0, GLint(rows), GLsizei(rest), 1, GL_RED_INTEGER, GL_UNSIGNED_INT,
                            reinterpret_cast<const void*>(std::uintptr_t(rows * textureWidth * 4)));
    }
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);

    glUseProgram(program);
    if (draw.indices.empty()) {
        setSource(int(draw.mode), GLuint(vertices));
        glBindVertexArray(computedVertexArray);
    } else {
        // Restart indices and arbitrary order: the planner's list, one source per record.
        std::vector<std::uint32_t> list = expandPrimitives(draw);
        auto bytes = std::uint64_t(list.size()) * 4;
        glBindBuffer(GL_ARRAY_BUFFER, sources);
        if (bytes > sourceCapacity) {
            glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(bytes), list.data(), GL_DYNAMIC_DRAW);
            sourceCapacity = bytes;
        } else if (bytes) {
            glBufferSubData(GL_ARRAY_BUFFER, 0, GLsizeiptr(bytes), list.data());
        }
        glBindBuffer(GL_ARRAY_BUFFER, 0);
        setSource(-1, this->vertices);
        glBindVertexArray(vertexArray);
    }
    glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, outputFeedback);
    gl::feedbackPass(GL_POINTS, 0, [&] { glDrawArrays(GL_POINTS, 0, GLsizei(records)); });
    glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, 0);
    for (std::size_t b = 0; b < textures.size(); ++b) {
        glActiveTexture(GL_TEXTURE0 + firstUnit + GLuint(b));
        glBindTexture(GL_TEXTURE_2D, 0);
    }
    glActiveTexture(GL_TEXTURE0);
}

} // namespace xfb::detail
