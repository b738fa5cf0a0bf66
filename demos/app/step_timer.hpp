#pragma once
// Step times for the panel's plot. Natively the step is fenced on both sides (glFinish), so the
// time is what the GPU spent on it on every driver (llvmpipe runs work lazily, which timer queries
// do not see); in the browser, where glFinish does not wait, it is the CPU submission time.
#include <chrono>

namespace demos {

class StepTimer {
public:
    void begin();
    void end();
    float milliseconds() const { return ms_; }
    const char* unit() const; // "ms (fenced)" or "ms (CPU submit)"

private:
    std::chrono::steady_clock::time_point start_;
    float ms_ = 0;
};

} // namespace demos
