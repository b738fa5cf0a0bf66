#include "fragment/fragment_backend.hpp"

#include "gl/gl_check.hpp"
#include "gl/shader.hpp"
#include "gl/state_guard.hpp"
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

// An RGBA32UI texture of `layout` (at least one row), sampled with texelFetch only.
gl::TextureName wordTexture(const TexelLayout& layout) {
    gl::TextureName t = gl::TextureName::create();
    glBindTexture(GL_TEXTURE_2D, t);
    glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA32UI, layout.width, std::max(layout.rows, 1));
    // Integer textures are incomplete with a linear filter, and texelFetch of an incomplete texture reads 0.
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    return t;
}

const void* offset(std::int64_t bytes) { return reinterpret_cast<const void*>(std::uintptr_t(bytes)); }
void* offsetOut(std::int64_t bytes) { return reinterpret_cast<void*>(std::uintptr_t(bytes)); }

} // namespace

unsigned FragmentBackend::stepState() {
    return gl::kStepState | gl::CachedCopyBuffers | gl::CachedUnpackBuffer | gl::CachedPackBuffer |
           gl::ReliedFramebuffer | gl::CachedTextures | gl::ReliedSamplers | gl::ReliedPixelStore |
           gl::ReliedPackStore | gl::ReliedRaster;
}

void FragmentBackend::forget() {
    for (auto& p : passes) {
        p.program.forget();
        p.framebuffer.forget();
    }
    for (auto* list : {&inputTextures, &outputTextures})
        for (auto& t : *list) t.forget();
    for (auto& f : readFramebuffers) f.forget();
    for (auto& t : keptTextures) t.forget();
    vertexArray.forget();
    scratch.forget();
}

