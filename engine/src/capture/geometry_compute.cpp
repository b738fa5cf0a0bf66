#include "capture/geometry_compute.hpp"

#include "gl/compute_grid.hpp"
#include "gl/gl_check.hpp"
#include "gl/readback.hpp"
#include "xfb/error.hpp"

#include <cstring>
#include <limits>

namespace xfb::detail {

#ifndef __EMSCRIPTEN__ // WebGL2 has neither geometry shaders nor compute

GeometryCompute::GeometryCompute(const ProgramState& program, const PassPlan& plan, std::size_t entryCount,
                                 const Capabilities& caps) {
    const std::string& label = program.desc.label;
    const GeometryPlan& geometry = program.geometry->plan;
    const int maxGroup = std::min(caps.maxComputeGroupSizeX, caps.maxComputeInvocations);
    groupSize = std::min(64, maxGroup);
    vertexGroupSize = std::min(256, maxGroup);
    scanGroup = 1;
    while (scanGroup * 2 <= std::min(groupSize, 256)) scanGroup *= 2;
    maxGroupsX = caps.maxComputeGroupCountX;
    maxGroupsY = caps.maxComputeGroupCountY;
    es = caps.es;
    shaders = translateGeometryToCompute(program.desc.source, program.desc.geometry, program.desc.read, plan,
                                         program.capture, geometry, entryCount, {caps.es, groupSize, vertexGroupSize});
    if (shaders.bindingCount > caps.maxComputeStorageBlocks)
        throw Error(
            ErrorCode::Unsupported,
            "program '" + label + "' needs " + std::to_string(shaders.bindingCount) +
                " shader storage buffers in its compute capture (2 + one per captured buffer + one per vertex "
                "stream) but this device allows " +
                std::to_string(caps.maxComputeStorageBlocks) +
                " (GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS); capture fewer buffers or use Backend::TransformFeedback");
    if (shaders.scratchStride) {
        vertex.build(program, shaders.vertex.source, "the vertex pass generated from '" + label + "'", 0);
        vertexCountAt = glGetUniformLocation(vertex.program, "xfb_count");
        scratch =
            storageBuffer(std::max<std::uint64_t>(4, std::uint64_t(plan.count) * std::uint64_t(shaders.scratchStride)));
    }
    count.build(program, shaders.countSource, "the geometry count pass generated from '" + label + "'", 0,
                "the geometry shader's");
    // The write pass stops at xfb_items (set per capture); its xfb_count bound never binds.
    write.build(program, shaders.writeSource, "the geometry write pass generated from '" + label + "'",
                std::numeric_limits<std::uint32_t>::max(), "the geometry shader's");
    countCountAt = glGetUniformLocation(count.program, "xfb_count");
    countItemsAt = glGetUniformLocation(count.program, "xfb_items");
    writeItemsAt = glGetUniformLocation(write.program, "xfb_items");
    writeCapacityAt = glGetUniformLocation(write.program, "xfb_capacity");
    totals = storageBuffer(std::uint64_t(geometry.streamCount) * kTotalsWords * 4);
    sources = gl::BufferName::create();
    sourcesBytes = 0;
    items = 0;
    gl::check(("building the compute capture of '" + label + "'").c_str());
}

void GeometryCompute::forget() {
    vertex.program.forget();
    count.program.forget();
    write.program.forget();
    scratch.forget();
    sources.forget();
    sourcesBytes = 0, sourceVertices = 0;
    sourcesDraw.reset();
    totals.forget();
    for (auto& b : counts) b.forget();
    for (auto& b : firsts) b.forget();
    if (scan) scan->forget();
}

void GeometryCompute::run(const ProgramState& program, const DrawDesc& draw, std::int64_t vertexCount,
                          const std::vector<std::shared_ptr<BufferState>>& inputs, const std::vector<GLuint>& outputs,
                          const std::vector<std::int64_t>& capacity) {
    const GeometryPlan& geometry = program.geometry->plan;
    const std::size_t streams = std::size_t(geometry.streamCount);
    // The draw's primitives as their source vertices: expanded on the CPU and uploaded, unless they
    // are there already (measured on the H200: 400 of the 455 ms of a 1.6e7-triangle capture).
    const bool expanded = draw.indices.empty() && sourcesDraw && sourcesDraw->first == draw.mode &&
                          sourcesDraw->second == draw.vertexCount;
    if (!expanded) {
        const std::vector<std::uint32_t> vertices = expandPrimitives(draw);
        XFB_GL_COUNTED(glBindBuffer(GL_SHADER_STORAGE_BUFFER, sources));
        const std::uint64_t bytes = std::max<std::uint64_t>(4, vertices.size() * 4);
        if (bytes > sourcesBytes) {
            XFB_GL_COUNTED(glBufferData(GL_SHADER_STORAGE_BUFFER, GLsizeiptr(bytes), nullptr, GL_DYNAMIC_DRAW));
            sourcesBytes = bytes;
        }
        if (!vertices.empty())
            XFB_GL_COUNTED(
                glBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, GLsizeiptr(vertices.size() * 4), vertices.data()));
        XFB_GL_COUNTED(glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0));
        sourceVertices = std::int64_t(vertices.size());
        sourcesDraw.reset();
        if (draw.indices.empty()) sourcesDraw = {draw.mode, draw.vertexCount};
    }
    const std::int64_t primitives = sourceVertices / shaders.inputVertices;
    const std::int64_t needed = std::max<std::int64_t>(1, primitives * geometry.invocations);
    // The sources, counts, firsts and scan grow (to a power of two) when a draw needs more.
    if (needed > items) {
        std::int64_t n = 64;
        while (n < needed) n *= 2;
        counts.clear();
        firsts.clear();
        for (std::size_t s = 0; s < streams; ++s) {
            counts.push_back(storageBuffer(std::uint64_t(n) * 4));
            firsts.push_back(storageBuffer(std::uint64_t(n) * 4));
        }
        scan = std::make_unique<PrefixScan>(n, scanGroup, groupSize, es, maxGroupsX, maxGroupsY);
        items = n;
    }
    auto barrier = [] { XFB_GL_COUNTED(glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT)); };
    auto groups = [&](std::int64_t n, int size) {
        return gl::computeGrid((n + size - 1) / size, maxGroupsX, maxGroupsY);
    };
    // 1. The vertex shader over the vertices the draw may use, into the scratch records.
    if (shaders.scratchStride && vertexCount > 0) {
        vertex.use(program);
        XFB_GL_COUNTED(glUniform1ui(vertexCountAt, GLuint(vertexCount)));
        for (std::size_t e = 0; e < inputs.size() && e < shaders.vertex.readBinding.size(); ++e)
            if (int b = shaders.vertex.readBinding[e]; b >= 0)
                XFB_GL_COUNTED(glBindBufferBase(GL_SHADER_STORAGE_BUFFER, GLuint(b), inputs[e]->name));
        XFB_GL_COUNTED(
            glBindBufferBase(GL_SHADER_STORAGE_BUFFER, GLuint(shaders.vertex.writeBinding[inputs.size()]), scratch));
        gl::dispatch(groups(vertexCount, vertexGroupSize));
        barrier();
    }
    auto bindShared = [&] {
        if (shaders.scratchStride)
            XFB_GL_COUNTED(glBindBufferBase(GL_SHADER_STORAGE_BUFFER, GLuint(shaders.scratchBinding), scratch));
        XFB_GL_COUNTED(glBindBufferBase(GL_SHADER_STORAGE_BUFFER, GLuint(shaders.sourcesBinding), sources));
    };
    // 2. Per item, the records each stream receives, over the draw's items only (at least one,
    // counted 0 for a draw of none, so that the scan has a last element to total), not the
    // capacity the buffers grew to for an earlier, larger draw.
    const std::int64_t live = sourceVertices == 0 ? 0 : primitives * geometry.invocations;
    const std::int64_t scanned = std::max<std::int64_t>(1, live);
    count.use(program);
    XFB_GL_COUNTED(glUniform1ui(countCountAt, GLuint(scanned)));
    XFB_GL_COUNTED(glUniform1ui(countItemsAt, GLuint(live)));
    bindShared();
    for (std::size_t s = 0; s < streams; ++s)
        XFB_GL_COUNTED(glBindBufferBase(GL_SHADER_STORAGE_BUFFER, GLuint(shaders.countsBinding[s]), counts[s]));
    gl::dispatch(groups(scanned, groupSize));
    barrier();
    // Each stream's first records and totals (requested, and written within its capacity).
    for (std::size_t s = 0; s < streams; ++s) scan->run(counts[s], firsts[s], totals, int(s), capacity[s], scanned);
    barrier();
    // 3. The records, in the GL's order.
    write.use(program);
    XFB_GL_COUNTED(glUniform1ui(writeItemsAt, GLuint(live)));
    std::vector<GLuint> caps;
    for (std::int64_t c : capacity) caps.push_back(GLuint(c));
    XFB_GL_COUNTED(glUniform1uiv(writeCapacityAt, GLsizei(caps.size()), caps.data()));
    bindShared();
    for (std::size_t b = 0; b < outputs.size(); ++b)
        XFB_GL_COUNTED(glBindBufferBase(GL_SHADER_STORAGE_BUFFER, GLuint(shaders.outputBinding[b]), outputs[b]));
    for (std::size_t s = 0; s < streams; ++s)
        XFB_GL_COUNTED(glBindBufferBase(GL_SHADER_STORAGE_BUFFER, GLuint(shaders.firstBinding[s]), firsts[s]));
    if (live > 0) gl::dispatch(groups(live, groupSize));
    // Whoever reads next: vertex fetch, an indirect draw of the totals, a readback, transform feedback.
    XFB_GL_COUNTED(glMemoryBarrier(GL_VERTEX_ATTRIB_ARRAY_BARRIER_BIT | GL_SHADER_STORAGE_BARRIER_BIT |
                                   GL_TRANSFORM_FEEDBACK_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT |
                                   GL_ELEMENT_ARRAY_BARRIER_BIT | GL_COMMAND_BARRIER_BIT));
}

std::vector<std::pair<std::int64_t, std::int64_t>> GeometryCompute::readTotals() const {
    const std::size_t streams = counts.size();
    const std::vector<std::byte> bytes = gl::readBytes(totals, 0, streams * kTotalsWords * 4);
    std::vector<std::pair<std::int64_t, std::int64_t>> out;
    for (std::size_t s = 0; s < streams; ++s) {
        std::uint32_t written = 0, requested = 0;
        std::memcpy(&written, bytes.data() + (s * kTotalsWords) * 4, 4);
        std::memcpy(&requested, bytes.data() + (s * kTotalsWords + 7) * 4, 4);
        out.push_back({requested, written});
    }
    return out;
}

#else
GeometryCompute::GeometryCompute(const ProgramState&, const PassPlan&, std::size_t, const Capabilities&) {}
void GeometryCompute::forget() {}
void GeometryCompute::run(const ProgramState&, const DrawDesc&, std::int64_t,
                          const std::vector<std::shared_ptr<BufferState>>&, const std::vector<GLuint>&,
                          const std::vector<std::int64_t>&) {}
std::vector<std::pair<std::int64_t, std::int64_t>> GeometryCompute::readTotals() const { return {}; }
#endif

} // namespace xfb::detail
