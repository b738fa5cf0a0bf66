#pragma once
// Internal: the compute backend of a Pipeline (native GL 4.3+ / ES 3.1+). The compute shader is
// generated from the Program's vertex shader (xfb::translateToCompute) for this pipeline's
// buffer layout; uniforms are the Program's values, uploaded to this program's locations.
#include "gl/state.hpp"
#include "xfb/compute_translation.hpp"

#include <map>
#include <memory>
#include <string>

namespace xfb::detail {

struct ComputePass {
    GLuint program = 0;
    ComputeShader shader;
    int workGroupSize = 0;
    GLuint groups = 0;
    std::map<std::string, std::pair<GLint, std::uint64_t>, std::less<>> uniforms; // name -> (location, applied version)
    std::uint64_t appliedVersions = 0;

    ComputePass() = default;
    ComputePass(const ComputePass&) = delete;
    ComputePass& operator=(const ComputePass&) = delete;
    ~ComputePass();

    /// @throws Error Unsupported, ComputeTranslation, ShaderCompile, ProgramLink, InvalidArgument
    static std::unique_ptr<ComputePass> build(const ProgramState& program, const PassPlan& plan, std::size_t entryCount,
                                              const Capabilities& caps, int requestedGroupSize);
    /// One pass: glUseProgram, changed uniforms, glBindBufferBase(GL_SHADER_STORAGE_BUFFER) for
    /// each entry's current input and output, glDispatchCompute, glMemoryBarrier.
    /// Returns the number of GL calls made.
    int dispatch(const ProgramState& program, const std::vector<std::shared_ptr<BufferState>>& inputs,
                 const std::vector<std::shared_ptr<BufferState>>& outputs);

private:
    int flushUniforms(const ProgramState& program);
};

} // namespace xfb::detail
