#pragma once
// Internal: what a geometry program's compute translation needs, planned once and shared by the
// GLSL emitter (geometry_compute.cpp, translateGeometryToCompute) and the WGSL emitter
// (wgsl_geometry.cpp, translateGeometryToWgsl): the vertex pass's scratch record and pass plan,
// where each geometry input lies in the scratch record, the storage bindings of the count and
// write passes, and per vertex stream the words of its record (which buffer, field and component).
#include "xfb/capture_plan.hpp"
#include "xfb/geometry_plan.hpp"
#include "xfb/pass_plan.hpp"
#include "xfb/shader_interface.hpp"

#include <string_view>
#include <vector>

namespace xfb::plan {

/// One geometry input and its first word in the vertex pass's scratch record.
struct GeometryComputeInput {
    Declaration declaration; ///< as readGeometryInterface() read it (arraySize: the input vertices)
    int scratchWord = 0;
};

/// Word `word` of a stream's record: component `component` of `field`, stored in buffer `buffer`.
struct GeometryRecordWord {
    int buffer = 0;
    int strideWords = 0; ///< the buffer's stride in words
    int bufferWord = 0;  ///< the word within the buffer's record
    BufferField field;
    int component = 0;
};

struct GeometryComputeStream {
    bool captured = false;
    std::vector<GeometryRecordWord> words; ///< every field of its buffers, in buffer order
};

struct GeometryComputePlan {
    int inputVertices = 1;     ///< vertices of an input primitive (1, 2 or 3)
    int primitiveVertices = 1; ///< vertices of a captured primitive (points 1, lines 2, triangles 3)
    std::vector<GeometryComputeInput> inputs;
    bool usesGlIn = false; ///< the shader reads gl_in[]: gl_Position is in the scratch record
    int positionWord = 0;  ///< gl_Position's first scratch word (usesGlIn)
    CapturePlan scratch;   ///< one interleaved buffer of what the geometry shader reads
    int scratchStride = 0; ///< bytes; 0: the geometry shader reads nothing of the vertex shader
    PassPlan vertexPass;   ///< the capture's pass with one output: the scratch buffer, entry entryCount
    std::vector<GeometryComputeStream> streams; ///< per stream 0..streamCount-1
    // Storage bindings (GLSL numbering; the WGSL emitter shifts them past its uniform buffer).
    int scratchBinding = 0, sourcesBinding = 1;
    std::vector<int> outputBinding; ///< write pass: per buffer of the capture plan
    std::vector<int> firstBinding;  ///< write pass: per stream
    std::vector<int> countsBinding; ///< count pass: per stream
    int bindingCount = 0;           ///< the most storage buffers the count or write pass binds
};

/// Plans a geometry program's compute passes. `geometryShader` is readGeometryInterface()'s view
/// of the geometry shader, `usesGlIn` whether it reads gl_in[].
/// @throws Error ComputeTranslation naming the input and its line: an input that is not an array,
///         a matrix, one the vertex shader does not write by name with the same type
GeometryComputePlan planGeometryCompute(std::string_view vertexSource, const ShaderInterface& geometryShader,
                                        bool usesGlIn, const ReadOptions& read, const PassPlan& pass,
                                        const CapturePlan& capture, const GeometryPlan& geometry,
                                        std::size_t entryCount);

} // namespace xfb::plan
