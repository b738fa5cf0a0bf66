#include "handwritten.hpp"

#include "raw_gl.hpp"

namespace xfbbench {
namespace {

void makeBuffers(GLuint (&b)[2], const void* data, GLsizeiptr bytes) {
    glGenBuffers(2, b);
    for (int i = 0; i < 2; ++i) {
        glBindBuffer(GL_ARRAY_BUFFER, b[i]);
        glBufferData(GL_ARRAY_BUFFER, bytes, i == 0 ? data : nullptr, GL_DYNAMIC_COPY);
    }
    glBindBuffer(GL_ARRAY_BUFFER, 0);
}

} // namespace

HandwrittenTransformFeedback::HandwrittenTransformFeedback(const std::string& vs, const std::vector<float>& initial,
                                                           GLsizei count, float dt)
    : count_(count) {
    program_ = glCreateProgram();
    GLuint v = xfbtest::compileShader(GL_VERTEX_SHADER, vs, "hand-written transform feedback");
    GLuint f = xfbtest::compileShader(
        GL_FRAGMENT_SHADER, "#version 300 es\nprecision mediump float;\nout vec4 c;\nvoid main() { c = vec4(0.0); }\n",
        "hand-written transform feedback");
    glAttachShader(program_, v);
    glAttachShader(program_, f);
    glBindAttribLocation(program_, 0, "position");
    glBindAttribLocation(program_, 1, "velocity");
    const char* varyings[] = {"out_position", "out_velocity"};
    glTransformFeedbackVaryings(program_, 2, varyings, GL_INTERLEAVED_ATTRIBS);
    xfbtest::linkProgram(program_, "hand-written transform feedback");
    glDeleteShader(v);
    glDeleteShader(f);
    glUseProgram(program_);
    glUniform1f(glGetUniformLocation(program_, "dt"), dt);
    makeBuffers(buffers_, initial.data(), GLsizeiptr(initial.size() * 4));
    glGenVertexArrays(2, vao_);
    glGenTransformFeedbacks(2, tf_);
    for (int s = 0; s < 2; ++s) {
        glBindVertexArray(vao_[s]);
        glBindBuffer(GL_ARRAY_BUFFER, buffers_[s]);
        glEnableVertexAttribArray(0);
        glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 32, nullptr);
        glEnableVertexAttribArray(1);
        glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 32, reinterpret_cast<void*>(16));
        glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, tf_[s]);
        glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, buffers_[1 - s]);
    }
    glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, 0);
    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
}

HandwrittenTransformFeedback::~HandwrittenTransformFeedback() {
    glDeleteTransformFeedbacks(2, tf_);
    glDeleteVertexArrays(2, vao_);
    glDeleteBuffers(2, buffers_);
    glDeleteProgram(program_);
}

void HandwrittenTransformFeedback::step() {
    glUseProgram(program_);
    glBindVertexArray(vao_[side_]);
    glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, tf_[side_]);
    glEnable(GL_RASTERIZER_DISCARD);
    glBeginTransformFeedback(GL_POINTS);
    glDrawArrays(GL_POINTS, 0, count_);
    glEndTransformFeedback();
    glDisable(GL_RASTERIZER_DISCARD);
    glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, 0);
    side_ ^= 1;
}

HandwrittenCompute::HandwrittenCompute(const std::vector<float>& initial, GLsizei count, float dt, int groupSize,
                                       bool es)
    : groups_(GLuint((count + groupSize - 1) / groupSize)) {
    std::string src = std::string(es ? "#version 310 es\n" : "#version 430\n") +
                      "layout(local_size_x = " + std::to_string(groupSize) +
                      ") in;\n"
                      "layout(std430, binding = 0) readonly buffer A { vec4 a[]; };\n"
                      "layout(std430, binding = 1) writeonly buffer B { vec4 b[]; };\n"
                      "uniform float dt;\nuniform uint n;\n"
                      "void main() {\n"
                      "    uint i = gl_GlobalInvocationID.x;\n"
                      "    if (i >= n) return;\n"
                      "    vec4 v = a[2u * i + 1u] + vec4(0.0, -9.81, 0.0, 0.0) * dt;\n"
                      "    b[2u * i] = a[2u * i] + v * dt;\n"
                      "    b[2u * i + 1u] = v;\n"
                      "}\n";
    program_ = xfbtest::computeProgram(src, "hand-written compute");
    glUseProgram(program_);
    glUniform1f(glGetUniformLocation(program_, "dt"), dt);
    glUniform1ui(glGetUniformLocation(program_, "n"), GLuint(count));
    makeBuffers(buffers_, initial.data(), GLsizeiptr(initial.size() * 4));
}

HandwrittenCompute::~HandwrittenCompute() {
    glDeleteBuffers(2, buffers_);
    glDeleteProgram(program_);
}

void HandwrittenCompute::step() {
    glUseProgram(program_);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, buffers_[side_]);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, buffers_[1 - side_]);
    glDispatchCompute(groups_, 1, 1);
    glMemoryBarrier(GL_VERTEX_ATTRIB_ARRAY_BARRIER_BIT | GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
    side_ ^= 1;
}

BufferCopy::BufferCopy(GLsizeiptr bytes, bool kernel, int groupSize, bool es) : bytes_(bytes) {
    std::vector<unsigned char> pattern(static_cast<std::size_t>(bytes));
    for (std::size_t i = 0; i < pattern.size(); ++i) pattern[i] = patternByte(i);
    makeBuffers(buffers_, pattern.data(), bytes);
    std::vector<unsigned char> zeros(static_cast<std::size_t>(bytes), 0);
    glBindBuffer(GL_ARRAY_BUFFER, buffers_[1]);
    glBufferSubData(GL_ARRAY_BUFFER, 0, bytes, zeros.data());
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    if (!kernel) return;
    GLuint vec4s = GLuint(bytes / 16);
    groups_ = (vec4s + GLuint(groupSize) - 1) / GLuint(groupSize);
    std::string src = std::string(es ? "#version 310 es\n" : "#version 430\n") +
                      "layout(local_size_x = " + std::to_string(groupSize) +
                      ") in;\n"
                      "layout(std430, binding = 0) readonly buffer A { uvec4 a[]; };\n"
                      "layout(std430, binding = 1) writeonly buffer B { uvec4 b[]; };\n"
                      "void main() { uint i = gl_GlobalInvocationID.x; if (i < " +
                      std::to_string(vec4s) + "u) b[i] = a[i]; }\n";
    program_ = xfbtest::computeProgram(src, "the copy kernel");
}
BufferCopy::~BufferCopy() {
    glDeleteBuffers(2, buffers_);
    if (program_) glDeleteProgram(program_);
}
void BufferCopy::step() {
    if (program_) {
        glUseProgram(program_);
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, buffers_[0]);
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, buffers_[1]);
        glDispatchCompute(groups_, 1, 1);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
        return;
    }
    glBindBuffer(GL_COPY_READ_BUFFER, buffers_[0]);
    glBindBuffer(GL_COPY_WRITE_BUFFER, buffers_[1]);
    glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 0, 0, bytes_);
}

} // namespace xfbbench
