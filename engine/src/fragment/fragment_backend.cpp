#include "fragment/fragment_backend.hpp"

#include "gl/gl_check.hpp"
#include "gl/shader.hpp"
#include "plan/histopyramid_translation.hpp"
#include "plan/text.hpp"
#include "xfb/error.hpp"

#include <algorithm>
#include <cstring>

namespace xfb::detail {

namespace {

GLint getInt(GLenum name) {
    GLint v = 0;
    glGetIntegerv(name, &v);
    return v;
}

// The planes of a buffer whose mirror this step's mirrorOf() made or kept: a copier's mirrors are PlaneMirrors.
const PlaneMirror& planesOf(const BufferState& b) { return static_cast<const PlaneMirror&>(*b.bound.mirror); }

} // namespace

void FragmentBackend::forget() {
    for (auto& p : passes) {
        p.program.forget();
        for (auto& t : p.targets) t.framebuffer.forget();
    }
    for (auto& k : kept)
        if (k) k->forget();
    for (auto& p : emitPasses) {
        p.program.forget();
        for (auto& t : p.targets) t.framebuffer.forget();
    }
}

std::unique_ptr<FragmentBackend> FragmentBackend::build(const ProgramState& program, const PassPlan& plan,
                                                        std::size_t entryCount, int substeps,
                                                        const FragmentBackend* sibling, const EmitPlan* emits,
                                                        bool liveCount) {
    using plan::cat; // messages appended out of line (plan/text.hpp): smaller than `a + b` chains in wasm
    using std::to_string;
    const std::string& label = program.desc.label;
    const GLint maxTexture = getInt(GL_MAX_TEXTURE_SIZE), maxDrawBuffers = getInt(GL_MAX_DRAW_BUFFERS),
                maxAttachments = getInt(GL_MAX_COLOR_ATTACHMENTS),
                combinedUnits = getInt(GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS),
                fragmentUnits = getInt(GL_MAX_TEXTURE_IMAGE_UNITS);
    auto b = std::make_unique<FragmentBackend>();
    b->enroll(program.device);
    FragmentTranslationOptions options;
    options.textureWidth = std::min(4096, int(maxTexture));
    options.maxDrawBuffers = std::max(1, std::min({int(maxDrawBuffers), int(maxAttachments), 16}));
    options.substeps = substeps;
    if (emits) b->emits = *emits;
    options.emits = &b->emits;
    options.liveCount = liveCount;
    b->liveCount = liveCount;
    b->shader = translateToFragment(program.desc.source, program.desc.read, plan, program.capture, entryCount, options);
    const int width = b->shader.textureWidth;

    // Every buffer's planes and its linear copy: their rows must fit the context's limit.
    std::int64_t linearTexels = 1;
    int planes = 1;
    auto layoutOf = [&](int stride, std::size_t entry, const char* role) {
        const PlaneLayout l = planeLayout(stride, plan.count, width);
        const TexelLayout t = texelLayout(std::uint64_t(stride) * std::uint64_t(plan.count), width);
        if (std::max(l.rows, t.rows) > maxTexture)
            throw Error(ErrorCode::Unsupported,
                        cat({"program '", label, "': entry #", to_string(entry), "'s ", role, " (",
                             to_string(plan.count), " records of ", to_string(stride), " bytes) needs ",
                             to_string(std::max(l.rows, t.rows)), " rows of ", to_string(width),
                             " RGBA32UI texels in the fragment backend, over this context's GL_MAX_TEXTURE_SIZE of ",
                             to_string(maxTexture), "; use the transform-feedback or compute backend"}));
        linearTexels = std::max(linearTexels, t.texels);
        planes = std::max(planes, l.planes);
        return l;
    };
    b->inputLayouts.resize(entryCount);
    for (const auto& a : plan.attributes)
        b->inputLayouts[std::size_t(a.entry)] = layoutOf(a.stride, std::size_t(a.entry), "input");
    for (const auto& o : plan.outputs) {
        b->outputLayouts.push_back(layoutOf(o.stride, std::size_t(o.entry), "output"));
        b->outputEntries.push_back(o.entry);
    }
    for (const auto& o : b->emits.outputs) { // records up to the capacity
        const PlaneLayout l = planeLayout(o.stride, o.capacity, width);
        const TexelLayout t = texelLayout(std::uint64_t(o.stride) * std::uint64_t(o.capacity), width);
        if (std::max(l.rows, t.rows) > maxTexture)
            throw Error(ErrorCode::Unsupported,
                        cat({"program '", label, "': entry #", to_string(o.entry), " (emitting ", o.varying, ", ",
                             to_string(o.capacity), " records of ", to_string(o.stride), " bytes) needs ",
                             to_string(std::max(l.rows, t.rows)), " rows of ", to_string(width),
                             " RGBA32UI texels in the fragment backend, over this context's GL_MAX_TEXTURE_SIZE of ",
                             to_string(maxTexture), "; give it a smaller buffer or use the compute backend"}));
        linearTexels = std::max(linearTexels, t.texels);
    }

    // Texture units: the planes the passes sample (and the copies') from the top of the combined
    // range, below them the application's samplers (checked at each step whose uniform values changed).
    for (std::size_t e = 0; e < entryCount; ++e)
        for (std::size_t p = 0; p < b->shader.inputSamplers[e].size(); ++p)
            if (!b->shader.inputSamplers[e][p].empty()) b->units.push_back({false, e, int(p)});
    for (std::size_t o = 0; o < plan.outputs.size(); ++o)
        for (std::size_t p = 0; p < b->shader.keptSamplers[o].size(); ++p)
            if (!b->shader.keptSamplers[o][p].empty()) b->units.push_back({true, o, int(p)});
    b->unitCount = GLuint(std::max<std::size_t>(b->units.size(), std::size_t(planes)));
    // A population's live count above them (its offset fixed below, with firstUnit).
    const GLuint liveOffset = b->unitCount;
    if (liveCount) ++b->unitCount;
    // The pyramid's atlases above the planes' units: 2 per group of 4 budgets.
    const GLuint pyramidUnits = GLuint(2 * b->shader.emits.pyramid.groups);
    b->unitCount += pyramidUnits;
    int userSamplers = 0;
    for (const auto& u : program.shader.uniforms)
        if (u.type.kind == ScalarKind::Opaque) userSamplers += std::max(1, u.arraySize);
    if (int(b->unitCount) + userSamplers > fragmentUnits)
        throw Error(ErrorCode::Unsupported,
                    cat({"program '", label, "': the fragment backend samples ", to_string(b->unitCount),
                         " planes of its buffers and the shader's ", to_string(userSamplers),
                         " samplers as textures of a fragment shader, which may sample ", to_string(fragmentUnits),
                         " (GL_MAX_TEXTURE_IMAGE_UNITS); use the transform-feedback or compute backend"}));
    b->firstUnit = GLuint(combinedUnits) - b->unitCount;
    if (liveCount) b->liveUnit = b->firstUnit + liveOffset;

    gl::StateGuard guard(*program.device, kPlaneDrawState | kPlaneTransferState, b->firstUnit, b->unitCount);
    if (sibling && sibling->firstUnit == b->firstUnit && sibling->copier->width == width)
        b->copier = sibling->copier;
    else
        b->copier =
            PlaneCopier::create(program.device, b->shader, options.maxDrawBuffers, planes, b->firstUnit, linearTexels);
    b->kept.resize(plan.outputs.size());
    for (std::size_t o = 0; o < plan.outputs.size(); ++o)
        if (std::any_of(b->shader.keptSamplers[o].begin(), b->shader.keptSamplers[o].end(),
                        [](const std::string& s) { return !s.empty(); }))
            b->kept[o] = b->copier->mirror(program.device, b->outputLayouts[o]);

    // The programs: the generated triangle and each pass's fragment shader.
    for (std::size_t i = 0; i < b->shader.passes.size(); ++i)
        b->passes.push_back(b->link(program, b->shader.passes[i].source,
                                    cat({"the fragment shader generated from '", label, "' (pass ", to_string(i),
                                         "; line numbers are the vertex shader's)"})));
    if (!b->shader.emits.empty()) b->buildEmits(program, maxTexture);
    gl::check(cat({"building the fragment backend of '", label, "'"}).c_str());
    return b;
}

FragmentBackend::Pass FragmentBackend::link(const ProgramState& program, const std::string& source,
                                            const std::string& what, int group) const {
    Pass pass;
    pass.program = gl::linkProgram({{GL_VERTEX_SHADER, shader.vertexSource, "the fragment backend's triangle"},
                                    {GL_FRAGMENT_SHADER, source, what}});
    if (auto log = gl::linkFailure(pass.program))
        throw Error(ErrorCode::ProgramLink, plan::cat({what, " does not link: ", *log}));
    for (const auto& [name, u] : program.uniforms) {
        GLint location = glGetUniformLocation(pass.program, name.c_str());
        if (location >= 0) pass.uniforms.track(name, location);
    }
    glUseProgram(pass.program);
    for (std::size_t k = 0; k < units.size(); ++k) {
        const Unit& u = units[k];
        const std::string& name = (u.kept ? shader.keptSamplers : shader.inputSamplers)[u.index][std::size_t(u.plane)];
        GLint location = glGetUniformLocation(pass.program, name.c_str());
        if (location >= 0) glUniform1i(location, GLint(firstUnit + k));
    }
    if (liveCount)
        if (GLint location = glGetUniformLocation(pass.program, plan::kLiveCountSampler); location >= 0)
            glUniform1i(location, GLint(liveUnit));
    if (group >= 0)
        for (int parity = 0; parity < 2; ++parity) {
            GLint location = glGetUniformLocation(pass.program, parity ? "xfb_pyramid1" : "xfb_pyramid0");
            if (location >= 0) glUniform1i(location, GLint(pyramid->firstUnit) + 2 * group + parity);
        }
    glUseProgram(0);
    return pass;
}

void FragmentBackend::bindTargets(Pass& pass, const ProgramState& program, const char* what) {
    auto found =
        std::find_if(pass.targets.begin(), pass.targets.end(), [&](const Pass::Target& t) { return t.serials == key; });
    if (found != pass.targets.end()) {
        XFB_GL_COUNTED(glBindFramebuffer(GL_FRAMEBUFFER, found->framebuffer));
        return;
    }
    // A new side: its framebuffer (a state pair has two; a few are kept, the oldest dropped).
    if (pass.targets.size() >= 4) pass.targets.erase(pass.targets.begin());
    pass.targets.push_back({key, gl::FramebufferName::create()});
    XFB_GL_COUNTED(glBindFramebuffer(GL_FRAMEBUFFER, pass.targets.back().framebuffer));
    GLenum drawBuffers[16] = {};
    for (std::size_t j = 0; j < attachments.size(); ++j) {
        XFB_GL_COUNTED(
            glFramebufferTexture2D(GL_FRAMEBUFFER, GLenum(GL_COLOR_ATTACHMENT0 + j), GL_TEXTURE_2D, attachments[j], 0));
        drawBuffers[j] = GLenum(GL_COLOR_ATTACHMENT0 + j);
    }
    XFB_GL_COUNTED(glDrawBuffers(GLsizei(attachments.size()), drawBuffers));
    if (GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER); status != GL_FRAMEBUFFER_COMPLETE)
        throw Error(
            ErrorCode::Unsupported,
            plan::cat({"program '", program.desc.label, "': the fragment backend's framebuffer of ", what,
                       " is not complete (status ", std::to_string(status), "): this context cannot render into ",
                       std::to_string(attachments.size()), " RGBA32UI textures at once"}));
}

