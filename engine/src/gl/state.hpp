#pragma once
// Internal: the shared state behind Device, Buffer and Program handles. Handles hold
// shared_ptrs, so a Pipeline keeps what it uses alive even if the user's handle goes away.

#include "gl/gl_api.hpp"
#include "xfb/attribute_plan.hpp"
#include "xfb/capture_plan.hpp"
#include "xfb/device.hpp"
#include "xfb/program.hpp"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace xfb::detail {

struct DeviceState {
    Capabilities caps;
};

struct BufferState {
    std::shared_ptr<DeviceState> device;
    GLuint name = 0;
    VertexFormat format;
    std::int64_t count = 0;
    std::uint64_t bytes = 0;
    ~BufferState();
};

struct Uniform {
    GLint location = -1;
    GLenum type = 0;
    ScalarKind kind = ScalarKind::Float;
    int components = 1;      // per element (16 for mat4)
    int arraySize = 1;
    std::vector<std::byte> value;
    bool dirty = false;
};

struct ProgramState {
    std::shared_ptr<DeviceState> device;
    ProgramDesc desc;
    ShaderInterface shader;
    std::vector<AttributeSlot> attributes;
    CapturePlan capture;
    GLuint program = 0;
    std::map<std::string, Uniform, std::less<>> uniforms;
    bool anyDirty = false;
    ~ProgramState();
    /// glUniform* for every changed value; the program must be current.
    void flushUniforms();
};

} // namespace xfb::detail
