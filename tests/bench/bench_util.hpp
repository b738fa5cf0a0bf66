#pragma once
// Small helpers both benchmarks use.
#include <GL/glcorearb.h>

#include <sstream>
#include <string>
#include <vector>

namespace xfbbench {

/// Waits on the CPU until the GPU finished everything issued so far (a fence), so a step's
/// time includes its GPU work.
inline void finish() {
    GLsync f = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    while (glClientWaitSync(f, GL_SYNC_FLUSH_COMMANDS_BIT, 1'000'000'000) == GL_TIMEOUT_EXPIRED) {}
    glDeleteSync(f);
}

/// "1e4,1e5" -> {10000, 100000}
inline std::vector<long long> parseSizes(const std::string& list) {
    std::vector<long long> sizes;
    std::stringstream in(list);
    for (std::string s; std::getline(in, s, ',');) sizes.push_back((long long)std::stod(s));
    return sizes;
}

} // namespace xfbbench