std::unique_ptr<FragmentBackend> FragmentBackend::build(const ProgramState& program, const PassPlan& plan,
                                                        std::size_t entryCount, int substeps) {
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
    options.maxDrawBuffers = std::max(1, std::min(int(maxDrawBuffers), int(maxAttachments)));
    options.substeps = substeps;
    b->shader = translateToFragment(program.desc.source, program.desc.read, plan, program.capture, entryCount, options);
    const int width = b->shader.textureWidth;

    // Texture units: the inputs' from the top of the combined range, below them the application's
    // samplers (checked at each step whose uniform values changed, see run()).
    for (std::size_t e = 0; e < entryCount; ++e)
        if (!b->shader.inputSampler[e].empty()) b->units.push_back({false, e});
    for (std::size_t o = 0; o < plan.outputs.size(); ++o)
        if (!b->shader.keptSampler[o].empty()) b->units.push_back({true, o});
    int userSamplers = 0;
    for (const auto& u : program.shader.uniforms)
        if (u.type.kind == ScalarKind::Opaque) userSamplers += std::max(1, u.arraySize);
    if (int(b->units.size()) + userSamplers > fragmentUnits)
        throw Error(ErrorCode::Unsupported,
                    cat({"program '", label, "': the fragment backend reads ", to_string(b->units.size()),
                         " buffers and the shader's ", to_string(userSamplers),
                         " samplers as textures of a fragment shader, which may sample ", to_string(fragmentUnits),
                         " (GL_MAX_TEXTURE_IMAGE_UNITS); use the transform-feedback or compute backend"}));
    b->firstUnit = GLuint(combinedUnits) - GLuint(b->units.size());

    // Textures of every buffer: their rows must fit the context's limit.
    auto layoutOf = [&](std::uint64_t bytes, std::size_t entry, const char* role) {
        TexelLayout l = texelLayout(bytes, width);
        if (l.rows > maxTexture)
            throw Error(ErrorCode::Unsupported,
                        cat({"program '", label, "': entry #", to_string(entry), "'s ", role, " (", to_string(bytes),
                             " bytes) needs ", to_string(l.rows), " rows of ", to_string(width),
                             " RGBA32UI texels in the fragment backend, over this context's GL_MAX_TEXTURE_SIZE of ",
                             to_string(maxTexture), "; use the transform-feedback or compute backend"}));
        return l;
    };
    b->inputLayouts.resize(entryCount);
    b->inputTextures.resize(entryCount);
    // Textures are created on the highest unit, not on the application's active one.
    const GLuint creationUnit = GLuint(combinedUnits) - 1;
    gl::StateGuard guard(*program.device,
                         gl::CachedProgram | gl::CachedCopyBuffers | gl::ReliedFramebuffer | gl::CachedTextures,
                         creationUnit, 1);
    glActiveTexture(GL_TEXTURE0 + creationUnit);
    for (const Unit& u : b->units) {
        if (u.kept) continue;
        const std::size_t e = u.index;
        const auto a = std::find_if(plan.attributes.begin(), plan.attributes.end(),
                                    [&](const AttributeBinding& x) { return std::size_t(x.entry) == e; });
        b->inputLayouts[e] = layoutOf(std::uint64_t(a->stride) * std::uint64_t(plan.count), e, "input");
        b->inputTextures[e] = wordTexture(b->inputLayouts[e]);
    }
    for (const auto& o : plan.outputs) {
        b->outputLayouts.push_back(layoutOf(o.bytesPerStep, std::size_t(o.entry), "output"));
        b->outputTextures.push_back(wordTexture(b->outputLayouts.back()));
        b->outputEntries.push_back(o.entry);
        const bool kept = !b->shader.keptSampler[b->outputEntries.size() - 1].empty();
        b->keptTextures.push_back(kept ? wordTexture(b->outputLayouts.back()) : gl::TextureName());
    }
    glBindTexture(GL_TEXTURE_2D, 0);
    glActiveTexture(GL_TEXTURE0);

    // One framebuffer per pass (its outputs' textures as colour attachments 0..n-1), one per output to read it.
    auto complete = [&](const char* what, std::size_t index) {
        if (GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER); status != GL_FRAMEBUFFER_COMPLETE)
            throw Error(ErrorCode::Unsupported,
                        cat({"program '", label, "': the fragment backend's framebuffer of ", what, " ",
                             to_string(index), " is not complete (status ", to_string(status),
                             "): this context cannot render into RGBA32UI textures"}));
    };
    for (std::size_t o = 0; o < plan.outputs.size(); ++o) {
        b->readFramebuffers.push_back(gl::FramebufferName::create());
        glBindFramebuffer(GL_FRAMEBUFFER, b->readFramebuffers.back());
        glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, b->outputTextures[o], 0);
        complete("output", o);
    }
    for (const auto& p : b->shader.passes) {
        Pass pass;
        pass.framebuffer = gl::FramebufferName::create();
        glBindFramebuffer(GL_FRAMEBUFFER, pass.framebuffer);
        std::vector<GLenum> drawBuffers;
        for (std::size_t j = 0; j < p.outputs.size(); ++j) {
            glFramebufferTexture2D(GL_FRAMEBUFFER, GLenum(GL_COLOR_ATTACHMENT0 + j), GL_TEXTURE_2D,
                                   b->outputTextures[std::size_t(p.outputs[j])], 0);
            drawBuffers.push_back(GLenum(GL_COLOR_ATTACHMENT0 + j));
        }
        glDrawBuffers(GLsizei(drawBuffers.size()), drawBuffers.data());
        complete("pass", b->passes.size());
        b->passes.push_back(std::move(pass));
    }
    glBindFramebuffer(GL_FRAMEBUFFER, 0);

    // The programs: the generated triangle and each pass's fragment shader.
    for (std::size_t i = 0; i < b->passes.size(); ++i) {
        Pass& pass = b->passes[i];
        const std::string what = cat({"the fragment shader generated from '", label, "' (pass ", to_string(i),
                                      "; line numbers are the vertex shader's)"});
        pass.program = gl::linkProgram({{GL_VERTEX_SHADER, b->shader.vertexSource, "the fragment backend's triangle"},
                                        {GL_FRAGMENT_SHADER, b->shader.passes[i].source, what}});
        if (auto log = gl::linkFailure(pass.program))
            throw Error(ErrorCode::ProgramLink, cat({what, " does not link: ", *log}));
        for (const auto& [name, u] : program.uniforms) {
            GLint location = glGetUniformLocation(pass.program, name.c_str());
            if (location >= 0) pass.uniforms.track(name, location);
        }
        glUseProgram(pass.program);
        for (std::size_t k = 0; k < b->units.size(); ++k) {
            const Unit& u = b->units[k];
            const std::string& name = u.kept ? b->shader.keptSampler[u.index] : b->shader.inputSampler[u.index];
            GLint location = glGetUniformLocation(pass.program, name.c_str());
            if (location >= 0) glUniform1i(location, GLint(b->firstUnit + k));
        }
        glUseProgram(0);
    }
    b->vertexArray = gl::VertexArrayName::create();
    b->scratch = gl::BufferName::create();
    glBindBuffer(GL_COPY_WRITE_BUFFER, b->scratch);
    glBufferData(GL_COPY_WRITE_BUFFER, 16, nullptr, GL_DYNAMIC_COPY);
    glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
    gl::check(cat({"building the fragment backend of '", label, "'"}).c_str());
    return b;
}

