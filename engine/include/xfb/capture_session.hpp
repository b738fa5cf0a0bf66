#pragma once
/// @file
/// @brief Append captures: several draws written one after another into the same output
/// buffers, each part's record range planned on the CPU. Pure (no GL).
///
/// Direct3D calls the running end of such a buffer its filled size (BufferFilledSize). Here it is
/// planned, not queried: a vertex shader writes exactly one record per vertex of every captured
/// primitive, so countCapture() of each draw is exact and the CPU knows where every part begins
/// without reading anything back from the GPU.

#include "xfb/attribute_plan.hpp"
#include "xfb/primitive_count.hpp"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace xfb {

/// Where one part of a session lies in the output buffers.
struct PartRange {
    DrawMode primitive = DrawMode::Points; ///< what it captures: points, lines or triangles
    std::int64_t primitives = 0;
    std::int64_t firstRecord = 0; ///< its first record (a vertex index when drawing it back)
    std::int64_t records = 0;
    std::vector<std::uint64_t> firstByte; ///< per output buffer: firstRecord x stride
    std::vector<std::uint64_t> bytes;     ///< per output buffer: records x stride
};

/// A whole session: parts in order, contiguous, from `firstRecord` to `endRecord` (the filled
/// size after the session, in records).
struct SessionPlan {
    std::int64_t firstRecord = 0;
    std::int64_t endRecord = 0;
    std::vector<PartRange> parts;
    std::vector<std::uint64_t> endBytes; ///< per output buffer: endRecord x stride, the size it must have
    std::int64_t records() const { return endRecord - firstRecord; }
};

/// Plans `parts` written one after another from record `firstRecord` of `capture`'s buffers.
/// @throws Error InvalidArgument (no part, firstRecord < 0, a negative vertex count, naming the part)
SessionPlan planCaptureSession(std::span<const DrawDesc> parts, const CapturePlan& capture,
                               std::int64_t firstRecord = 0);

/// Refuses a session that does not fit, before anything is written: `bufferBytes[i]` is the size
/// of output buffer i.
/// @throws Error Capacity naming the buffer, both sizes (bytes and records) and the session's range
void checkSessionCapacity(const SessionPlan& session, std::span<const std::uint64_t> bufferBytes);

/// Refuses part `part`'s program (`label`, its capture plan and attributes) in a session of a
/// capture made with another program (`captureLabel`, ...): it must write the same records
/// (sameCaptureLayout(), else OutputLayoutMismatch naming both layouts) and read only inputs the
/// capture's program reads at the same locations with the same types (else SemanticMissing:
/// the capture's vertex inputs provide nothing else). Every runtime's captureSession() calls it.
void checkSessionProgram(std::size_t part, std::string_view label, const CapturePlan& capture,
                         std::span<const AttributeSlot> attributes, std::string_view captureLabel,
                         const CapturePlan& captureCapture, std::span<const AttributeSlot> captureAttributes);

/// The record layout of a capture, e.g. "interleaved, buffer 0 stride 36: out_position vec4 @0,
/// out_normal vec3 @16, out_uv vec2 @28".
std::string describeCaptureLayout(const CapturePlan& capture);
/// Whether two programs write the same records: mode, varying types and array sizes, and every
/// buffer's stride and field offsets, components and types (varying names may differ).
bool sameCaptureLayout(const CapturePlan& a, const CapturePlan& b);

} // namespace xfb
