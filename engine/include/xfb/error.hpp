#pragma once
/// @file
/// @brief Error codes and the exception every xfb failure is reported with.
///
/// Every failure has a stable code (its name, e.g. `XFB_SEPARATE_COMPONENTS`, never changes
/// meaning once released) and a message that names the offending thing and says how to fix it.
/// A function that throws leaves every object it was given as it was: a failed step keeps the
/// previous state.

#include <stdexcept>
#include <string>
#include <string_view>

namespace xfb {

/// Stable error codes. The comment says what provokes each one.
enum class ErrorCode {
    // Shader declaration reader (pure).
    ShaderSyntax,               ///< a global declaration could not be read
    PreprocessorDirective,      ///< unbalanced #if/#endif, malformed directive, or an active #error
    PreprocessorUnevaluable,    ///< an #if expression uses something that cannot be evaluated offline
    ConstantExpression,         ///< integer arithmetic (#if, array size, location) overflows 64 bits, divides
                                ///< by zero, shifts out of range, or a literal / #line / #version number is too large
    // Reader limits (xfb/limits.hpp): hostile or generated input stops here, never crashes or hangs.
    SourceTooLarge,             ///< the source is longer than limits::maxSourceBytes
    ExpansionLimit,             ///< macro expansion produces more than limits::maxTokens tokens
    NestingDepth,               ///< parentheses, unary operators, #if blocks, structs or macro chains
                                ///< nested deeper than limits::maxNestingDepth
    TooManyDeclarations,        ///< more than limits::maxDeclarations global in/out/uniform declarations
    ArraySize,                  ///< an array size over limits::maxArraySize, or a declaration of more than
                                ///< limits::maxDeclarationComponents scalar components
    // Attribute semantics.
    AttributeType,              ///< an input of a type that cannot be a vertex attribute (bool, struct, double)
    AttributeLocationCollision, ///< two inputs claim the same attribute location
    MixedSemantics,             ///< standard names (vertex_position...) mixed with custom names
    TooManyAttributes,          ///< inputs need more slots than MAX_VERTEX_ATTRIBS
    // Capture plan.
    NoCapturedVaryings,         ///< nothing to capture: no explicit list and no `out_` output
    UnknownVarying,             ///< a captured name is not an output of the shader
    DuplicateVarying,           ///< a name appears twice in the capture list
    VaryingType,                ///< a captured output of a type transform feedback cannot capture
    SeparateComponents,         ///< separate mode: a varying over 4 components (portable guarantee)
    SeparateComponentsDriver,   ///< separate mode: a varying over the driver's MAX_..._SEPARATE_COMPONENTS
    SeparateAttribs,            ///< separate mode: more varyings than MAX_..._SEPARATE_ATTRIBS
    InterleavedComponents,      ///< interleaved mode: total over MAX_..._INTERLEAVED_COMPONENTS
    VaryingOptimizedAway,       ///< the linker did not keep a captured varying (checked after link)
    // Compute path.
    ComputeTranslation,         ///< a construct the compute translation cannot express (named)
    // Buffers and roles.
    FormatInvalid,              ///< a vertex format with overlapping or out-of-stride attributes
    RoleEmpty,                  ///< a buffer entry with neither input nor output
    OutputCountMismatch,        ///< output entries do not match the captured varyings
    SemanticMissing,            ///< a shader input that no input buffer provides
    SemanticDuplicate,          ///< two input buffers provide the same semantic
    SemanticUnused,             ///< an input buffer provides a semantic the shader does not read
    SemanticTypeMismatch,       ///< a buffer attribute's type/components differ from the shader input
    StateFormatMismatch,        ///< the two buffers of a state pair have different formats or sizes
    OutputLayoutMismatch,       ///< an output buffer's format disagrees with what is captured into it
    CountMismatch,              ///< buffers hold different element counts
    BufferSize,                 ///< a buffer size that is not a whole number of elements
    Capacity,                   ///< an output buffer too small for count x stride
    BufferTooLarge,             ///< count x stride overflows, or exceeds the buffer limit (2^31-1 bytes in WebGL2)
    // Running.
    ShortWrite,                 ///< a checked step wrote fewer records than expected; not swapped
    ShaderCompile,              ///< the GL compiler rejected the shader (log included)
    ProgramLink,                ///< the GL linker rejected the program (log included)
    UnknownUniform,             ///< the shader declares no uniform of that name
    UniformType,                ///< value type differs from the uniform's declared type
    GlError,                    ///< a GL call raised an error
    ContextCreation,            ///< no GL/GLES context could be created
    Unsupported,                ///< the current context lacks a needed version or extension
    InvalidArgument,            ///< a count, size or index out of range
    Disposed,                   ///< an object used after it was disposed or moved from
    ContextLost,                ///< the GL context is lost; wait for its restoration
    Scenario,                   ///< an xfb-run scenario file is invalid (names the field)
    // Files and the last resort (command-line tools, bindings).
    FileRead,                   ///< a file is missing, a directory, or cannot be read
    FileWrite,                  ///< an output file or folder cannot be written
    OutOfMemory,                ///< an allocation failed (std::bad_alloc)
    Internal,                   ///< an unexpected exception, caught at the last resort; a bug: please report it
};

/// The stable name of a code, e.g. "XFB_SEPARATE_COMPONENTS".
std::string_view errorCodeName(ErrorCode code);

/// The one exception type xfb throws. `what()` is "CODE_NAME: message".
class Error : public std::runtime_error {
public:
    Error(ErrorCode code, const std::string& message);
    ErrorCode code() const noexcept { return code_; }
    /// The message without the code prefix.
    const std::string& message() const noexcept { return message_; }

private:
    ErrorCode code_;
    std::string message_;
};

} // namespace xfb
