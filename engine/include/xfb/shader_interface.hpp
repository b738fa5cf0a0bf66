#pragma once
/// @file
/// @brief What a vertex shader declares: inputs, outputs, uniforms, in declaration order. Pure, no GL.
///
/// readShaderInterface() tokenizes the source (comments, line continuations and string-like
/// noise are skipped), runs the preprocessor subset that decides which declarations exist
/// (`#define`/`#undef` of object-like macros, `#if`/`#ifdef`/`#ifndef`/`#elif`/`#else`/`#endif`
/// with integer expressions and `defined`), and reads every global declaration: qualifiers
/// (`layout(location = N)`, `flat`, `centroid`, `invariant`, `highp`...), several declarators in one
/// declaration, arrays (sizes may use macros and global `const int`s), declarations split over
/// lines. Works for GLSL ES 1.00 (`attribute`/`varying`), GLSL ES 3.00 and GLSL 3.30+.

#include "xfb/enum_tables.hpp"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace xfb {

/// The scalar kind of a GLSL type.
enum class ScalarKind { XFB_SCALAR_KINDS(XFB_ENUMERATOR) }; // names: XFB_SCALAR_KINDS (xfb/enum_tables.hpp)

/// A GLSL type: scalar, vector (columns = 1) or matrix (columns x rows).
struct GlslType {
    std::string name; ///< as written: "vec4", "mat3x2", a struct's name
    ScalarKind kind = ScalarKind::Float;
    int columns = 1; ///< matrices: number of columns (= attribute locations taken)
    int rows = 1;    ///< vector size, or matrix rows
    int components() const { return columns * rows; }
    bool isMatrix() const { return columns > 1; }
};

/// Looks a builtin type name up ("vec3" -> Float, 1 column, 3 rows). Empty for unknown names.
std::optional<GlslType> builtinType(std::string_view name);

/// Where a global variable lives.
enum class StorageQualifier { In, Out, Uniform };

/// One declared variable (one declarator of a declaration).
struct Declaration {
    std::string name;
    GlslType type;
    StorageQualifier storage = StorageQualifier::In;
    int arraySize = 0;           ///< 0: not an array
    std::optional<int> location; ///< from layout(location = N)
    /// Transform-feedback layout (GLSL 4.40 / ARB_enhanced_layouts): `xfb_offset` in bytes, and the
    /// buffer it goes to (`xfb_buffer`, else the current default set by `layout(xfb_buffer = N) out;`).
    /// Only an output with an offset is captured by its qualifiers.
    std::optional<int> xfbOffset;
    int xfbBuffer = 0;
    /// The vertex stream of a geometry shader's output (`layout(stream = N)`, else the default set
    /// by `layout(stream = N) out;`, else 0; GLSL 4.00 / ARB_gpu_shader5). 0 in vertex shaders.
    int stream = 0;
    std::vector<std::string> qualifiers; ///< flat, centroid, invariant, highp, ... as written
    int line = 0;                        ///< 1-based source line of the declarator

    int elementCount() const { return arraySize > 0 ? arraySize : 1; }
    /// Scalar components in total (a vec3[2] has 6).
    int components() const { return type.components() * elementCount(); }
    /// Attribute locations taken (a mat4 takes 4, a vec4[3] takes 3).
    int locationCount() const { return type.columns * elementCount(); }
};

/// `xfb_stride` declared for a buffer, on an output or on a default `layout(xfb_buffer = B, xfb_stride = S) out;`.
struct XfbStrideDeclaration {
    int buffer = 0;
    int stride = 0; ///< bytes, as written (checked by the capture plan)
    int line = 0;
};

/// Members of a struct declared in the shader, for outputs of struct type.
struct StructDefinition {
    std::string name;
    std::vector<Declaration> members;
};

/// A `layout(...) in;` or `layout(...) out;` that declares nothing: a geometry shader's primitives,
/// `max_vertices`, `invocations`, a default `stream` (read by planGeometry(), xfb/geometry_plan.hpp).
struct LayoutDefault {
    StorageQualifier storage = StorageQualifier::In;
    std::vector<std::string> identifiers;            ///< bare words as written: points, triangles, line_strip ...
    std::vector<std::pair<std::string, int>> values; ///< max_vertices, invocations, stream (the ones evaluated)
    int line = 0;
};

/// Everything readShaderInterface() found.
struct ShaderInterface {
    int version = 100;                        ///< from #version; 100 when absent
    bool es = true;                           ///< an ES shader (`#version 300 es`, or 100)
    std::vector<Declaration> inputs;          ///< `in` / `attribute`, declaration order
    std::vector<Declaration> outputs;         ///< `out` / `varying`, declaration order
    std::vector<Declaration> uniforms;        ///< plain uniforms (not blocks), declaration order
    std::vector<std::string> interfaceBlocks; ///< names of in/out/uniform blocks (read, not expanded)
    std::map<std::string, StructDefinition> structs;
    std::vector<XfbStrideDeclaration> xfbStrides; ///< every xfb_stride, in source order
    /// The line of the first xfb_* qualifier the reader cannot place (on an interface block or its
    /// members, which it does not expand); 0 when none. The capture plan refuses it.
    int unplacedXfbLine = 0;

    /// Whether the shader declares its capture layout (an output with xfb_offset, or an xfb_stride).
    bool declaresXfbLayout() const;

    const Declaration* findOutput(std::string_view name) const;
    const Declaration* findInput(std::string_view name) const;
    const Declaration* findUniform(std::string_view name) const;
};

struct ReadOptions {
    /// Extra object-like macros, as if `#define name value` preceded the source.
    std::map<std::string, std::string> defines;
};

/// Reads the declarations of a vertex shader.
/// @throws Error ShaderSyntax, PreprocessorDirective, PreprocessorUnevaluable; ShaderCompile for what
///         the GL compiler of the shader's \#version refuses (so every runtime refuses it alike): an
///         int/uint output without `flat` in GLSL ES 3.00, a built-in function the version lacks
///         (`bitCount()` in GLSL ES 3.00), each with its line.
ShaderInterface readShaderInterface(std::string_view source, const ReadOptions& options = {});

/// What readGeometryInterface() reads: the declarations, and the layout defaults that declare
/// nothing (a vertex shader has none that matter, so ShaderInterface does not carry them).
struct GeometryInterface {
    ShaderInterface shader;
    /// Every `layout(...) in;` / `layout(...) out;` declaring nothing, in source order.
    std::vector<LayoutDefault> layoutDefaults;
};

/// Reads the declarations of a geometry shader: as readShaderInterface(), and inputs may be
/// unsized arrays (`in vec3 v_normal[];`, one element per vertex of the input primitive: their
/// arraySize is the vertex count of the `layout(X) in;` primitive, 1 without one).
/// @throws Error as readShaderInterface()
GeometryInterface readGeometryInterface(std::string_view source, const ReadOptions& options = {});

} // namespace xfb
