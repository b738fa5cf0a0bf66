#include "population/population_fragment.hpp"

#include "gl/draw_mode.hpp"
#include "gl/gl_check.hpp"
#include "gl/shader.hpp"
#include "gl/state_guard.hpp"
#include "plan/population_passes.hpp"
#include "plan/text.hpp"
#include "xfb/error.hpp"

namespace xfb::detail {

namespace {

gl::ProgramName linkPass(const std::string& vertex, const std::string& fragment, const std::string& what) {
    gl::ProgramName p = gl::linkProgram({{GL_VERTEX_SHADER, vertex, what}, {GL_FRAGMENT_SHADER, fragment, what}});
    if (auto log = gl::linkFailure(p)) throw Error(ErrorCode::ProgramLink, plan::cat({what, " does not link: ", *log}));
    return p;
}

void setSampler(GLuint program, const char* name, GLuint unit) {
    if (GLint at = glGetUniformLocation(program, name); at >= 0) glUniform1i(at, GLint(unit));
}

} // namespace

PopulationCount decodeCountTexel(const CountTexel& w, std::int64_t capacity) {
    return {w[0], capacity, w[1], w[2], w[3]};
}

void PopulationFragment::build(const std::shared_ptr<DeviceState>& dev, const ProgramState& program,
                               const PopulationPlan& plan) {
    device = dev;
    capacity = plan.capacity;
    backend = FragmentBackend::build(program, plan.pass, plan.entries.size(), 1, nullptr, &plan.emits, true);
    const FragmentShader& shader = backend->shader;
    const HistoPyramid::Top top = backend->pyramid->top(0);
    const PlaneLayout planes = planeLayout(4, plan.capacity, shader.textureWidth);
    const plan::PopulationFragmentShaders s = plan::populationFragmentShaders(
        shader.version, plan.capacity, planes.width, planes.rows, top.row, top.component);
    const std::string& label = program.desc.label;
    stepCount = linkPass(shader.vertexSource, s.step, plan::cat({"the count pass of population '", label, "'"}));
    spawnCount = linkPass(shader.vertexSource, s.spawn, plan::cat({"the spawn count of population '", label, "'"}));
    spawnDraw = linkPass(s.spawnVertex, s.spawnFragment, plan::cat({"the spawn draw of population '", label, "'"}));
    // Their samplers on fixed units: the count texel on the live unit, the pyramid's top on its own.
    XFB_GL_COUNTED(glUseProgram(stepCount));
    setSampler(stepCount, plan::kCountsSampler, backend->liveUnit);
    setSampler(stepCount, plan::kTopSampler, top.unit);
    XFB_GL_COUNTED(glUseProgram(spawnCount));
    setSampler(spawnCount, plan::kCountsSampler, backend->liveUnit);
    spawnedAt = glGetUniformLocation(spawnCount, plan::kSpawnedUniform);
    XFB_GL_COUNTED(glUseProgram(spawnDraw));
    setSampler(spawnDraw, plan::kCountsSampler, backend->liveUnit);
    wordsAt = glGetUniformLocation(spawnDraw, plan::kWordsUniform);
    XFB_GL_COUNTED(glUseProgram(0));

    // The count texels of an empty population, each its framebuffer's colour attachment 0.
    const CountTexel empty{};
    XFB_GL_COUNTED(glActiveTexture(GL_TEXTURE0 + backend->liveUnit));
    for (int i = 0; i < 2; ++i) {
        counts[std::size_t(i)] = gl::TextureName::create();
        XFB_GL_COUNTED(glBindTexture(GL_TEXTURE_2D, counts[std::size_t(i)]));
        XFB_GL_COUNTED(glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA32UI, 1, 1));
        XFB_GL_COUNTED(glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST));
        XFB_GL_COUNTED(glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST));
        XFB_GL_COUNTED(glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 1, 1, GL_RGBA_INTEGER, GL_UNSIGNED_INT, empty.data()));
        countTargets[std::size_t(i)] = gl::FramebufferName::create();
        XFB_GL_COUNTED(glBindFramebuffer(GL_FRAMEBUFFER, countTargets[std::size_t(i)]));
        XFB_GL_COUNTED(
            glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, counts[std::size_t(i)], 0));
    }
    XFB_GL_COUNTED(glBindFramebuffer(GL_FRAMEBUFFER, 0));
    XFB_GL_COUNTED(glActiveTexture(GL_TEXTURE0));
    current = 0;
    spawnTarget = gl::FramebufferName::create();
    spawnArray = gl::VertexArrayName::create();
    XFB_GL_COUNTED(glBindVertexArray(spawnArray));
    XFB_GL_COUNTED(glEnableVertexAttribArray(0));
    XFB_GL_COUNTED(glBindVertexArray(0));
    gl::check(plan::cat({"building the fragment passes of population '", label, "'"}).c_str());
}

