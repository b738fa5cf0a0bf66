#include "gl/prefix_scan.hpp"
#include "gl/compute_grid.hpp"
#include "plan/compute_index.hpp"

#include "gl/gl_check.hpp"
#include "gl/shader.hpp"
#include "xfb/error.hpp"

namespace xfb::detail {

#ifndef __EMSCRIPTEN__
gl::BufferName storageBuffer(std::uint64_t bytes) {
    auto b = gl::BufferName::create();
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, b);
    glBufferData(GL_SHADER_STORAGE_BUFFER, GLsizeiptr(bytes), nullptr, GL_DYNAMIC_COPY);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
    return b;
}

PrefixScan::PrefixScan(std::int64_t count, int group, int dispatchGroupSize, bool es, int maxX, int maxY)
    : n(count), groupSize(group), maxGroupsX(maxX), maxGroupsY(maxY) {
    std::string header = std::string(es ? "#version 310 es\nprecision highp int;\n" : "#version 430\n") +
                         "layout(local_size_x = " + std::to_string(group) + ") in;\n#define XFB_GROUP " +
                         std::string(plan::kFlatWorkGroup) + "\n"; // dispatched as rows (gl/compute_grid.hpp)
    // Each group scans kPerThread x groupSize elements: loaded coalesced into shared memory,
    // each invocation sums its kPerThread consecutive ones, the invocation totals are scanned
    // (Hillis-Steele), then each invocation writes its run. Few barriers per element.
    const std::string perThread = "const uint K = " + std::to_string(kPerThread) + "u;\n";
    scan = gl::linkComputeProgram(header + perThread + R"(
layout(std430, binding = 0) readonly buffer In { uint xin[]; };
layout(std430, binding = 1) writeonly buffer Out { uint xout[]; };
layout(std430, binding = 2) writeonly buffer Sums { uint xsums[]; };
uniform uint n;
const uint G = gl_WorkGroupSize.x;
shared uint data[G * K];
shared uint t[G];
void main() {
    uint l = gl_LocalInvocationID.x, group = XFB_GROUP, first = group * G * K;
    for (uint k = 0u; k < K; ++k) {
        uint i = first + k * G + l;
        data[k * G + l] = i < n ? xin[i] : 0u;
    }
    barrier();
    uint sum = 0u;
    for (uint k = 0u; k < K; ++k) sum += data[l * K + k];
    t[l] = sum;
    barrier();
    for (uint d = 1u; d < G; d <<= 1u) {
        uint add = l >= d ? t[l - d] : 0u;
        barrier();
        t[l] += add;
        barrier();
    }
    uint run = t[l] - sum;
    for (uint k = 0u; k < K; ++k) {
        uint x = data[l * K + k];
        data[l * K + k] = run;
        run += x;
    }
    barrier();
    for (uint k = 0u; k < K; ++k) {
        uint i = first + k * G + l;
        if (i < n) xout[i] = data[k * G + l];
    }
    if (l == G - 1u) xsums[group] = t[l];
}
)",
                                  "the prefix-sum scan kernel");
    add = gl::linkComputeProgram(header + perThread + R"(
layout(std430, binding = 0) readonly buffer In { uint xscanned[]; };
layout(std430, binding = 1) buffer Out { uint xout[]; };
uniform uint n;
void main() {
    uint i = XFB_GROUP * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
    if (i < n) xout[i] += xscanned[i / (gl_WorkGroupSize.x * K)];
}
)",
                                 "the prefix-sum add kernel");
    total = gl::linkComputeProgram(std::string(es ? "#version 310 es\nprecision highp int;\n" : "#version 430\n") + R"(
layout(local_size_x = 1) in;
layout(std430, binding = 0) readonly buffer Counts { uint xcounts[]; };
layout(std430, binding = 1) readonly buffer Firsts { uint xfirsts[]; };
layout(std430, binding = 2) writeonly buffer Totals { uint xtotals[]; };
uniform uint n;
uniform uint capacity;
uniform uint slot;
uniform uint groupSize;
void main() {
    uint requested = xfirsts[n - 1u] + xcounts[n - 1u];
    uint written = min(requested, capacity);
    uint o = slot * 8u;
    xtotals[o] = written;
    xtotals[o + 1u] = 1u;
    xtotals[o + 2u] = 0u;
    xtotals[o + 3u] = 0u;
    xtotals[o + 4u] = (written + groupSize - 1u) / groupSize;
    xtotals[o + 5u] = 1u;
    xtotals[o + 6u] = 1u;
    xtotals[o + 7u] = requested;
}
)",
                                   "the prefix-sum total kernel");
    scanN = glGetUniformLocation(scan, "n");
    addN = glGetUniformLocation(add, "n");
    totalCapacity = glGetUniformLocation(total, "capacity");
    totalSlot = glGetUniformLocation(total, "slot");
    totalN = glGetUniformLocation(total, "n");
    glUseProgram(total); // the same for every budget and step
    glUniform1ui(totalN, GLuint(n));
    totalCount = n;
    glUniform1ui(glGetUniformLocation(total, "groupSize"), GLuint(dispatchGroupSize));
    glUseProgram(0);

    const std::int64_t perGroup = std::int64_t(group) * kPerThread;
    sizes.push_back(n);
    while (sizes.back() > perGroup) sizes.push_back((sizes.back() + perGroup - 1) / perGroup);
    sums.resize(sizes.size() + 1);
    scanned.resize(sizes.size());
    for (std::size_t j = 1; j < sizes.size(); ++j) {
        sums[j] = storageBuffer(std::uint64_t(sizes[j]) * 4);
        scanned[j] = storageBuffer(std::uint64_t(sizes[j]) * 4);
    }
    sums.back() = storageBuffer(4); // the last level's single group total, not needed further
    gl::check("building the prefix sum");
}

