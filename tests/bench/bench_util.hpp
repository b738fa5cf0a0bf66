#pragma once
// Small helpers both benchmarks use.
#include <GL/glcorearb.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
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

/// The first `count` values of a buffer, read with glMapBufferRange in windows (llvmpipe refuses
/// to map 512 MB at once); waits for the GPU.
template<class T>
std::vector<T> readBack(GLuint buffer, std::size_t count) {
    std::vector<T> v(count);
    glBindBuffer(GL_COPY_READ_BUFFER, buffer);
    constexpr std::size_t kWindow = 64u << 20; // bytes
    const std::size_t bytes = count * sizeof(T);
    for (std::size_t at = 0; at < bytes; at += kWindow) {
        std::size_t n = std::min(kWindow, bytes - at);
        const void* p = glMapBufferRange(GL_COPY_READ_BUFFER, GLintptr(at), GLsizeiptr(n), GL_MAP_READ_BIT);
        if (!p) throw std::runtime_error("glMapBufferRange failed reading a result back");
        std::memcpy(reinterpret_cast<char*>(v.data()) + at, p, n);
        glUnmapBuffer(GL_COPY_READ_BUFFER);
    }
    glBindBuffer(GL_COPY_READ_BUFFER, 0);
    return v;
}

/// "1e4,1e5" -> {10000, 100000}
inline std::vector<long long> parseSizes(const std::string& list) {
    std::vector<long long> sizes;
    std::stringstream in(list);
    for (std::string s; std::getline(in, s, ',');) sizes.push_back((long long)std::stod(s));
    return sizes;
}

/// The options both benchmarks take: --api gl43core|gles30, --json FILE, --steps K (3 at least),
/// --sizes 1e4,1e5,... (`sizes` holds the benchmark's default until then).
struct CommonOptions {
    std::string api = "gl43core", jsonPath;
    std::vector<long long> sizes;
    int steps = 15;
    /// Reads option `a`, its value from next(), when it is one of these; false when it is not.
    template<class Next>
    bool take(const std::string& a, Next&& next) {
        if (a == "--api")
            api = next();
        else if (a == "--json")
            jsonPath = next();
        else if (a == "--steps")
            steps = std::max(3, std::stoi(next()));
        else if (a == "--sizes")
            sizes = parseSizes(next());
        else
            return false;
        return true;
    }
};

/// Milliseconds `step` took on the steady clock (fence inside `step` to include its GPU work).
template<class F>
double millisecondsOf(F&& step) {
    auto t0 = std::chrono::steady_clock::now();
    step();
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

/// Counts a variant whose result differs from its reference and says so on stderr.
inline void reportMismatch(int& mismatches, const std::string& variant, long long elements, int steps,
                           const std::string& problem) {
    ++mismatches;
    std::fprintf(stderr, "MISMATCH: %s at %lld elements after %d steps: %s\n", variant.c_str(), elements, steps,
                 problem.c_str());
}

/// median[a] / median[b], or null where either variant did not run.
inline nlohmann::ordered_json ratioOf(const std::map<std::string, double>& median, const std::string& a,
                                      const std::string& b) {
    return median.count(a) && median.count(b) ? nlohmann::ordered_json(median.at(a) / median.at(b))
                                              : nlohmann::ordered_json(nullptr);
}

/// Ends a run: writes `report` (with the mismatch count) to `jsonPath` unless it is empty, and
/// returns the exit status: 1 after "<mismatches> <what> differ from the reference", else 0
/// after `allMatch`.
inline int finishReport(nlohmann::ordered_json& report, const std::string& jsonPath, int mismatches, const char* what,
                        const char* allMatch) {
    report["mismatches"] = mismatches;
    if (!jsonPath.empty()) std::ofstream(jsonPath) << report.dump(2) << "\n";
    if (mismatches) {
        std::fprintf(stderr, "%d %s differ from the reference\n", mismatches, what);
        return 1;
    }
    std::printf("%s\n", allMatch);
    return 0;
}

} // namespace xfbbench
