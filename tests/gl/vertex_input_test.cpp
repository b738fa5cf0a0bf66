// Buffer::bindAsVertexInput and Buffer::generation: what the application's own vertex array
// reads, checked through glGetVertexAttrib* against the format worked out by hand, and the
// generation following a Pipeline's swaps so the application knows when to bind again.
#include "gl_fixture.hpp"
#include "particles.hpp"
#include "../unit/test_util.hpp"

#include <cstdint>

using namespace xfb;
using namespace xfbtest;

namespace {

struct AttribState {
    GLint enabled = 0, buffer = 0, size = 0, stride = 0, type = 0, integer = 0;
    std::uintptr_t offset = 0;
};

AttribState attribState(GLuint location) {
    AttribState a;
    glGetVertexAttribiv(location, GL_VERTEX_ATTRIB_ARRAY_ENABLED, &a.enabled);
    glGetVertexAttribiv(location, GL_VERTEX_ATTRIB_ARRAY_BUFFER_BINDING, &a.buffer);
    glGetVertexAttribiv(location, GL_VERTEX_ATTRIB_ARRAY_SIZE, &a.size);
    glGetVertexAttribiv(location, GL_VERTEX_ATTRIB_ARRAY_STRIDE, &a.stride);
    glGetVertexAttribiv(location, GL_VERTEX_ATTRIB_ARRAY_TYPE, &a.type);
    glGetVertexAttribiv(location, GL_VERTEX_ATTRIB_ARRAY_INTEGER, &a.integer);
    void* p = nullptr;
    glGetVertexAttribPointerv(location, GL_VERTEX_ATTRIB_ARRAY_POINTER, &p);
    a.offset = reinterpret_cast<std::uintptr_t>(p);
    return a;
}

struct VertexArray {
    GLuint name = 0;
    VertexArray() {
        glGenVertexArrays(1, &name);
        glBindVertexArray(name);
    }
    ~VertexArray() {
        glBindVertexArray(0);
        glDeleteVertexArrays(1, &name);
    }
};

} // namespace

TEST_CASE_FIXTURE(GlTest,
                  "bindAsVertexInput points a location at a field of the buffer's format, with its stride and offset") {
    // {ATTR0 float32x3 @0, ATTR1 uint32x1 @12, ATTR2 float32x4 @16} stride 32
    auto format = VertexFormat::interleaved({{attr(0), ComponentType::Float32, 3},
                                             {attr(1), ComponentType::UInt32, 1},
                                             {attr(2), ComponentType::Float32, 4}});
    REQUIRE(format.stride == 32);
    Buffer buffer(dev, format, 10);
    VertexArray vao;
    buffer.bindAsVertexInput(5, attr(2));
    buffer.bindAsVertexInput(6, attr(1), 3); // element i reads element i + 3
    AttribState a = attribState(5), b = attribState(6);
    CHECK(a.enabled == 1);
    CHECK(a.buffer == GLint(buffer.glName()));
    CHECK(a.size == 4);
    CHECK(a.stride == 32);
    CHECK(a.type == GL_FLOAT);
    CHECK(a.integer == 0);
    CHECK(a.offset == 16);
    CHECK(b.enabled == 1);
    CHECK(b.size == 1);
    CHECK(b.type == GL_UNSIGNED_INT);
    CHECK(b.integer == 1); // glVertexAttribIPointer: read as uint, not converted to float
    CHECK(b.offset == 12 + 3 * 32);
    GLint arrayBuffer = -1;
    glGetIntegerv(GL_ARRAY_BUFFER_BINDING, &arrayBuffer);
    CHECK(arrayBuffer == 0);

    std::string msg = XFB_REQUIRE_ERROR(buffer.bindAsVertexInput(0, attr(7)), ErrorCode::InvalidArgument);
    CHECK(contains(msg, "ATTR7"));
    CHECK(contains(msg, "stride 32"));
    msg = XFB_REQUIRE_ERROR(buffer.bindAsVertexInput(unsigned(dev.capabilities().limits.maxVertexAttribs), attr(0)),
                            ErrorCode::InvalidArgument);
    CHECK(contains(msg, "GL_MAX_VERTEX_ATTRIBS"));
    msg = XFB_REQUIRE_ERROR(buffer.bindAsVertexInput(0xFFFFFFFFu, attr(0)), ErrorCode::InvalidArgument);
    CHECK(contains(msg, "location 4294967295"));
    msg = XFB_REQUIRE_ERROR(buffer.bindAsVertexInput(0, attr(0), 10), ErrorCode::InvalidArgument);
    CHECK(contains(msg, "outside the 10 elements"));
    Buffer matrices(dev, VertexFormat::interleaved({{attr(0), ComponentType::Float32, 16}}), 2);
    msg = XFB_REQUIRE_ERROR(matrices.bindAsVertexInput(0, attr(0)), ErrorCode::InvalidArgument);
    CHECK(contains(msg, "column by column"));
}

TEST_CASE_FIXTURE(
    GlTest,
    "generation() moves with every swap of a state pair, so a vertex array bound to it knows when to bind again") {
    ParticleSim sim(dev, 16, 0.5f, {0.0f, -1.0f, 0.0f}, 3, [](std::size_t) { return 3.0f; });
    Buffer state(dev, sim.format, sim.n, view(sim.initial)), scratch(dev, sim.format, sim.n);
    Buffer unused(dev, sim.format, sim.n);
    Pipeline pipeline(dev, sim.program, {{&state, &scratch}});
    const std::uint64_t g0 = state.generation(), s0 = scratch.generation(), u0 = unused.generation();
    const unsigned before = state.glName();
    VertexArray vao;
    state.bindAsVertexInput(0, attr(0));
    for (int i = 0; i < 3; ++i) pipeline.step(); // one swap each (step(3) may fuse them into one pass, one swap)
    CHECK(state.generation() == g0 + 3);
    CHECK(scratch.generation() == s0 + 3);
    CHECK(unused.generation() == u0);              // not in the pipeline
    CHECK(state.glName() != before);               // an odd number of swaps: the other object
    CHECK(attribState(0).buffer == GLint(before)); // what the vertex array still reads: stale
    state.bindAsVertexInput(0, attr(0));
    CHECK(attribState(0).buffer == GLint(state.glName()));
    CHECK(attribState(0).offset == 0);
    CHECK(attribState(0).stride == 32);
}
