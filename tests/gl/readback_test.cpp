// Readback: blocking and non-blocking, before and after steps.
#include "gl_fixture.hpp"

#include "../unit/test_util.hpp"

#include <chrono>
#include <thread>

using namespace xfb;
using namespace xfbtest;

TEST_CASE_FIXTURE(GlTest, "readback before and after steps, and an async readback is a snapshot") {
    std::vector<float> data = pseudoRandom(4 * 100, -1.0f, 1.0f, 21);
    Program program(
        dev, {"#version 300 es\nin vec4 p;\nout vec4 out_p;\nvoid main() { out_p = p + vec4(1.0); }", {}, {}, "inc"});
    Buffer a(dev, vec4Format(0), 100, view(data)), b(dev, vec4Format(0), 100);
    requireEqual(a.readAs<float>(), data, "before any step");
    Pipeline pipeline(dev, program, {{&a, &b}});

    ReadbackRequest snapshot = a.readAsync(); // taken before the step...
    pipeline.step();
    for (auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
         !snapshot.ready() && std::chrono::steady_clock::now() < until;)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    CHECK(snapshot.ready());
    auto bytes = snapshot.take();
    std::vector<float> snap(bytes.size() / 4);
    std::memcpy(snap.data(), bytes.data(), bytes.size());
    requireEqual(snap, data, "...holds the state before the step");
    XFB_REQUIRE_ERROR(snapshot.take(), ErrorCode::Disposed);

    for (auto& x : data) x = x + 1.0f;
    requireEqual(a.readAs<float>(), data, "after one step");
    ReadbackRequest later = a.readAsync();
    requireEqual(
        [&] {
            auto raw = later.take(); // blocking form: waits for the fence itself
            std::vector<float> v(raw.size() / 4);
            std::memcpy(v.data(), raw.data(), raw.size());
            return v;
        }(),
        data, "async readback taken without polling");
}
