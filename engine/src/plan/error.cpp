#include "xfb/error.hpp"

namespace xfb {

std::string_view errorCodeName(ErrorCode code) {
    switch (code) {
    case ErrorCode::ShaderSyntax: return "XFB_SHADER_SYNTAX";
    case ErrorCode::PreprocessorDirective: return "XFB_PREPROCESSOR_DIRECTIVE";
    case ErrorCode::PreprocessorUnevaluable: return "XFB_PREPROCESSOR_UNEVALUABLE";
    case ErrorCode::ConstantExpression: return "XFB_CONSTANT_EXPRESSION";
    case ErrorCode::SourceTooLarge: return "XFB_SOURCE_TOO_LARGE";
    case ErrorCode::ExpansionLimit: return "XFB_EXPANSION_LIMIT";
    case ErrorCode::NestingDepth: return "XFB_NESTING_DEPTH";
    case ErrorCode::TooManyDeclarations: return "XFB_TOO_MANY_DECLARATIONS";
    case ErrorCode::ArraySize: return "XFB_ARRAY_SIZE";
    case ErrorCode::AttributeType: return "XFB_ATTRIBUTE_TYPE";
    case ErrorCode::AttributeLocationCollision: return "XFB_ATTRIBUTE_LOCATION_COLLISION";
    case ErrorCode::MixedSemantics: return "XFB_MIXED_SEMANTICS";
    case ErrorCode::TooManyAttributes: return "XFB_TOO_MANY_ATTRIBUTES";
    case ErrorCode::NoCapturedVaryings: return "XFB_NO_CAPTURED_VARYINGS";
    case ErrorCode::UnknownVarying: return "XFB_UNKNOWN_VARYING";
    case ErrorCode::DuplicateVarying: return "XFB_DUPLICATE_VARYING";
    case ErrorCode::VaryingType: return "XFB_VARYING_TYPE";
    case ErrorCode::SeparateComponents: return "XFB_SEPARATE_COMPONENTS";
    case ErrorCode::SeparateComponentsDriver: return "XFB_SEPARATE_COMPONENTS_DRIVER";
    case ErrorCode::SeparateAttribs: return "XFB_SEPARATE_ATTRIBS";
    case ErrorCode::InterleavedComponents: return "XFB_INTERLEAVED_COMPONENTS";
    case ErrorCode::VaryingOptimizedAway: return "XFB_VARYING_OPTIMIZED_AWAY";
    case ErrorCode::ComputeTranslation: return "XFB_COMPUTE_TRANSLATION";
    case ErrorCode::FormatInvalid: return "XFB_FORMAT_INVALID";
    case ErrorCode::RoleEmpty: return "XFB_ROLE_EMPTY";
    case ErrorCode::OutputCountMismatch: return "XFB_OUTPUT_COUNT_MISMATCH";
    case ErrorCode::SemanticMissing: return "XFB_SEMANTIC_MISSING";
    case ErrorCode::SemanticDuplicate: return "XFB_SEMANTIC_DUPLICATE";
    case ErrorCode::SemanticUnused: return "XFB_SEMANTIC_UNUSED";
    case ErrorCode::SemanticTypeMismatch: return "XFB_SEMANTIC_TYPE_MISMATCH";
    case ErrorCode::StateFormatMismatch: return "XFB_STATE_FORMAT_MISMATCH";
    case ErrorCode::OutputLayoutMismatch: return "XFB_OUTPUT_LAYOUT_MISMATCH";
    case ErrorCode::CountMismatch: return "XFB_COUNT_MISMATCH";
    case ErrorCode::BufferSize: return "XFB_BUFFER_SIZE";
    case ErrorCode::Capacity: return "XFB_CAPACITY";
    case ErrorCode::BufferTooLarge: return "XFB_BUFFER_TOO_LARGE";
    case ErrorCode::ShortWrite: return "XFB_SHORT_WRITE";
    case ErrorCode::ShaderCompile: return "XFB_SHADER_COMPILE";
    case ErrorCode::ProgramLink: return "XFB_PROGRAM_LINK";
    case ErrorCode::UnknownUniform: return "XFB_UNKNOWN_UNIFORM";
    case ErrorCode::UniformType: return "XFB_UNIFORM_TYPE";
    case ErrorCode::GlError: return "XFB_GL_ERROR";
    case ErrorCode::ContextCreation: return "XFB_CONTEXT_CREATION";
    case ErrorCode::Unsupported: return "XFB_UNSUPPORTED";
    case ErrorCode::InvalidArgument: return "XFB_INVALID_ARGUMENT";
    case ErrorCode::Disposed: return "XFB_DISPOSED";
    case ErrorCode::ContextLost: return "XFB_CONTEXT_LOST";
    case ErrorCode::Scenario: return "XFB_SCENARIO";
    case ErrorCode::FileRead: return "XFB_FILE_READ";
    case ErrorCode::FileWrite: return "XFB_FILE_WRITE";
    case ErrorCode::OutOfMemory: return "XFB_OUT_OF_MEMORY";
    case ErrorCode::Internal: return "XFB_INTERNAL";
    }
    return "XFB_UNKNOWN";
}

Error::Error(ErrorCode code, const std::string& message)
    : std::runtime_error(std::string(errorCodeName(code)) + ": " + message), code_(code), message_(message) {}

} // namespace xfb