void PrefixScan::forget() {
    scan.forget();
    add.forget();
    total.forget();
    for (auto& b : sums) b.forget();
    for (auto& b : scanned) b.forget();
}

void PrefixScan::run(GLuint counts, GLuint firsts, GLuint totals, int slot, std::int64_t capacity, std::int64_t count) {
    if (count < 0) count = n;
    // The levels for `count`: no more than n's, so each fits the buffers made for n.
    std::int64_t levels[16];
    std::size_t top = 0;
    levels[0] = count;
    const std::int64_t perGroup = std::int64_t(groupSize) * kPerThread;
    while (levels[top] > perGroup) {
        levels[top + 1] = (levels[top] + perGroup - 1) / perGroup;
        ++top;
    }
    auto groups = [&](std::int64_t k) { return GLuint((k + groupSize - 1) / groupSize); };
    auto scanGroups = [&](std::int64_t k) {
        return GLuint((k + std::int64_t(groupSize) * kPerThread - 1) / (std::int64_t(groupSize) * kPerThread));
    };
    auto barrier = [] { XFB_GL_COUNTED(glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT)); };
    XFB_GL_COUNTED(glUseProgram(scan));
    // Up: scan each level, writing each group's total into the next level.
    for (std::size_t j = 0; j <= top; ++j) {
        XFB_GL_COUNTED(glUniform1ui(scanN, GLuint(levels[j])));
        XFB_GL_COUNTED(glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, j == 0 ? counts : sums[j]));
        XFB_GL_COUNTED(glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, j == 0 ? firsts : scanned[j]));
        XFB_GL_COUNTED(glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 2, j == top ? sums.back() : sums[j + 1]));
        gl::dispatch(gl::computeGrid(scanGroups(levels[j]), maxGroupsX, maxGroupsY));
        barrier();
    }
    // Down: add each group's offset, from the top level to the counts' level.
    if (top > 0) XFB_GL_COUNTED(glUseProgram(add));
    for (std::size_t j = top; j >= 1; --j) {
        XFB_GL_COUNTED(glUniform1ui(addN, GLuint(levels[j - 1])));
        XFB_GL_COUNTED(glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, scanned[j]));
        XFB_GL_COUNTED(glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, j == 1 ? firsts : scanned[j - 1]));
        gl::dispatch(gl::computeGrid(groups(levels[j - 1]), maxGroupsX, maxGroupsY));
        barrier();
    }
    XFB_GL_COUNTED(glUseProgram(total));
    XFB_GL_COUNTED(glUniform1ui(totalCapacity, GLuint(capacity)));
    XFB_GL_COUNTED(glUniform1ui(totalSlot, GLuint(slot)));
    if (totalCount != count) {
        XFB_GL_COUNTED(glUniform1ui(totalN, GLuint(count)));
        totalCount = count;
    }
    XFB_GL_COUNTED(glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, counts));
    XFB_GL_COUNTED(glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, firsts));
    XFB_GL_COUNTED(glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 2, totals));
    XFB_GL_COUNTED(glDispatchCompute(1, 1, 1));
}
#else
PrefixScan::PrefixScan(std::int64_t, int, int, bool, int, int) {}
void PrefixScan::forget() {}
void PrefixScan::run(GLuint, GLuint, GLuint, int, std::int64_t, std::int64_t) {}
#endif

} // namespace xfb::detail
