#pragma once
// The baselines: a careful hand-written transform-feedback loop and compute loop for the bench
// workload (shaders/bench_particles.vert), in raw GL, the way one would write them without xfb.
#include <GL/glcorearb.h>

#include <cstddef>
#include <string>
#include <vector>

namespace xfbbench {

/// Interleaved {position, velocity} ping-pong with one VAO and one transform feedback object per side.
class HandwrittenTransformFeedback {
public:
    HandwrittenTransformFeedback(const std::string& vertexSource, const std::vector<float>& initial, GLsizei count,
                                 float dt);
    ~HandwrittenTransformFeedback();
    void step();
    GLuint current() const { return buffers_[side_]; }

private:
    GLuint program_ = 0, buffers_[2]{}, vao_[2]{}, tf_[2]{};
    GLsizei count_;
    int side_ = 0;
};

/// The same workload as a hand-written compute shader reading and writing vec4 arrays.
class HandwrittenCompute {
public:
    HandwrittenCompute(const std::vector<float>& initial, GLsizei count, float dt, int groupSize, bool es);
    ~HandwrittenCompute();
    void step();
    GLuint current() const { return buffers_[side_]; }

private:
    GLuint program_ = 0, buffers_[2]{};
    GLuint groups_;
    int side_ = 0;
};

/// The bandwidth floor: copies as many bytes as a step reads (and writes), with
/// glCopyBufferSubData (`kernel` false) or with a vec4-copy compute shader (`kernel` true; on some
/// GPUs the copy call takes a slower path than shader memory traffic). The source holds
/// patternByte(i) at byte i, the destination starts zeroed: a copy that moved nothing shows.
class BufferCopy {
public:
    BufferCopy(GLsizeiptr bytes, bool kernel, int groupSize, bool es);
    ~BufferCopy();
    void step();
    GLuint destination() const { return buffers_[1]; }
    static unsigned char patternByte(std::size_t i) {
        return static_cast<unsigned char>((i * 7 + i / 251 + 3) & 0xffu);
    }

private:
    GLuint buffers_[2]{};
    GLsizeiptr bytes_;
    GLuint program_ = 0, groups_ = 0;
};

} // namespace xfbbench
