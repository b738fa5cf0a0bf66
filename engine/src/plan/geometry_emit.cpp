// A geometry program's emit code in GLSL or WGSL (geometry_emit.hpp).
#include "geometry_emit.hpp"

#include <algorithm>

namespace xfb::plan {
namespace {

using S = std::string;
S u(std::int64_t v) { return std::to_string(v) + "u"; }

// `fn name(params) -> result {` / `result name(params) {`, each parameter given in both spellings.
S function(KernelLanguage l, const S& name, const S& glslParams, const S& wgslParams, const S& wgslResult = "") {
    if (l == KernelLanguage::Glsl) return "void " + name + "(" + glslParams + ") {\n";
    return "fn " + name + "(" + wgslParams + ")" + (wgslResult.empty() ? "" : " -> " + wgslResult) + " {\n";
}

// xfb_emit_stream_vertex(stream) around the per-stream code; xfb_end_stream_primitive(stream): a
// strip ends at EndStreamPrimitive of its stream (several streams emit points: no strip).
S emitFunctions(KernelLanguage l, int maxVertices, const S& perStream) {
    KernelText head(l, 1), end(l, 1);
    head.when("xfb_vertices >= " + u(maxVertices), "return"); // past max_vertices: dropped, as the GL does
    head.line(head.increment("xfb_vertices"));
    end.when("xfb_s == 0", "xfb_strip = 0u");
    return function(l, "xfb_emit_stream_vertex", "int xfb_s", "xfb_s: i32") + head.text() + perStream + "}\n" +
           function(l, "xfb_end_stream_primitive", "int xfb_s", "xfb_s: i32") + end.text() + "}\n";
}

} // namespace

GeometryEmitCode geometryEmitCode(KernelLanguage l, const GeometryComputePlan& p, const CapturePlan& capture,
                                  int streams, int maxVertices, const S& capacityArray,
                                  S (*word)(const CapturePlan&, const BufferField&, int)) {
    const int verts = p.primitiveVertices;
    const bool wgsl = l == KernelLanguage::Wgsl;
    GeometryEmitCode r;
    KernelText count(l, 1), write(l, 1);
    S functions;
    for (int s = 0; s < streams; ++s) {
        const S n = std::to_string(s), capacity = capacityArray + "[" + n + "]";
        const GeometryComputeStream& stream = p.streams[std::size_t(s)];
        // A strip's primitive closes at its 2nd / 3rd vertex: that vertex adds the primitive's records.
        const S closes = verts == 1 ? "true" : "xfb_strip >= " + u(verts - 1);
        count.open("xfb_s == " + n);
        count.when(closes, "xfb_records[" + n + "] += " + u(verts));
        if (verts > 1) count.line(count.increment("xfb_strip"));
        count.close();
        if (!stream.captured) {
            write.open("xfb_s == " + n);
            if (verts > 1) write.line(write.increment("xfb_strip"));
            write.close();
            continue;
        }
        write.when("xfb_s == " + n, "xfb_emit" + n + "()");

        // The stream's record: every field of its buffers, in buffer order, as u32 words.
        const int W = int(std::max<std::size_t>(1, stream.words.size()));
        const S words = std::to_string(W), record = "array<u32, " + words + ">";
        KernelText gather(l, 1), store(l, 1);
        if (wgsl) gather.line("var w: " + record);
        for (std::size_t k = 0; k < stream.words.size(); ++k) {
            const GeometryRecordWord& w = stream.words[k];
            const S i = "[" + std::to_string(k) + "]";
            gather.line("w" + i + " = " + word(capture, w.field, w.component));
            store.line("xfb_b" + std::to_string(w.buffer) + "[r * " + u(w.strideWords) + " + " + u(w.bufferWord) +
                       "] = w" + i);
        }
        if (wgsl) gather.line("return w");
        functions += function(l, "xfb_gather" + n, "out uint w[" + words + "]", "", record) + gather.text() + "}\n" +
                     function(l, "xfb_store" + n, "uint r, uint w[" + words + "]", "r: u32, w: " + record) +
                     store.text() + "}\n";

        KernelText emit(l, 1);
        if (wgsl)
            emit.line("let xfb_cur = xfb_gather" + n + "()");
        else {
            emit.line("uint xfb_cur[" + words + "]");
            emit.line("xfb_gather" + n + "(xfb_cur)");
        }
        emit.line(emit.local("xfb_r", "xfb_first[" + n + "] + xfb_records[" + n + "]"));
        const S storeAt = "xfb_store" + n + "(xfb_r";
        if (verts == 1) {
            emit.when("xfb_r < " + capacity, storeAt + ", xfb_cur)");
            emit.line("xfb_records[" + n + "] += 1u");
        } else {
            // The strip's last vertices (a strip is on one stream: several streams emit points only).
            const S p1 = "xfb_prev1_" + n, p2 = "xfb_prev2_" + n;
            r.privates += emit.privateWords(p1, W) + emit.privateWords(p2, W);
            emit.open(closes);
            emit.open("xfb_r + " + u(verts) + " <= " + capacity);
            if (verts == 2)
                emit.line(storeAt + ", " + p1 + ")");
            else { // triangle k = xfb_strip - 2 of the strip: (k, k+1, k+2) even, (k+1, k, k+2) odd
                emit.open("(xfb_strip & 1u) == 1u");
                emit.line(storeAt + ", " + p1 + ")");
                emit.line(storeAt + " + 1u, " + p2 + ")");
                emit.otherwise();
                emit.line(storeAt + ", " + p2 + ")");
                emit.line(storeAt + " + 1u, " + p1 + ")");
                emit.close();
            }
            emit.line(storeAt + " + " + u(verts - 1) + ", xfb_cur)");
            emit.close();
            emit.line("xfb_records[" + n + "] += " + u(verts));
            emit.close();
            if (verts == 3) emit.line(p2 + " = " + p1);
            emit.line(p1 + " = xfb_cur");
            emit.line(emit.increment("xfb_strip"));
        }
        functions += function(l, "xfb_emit" + n, "", "") + emit.text() + "}\n";
    }
    r.count = emitFunctions(l, maxVertices, count.text());
    r.write = functions + emitFunctions(l, maxVertices, write.text());
    return r;
}

} // namespace xfb::plan
