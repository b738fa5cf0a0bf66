#include "compute/ordered_emit.hpp"

#include "gl/gl_check.hpp"

#include <vector>

namespace xfb::detail {

OrderedEmitPath orderedEmitPath = OrderedEmitPath::Auto;
bool orderedEmitSubgroupScan = true;

bool singlePassEmitByDefault(const Capabilities& caps) { return caps.renderer.find("llvmpipe") == std::string::npos; }

std::string singlePassEmitUnsafe(const EmitPlan& emits, std::int64_t count, int groupSize) {
    std::int64_t most = 0; // the largest total any budget could request, summed over budgets
    for (const auto& b : emits.budgets) most += count * b.maxRecords;
    if (most >= (std::int64_t(1) << 30))
        return "up to " + std::to_string(most) + " records per step do not fit the look-back's 30-bit status values";
    // Per budget a scan array, a base and a total; the ticket, the look-back window (32) and walk (2).
    const std::int64_t sharedBytes = (std::int64_t(emits.budgets.size()) * (groupSize + 2) + 35) * 4;
    if (sharedBytes > 16384)
        return "the scan needs " + std::to_string(sharedBytes) +
               " bytes of shared memory, more than the 16384 every device has";
    return {};
}

#ifndef __EMSCRIPTEN__
OrderedEmitState::OrderedEmitState(std::int64_t tiles, std::size_t budgets) {
    const std::vector<std::uint32_t> zeros(std::size_t(1 + tiles * std::int64_t(budgets)), 0u);
    for (auto& b : buffers) {
        b = gl::BufferName::create();
        glBindBuffer(GL_SHADER_STORAGE_BUFFER, b);
        glBufferData(GL_SHADER_STORAGE_BUFFER, GLsizeiptr(zeros.size() * 4), zeros.data(), GL_DYNAMIC_COPY);
    }
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
}

void OrderedEmitState::bind(int stateBinding, int nextStateBinding) {
    XFB_GL_COUNTED(glBindBufferBase(GL_SHADER_STORAGE_BUFFER, GLuint(stateBinding), buffers[current]));
    XFB_GL_COUNTED(glBindBufferBase(GL_SHADER_STORAGE_BUFFER, GLuint(nextStateBinding), buffers[1 - current]));
    current = 1 - current;
}
#else
OrderedEmitState::OrderedEmitState(std::int64_t, std::size_t) {}
void OrderedEmitState::bind(int, int) {}
#endif

} // namespace xfb::detail