void PopulationFragment::forget() {
    // The backend forgets its own names (it is enrolled itself).
    for (auto& t : counts) t.forget();
    for (auto& f : countTargets) f.forget();
    stepCount.forget();
    spawnCount.forget();
    spawnDraw.forget();
    spawnArray.forget();
    spawnTarget.forget();
}

void PopulationFragment::runPasses(const ProgramState& program, const std::vector<std::shared_ptr<BufferState>>& inputs,
                                   const std::vector<std::shared_ptr<BufferState>>& outputs) {
    backend->run(program, inputs, outputs, counts[std::size_t(current)]);
}

namespace {

// One fragment into count texel `target` (the triangle over a 1 x 1 viewport), with `program`,
// whose samplers read what is bound on their units.
void drawCount(GLuint program, GLuint target, GLuint vertexArray) {
    XFB_GL_COUNTED(glUseProgram(program));
    XFB_GL_COUNTED(glBindVertexArray(vertexArray));
    XFB_GL_COUNTED(glBindFramebuffer(GL_FRAMEBUFFER, target));
    XFB_GL_COUNTED(glViewport(0, 0, 1, 1));
    XFB_GL_COUNTED(glDrawArrays(GL_TRIANGLES, 0, 3));
    XFB_GL_COUNTED(glBindFramebuffer(GL_FRAMEBUFFER, 0));
}

// The count texel on `unit`, GL_TEXTURE0 active after.
void bindCountTexel(GLuint unit, GLuint texture) {
    XFB_GL_COUNTED(glActiveTexture(GL_TEXTURE0 + unit));
    XFB_GL_COUNTED(glBindTexture(GL_TEXTURE_2D, texture));
    XFB_GL_COUNTED(glActiveTexture(GL_TEXTURE0));
}

} // namespace

void PopulationFragment::takeTotals() {
    // What it reads, on its units: runPasses() left them there, but stepChecked() reads the total
    // between the two under another StateGuard, which restored the units.
    const HistoPyramid::Top top = backend->pyramid->top(0);
    bindCountTexel(backend->liveUnit, counts[std::size_t(current)]);
    XFB_GL_COUNTED(glActiveTexture(GL_TEXTURE0 + top.unit));
    XFB_GL_COUNTED(glBindTexture(GL_TEXTURE_2D, top.atlas));
    XFB_GL_COUNTED(glActiveTexture(GL_TEXTURE0));
    drawCount(stepCount, countTargets[std::size_t(current ^ 1)], backend->copier->vertexArray);
    current ^= 1;
}

void PopulationFragment::spawnField(BufferState& state, std::size_t entry, GLuint staging, std::int64_t records,
                                    int strideWords) {
    const PlaneMirror& planes = backend->inputPlanes(state, entry); // may copy the buffer in first
    XFB_GL_COUNTED(glDisable(GL_RASTERIZER_DISCARD));
    bindCountTexel(backend->liveUnit, counts[std::size_t(current)]);
    XFB_GL_COUNTED(glUseProgram(spawnDraw));
    XFB_GL_COUNTED(glUniform1ui(wordsAt, GLuint(strideWords)));
    XFB_GL_COUNTED(glBindVertexArray(spawnArray));
    XFB_GL_COUNTED(glBindBuffer(GL_ARRAY_BUFFER, staging));
    XFB_GL_COUNTED(glVertexAttribIPointer(0, strideWords, GL_UNSIGNED_INT, GLsizei(4 * strideWords), nullptr));
    XFB_GL_COUNTED(glBindBuffer(GL_ARRAY_BUFFER, 0));
    XFB_GL_COUNTED(glBindFramebuffer(GL_FRAMEBUFFER, spawnTarget));
    XFB_GL_COUNTED(glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, planes.planes[0], 0));
    XFB_GL_COUNTED(glViewport(0, 0, planes.layout.width, planes.layout.rows));
#ifndef __EMSCRIPTEN__
    // Desktop GL sizes points by glPointSize unless the shader's gl_PointSize is enabled: a point
    // wider than its texel would overwrite its neighbours. (ES and WebGL always use gl_PointSize.)
    const bool shaderSize = device->caps.es || XFB_GL_COUNTED(glIsEnabled(GL_PROGRAM_POINT_SIZE));
    if (!shaderSize) XFB_GL_COUNTED(glEnable(GL_PROGRAM_POINT_SIZE));
    XFB_GL_COUNTED(glDrawArrays(GL_POINTS, 0, GLsizei(records)));
    if (!shaderSize) XFB_GL_COUNTED(glDisable(GL_PROGRAM_POINT_SIZE));
