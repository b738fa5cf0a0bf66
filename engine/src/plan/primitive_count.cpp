#include "xfb/primitive_count.hpp"

#include "xfb/error.hpp"

#include <algorithm>
#include <array>
#include <iterator>
#include <string>

namespace xfb {

namespace {
// Primitives formed by one run of n vertices.
std::int64_t primitivesOf(DrawMode m, std::int64_t n) {
    switch (m) {
        case DrawMode::Points: return n;
        case DrawMode::Lines: return n / 2;
        case DrawMode::LineStrip: return n >= 2 ? n - 1 : 0;
        case DrawMode::LineLoop: return n >= 2 ? n : 0;
        case DrawMode::Triangles: return n / 3;
        case DrawMode::TriangleStrip:
        case DrawMode::TriangleFan: return n >= 3 ? n - 2 : 0;
    }
    return 0;
}
} // namespace

std::string_view drawModeName(DrawMode m) { return enumName(drawModeNames, m); }

std::optional<DrawMode> drawModeFromName(std::string_view name) { return enumFromName<DrawMode>(drawModeNames, name); }

void checkDrawMode(DrawMode m, std::string_view what) {
    if (std::size_t(m) < std::size(drawModeNames)) return;
    std::string modes;
    for (auto name : drawModeNames) modes += (modes.empty() ? "" : ", ") + std::string(name);
    throw Error(ErrorCode::InvalidArgument, std::string(what) + ": draw mode " + std::to_string(int(m)) +
                                                " is not a DrawMode; use one of " + modes);
}

int verticesPerPrimitive(DrawMode m) {
    const DrawMode p = capturedPrimitive(m);
    return p == DrawMode::Points ? 1 : p == DrawMode::Lines ? 2 : 3;
}

DrawMode capturedPrimitive(DrawMode m) {
    checkDrawMode(m, "capturedPrimitive");
    switch (m) {
        case DrawMode::Points: return DrawMode::Points;
        case DrawMode::Lines:
        case DrawMode::LineStrip:
        case DrawMode::LineLoop: return DrawMode::Lines;
        default: return DrawMode::Triangles;
    }
}

CaptureCount countCapture(const DrawDesc& draw, const CapturePlan& capture) {
    checkDrawMode(draw.mode, "the draw");
    CaptureCount c;
    c.primitive = capturedPrimitive(draw.mode);
    if (draw.indices.empty()) {
        if (draw.vertexCount < 0)
            throw Error(ErrorCode::InvalidArgument,
                        "vertex count must be >= 0, got " + std::to_string(draw.vertexCount));
        c.primitives = primitivesOf(draw.mode, draw.vertexCount);
    } else {
        std::int64_t run = 0; // restart indices end a run; strips and fans start again after them
        for (std::uint32_t i : draw.indices) {
            if (draw.restartIndex && i == *draw.restartIndex) {
                c.primitives += primitivesOf(draw.mode, run);
                run = 0;
            } else {
                ++run;
            }
        }
        c.primitives += primitivesOf(draw.mode, run);
    }
    const int perPrimitive = verticesPerPrimitive(c.primitive);
    // Checked: a vertex count near INT64_MAX must not wrap into a small, wrong capacity.
    auto tooLarge = [&](const std::string& what) {
        throw Error(ErrorCode::BufferTooLarge, std::to_string(c.primitives) + " " +
                                                   std::string(drawModeName(c.primitive)) + " capture " + what +
                                                   ", which overflows 64 bits; draw fewer vertices per call");
    };
    if (__builtin_mul_overflow(c.primitives, std::int64_t(perPrimitive), &c.records))
        tooLarge("more than 2^63 records");
    for (const auto& b : capture.buffers) {
        std::uint64_t bytes = 0;
        if (__builtin_mul_overflow(std::uint64_t(c.records), std::uint64_t(b.stride), &bytes))
            tooLarge(std::to_string(c.records) + " records of " + std::to_string(b.stride) + " bytes");
        c.bytes.push_back(bytes);
    }
    return c;
}

std::vector<std::uint32_t> expandPrimitives(const DrawDesc& draw) {
    checkDrawMode(draw.mode, "the draw");
    if (draw.indices.empty() && draw.vertexCount < 0)
        throw Error(ErrorCode::InvalidArgument, "vertex count must be >= 0, got " + std::to_string(draw.vertexCount));
    std::vector<std::uint32_t> out;
    std::vector<std::uint32_t> run;
    auto flush = [&] {
        const auto n = run.size();
        auto emit = [&](std::initializer_list<std::size_t> at) {
            for (auto i : at) out.push_back(run[i]);
        };
        switch (draw.mode) {
            case DrawMode::Points: out.insert(out.end(), run.begin(), run.end()); break;
            case DrawMode::Lines:
                for (std::size_t i = 0; i + 1 < n; i += 2) emit({i, i + 1});
                break;
            case DrawMode::LineStrip:
                for (std::size_t i = 0; i + 1 < n; ++i) emit({i, i + 1});
                break;
            case DrawMode::LineLoop:
                if (n < 2) break;
                for (std::size_t i = 0; i + 1 < n; ++i) emit({i, i + 1});
                emit({n - 1, 0});
                break;
            case DrawMode::Triangles:
                for (std::size_t i = 0; i + 2 < n; i += 3) emit({i, i + 1, i + 2});
                break;
            case DrawMode::TriangleStrip:
                for (std::size_t i = 0; i + 2 < n; ++i) emit({i + (i & 1), i + 1 - (i & 1), i + 2});
                break;
            case DrawMode::TriangleFan:
                for (std::size_t i = 0; i + 2 < n; ++i) emit({0, i + 1, i + 2});
                break;
        }
        run.clear();
    };
    if (draw.indices.empty()) {
        for (std::int64_t i = 0; i < draw.vertexCount; ++i) run.push_back(std::uint32_t(i));
    } else {
        for (std::uint32_t i : draw.indices) {
            if (draw.restartIndex && i == *draw.restartIndex)
                flush();
            else
                run.push_back(i);
        }
    }
    flush();
    return out;
}

std::int64_t checkDrawVertices(const DrawDesc& draw, std::int64_t inputVertices) {
    if (draw.indices.empty()) {
        if (draw.vertexCount > inputVertices)
            throw Error(ErrorCode::InvalidArgument,
                        "the draw has " + std::to_string(draw.vertexCount) + " vertices but the inputs hold " +
                            std::to_string(inputVertices) + "; draw at most " + std::to_string(inputVertices));
        return draw.vertexCount;
    }
    std::int64_t referenced = 0;
    for (std::size_t k = 0; k < draw.indices.size(); ++k) {
        std::uint32_t i = draw.indices[k];
        if (draw.restartIndex && i == *draw.restartIndex) continue;
        if (std::int64_t(i) >= inputVertices)
            throw Error(ErrorCode::InvalidArgument,
                        "index " + std::to_string(i) + " at position " + std::to_string(k) + " is outside the " +
                            std::to_string(inputVertices) + " input vertices (0.." + std::to_string(inputVertices - 1) +
                            ")" + (draw.restartIndex ? "" : "; set restartIndex if it marks a restart"));
        referenced = std::max(referenced, std::int64_t(i) + 1);
    }
    return referenced;
}

void checkCaptureCapacity(const CaptureCount& count, std::span<const std::uint64_t> bufferBytes) {
    for (std::size_t i = 0; i < count.bytes.size() && i < bufferBytes.size(); ++i) {
        if (bufferBytes[i] >= count.bytes[i]) continue;
        std::uint64_t stride = count.records ? count.bytes[i] / std::uint64_t(count.records) : 0;
        throw Error(ErrorCode::Capacity,
                    "output buffer " + std::to_string(i) + " holds " + std::to_string(bufferBytes[i]) + " bytes (" +
                        std::to_string(stride ? bufferBytes[i] / stride : 0) + " records) but the draw writes " +
                        std::to_string(count.records) + " records of " + std::to_string(stride) +
                        " bytes = " + std::to_string(count.bytes[i]) + " bytes (" + std::to_string(count.primitives) +
                        " " + std::string(drawModeName(count.primitive)) + "); allocate at least " +
                        std::to_string(count.bytes[i]) + " bytes. Nothing was drawn");
    }
}

} // namespace xfb
