// Readback: blocking and non-blocking, before and after steps.
#include "gl_fixture.hpp"

#include "../unit/test_util.hpp"

#include <algorithm>
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

TEST_CASE_FIXTURE(GlTest,
                  "partial reads: elements first .. first + count - 1 of a 36-byte interleaved record, after steps") {
    // 9 words an element (vec4 + vec3 + vec2): a range starts at first x 36 bytes, not at a vec4 boundary.
    const char* source = "#version 300 es\nin vec4 p;\nin vec3 n;\nin vec2 t;\n"
                         "out vec4 out_p;\nout vec3 out_n;\nout vec2 out_t;\n"
                         "void main() { out_p = p * 2.0; out_n = n + vec3(1.0); out_t = t - vec2(0.5); }";
    Program program(dev, {source, {}, {}, "record"});
    auto format = VertexFormat::interleaved({{attr(0), ComponentType::Float32, 4},
                                             {attr(1), ComponentType::Float32, 3},
                                             {attr(2), ComponentType::Float32, 2}});
    REQUIRE(format.stride == 36);
    const std::int64_t n = 1000;
    std::vector<float> data = pseudoRandom(9 * n, -1.0f, 1.0f, 5);
    Buffer a(dev, format, n, view(data)), b(dev, format, n);
    Pipeline pipeline(dev, program, {{&a, &b}});
    pipeline.step();
    pipeline.step();
    for (std::int64_t e = 0; e < n; ++e)
        for (int w = 0; w < 9; ++w) {
            float& x = data[std::size_t(e * 9 + w)];
            x = w < 4 ? x * 2.0f * 2.0f : w < 7 ? x + 1.0f + 1.0f : x - 0.5f - 0.5f;
        }
    auto slice = [&](std::int64_t first, std::int64_t count) {
        return std::vector<float>(data.begin() + first * 9, data.begin() + (first + count) * 9);
    };
    for (auto [first, count] : {std::pair<std::int64_t, std::int64_t>{0, 16}, {1, 1}, {517, 16}, {984, 16}, {0, n}}) {
        const std::string what = "first " + std::to_string(first) + ", count " + std::to_string(count);
        requireEqual(a.readAs<float>(first, count), slice(first, count), ("read " + what).c_str());
        ReadbackRequest r = a.readAsync(first, count);
        auto raw = r.take();
        REQUIRE(raw.size() == std::size_t(count) * 36);
        std::vector<float> v(raw.size() / 4);
        std::memcpy(v.data(), raw.data(), raw.size());
        requireEqual(v, slice(first, count), ("readAsync " + what).c_str());
    }
    CHECK(a.read(n, 0).empty());
    // Out of range: a coded error naming the range and the count, and nothing else changes.
    for (auto [first, count] : {std::pair<std::int64_t, std::int64_t>{-1, 4}, {0, -1}, {990, 11}, {n + 1, 0}}) {
        std::string msg = XFB_REQUIRE_ERROR(a.read(first, count), ErrorCode::InvalidArgument);
        CHECK(msg.find("first " + std::to_string(first) + ", count " + std::to_string(count)) != std::string::npos);
        CHECK(msg.find("first + count <= 1000") != std::string::npos);
        msg = XFB_REQUIRE_ERROR(a.readAsync(first, count), ErrorCode::InvalidArgument);
        CHECK(msg.find("Buffer::readAsync") != std::string::npos);
    }
    requireEqual(a.readAs<float>(), data, "the whole buffer after the refusals");
}

// WebGL2 and WebGPU zero a new buffer; native GL leaves it undefined (NVIDIA hands out recycled
// memory, llvmpipe's allocator reuses freed blocks). Buffers of the same size are made with data
// and dropped first, so a driver that recycles shows the old bytes unless xfb zeroes.
TEST_CASE_FIXTURE(GlTest, "a Buffer made without data reads zeros, on every size and after freed buffers") {
    for (std::int64_t count : {1, 3, 1000, 70000}) {
        const std::vector<float> junk(std::size_t(count) * 4, -7.0f);
        for (int i = 0; i < 4; ++i) Buffer dropped(dev, vec4Format(0), count, view(junk));
        Buffer fresh(dev, vec4Format(0), count);
        const auto words = fresh.readAs<std::uint32_t>();
        CHECK_MESSAGE(std::count(words.begin(), words.end(), 0u) == std::ptrdiff_t(words.size()),
                      count << " elements: a nonzero word in a buffer made without data");
    }
}
