#pragma once
// Internal: the GLSL front-end. Tokens (plan/preprocessor.hpp) -> one typed Module, names and
// overloads resolved, expressions type-checked. Interface declarations (in, out, uniform) are
// read by readShaderInterface(); the caller gives them as symbols, so both agree on them.
#include "module.hpp"

#include "glsl_lexer.hpp"

#include <string>
#include <vector>

namespace xfb::shader {

struct InterfaceSymbol {
    std::string name;
    Type type;
    Storage storage; ///< In, Out, Uniform, Sampler or Substep
    int line = 0;
};

struct ParseInput {
    const std::vector<plan::Token>* tokens = nullptr;
    std::vector<InterfaceSymbol> interface;
    int geometryVertices = 0; ///< > 0: a geometry shader (gl_in[], EmitVertex(), ...)
};

/// @throws Error ShaderCompile ("line N: 'x' is not declared") where the GLSL itself is wrong;
///         ComputeTranslation ("WGSL: line N: ...") for constructs outside what the printers take
Module parseModule(const ParseInput& input);

} // namespace xfb::shader
