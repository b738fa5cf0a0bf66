#include "gl/vertex_array.hpp"

#include "gl/gl_check.hpp"

#include <cstdint>

namespace xfb::gl {

void setAttributePointers(const std::vector<AttributeBinding>& attributes,
                          const std::function<GLuint(int entry)>& bufferOf) {
    for (const auto& a : attributes) {
        XFB_GL(glBindBuffer(GL_ARRAY_BUFFER, bufferOf(a.entry)));
        for (int l = 0; l < a.locationCount; ++l) {
            auto loc = GLuint(a.location + l);
            auto offset = reinterpret_cast<const void*>(std::uintptr_t(a.offset + l * a.componentsPerLocation * 4));
            XFB_GL(glEnableVertexAttribArray(loc));
            if (a.type == ComponentType::Float32)
                XFB_GL(glVertexAttribPointer(loc, a.componentsPerLocation, GL_FLOAT, GL_FALSE, a.stride, offset));
            else
                XFB_GL(glVertexAttribIPointer(loc, a.componentsPerLocation,
                                              a.type == ComponentType::Int32 ? GL_INT : GL_UNSIGNED_INT, a.stride,
                                              offset));
        }
    }
    XFB_GL(glBindBuffer(GL_ARRAY_BUFFER, 0));
}

} // namespace xfb::gl
