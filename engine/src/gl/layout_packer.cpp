#include "gl/layout_packer.hpp"

#include "gl/feedback_pass.hpp"
#include "gl/gl_check.hpp"
#include "gl/shader.hpp"
#include "xfb/error.hpp"

#include <algorithm>
#include <string>

namespace xfb::detail {

namespace {

// One attribute of a packing pass: at most 4 words of a run, from the staging or the keep buffer.
struct Chunk {
    bool gap;
    int from, words;
};

std::vector<Chunk> chunksOf(const std::vector<plan::StagedLayout::Run>& runs) {
    std::vector<Chunk> chunks;
    for (const auto& r : runs)
        for (int w = 0; w < r.words; w += 4) chunks.push_back({r.gap, r.from + 4 * w, std::min(4, r.words - w)});
    return chunks;
}

// Copies attribute i to output i, word for word, in record order.
std::string packingShader(const std::vector<Chunk>& chunks) {
    std::string declarations, body;
    for (std::size_t i = 0; i < chunks.size(); ++i) {
        const std::string n = std::to_string(i), type = plan::vectorType(ScalarKind::UInt, chunks[i].words);
        declarations +=
            "layout(location = " + n + ") in " + type + " xfb_in" + n + ";\nflat out " + type + " xfb_w" + n + ";\n";
        body += "    xfb_w" + n + " = xfb_in" + n + ";\n";
    }
    return "#version 300 es\n" + declarations + "void main() {\n" + body + "    gl_Position = vec4(0.0);\n}\n";
}

} // namespace

LayoutPacker::LayoutPacker(const CapturePlan& capture, std::int64_t elements,
                           const std::shared_ptr<DeviceState>& devicePtr)
    : count(elements) {
    enroll(devicePtr);
    const plan::StagedLayout layout = plan::stagedLayout(capture);
    stagingStride = layout.stagingStride;
    const GLsizeiptr stagingBytes = GLsizeiptr(std::max<std::int64_t>(1, count * layout.stagingStride));
    staging = gl::BufferName::create();
    glBindBuffer(GL_ARRAY_BUFFER, staging);
    glBufferData(GL_ARRAY_BUFFER, stagingBytes, nullptr, GL_DYNAMIC_COPY);
    stagingFeedback = gl::TransformFeedbackName::create();
    glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, stagingFeedback);
    glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, staging);
    glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, 0);
    glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, 0); // glBindBufferBase also set the generic binding
    outputFeedback = gl::TransformFeedbackName::create();
    const int maxAttribs = devicePtr->caps.limits.maxVertexAttribs;
    for (std::size_t b = 0; b < capture.buffers.size(); ++b) {
        const std::vector<Chunk> chunks = chunksOf(layout.buffers[b]);
        const int stride = capture.buffers[b].stride;
        if (int(chunks.size()) > maxAttribs)
            throw Error(ErrorCode::Unsupported,
                        "buffer " + std::to_string(b) + " of the declared layout alternates fields and gaps in " +
                            std::to_string(chunks.size()) +
                            " runs of words; OpenGL ES 3.0 and WebGL2 pack it in a pass reading each run as an "
                            "attribute, and MAX_VERTEX_ATTRIBS is " +
                            std::to_string(maxAttribs) +
                            ". Merge gaps, or run it on desktop GL or the compute backend");
        Pass pass;
        pass.stride = stride;
        std::vector<std::string> outputs;
        for (std::size_t i = 0; i < chunks.size(); ++i) outputs.push_back("xfb_w" + std::to_string(i));
        pass.program = gl::linkProgram(
            {{GL_VERTEX_SHADER, packingShader(chunks), "the generated packing shader of a declared layout"},
             {GL_FRAGMENT_SHADER,
              "#version 300 es\nprecision mediump float;\nout vec4 c;\nvoid main() { c = vec4(0.0); }\n",
              "the packing fragment shader"}},
            [&](GLuint p) { gl::feedbackVaryings(p, outputs, true); });
        if (auto log = gl::linkFailure(pass.program))
            throw Error(ErrorCode::ProgramLink,
                        "the generated packing program of a declared layout does not link: " + *log);
        const bool gaps = std::any_of(chunks.begin(), chunks.end(), [](const Chunk& c) { return c.gap; });
        if (gaps) {
            pass.keep = gl::BufferName::create();
            glBindBuffer(GL_ARRAY_BUFFER, pass.keep);
            glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(std::max<std::int64_t>(1, count * stride)), nullptr,
                         GL_DYNAMIC_COPY);
        }
        pass.vertexArray = gl::VertexArrayName::create();
        glBindVertexArray(pass.vertexArray);
        for (std::size_t i = 0; i < chunks.size(); ++i) {
            const Chunk& c = chunks[i];
            glBindBuffer(GL_ARRAY_BUFFER, c.gap ? pass.keep.get() : staging.get());
            glEnableVertexAttribArray(GLuint(i));
            glVertexAttribIPointer(GLuint(i), c.words, GL_UNSIGNED_INT, c.gap ? stride : layout.stagingStride,
                                   reinterpret_cast<const void*>(std::uintptr_t(c.from)));
        }
        glBindVertexArray(0);
        passes.push_back(std::move(pass));
    }
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    gl::check("building the packing passes of a declared layout");
}

void LayoutPacker::pack(const std::vector<GLuint>& outputs, std::int64_t first, std::int64_t records) {
    for (std::size_t b = 0; b < passes.size(); ++b) {
        const Pass& pass = passes[b];
        const GLintptr at = GLintptr(first * pass.stride);
        const GLsizeiptr bytes = GLsizeiptr(records * pass.stride);
        if (pass.keep) {
            XFB_GL_COUNTED(glBindBuffer(GL_COPY_READ_BUFFER, outputs[b]));
            XFB_GL_COUNTED(glBindBuffer(GL_COPY_WRITE_BUFFER, pass.keep));
            XFB_GL_COUNTED(glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, at, at, bytes));
            // Unbound: WebGL2 refuses a transform-feedback buffer that is bound anywhere else.
            XFB_GL_COUNTED(glBindBuffer(GL_COPY_READ_BUFFER, 0));
            XFB_GL_COUNTED(glBindBuffer(GL_COPY_WRITE_BUFFER, 0));
        }
        XFB_GL_COUNTED(glUseProgram(pass.program));
        XFB_GL_COUNTED(glBindVertexArray(pass.vertexArray));
        XFB_GL_COUNTED(glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, outputFeedback));
        // Records first.. of the output: the draw's vertex first reads staging record first.
        XFB_GL_COUNTED(glBindBufferRange(GL_TRANSFORM_FEEDBACK_BUFFER, 0, outputs[b], at, bytes));
        gl::feedbackPass(GL_POINTS, 0,
                         [&] { XFB_GL_COUNTED(glDrawArrays(GL_POINTS, GLint(first), GLsizei(records))); });
        // The output leaves the object: bound there, WebGL2 would refuse it on any other target.
        XFB_GL_COUNTED(glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, 0));
        XFB_GL_COUNTED(glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, 0));
        XFB_GL_COUNTED(glBindVertexArray(0));
    }
}

void LayoutPacker::forget() {
    staging.forget();
    stagingFeedback.forget();
    outputFeedback.forget();
    for (auto& p : passes) {
        p.program.forget();
        p.vertexArray.forget();
        p.keep.forget();
    }
}

} // namespace xfb::detail
