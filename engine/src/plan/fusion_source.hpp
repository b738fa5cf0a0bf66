#pragma once
// Internal: the parts of a fused shader that the transform-feedback and compute generators share.

#include "shader/glsl_lexer.hpp"
#include "xfb/capture_plan.hpp"
#include "xfb/pass_plan.hpp"
#include "xfb/shader_interface.hpp"

#include <functional>
#include <string>
#include <vector>

namespace xfb::plan {

/// The global statement tokens[start, end) (end: its ';') is `uniform int xfb_substep;`, which a
/// fused shader replaces by a plain global the loop assigns.
bool declaresSubstepUniform(const std::vector<Token>& tokens, std::size_t start, std::size_t end);

/// GLSL statements, one per line with `indent`, that copy a substep's captured varyings into the
/// inputs that read the same bytes of the same state entry.
/// `inputName` / `varyingName` give the variable each side is held in. Returns nothing and sets
/// `refusal` when a word a state input reads is written by no captured varying.
std::string substepFeedback(const ShaderInterface& shader, const PassPlan& pass, const CapturePlan& capture,
                            const std::function<std::string(const std::string&)>& inputName,
                            const std::function<std::string(const std::string&)>& varyingName,
                            const std::string& indent, std::string& refusal);

} // namespace xfb::plan
