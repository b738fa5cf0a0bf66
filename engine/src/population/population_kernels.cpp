#include "population/population_kernels.hpp"

#include "gl/compute_grid.hpp"
#include "gl/gl_check.hpp"
#include "gl/shader.hpp"
#include "plan/compute_index.hpp"

#include <string>

namespace xfb::detail {

#ifdef __EMSCRIPTEN__ // WebGL2 has no compute shaders: a population there runs on the fragment backend.
void PopulationKernels::build(bool, std::int64_t, int, int, int) {}
void PopulationKernels::afterStep(GLuint, GLuint) {}
void PopulationKernels::copySpawned(GLuint, GLuint, GLuint, std::int64_t, int) {}
void PopulationKernels::countSpawned(GLuint, std::int64_t) {}
#else

void PopulationKernels::build(bool es, std::int64_t capacity, int groupSize, int maxX, int maxY) {
    maxGroupsX = maxX;
    maxGroupsY = maxY;
    const std::string version = es ? "#version 310 es\nprecision highp int;\n" : "#version 430\n";
    // One invocation: a step's written and requested records (the compute pass's totals, slot 0),
    // or a spawn's (the live count plus the records, at most the capacity), into the count words.
    count = gl::linkComputeProgram(version + R"(
layout(local_size_x = 1) in;
layout(std430, binding = 0) readonly buffer Totals { uint xtotals[]; };
layout(std430, binding = 1) buffer Count { uint xcount[]; };
uniform uint spawned;
const uint capacity = )" + std::to_string(capacity) +
                                       R"(u;
const uint groupSize = )" + std::to_string(groupSize) +
                                       R"(u;
uint saturated(uint a, uint b) { return a + min(b, 0xffffffffu - a); }
void main() {
    uint requested = spawned == 0u ? xtotals[7] : xcount[0] + spawned;
    uint written = spawned == 0u ? xtotals[0] : min(requested, capacity);
    xcount[0] = written;
    xcount[1] = 1u;
    xcount[2] = 0u;
    xcount[3] = 0u;
    xcount[4] = max((written + groupSize - 1u) / groupSize, 1u);
    xcount[5] = 1u;
    xcount[6] = 1u;
    xcount[7] = requested;
    xcount[8] = saturated(xcount[8], requested - written);
    xcount[9] = saturated(xcount[9], requested - written);
}
)",
                                   "the population's count kernel");
    // One invocation per word: word w of spawned record r lands in slot live + r, if below the capacity.
    spawn = gl::linkComputeProgram(version + "layout(local_size_x = " + std::to_string(kSpawnGroup) +
                                       ") in;\n#define XFB_GROUP " + std::string(plan::kFlatWorkGroup) + "\n" + R"(
layout(std430, binding = 0) readonly buffer Source { uint xsource[]; };
layout(std430, binding = 1) writeonly buffer State { uint xstate[]; };
layout(std430, binding = 2) readonly buffer Count { uint xlive; };
uniform uint words;
uniform uint strideWords;
const uint capacity = )" + std::to_string(capacity) +
                                       R"(u;
void main() {
    uint i = XFB_GROUP * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
    if (i >= words) return;
    uint slot = xlive + i / strideWords;
    if (slot < capacity) xstate[slot * strideWords + i % strideWords] = xsource[i];
}
)",
                                   "the population's spawn kernel");
    countSpawnedAt = glGetUniformLocation(count, "spawned");
    spawnWords = glGetUniformLocation(spawn, "words");
    spawnStride = glGetUniformLocation(spawn, "strideWords");
    gl::check("building the population's kernels");
}

namespace {
// Whoever reads next: indirect draws and dispatches of the count, vertex fetch of the state,
// the next pass, a readback.
void barrierForReaders() {
    XFB_GL_COUNTED(glMemoryBarrier(GL_COMMAND_BARRIER_BIT | GL_SHADER_STORAGE_BARRIER_BIT |
                                   GL_VERTEX_ATTRIB_ARRAY_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT));
}
} // namespace

void PopulationKernels::afterStep(GLuint totals, GLuint counts) {
    XFB_GL_COUNTED(glUseProgram(count));
    XFB_GL_COUNTED(glUniform1ui(countSpawnedAt, 0u));
    XFB_GL_COUNTED(glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, totals));
    XFB_GL_COUNTED(glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, counts));
    XFB_GL_COUNTED(glDispatchCompute(1, 1, 1));
    barrierForReaders();
}

void PopulationKernels::copySpawned(GLuint staging, GLuint state, GLuint counts, std::int64_t records,
                                    int strideWords) {
    const std::int64_t words = records * strideWords;
    XFB_GL_COUNTED(glUseProgram(spawn));
    XFB_GL_COUNTED(glUniform1ui(spawnWords, GLuint(words)));
    XFB_GL_COUNTED(glUniform1ui(spawnStride, GLuint(strideWords)));
    XFB_GL_COUNTED(glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, staging));
    XFB_GL_COUNTED(glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, state));
    XFB_GL_COUNTED(glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 2, counts));
    gl::dispatch(gl::computeGrid((words + kSpawnGroup - 1) / kSpawnGroup, maxGroupsX, maxGroupsY));
}

void PopulationKernels::countSpawned(GLuint counts, std::int64_t records) {
    // The copies read the live count the count kernel moves on.
    XFB_GL_COUNTED(glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT));
    XFB_GL_COUNTED(glUseProgram(count));
    XFB_GL_COUNTED(glUniform1ui(countSpawnedAt, GLuint(records)));
    XFB_GL_COUNTED(glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, counts)); // not read by a spawn
    XFB_GL_COUNTED(glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, counts));
    XFB_GL_COUNTED(glDispatchCompute(1, 1, 1));
    barrierForReaders();
}

#endif

} // namespace xfb::detail
