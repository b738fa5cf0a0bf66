#pragma once
/// @file
/// @brief One table per enum of the public API: each row gives the C++ enumerator and its stable
/// name. The enums (ErrorCode, DrawMode, CaptureMode, ComponentType, ScalarKind, Backend,
/// Expansion, GeometryInput, GeometryOutput), their name functions (errorCodeName(), drawModeName(), ...) and the
/// constants the JavaScript bindings export (Module.enums(), read by web/package/index.js) all come from these rows, so
/// a name is written once. Order is the enumerators' order (their numeric values).
///
/// A table is a macro taking a macro X(enumerator, "name"); XFB_ENUMERATOR and XFB_ENUM_NAME
/// expand a row to the enum's enumerator and to the name.

#include <cstddef>
#include <optional>
#include <string_view>

#define XFB_ENUMERATOR(e, name) e,
#define XFB_ENUM_NAME(e, name) name,

// Each table below is one row per line, aligned as a table (a row may pass 120 columns):
// clang-format would fold rows into each other.
// clang-format off
/// Stable error codes (xfb/error.hpp). The comment says what provokes each one.
#define XFB_ERROR_CODES(X) \
    /* Shader declaration reader (pure). */                                                                                                    \
    X(ShaderSyntax, "XFB_SHADER_SYNTAX") /* a global declaration could not be read */                                                          \
    X(PreprocessorDirective, "XFB_PREPROCESSOR_DIRECTIVE") /* unbalanced #if/#endif, malformed directive, or an active #error */               \
    X(PreprocessorUnevaluable, "XFB_PREPROCESSOR_UNEVALUABLE") /* an #if expression uses something that cannot be evaluated offline */         \
    X(ConstantExpression, "XFB_CONSTANT_EXPRESSION") /* integer arithmetic (#if, array size, location) overflows 64 bits, divides */           \
    /*   ... by zero, shifts out of range, or a literal / #line / #version number is too large */                                                 \
    /* Reader limits (xfb/limits.hpp): hostile or generated input stops here, never crashes or hangs. */                                       \
    X(SourceTooLarge, "XFB_SOURCE_TOO_LARGE") /* the source is longer than limits::maxSourceBytes */                                           \
    X(ExpansionLimit, "XFB_EXPANSION_LIMIT") /* macro expansion produces more than limits::maxTokens tokens */                                 \
    X(NestingDepth, "XFB_NESTING_DEPTH") /* parentheses, unary operators, #if blocks, structs or macro chains */                               \
    /*   ... nested deeper than limits::maxNestingDepth */                                                                                        \
    X(TooManyDeclarations, "XFB_TOO_MANY_DECLARATIONS") /* more than limits::maxDeclarations global in/out/uniform declarations */             \
    X(ArraySize, "XFB_ARRAY_SIZE") /* an array size over limits::maxArraySize, or a declaration of more than */                                \
    /*   ... limits::maxDeclarationComponents scalar components */                                                                                \
    /* Attribute semantics. */                                                                                                                 \
    X(AttributeType, "XFB_ATTRIBUTE_TYPE") /* an input of a type that cannot be a vertex attribute (bool, struct, double) */                   \
    X(AttributeLocationCollision, "XFB_ATTRIBUTE_LOCATION_COLLISION") /* two inputs claim the same attribute location */                       \
    X(MixedSemantics, "XFB_MIXED_SEMANTICS") /* standard names (vertex_position...) mixed with custom names */                                 \
    X(TooManyAttributes, "XFB_TOO_MANY_ATTRIBUTES") /* inputs need more slots than MAX_VERTEX_ATTRIBS */                                       \
    /* Capture plan. */                                                                                                                        \
    X(NoCapturedVaryings, "XFB_NO_CAPTURED_VARYINGS") /* nothing to capture: no explicit list and no `out_` output */                          \
    X(UnknownVarying, "XFB_UNKNOWN_VARYING") /* a captured name is not an output of the shader */                                              \
    X(DuplicateVarying, "XFB_DUPLICATE_VARYING") /* a name appears twice in the capture list */                                                \
    X(VaryingType, "XFB_VARYING_TYPE") /* a captured output of a type transform feedback cannot capture */                                     \
    X(SeparateComponents, "XFB_SEPARATE_COMPONENTS") /* separate mode: a varying over 4 components (portable guarantee) */                     \
    X(SeparateComponentsDriver, "XFB_SEPARATE_COMPONENTS_DRIVER") /* separate mode: a varying over the driver's MAX_..._SEPARATE_COMPONENTS */ \
    X(SeparateAttribs, "XFB_SEPARATE_ATTRIBS") /* separate mode: more varyings than MAX_..._SEPARATE_ATTRIBS */                                \
    X(InterleavedComponents, "XFB_INTERLEAVED_COMPONENTS") /* interleaved mode: total over MAX_..._INTERLEAVED_COMPONENTS */                   \
    X(LayoutOffset, "XFB_LAYOUT_OFFSET") /* a declared offset that is not a multiple of 4 bytes (32-bit components) */                          \
    X(LayoutOverlap, "XFB_LAYOUT_OVERLAP") /* two declared entries share bytes of one buffer */                                                \
    X(LayoutStride, "XFB_LAYOUT_STRIDE") /* a declared stride not a multiple of 4, below the buffer's extent, two different strides for */     \
    /*   ... one buffer, or over MAX_..._INTERLEAVED_COMPONENTS x 4 bytes */                                                                    \
    X(LayoutBuffer, "XFB_LAYOUT_BUFFER") /* a declared buffer index at or over MAX_..._SEPARATE_ATTRIBS, or buffers not numbered 0..n-1 */    \
    X(LayoutComponents, "XFB_LAYOUT_COMPONENTS") /* a declared component range outside its varying, or a gap of no components */              \
    X(LayoutConflict, "XFB_LAYOUT_CONFLICT") /* two ways of declaring a layout at once, a declared layout in separate mode, or xfb_* */       \
    /*   ... qualifiers where the reader cannot place them (interface blocks, inputs) */                                                        \
    X(VaryingVectors, "XFB_VARYING_VECTORS") /* the vertex outputs, captured or not, need more varying rows than MAX_VARYING_VECTORS */        \
    /*   ... (GLSL ES packing: 4 components a row; desktop: MAX_VERTEX_OUTPUT_COMPONENTS / 4) */                                               \
    X(VaryingOptimizedAway, "XFB_VARYING_OPTIMIZED_AWAY") /* the linker did not keep a captured varying (checked after link) */                \
    /* Geometry programs (xfb/geometry_plan.hpp). */                                                                                           \
    X(GeometryUnsupported, "XFB_GEOMETRY_UNSUPPORTED") /* a program with a geometry shader on a runtime without geometry shaders */           \
    /*   ... (OpenGL ES 3.0, WebGL2): use desktop GL 4.0+, or OpenGL ES 3.2 for stream 0 */                                                   \
    X(GeometryLayout, "XFB_GEOMETRY_LAYOUT") /* a geometry shader without (or with an invalid) input primitive, output primitive or */       \
    /*   ... max_vertices, invocations or max_vertices over the driver's limits, an adjacency input, streams with non-point output */          \
    X(GeometryStream, "XFB_GEOMETRY_STREAM") /* a vertex stream the runtime cannot capture or draw (stream > 0 on OpenGL ES 3.2, */         \
    /*   ... a stream at or over MAX_VERTEX_STREAMS, a stream nothing is captured from) */                                                      \
    X(GeometryInput, "XFB_GEOMETRY_INPUT") /* a draw whose primitives are not the geometry shader's input primitive */                        \
    X(LayoutStream, "XFB_LAYOUT_STREAM") /* one transform-feedback buffer would receive two vertex streams (names both varyings) */          \
    X(RasterizedStream, "XFB_RASTERIZED_STREAM") /* capture while rasterizing a stream other than 0 (GL rasterizes stream 0 only), */       \
    /*   ... or a stream the program does not have */                                                                                         \
    /* Generated shaders. */                                                                                                                   \
    X(ComputeTranslation, "XFB_COMPUTE_TRANSLATION") /* a construct the compute, WGSL or fragment translation cannot express (named) */        \
    /* Buffers and roles. */                                                                                                                   \
    X(FormatInvalid, "XFB_FORMAT_INVALID") /* a vertex format with overlapping or out-of-stride attributes */                                  \
    X(RoleEmpty, "XFB_ROLE_EMPTY") /* a buffer entry with neither input nor output */                                                          \
    X(OutputCountMismatch, "XFB_OUTPUT_COUNT_MISMATCH") /* output entries do not match the captured varyings */                                \
    X(SemanticMissing, "XFB_SEMANTIC_MISSING") /* a shader input that no input buffer provides */                                              \
    X(SemanticDuplicate, "XFB_SEMANTIC_DUPLICATE") /* two input buffers provide the same semantic */                                           \
    X(SemanticUnused, "XFB_SEMANTIC_UNUSED") /* an input buffer provides a semantic the shader does not read */                                \
    X(SemanticTypeMismatch, "XFB_SEMANTIC_TYPE_MISMATCH") /* a buffer attribute's type/components differ from the shader input */              \
    X(StateFormatMismatch, "XFB_STATE_FORMAT_MISMATCH") /* the two buffers of a state pair have different formats or sizes */                  \
    X(OutputLayoutMismatch, "XFB_OUTPUT_LAYOUT_MISMATCH") /* an output buffer's format disagrees with what is captured into it */              \
    X(CountMismatch, "XFB_COUNT_MISMATCH") /* buffers hold different element counts */                                                         \
    X(BufferSize, "XFB_BUFFER_SIZE") /* a buffer size that is not a whole number of elements */                                                \
    X(Capacity, "XFB_CAPACITY") /* an output buffer too small for count x stride */                                                            \
    X(BufferTooLarge, "XFB_BUFFER_TOO_LARGE") /* count x stride overflows, or exceeds the buffer limit (2^31-1 bytes in WebGL2) */             \
    /* Running. */                                                                                                                             \
    X(ShortWrite, "XFB_SHORT_WRITE") /* a checked step wrote fewer records than expected; not swapped */                                       \
    X(ShaderCompile, "XFB_SHADER_COMPILE") /* the GL compiler rejected the shader (log included) */                                            \
    X(ProgramLink, "XFB_PROGRAM_LINK") /* the GL linker rejected the program (log included) */                                                 \
    X(UnknownUniform, "XFB_UNKNOWN_UNIFORM") /* the shader declares no uniform of that name */                                                 \
    X(UniformType, "XFB_UNIFORM_TYPE") /* value type differs from the uniform's declared type */                                               \
    X(GlError, "XFB_GL_ERROR") /* a GL call raised an error */                                                                                 \
    X(ContextCreation, "XFB_CONTEXT_CREATION") /* no GL/GLES context could be created */                                                       \
    X(Unsupported, "XFB_UNSUPPORTED") /* the current context lacks a needed version or extension */                                            \
    X(InvalidArgument, "XFB_INVALID_ARGUMENT") /* a count, size or index out of range */                                                       \
    X(Disposed, "XFB_DISPOSED") /* an object used after it was disposed or moved from */                                                       \
    X(ContextLost, "XFB_CONTEXT_LOST") /* the GL context is lost; wait for its restoration */                                                  \
    X(FeedbackActive, "XFB_FEEDBACK_ACTIVE") /* an xfb call while the application's transform feedback is active or paused */                  \
    /*   ... (GL_TRANSFORM_FEEDBACK_ACTIVE); refused before any GL call: call glEndTransformFeedback first */                                  \
    X(Scenario, "XFB_SCENARIO") /* an xfb-run scenario file is invalid (names the field) */                                                    \
    /* Files and the last resort (command-line tools, bindings). */                                                                            \
    X(FileRead, "XFB_FILE_READ") /* a file is missing, a directory, or cannot be read */                                                       \
    X(FileWrite, "XFB_FILE_WRITE") /* an output file or folder cannot be written */                                                            \
    X(OutOfMemory, "XFB_OUT_OF_MEMORY") /* an allocation failed (std::bad_alloc) */                                                            \
    X(Internal, "XFB_INTERNAL") /* an unexpected exception, caught at the last resort; a bug: please report it */                              

