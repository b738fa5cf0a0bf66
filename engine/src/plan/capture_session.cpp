#include "xfb/capture_session.hpp"

#include "xfb/error.hpp"
#include "xfb/limits.hpp"

#include <limits>

namespace xfb {

namespace {
// The byte at which `record` starts in a buffer of `stride`-byte records (checked).
std::uint64_t byteOffset(std::int64_t record, std::int64_t stride, std::size_t part) {
    return checkedBufferBytes(record, stride, std::numeric_limits<std::uint64_t>::max(),
                              "the capture session's record " + std::to_string(record) + " (part " +
                                  std::to_string(part) + ")");
}
} // namespace

SessionPlan planCaptureSession(std::span<const DrawDesc> parts, const CapturePlan& capture, std::int64_t firstRecord) {
    if (parts.empty()) throw Error(ErrorCode::InvalidArgument, "a capture session needs at least one part (draw)");
    if (firstRecord < 0)
        throw Error(ErrorCode::InvalidArgument,
                    "the session's first record must be >= 0, got " + std::to_string(firstRecord));
    SessionPlan s;
    s.firstRecord = s.endRecord = firstRecord;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        CaptureCount c;
        try {
            c = countCapture(parts[i], capture);
        } catch (const Error& e) { throw Error(e.code(), "part " + std::to_string(i) + ": " + e.message()); }
        PartRange r;
        r.primitive = c.primitive;
        r.primitives = c.primitives;
        r.firstRecord = s.endRecord;
        r.records = c.records;
        r.bytes = c.bytes;
        // Record and byte positions never wrap: a far record offset is an error, not a small one.
        for (const auto& b : capture.buffers) r.firstByte.push_back(byteOffset(r.firstRecord, b.stride, i));
        if (c.records > std::numeric_limits<std::int64_t>::max() - s.endRecord)
            throw Error(ErrorCode::BufferTooLarge, "part " + std::to_string(i) + ": records " +
                                                       std::to_string(s.endRecord) + " + " + std::to_string(c.records) +
                                                       " overflow 64 bits");
        s.endRecord += c.records;
        s.parts.push_back(std::move(r));
    }
    for (const auto& b : capture.buffers) s.endBytes.push_back(byteOffset(s.endRecord, b.stride, parts.size()));
    return s;
}

void checkSessionCapacity(const SessionPlan& session, std::span<const std::uint64_t> bufferBytes) {
    for (std::size_t i = 0; i < session.endBytes.size() && i < bufferBytes.size(); ++i) {
        if (bufferBytes[i] >= session.endBytes[i]) continue;
        const std::uint64_t stride = session.endRecord ? session.endBytes[i] / std::uint64_t(session.endRecord) : 0;
        throw Error(ErrorCode::Capacity,
                    "output buffer " + std::to_string(i) + " holds " + std::to_string(bufferBytes[i]) + " bytes (" +
                        std::to_string(stride ? bufferBytes[i] / stride : 0) + " records) but the session of " +
                        std::to_string(session.parts.size()) + " parts writes records " +
                        std::to_string(session.firstRecord) + ".." + std::to_string(session.endRecord) + " (" +
                        std::to_string(session.records()) + " records of " + std::to_string(stride) +
                        " bytes), so it needs " + std::to_string(session.endBytes[i]) +
                        " bytes; allocate at least that or start earlier. Nothing was written");
    }
}

void checkSessionProgram(std::size_t part, std::string_view label, const CapturePlan& capture,
                         std::span<const AttributeSlot> attributes, std::string_view captureLabel,
                         const CapturePlan& captureCapture, std::span<const AttributeSlot> captureAttributes) {
    const std::string partName = "part " + std::to_string(part) + ": program '" + std::string(label) + "'";
    const std::string captureName = "the capture's program '" + std::string(captureLabel) + "'";
    if (!sameCaptureLayout(capture, captureCapture))
        throw Error(ErrorCode::OutputLayoutMismatch,
                    partName + " writes records as {" + describeCaptureLayout(capture) + "} but " + captureName +
                        " writes {" + describeCaptureLayout(captureCapture) +
                        "}; a session appends records of one layout: give the parts the same varyings "
                        "(types, order, mode) or capture into another buffer");
    for (const auto& a : attributes) {
        bool provided = false;
        for (const auto& b : captureAttributes)
            provided |= b.location == a.location && b.type.name == a.type.name && b.arraySize == a.arraySize;
        if (!provided)
            throw Error(ErrorCode::SemanticMissing,
                        partName + " reads input '" + a.name + "' (" + a.type.name + ") at location " +
                            std::to_string(a.location) + ", which " + captureName +
                            " does not read there with that type, so the capture's vertex array does not provide it");
    }
}

std::string describeCaptureLayout(const CapturePlan& capture) {
    std::string out(captureModeName(capture.mode));
    for (const auto& b : capture.buffers) {
        out += ", buffer " + std::to_string(b.binding) + " stride " + std::to_string(b.stride) + ":";
        for (std::size_t f = 0; f < b.fields.size(); ++f) {
            const auto& field = b.fields[f];
            std::string type;
            for (const auto& v : capture.varyings)
                if (v.name == field.varying)
                    type = v.type.name + (v.arraySize ? "[" + std::to_string(v.arraySize) + "]" : "");
            if (type.empty())
                type = std::to_string(field.components) + " x " + std::string(componentTypeName(field.type));
            out += (f ? ", " : " ") + field.varying + " " + type + " @" + std::to_string(field.offset);
        }
    }
    return out;
}

bool sameCaptureLayout(const CapturePlan& a, const CapturePlan& b) {
    if (a.mode != b.mode || a.varyings.size() != b.varyings.size() || a.buffers.size() != b.buffers.size())
        return false;
    for (std::size_t i = 0; i < a.varyings.size(); ++i) {
        const auto &x = a.varyings[i], &y = b.varyings[i];
        if (x.type.name != y.type.name || x.arraySize != y.arraySize) return false;
    }
    for (std::size_t i = 0; i < a.buffers.size(); ++i) {
        const auto &x = a.buffers[i], &y = b.buffers[i];
        if (x.binding != y.binding || x.stride != y.stride || x.fields.size() != y.fields.size()) return false;
        for (std::size_t f = 0; f < x.fields.size(); ++f)
            if (x.fields[f].offset != y.fields[f].offset || x.fields[f].components != y.fields[f].components ||
                x.fields[f].type != y.fields[f].type)
                return false;
    }
    return true;
}

} // namespace xfb