PlaneMirror& FragmentBackend::mirrorOf(BufferState& b, const PlaneLayout& layout) {
    auto* m = b.bound.mirror.get();
    if (m && !m->dead && m->maker == copier.get() && static_cast<PlaneMirror*>(m)->layout == layout)
        return *static_cast<PlaneMirror*>(m);
    b.settle(); // its bytes, before the mirror that holds them goes
    b.bound.mirror = copier->mirror(b.device, layout);
    b.bound.current = b.bound.stale = false;
    return *static_cast<PlaneMirror*>(b.bound.mirror.get());
}

PlaneMirror& FragmentBackend::inputPlanes(BufferState& b, std::size_t entry) {
    PlaneMirror& m = mirrorOf(b, inputLayouts[entry]);
    if (!b.bound.current || b.bound.exposed) {
        copier->upload(b.name, m);
        b.bound.current = true;
    }
    return m;
}

void FragmentBackend::inputWritten(BufferState& b) {
    const PlaneMirror& m = planesOf(b);
    b.bound.current = true;
    b.bound.stale = !b.bound.exposed;
    if (b.bound.exposed) copier->writeBack(m, b.name, 0, m.layout.count);
}

void FragmentBackend::run(const ProgramState& program, const std::vector<std::shared_ptr<BufferState>>& inputs,
                          const std::vector<std::shared_ptr<BufferState>>& outputs, GLuint liveCountTexture) {
    // The application's samplers must stay off the backend's units (they change only with a uniform value).
    if (checkedSamplers != program.versions) {
        for (const auto& d : program.shader.uniforms) {
            if (d.type.kind != ScalarKind::Opaque) continue;
            auto it = program.uniforms.find(d.name);
            if (it == program.uniforms.end()) continue;
            for (std::size_t k = 0; k + 4 <= it->second.value.size(); k += 4) {
                GLint unit = 0;
                std::memcpy(&unit, it->second.value.data() + k, 4);
                if (unit >= GLint(firstUnit))
                    throw Error(ErrorCode::InvalidArgument,
                                plan::cat({"sampler '", d.name, "' of program '", program.desc.label,
                                           "' is set to texture unit ", std::to_string(unit),
                                           ", which the fragment backend uses for its buffers' planes (units ",
                                           std::to_string(firstUnit), "..", std::to_string(firstUnit + unitCount - 1),
                                           "); give it a unit below ", std::to_string(firstUnit)}));
            }
        }
        checkedSamplers = program.versions;
    }
    XFB_GL_COUNTED(glDisable(GL_RASTERIZER_DISCARD)); // fragments are the work here
    // Inputs: copied into their planes unless these hold the buffer's bytes already; a handed-out
    // buffer may have been written behind xfb's back, so it is copied.
    for (std::size_t e = 0; e < inputs.size(); ++e) {
        if (!inputLayouts[e].planes) continue;
        BufferState& b = *inputs[e];
        PlaneMirror& m = mirrorOf(b, inputLayouts[e]);
        if (!b.bound.current || b.bound.exposed) {
            copier->upload(b.name, m);
            b.bound.current = true;
            // A state pair's name is the pipeline's again: the application takes the latest one
            // after each step (Buffer::glName()); a constant buffer's name stays handed out, and
            // so does an adopted one (its engine draws it without asking).
            if (outputs[e] && !b.bound.adopted) b.bound.exposed = false;
        }
    }
    // Gaps of a declared layout keep the output buffer's bytes: its planes before the step.
    for (std::size_t o = 0; o < kept.size(); ++o)
        if (kept[o]) {
            BufferState& b = *outputs[std::size_t(outputEntries[o])];
            b.settle();
            copier->upload(b.name, *kept[o]);
        }
    for (std::size_t o = 0; o < outputLayouts.size(); ++o)
        (void)mirrorOf(*outputs[std::size_t(outputEntries[o])], outputLayouts[o]);
    if (pyramid) prepareEmitted(outputs);
    for (std::size_t k = 0; k < units.size(); ++k) {
        const Unit& u = units[k];
        const PlaneMirror& m = u.kept ? *kept[u.index] : planesOf(*inputs[u.index]);
        XFB_GL_COUNTED(glActiveTexture(GLenum(GL_TEXTURE0 + firstUnit + k)));
        XFB_GL_COUNTED(glBindTexture(GL_TEXTURE_2D, m.planes[std::size_t(u.plane)]));
    }
    if (liveCountTexture) {
        XFB_GL_COUNTED(glActiveTexture(GL_TEXTURE0 + liveUnit));
        XFB_GL_COUNTED(glBindTexture(GL_TEXTURE_2D, liveCountTexture));
    }
    if (!units.empty() || liveCountTexture) XFB_GL_COUNTED(glActiveTexture(GL_TEXTURE0));
    XFB_GL_COUNTED(glBindVertexArray(copier->vertexArray));
    for (std::size_t i = 0; i < passes.size(); ++i) {
        Pass& pass = passes[i];
        const auto& targets = shader.passes[i].targets;
        key.clear();
        attachments.clear();
        for (const auto& t : targets) {
            const PlaneMirror& m = planesOf(*outputs[std::size_t(outputEntries[std::size_t(t.output)])]);
            key.push_back(m.serial);
            attachments.push_back(m.planes[std::size_t(t.plane)]);
        }
        XFB_GL_COUNTED(glUseProgram(pass.program));
        pass.uniforms.flush(program.uniforms, program.versions);
        bindTargets(pass, program, "a pass");
        XFB_GL_COUNTED(glViewport(0, 0, shader.textureWidth, shader.rows));
        XFB_GL_COUNTED(glDrawArrays(GL_TRIANGLES, 0, 3));
    }
    if (pyramid) runEmits(program, outputs);
    XFB_GL_COUNTED(glBindFramebuffer(GL_FRAMEBUFFER, 0));
    // The outputs' planes hold the step; a handed-out buffer gets it now, the others when read.
    for (std::size_t o = 0; o < outputLayouts.size(); ++o) {
        BufferState& b = *outputs[std::size_t(outputEntries[o])];
        b.bound.current = true;
        b.bound.stale = !b.bound.exposed;
        if (b.bound.exposed) copier->writeBack(planesOf(b), b.name, 0, outputLayouts[o].count);
    }
}

} // namespace xfb::detail
