#include "step_timer.hpp"

#include "gl.hpp"

namespace demos {

#ifdef __EMSCRIPTEN__
static void fence() {}
const char* StepTimer::unit() const { return "ms (CPU submit)"; }
#else
static void fence() { glFinish(); }
const char* StepTimer::unit() const { return "ms (fenced)"; }
#endif

void StepTimer::begin() {
    fence();
    start_ = std::chrono::steady_clock::now();
}

void StepTimer::end() {
    fence();
    ms_ = std::chrono::duration<float, std::milli>(std::chrono::steady_clock::now() - start_).count();
}

} // namespace demos
