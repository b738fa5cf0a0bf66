#pragma once
/// @file
/// @brief NOT PUBLIC API (not installed): what the npm package's replayed step needs of a
/// Pipeline and a Program. Only web/src/engine_calls.cpp (the package's webgl2/replay.ts) and the engine's tests
/// use it; an application steps with Pipeline::step().

#include "xfb/enum_tables.hpp"
#include "xfb/pipeline.hpp"
#include "xfb/program.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace xfb::detail {

/// What a steady step(1) does on the transform-feedback backend, as GL names, for a caller that
/// issues the same calls itself and then tells the pipeline (stepsReplayed()); the npm package
/// replays it from JavaScript (web/package/index.js, Xfb#recipe), without crossing into wasm.
/// One such step is the 9 calls of Pipeline::step()'s pass (step() first asks whether the
/// application's transform feedback is active, glGetBooleanv(GL_TRANSFORM_FEEDBACK_ACTIVE); a
/// replay that knows its own is not need not): glUseProgram(program); glUniform* for each
/// value changed since the GL program last had it (then uniformUploaded());
/// glBindVertexArray(vertexArrays[side]); glBindTransformFeedback(GL_TRANSFORM_FEEDBACK,
/// transformFeedbacks[side]); glEnable(GL_RASTERIZER_DISCARD); glBeginTransformFeedback(GL_POINTS);
/// glDrawArrays(GL_POINTS, 0, count); glEndTransformFeedback(); glDisable(GL_RASTERIZER_DISCARD);
/// glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, 0). The step after it uses side ^ 1.
struct StepRecipe {
    /// Empty when a step(1) may be replayed; otherwise why it must go through step() (the context
    /// is lost, the compute backend, PipelineOptions::queries, emitted outputs, a checked step
    /// pending, a buffer another pipeline also uses: its swaps would change the side).
    std::string refusal;
    unsigned program = 0;
    unsigned vertexArrays[2] = {0, 0};
    unsigned transformFeedbacks[2] = {0, 0};
    int side = 0;
    std::int64_t count = 0;
    /// The program's uniforms a step uploads when changed (all but xfb_substep, which stays 0).
    struct Uniform {
        std::string name;                    ///< without "[0]" for arrays
        int location = -1;                   ///< glGetUniformLocation
        unsigned type = 0;                   ///< GL_FLOAT_VEC3 ...: which glUniform*
        ScalarKind kind = ScalarKind::Float; ///< what Program::setUniform() takes (Int for bool and samplers)
        int components = 1;                  ///< per element (16 for mat4)
        int arraySize = 1;
    };
    std::vector<Uniform> uniforms;
};

/// The steady step(1) of `pipeline` as GL names (see StepRecipe), valid until the next call on
/// the pipeline, its program or its buffers that is not stepsReplayed() or a uniform value.
StepRecipe stepRecipe(const Pipeline& pipeline);

/// `steps` steps ran outside the pipeline as stepRecipe() described them, the last one making
/// `lastCalls` GL calls: swaps every state pair (the names, by parity; Buffer::generation()
/// grows by `steps`), advances stepsTaken() and sets lastStepGlCalls(), as step() would have.
/// @throws Error InvalidArgument (the compute backend, which has no recipe; lastCalls < 0)
void stepsReplayed(Pipeline& pipeline, std::uint64_t steps, int lastCalls);

/// Records that the GL program already holds the value of uniform `name` set last: the caller
/// uploaded it with glUniform* itself (a replayed step), so the next step does not upload it again.
/// @throws Error UnknownUniform
void uniformUploaded(Program& program, std::string_view name);

} // namespace xfb::detail