/// Draws a capture accepts (xfb/primitive_count.hpp), named as GL/WebGL's mode without GL_.
#define XFB_DRAW_MODES(X) \
    X(Points, "points") X(Lines, "lines") X(LineStrip, "line_strip") X(LineLoop, "line_loop") \
    X(Triangles, "triangles") X(TriangleStrip, "triangle_strip") X(TriangleFan, "triangle_fan")

/// Transform feedback buffer modes (xfb/capture_plan.hpp).
#define XFB_CAPTURE_MODES(X) X(Interleaved, "interleaved") X(Separate, "separate")

/// Attribute and captured component types (xfb/vertex_format.hpp).
#define XFB_COMPONENT_TYPES(X) X(Float32, "float32") X(Int32, "int32") X(UInt32, "uint32")

/// Scalar kinds of GLSL types (xfb/shader_interface.hpp), named as GLSL writes them.
#define XFB_SCALAR_KINDS(X) \
    X(Float, "float") X(Int, "int") X(UInt, "uint") X(Bool, "bool") X(Double, "double") X(Struct, "struct") X(Opaque, "opaque")

/// How a step runs (xfb/pipeline.hpp, where each is documented).
#define XFB_BACKENDS(X) X(TransformFeedback, "tf") X(Compute, "compute") X(Auto, "auto") X(Fragment, "fragment")

