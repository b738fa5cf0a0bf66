#include "compute/compute_pass.hpp"

#include "gl/gl_check.hpp"
#include "gl/shader.hpp"
#include "xfb/error.hpp"

#include <algorithm>
#include <cstring>

namespace xfb::detail {

#ifdef __EMSCRIPTEN__ // WebGL2 has no compute shaders: the pipeline keeps transform feedback.
ComputePass::~ComputePass() = default;
std::unique_ptr<ComputePass> ComputePass::build(const ProgramState&, const PassPlan&, std::size_t, const Capabilities& caps, int) {
    throw Error(ErrorCode::Unsupported, "the compute backend needs OpenGL 4.3+ or OpenGL ES 3.1+; this context is '" + caps.version +
                                            "' (WebGL2 has no compute shaders). Use the transform-feedback backend");
}
int ComputePass::dispatch(const ProgramState&, const std::vector<std::shared_ptr<BufferState>>&, const std::vector<std::shared_ptr<BufferState>>&) { return 0; }
int ComputePass::flushUniforms(const ProgramState&) { return 0; }
#else

ComputePass::~ComputePass() {
    if (program) glDeleteProgram(program);
}


std::unique_ptr<ComputePass> ComputePass::build(const ProgramState& program, const PassPlan& plan, std::size_t entryCount, const Capabilities& caps,
                                                int requestedGroupSize) {
    const std::string& label = program.desc.label;
    if (!caps.compute)
        throw Error(ErrorCode::Unsupported, "the compute backend needs OpenGL 4.3+ or OpenGL ES 3.1+; this context is '" + caps.version +
                                                "'. Use the transform-feedback backend");
    int maxGroup = std::min(caps.maxComputeGroupSizeX, caps.maxComputeInvocations);
    int groupSize = requestedGroupSize > 0 ? requestedGroupSize : std::min(256, maxGroup);
    if (groupSize > maxGroup)
        throw Error(ErrorCode::InvalidArgument, "work-group size " + std::to_string(groupSize) + " exceeds this device's limit of " +
                                                    std::to_string(maxGroup) + " (GL_MAX_COMPUTE_WORK_GROUP_SIZE / _INVOCATIONS)");
    auto pass = std::make_unique<ComputePass>();
    pass->workGroupSize = groupSize;
    pass->shader = translateToCompute(program.desc.source, program.desc.read, plan, program.capture, entryCount, {caps.es, groupSize});
    if (pass->shader.bindingCount > caps.maxComputeStorageBlocks)
        throw Error(ErrorCode::Unsupported, "program '" + label + "' needs " + std::to_string(pass->shader.bindingCount) +
                                                " shader storage buffers in the compute backend but this device allows " +
                                                std::to_string(caps.maxComputeStorageBlocks) + "; use the transform-feedback backend");
    pass->groups = GLuint((plan.count + groupSize - 1) / groupSize);

    GLuint cs = gl::compileShader(GL_COMPUTE_SHADER, pass->shader.source,
                                  "the compute shader generated from '" + label + "' (line numbers are the vertex shader's)");
    pass->program = glCreateProgram();
    glAttachShader(pass->program, cs);
    glLinkProgram(pass->program);
    glDetachShader(pass->program, cs);
    glDeleteShader(cs);
    GLint ok = 0;
    glGetProgramiv(pass->program, GL_LINK_STATUS, &ok);
    if (!ok) throw Error(ErrorCode::ProgramLink, "the compute program generated from '" + label + "' does not link: " + gl::infoLog(pass->program, true));

    for (const auto& [name, u] : program.uniforms) {
        GLint location = glGetUniformLocation(pass->program, name.c_str());
        if (location >= 0) pass->uniforms[name] = {location, 0};
    }
    GLint countLocation = glGetUniformLocation(pass->program, pass->shader.countUniform.c_str());
    glUseProgram(pass->program);
    glUniform1ui(countLocation, GLuint(plan.count));
    glUseProgram(0);
    gl::check(("building the compute backend of '" + label + "'").c_str());
    return pass;
}

int ComputePass::flushUniforms(const ProgramState& program) {
    if (appliedVersions == program.versions) return 0;
    int calls = 0;
    for (auto& [name, slot] : uniforms) {
        const Uniform& u = program.uniforms.find(name)->second;
        if (slot.second != u.version && !u.value.empty()) {
            uploadUniform(slot.first, u.type, u.components, u.value);
            slot.second = u.version;
            ++calls;
        }
    }
    appliedVersions = program.versions;
    return calls;
}

int ComputePass::dispatch(const ProgramState& program, const std::vector<std::shared_ptr<BufferState>>& inputs,
                          const std::vector<std::shared_ptr<BufferState>>& outputs) {
    glUseProgram(this->program);
    int calls = 3 + flushUniforms(program); // use, dispatch, barrier
    for (std::size_t e = 0; e < inputs.size(); ++e) {
        if (int b = shader.readBinding[e]; b >= 0) glBindBufferBase(GL_SHADER_STORAGE_BUFFER, GLuint(b), inputs[e]->name), ++calls;
        if (int b = shader.writeBinding[e]; b >= 0) glBindBufferBase(GL_SHADER_STORAGE_BUFFER, GLuint(b), outputs[e]->name), ++calls;
    }
    glDispatchCompute(groups, 1, 1);
    // Whoever reads next: vertex fetch (a draw or a transform-feedback step), transform feedback
    // writing over these buffers (a backend switch), the next dispatch, or a readback.
    glMemoryBarrier(GL_VERTEX_ATTRIB_ARRAY_BARRIER_BIT | GL_SHADER_STORAGE_BARRIER_BIT | GL_TRANSFORM_FEEDBACK_BARRIER_BIT |
                    GL_BUFFER_UPDATE_BARRIER_BIT | GL_ELEMENT_ARRAY_BARRIER_BIT);
    return calls;
}
#endif

} // namespace xfb::detail
