#pragma once
// Internal: GLSL's built-in functions as the front-end knows them: which exist, and the type each
// call returns from its arguments' types. Shared by the parser (typing) and the printers.
#include "module.hpp"

#include <optional>
#include <string_view>
#include <vector>

namespace xfb::shader {

/// The type a call of built-in `name` with these argument types returns, nullopt when `name` is
/// not a built-in function this front-end knows. Refuses (ComputeTranslation) a known built-in
/// called with arguments it does not take.
std::optional<Type> builtinCall(std::string_view name, const std::vector<Type>& args, Span at);

/// The first argument a built-in writes (its `out` parameters run from there to the last:
/// modf's whole part, frexp's exponent, uaddCarry's carry, usubBorrow's borrow, umulExtended's /
/// imulExtended's msb and lsb), or -1.
int builtinOutArgument(std::string_view name);

/// The number of arguments of a built-in with out arguments (builtinOutArgument() >= 0).
int builtinArgumentCount(std::string_view name);

/// The form of a sampling built-in (texture(), textureLod(), textureProjGradOffset(), ...): the
/// arguments it takes after the sampler and the coordinate, in this order, and whether the
/// coordinate is projective.
struct SamplingForm {
    bool proj = false, lod = false, grad = false, offset = false;
};
SamplingForm samplingForm(std::string_view name);

/// Built-ins no printer translates (derivatives): why, or nullopt.
std::optional<std::string> refusedBuiltin(std::string_view name);

} // namespace xfb::shader