#else
    XFB_GL_COUNTED(glDrawArrays(GL_POINTS, 0, GLsizei(records)));
#endif
    XFB_GL_COUNTED(glBindFramebuffer(GL_FRAMEBUFFER, 0));
    backend->inputWritten(state);
}

void PopulationFragment::countSpawned(std::int64_t records) {
    bindCountTexel(backend->liveUnit, counts[std::size_t(current)]);
    XFB_GL_COUNTED(glUseProgram(spawnCount));
    XFB_GL_COUNTED(glUniform1ui(spawnedAt, GLuint(records)));
    drawCount(spawnCount, countTargets[std::size_t(current ^ 1)], backend->copier->vertexArray);
    current ^= 1;
}

CountTexel PopulationFragment::readCount() const {
    gl::StateGuard guard(*device, gl::ReliedFramebuffer | kPlaneTransferState);
    CountTexel words{};
    XFB_GL_COUNTED(glBindFramebuffer(GL_READ_FRAMEBUFFER, countTargets[std::size_t(current)]));
    XFB_GL_COUNTED(glReadPixels(0, 0, 1, 1, GL_RGBA_INTEGER, GL_UNSIGNED_INT, words.data()));
    XFB_GL_COUNTED(glBindFramebuffer(GL_READ_FRAMEBUFFER, 0));
    return words;
}

void PopulationFragment::packCount(GLuint pack) const {
    gl::StateGuard guard(*device, gl::ReliedFramebuffer | kPlaneTransferState);
    XFB_GL_COUNTED(glBindFramebuffer(GL_READ_FRAMEBUFFER, countTargets[std::size_t(current)]));
    XFB_GL_COUNTED(glBindBuffer(GL_PIXEL_PACK_BUFFER, pack));
    XFB_GL_COUNTED(glReadPixels(0, 0, 1, 1, GL_RGBA_INTEGER, GL_UNSIGNED_INT, nullptr));
    XFB_GL_COUNTED(glBindBuffer(GL_PIXEL_PACK_BUFFER, 0));
    XFB_GL_COUNTED(glBindFramebuffer(GL_READ_FRAMEBUFFER, 0));
}

void PopulationFragment::writeCount(const CountTexel& words) const {
    gl::StateGuard guard(*device, gl::CachedTextures | kPlaneTransferState, backend->liveUnit, 1);
    XFB_GL_COUNTED(glActiveTexture(GL_TEXTURE0 + backend->liveUnit));
    XFB_GL_COUNTED(glBindTexture(GL_TEXTURE_2D, counts[std::size_t(current)]));
    XFB_GL_COUNTED(glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 1, 1, GL_RGBA_INTEGER, GL_UNSIGNED_INT, words.data()));
    XFB_GL_COUNTED(glActiveTexture(GL_TEXTURE0));
}

FragmentBackend::SnippetValues PopulationFragment::snippetValues(DrawMode mode) const {
    if (mode != DrawMode::Points && mode != DrawMode::Lines && mode != DrawMode::Triangles)
        throw Error(ErrorCode::Unsupported,
                    plan::cat({"Population::draw(", drawModeName(mode),
                               "): on the fragment backend the live count stays on the GPU and the vertices past it "
                               "are moved out of the clip volume, whole primitives of a list only; draw points, "
                               "lines or triangles"}));
    return {GLint(backend->liveUnit), 0, 0, verticesPerPrimitive(mode)};
}

Error PopulationFragment::snippetMissing(const std::string& program) const {
    return Error(
        ErrorCode::InvalidArgument,
        plan::cat({"Population::draw: the fragment backend keeps the live count on the GPU (a texel), and ", program,
                   " does not read it; paste xfb::emittedDrawSnippet() into its vertex shader and write "
                   "gl_Position = xfb_emittedPosition(...)"}));
}

void PopulationFragment::draw(DrawMode mode, bool uniformsSet) const {
    const FragmentBackend::SnippetValues v = snippetValues(mode);
    gl::StateGuard guard(*device, gl::CachedTextures | gl::ReliedSamplers | gl::TakeForeignErrors, backend->liveUnit,
                         1);
    GLint program = 0;
    if (!uniformsSet && !gl::setEmittedSnippetUniforms(v.unit, v.row, v.component, v.perPrimitive, 0, &program))
        throw snippetMissing(plan::cat({"the bound program (GL name ", std::to_string(program), ")"}));
    bindCountTexel(backend->liveUnit, counts[std::size_t(current)]);
    XFB_GL(glDrawArrays(gl::primitiveMode(mode), 0, GLsizei(capacity)));
}

} // namespace xfb::detail
