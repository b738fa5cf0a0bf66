#pragma once
// Internal: attribute pointers of a vertex array object, shared by Pipeline and PrimitiveCapture.
#include "gl/gl_api.hpp"
#include "xfb/pass_plan.hpp"

#include <functional>
#include <vector>

namespace xfb::gl {

/// For the bound vertex array object: glEnableVertexAttribArray + glVertexAttrib(I)Pointer for
/// every location of every binding, reading entry e from buffer `bufferOf(e)`. Leaves
/// GL_ARRAY_BUFFER unbound.
void setAttributePointers(const std::vector<AttributeBinding>& attributes,
                          const std::function<GLuint(int entry)>& bufferOf);

} // namespace xfb::gl
