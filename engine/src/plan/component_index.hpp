#pragma once
// Internal: component c of a captured varying, flattened as transform feedback writes it (array
// element, matrix column, row), for every generator that copies varyings word by word: the
// vertex wrapper's generated outputs, the compute and WGSL stores, the fused substeps' feedback.
#include "xfb/shader_interface.hpp"

#include <string>

namespace xfb::plan {

struct ComponentIndex {
    int element = 0, column = 0, row = 0;
};

inline ComponentIndex componentIndex(const GlslType& type, int c) {
    const int perElement = type.rows * type.columns;
    return {c / perElement, (c % perElement) / type.rows, c % type.rows};
}

/// `name[element][column][row]`, each index only where the varying has it (an array, a matrix, a
/// vector); `name` may itself be an element, `a[1]`, with `array` false.
inline std::string componentExpression(const std::string& name, const GlslType& type, bool array, int c) {
    const ComponentIndex i = componentIndex(type, c);
    return name + (array ? "[" + std::to_string(i.element) + "]" : "") +
           (type.columns > 1 ? "[" + std::to_string(i.column) + "]" : "") +
           (type.rows > 1 ? "[" + std::to_string(i.row) + "]" : "");
}

} // namespace xfb::plan
