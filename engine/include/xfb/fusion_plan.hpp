#pragma once
/// @file
/// @brief Fused substeps: whether k steps of a simulation can run inside one pass, and the
///        transform-feedback vertex shader that does it. Pure, no GL.
///
/// A simulation is *element-local* when an element's next state depends only on its own
/// attributes, per-element constants, uniforms and gl_VertexID: no sampler or texture reads, no
/// image, buffer or atomic access, no global variable that would carry a value from one substep
/// to the next. Such a program can loop its body k times with the state in registers: after each
/// substep, every captured varying that the state's output buffer holds is copied back into the
/// input that reads the same bytes (through the pass plan's layout: interleaved offsets, separate
/// buffers, int and uint included). Write-only outputs keep the last substep's values.
/// Results equal k single steps bit for bit where the driver does not contract multiply-adds
/// differently inside the loop (llvmpipe, SwiftShader).
///
/// Built-in uniform: a shader may declare `uniform int xfb_substep;` (alone in its declaration).
/// The engine sets it to the substep's index, 0 .. k-1, both when k passes run one by one and
/// inside a fused pass; a plain step() sets 0. Uniforms set by the user keep their value for all
/// k substeps (pass dt / k for a fixed frame time).

#include "xfb/capture_plan.hpp"
#include "xfb/pass_plan.hpp"
#include "xfb/shader_interface.hpp"

#include <string>
#include <string_view>

namespace xfb {

/// Whether substeps fuse, and why (not).
struct FusionDecision {
    bool fused = false;
    std::string reason;
};

/// The name of the substep built-in (`uniform int xfb_substep;`).
inline constexpr std::string_view kSubstepUniform = "xfb_substep";

/// The shader alone: element-local or the first construct that is not (named, with its line).
/// @throws Error from the reader (ShaderSyntax, Preprocessor*)
FusionDecision checkElementLocal(std::string_view vertexSource, const ReadOptions& read = {});

/// The shader with a pipeline's layout: element-local, no emitted outputs, and every word a
/// state input reads is written by a captured varying (a gap would read stale bytes).
/// @throws Error from the reader
FusionDecision checkFusion(std::string_view vertexSource, const ReadOptions& read, const PassPlan& pass,
                           const CapturePlan& capture, bool hasEmittedOutputs = false);

/// The vertex shader that runs `substeps` substeps in one transform-feedback pass: the user's
/// inputs stay attributes of the same names and locations (read once), the body runs on private
/// copies, the captured varyings are the same.
/// @throws Error InvalidArgument when checkFusion() refuses (its reason) or substeps < 1
std::string fuseVertexShader(std::string_view vertexSource, const ReadOptions& read, const PassPlan& pass,
                             const CapturePlan& capture, int substeps);

} // namespace xfb