/// Who expands strips, loops, fans and index lists for a capture (xfb/primitive_capture.hpp).
#define XFB_EXPANSIONS(X) X(Auto, "auto") X(Driver, "driver") X(Engine, "engine")

/// A geometry shader's input primitive, `layout(X) in;` (xfb/geometry_plan.hpp), named as GLSL writes it.
#define XFB_GEOMETRY_INPUTS(X) \
    X(Points, "points") X(Lines, "lines") X(LinesAdjacency, "lines_adjacency") X(Triangles, "triangles") X(TrianglesAdjacency, "triangles_adjacency")

/// A geometry shader's output primitive, `layout(X, max_vertices = N) out;` (xfb/geometry_plan.hpp).
#define XFB_GEOMETRY_OUTPUTS(X) X(Points, "points") X(LineStrip, "line_strip") X(TriangleStrip, "triangle_strip")
// clang-format on

namespace xfb {

/// The name of `e` in `names` (a table's XFB_ENUM_NAME list), or `fallback` for a value outside it.
template<class E, std::size_t N>
constexpr std::string_view enumName(const std::string_view (&names)[N], E e, std::string_view fallback = "?") {
    auto i = std::size_t(e);
    return i < N ? names[i] : fallback;
}

/// The enumerator named `name` in `names`, or nullopt.
template<class E, std::size_t N>
constexpr std::optional<E> enumFromName(const std::string_view (&names)[N], std::string_view name) {
    for (std::size_t i = 0; i < N; ++i)
        if (names[i] == name) return E(i);
    return std::nullopt;
}

inline constexpr std::string_view errorCodeNames[] = {XFB_ERROR_CODES(XFB_ENUM_NAME)};
inline constexpr std::string_view drawModeNames[] = {XFB_DRAW_MODES(XFB_ENUM_NAME)};
inline constexpr std::string_view captureModeNames[] = {XFB_CAPTURE_MODES(XFB_ENUM_NAME)};
inline constexpr std::string_view componentTypeNames[] = {XFB_COMPONENT_TYPES(XFB_ENUM_NAME)};
inline constexpr std::string_view scalarKindNames[] = {XFB_SCALAR_KINDS(XFB_ENUM_NAME)};
inline constexpr std::string_view backendNames[] = {XFB_BACKENDS(XFB_ENUM_NAME)};
inline constexpr std::string_view expansionNames[] = {XFB_EXPANSIONS(XFB_ENUM_NAME)};
inline constexpr std::string_view geometryInputNames[] = {XFB_GEOMETRY_INPUTS(XFB_ENUM_NAME)};
inline constexpr std::string_view geometryOutputNames[] = {XFB_GEOMETRY_OUTPUTS(XFB_ENUM_NAME)};

} // namespace xfb