void FragmentBackend::run(const ProgramState& program, const std::vector<std::shared_ptr<BufferState>>& inputs,
                          const std::vector<std::shared_ptr<BufferState>>& outputs) {
    // The application's samplers must stay off the inputs' units (they change only with a uniform value).
    if (checkedSamplers != program.versions) {
        for (const auto& d : program.shader.uniforms) {
            if (d.type.kind != ScalarKind::Opaque) continue;
            auto it = program.uniforms.find(d.name);
            if (it == program.uniforms.end()) continue;
            for (std::size_t k = 0; k + 4 <= it->second.value.size(); k += 4) {
                GLint unit = 0;
                std::memcpy(&unit, it->second.value.data() + k, 4);
                if (unit >= GLint(firstUnit) && !units.empty())
                    throw Error(
                        ErrorCode::InvalidArgument,
                        plan::cat({"sampler '", d.name, "' of program '", program.desc.label,
                                   "' is set to texture unit ", std::to_string(unit),
                                   ", which the fragment backend uses for its input buffers (units ",
                                   std::to_string(firstUnit), "..", std::to_string(firstUnit + units.size() - 1),
                                   "); give it a unit below ", std::to_string(firstUnit)}));
            }
        }
        checkedSamplers = program.versions;
    }
    const int width = shader.textureWidth;
    XFB_GL_COUNTED(glDisable(GL_RASTERIZER_DISCARD)); // fragments are the work here
    // Inputs: whole rows, the last row's whole texels, then the last 1-3 words through the scratch
    // buffer (a pixel transfer reads whole texels, past the end of the buffer otherwise).
    for (std::size_t k = 0; k < units.size(); ++k) {
        const Unit& u = units[k];
        const TexelLayout& l = u.kept ? outputLayouts[u.index] : inputLayouts[u.index];
        const GLuint source = u.kept ? outputs[std::size_t(outputEntries[u.index])]->name : inputs[u.index]->name;
        XFB_GL_COUNTED(glActiveTexture(GLenum(GL_TEXTURE0 + firstUnit + k)));
        XFB_GL_COUNTED(glBindTexture(GL_TEXTURE_2D, u.kept ? keptTextures[u.index] : inputTextures[u.index]));
        XFB_GL_COUNTED(glBindBuffer(GL_PIXEL_UNPACK_BUFFER, source));
        if (l.fullRows)
            XFB_GL_COUNTED(glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, width, l.fullRows, GL_RGBA_INTEGER, GL_UNSIGNED_INT,
                                           offset(0)));
        if (l.lastRowTexels)
            XFB_GL_COUNTED(glTexSubImage2D(GL_TEXTURE_2D, 0, 0, l.fullRows, l.lastRowTexels, 1, GL_RGBA_INTEGER,
                                           GL_UNSIGNED_INT, offset(std::int64_t(l.fullRows) * width * 16)));
        if (l.tailWords) {
            XFB_GL_COUNTED(glBindBuffer(GL_COPY_WRITE_BUFFER, scratch));
            XFB_GL_COUNTED(glCopyBufferSubData(GL_PIXEL_UNPACK_BUFFER, GL_COPY_WRITE_BUFFER,
                                               GLintptr((l.words / 4) * 16), 0, GLsizeiptr(l.tailWords * 4)));
            XFB_GL_COUNTED(glBindBuffer(GL_COPY_WRITE_BUFFER, 0));
            XFB_GL_COUNTED(glBindBuffer(GL_PIXEL_UNPACK_BUFFER, scratch));
            XFB_GL_COUNTED(glTexSubImage2D(GL_TEXTURE_2D, 0, l.lastRowTexels, l.fullRows, 1, 1, GL_RGBA_INTEGER,
                                           GL_UNSIGNED_INT, offset(0)));
        }
    }
    if (!units.empty()) {
        XFB_GL_COUNTED(glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0));
        XFB_GL_COUNTED(glActiveTexture(GL_TEXTURE0));
    }
    XFB_GL_COUNTED(glBindVertexArray(vertexArray));
    for (std::size_t i = 0; i < passes.size(); ++i) {
        Pass& pass = passes[i];
        const FragmentPass& p = shader.passes[i];
        XFB_GL_COUNTED(glUseProgram(pass.program));
        pass.uniforms.flush(program.uniforms, program.versions);
        XFB_GL_COUNTED(glBindFramebuffer(GL_FRAMEBUFFER, pass.framebuffer));
        XFB_GL_COUNTED(glViewport(0, 0, width, p.layout.rows));
        XFB_GL_COUNTED(glDrawArrays(GL_TRIANGLES, 0, 3));
        // Each output texture into its buffer: rows, the last row's whole texels, the last words via scratch.
        for (int o : p.outputs) {
            const TexelLayout& l = outputLayouts[std::size_t(o)];
            const GLuint target = outputs[std::size_t(outputEntries[std::size_t(o)])]->name;
            XFB_GL_COUNTED(glBindFramebuffer(GL_READ_FRAMEBUFFER, readFramebuffers[std::size_t(o)]));
            XFB_GL_COUNTED(glBindBuffer(GL_PIXEL_PACK_BUFFER, target));
            if (l.fullRows)
                XFB_GL_COUNTED(glReadPixels(0, 0, width, l.fullRows, GL_RGBA_INTEGER, GL_UNSIGNED_INT, offsetOut(0)));
            if (l.lastRowTexels)
                XFB_GL_COUNTED(glReadPixels(0, l.fullRows, l.lastRowTexels, 1, GL_RGBA_INTEGER, GL_UNSIGNED_INT,
                                            offsetOut(std::int64_t(l.fullRows) * width * 16)));
            if (l.tailWords) {
                XFB_GL_COUNTED(glBindBuffer(GL_PIXEL_PACK_BUFFER, scratch));
                XFB_GL_COUNTED(
                    glReadPixels(l.lastRowTexels, l.fullRows, 1, 1, GL_RGBA_INTEGER, GL_UNSIGNED_INT, offsetOut(0)));
                XFB_GL_COUNTED(glBindBuffer(GL_COPY_WRITE_BUFFER, target));
                XFB_GL_COUNTED(glCopyBufferSubData(GL_PIXEL_PACK_BUFFER, GL_COPY_WRITE_BUFFER, 0,
                                                   GLintptr((l.words / 4) * 16), GLsizeiptr(l.tailWords * 4)));
                XFB_GL_COUNTED(glBindBuffer(GL_COPY_WRITE_BUFFER, 0));
            }
        }
    }
    XFB_GL_COUNTED(glBindBuffer(GL_PIXEL_PACK_BUFFER, 0));
    XFB_GL_COUNTED(glBindFramebuffer(GL_FRAMEBUFFER, 0));
}

} // namespace xfb::detail
