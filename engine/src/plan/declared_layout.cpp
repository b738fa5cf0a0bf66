#include "declared_layout.hpp"

#include "text.hpp"

#include "xfb/attribute_plan.hpp"
#include "xfb/error.hpp"
#include "xfb/limits.hpp"

#include <algorithm>
#include <optional>

namespace xfb::plan {

namespace {

bool isSkip(std::string_view name) { return name.starts_with("gl_SkipComponents"); }
bool isLayoutWord(std::string_view name) { return isSkip(name) || name == "gl_NextBuffer"; }

// One entry of a declared layout before it is checked: a varying's components, or a gap.
struct Placement {
    std::string varying;      // empty: a gap of `count` words
    int first = 0, count = 0; // count 0: to the varying's end
    int buffer = 0;
    std::optional<int> offset; // bytes; none: right after the buffer's previous entry
    std::string where;         // "line 5", "declaration entry 2", "varyings[3]": for messages
};

// A declared stride, and where it was declared.
struct Stride {
    int bytes = 0;
    std::string where;
};

// Messages are pieces appended out of line (plan/text.hpp): `a + b + ...` chains cost the wasm module kilobytes.
[[noreturn]] void fail(ErrorCode code, std::initializer_list<std::string_view> message) {
    throw Error(code, cat(message));
}

std::string lineOf(int line) { return "line " + std::to_string(line); }

// The output a Direct3D semantic names: SV_Position is gl_Position; a standard semantic the
// output `out_<name>` that matches the standard input `vertex_<name>` (POSITION: out_position).
std::string outputOfSemantic(const DeclaredEntry& e, const std::string& where) {
    std::string upper;
    for (char c : e.semantic) upper += char(c >= 'a' && c <= 'z' ? c - 32 : c);
    if (upper == "SV_POSITION" && e.semanticIndex == 0) return "gl_Position";
    std::string name = upper;
    if (upper == "TEXCOORD") name += std::to_string(e.semanticIndex);
    std::optional<Semantic> s = semanticFromName(name);
    std::string_view input = s ? standardInputName(*s) : std::string_view();
    if (input.empty() || (upper != "TEXCOORD" && e.semanticIndex != 0))
        fail(ErrorCode::UnknownVarying,
             {where, ": semantic '", e.semantic, "' index ", std::to_string(e.semanticIndex),
              " names no output; the standard semantics are SV_Position (gl_Position), POSITION, NORMAL, TANGENT, "
              "BLENDWEIGHT, BLENDINDICES, COLOR and TEXCOORD 0..7, captured from out_position, out_normal, ... "
              "out_texCoord0..7; or name the varying"});
    return "out_" + std::string(input.substr(std::string_view("vertex_").size()));
}

// Strides by buffer: a declared stride's bytes (0: the extent) and where it was declared.
using Strides = std::vector<Stride>;

// A stride's buffer within the binding points (a qualifier may name any buffer).
void checkStrideBuffer(int buffer, const std::string& where, const Limits& limits) {
    if (buffer >= limits.maxSeparateAttribs)
        fail(ErrorCode::LayoutBuffer,
             {where, " gives buffer ", std::to_string(buffer),
              " a stride, but this context has transform-feedback buffers 0..",
              std::to_string(limits.maxSeparateAttribs - 1), " (MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS)"});
}

std::vector<Placement> fromQualifiers(const ShaderInterface& shader, Strides& strides, const Limits& limits) {
    std::vector<Placement> out;
    for (const Declaration& d : shader.outputs)
        if (d.xfbOffset) out.push_back({d.name, 0, 0, d.xfbBuffer, d.xfbOffset, lineOf(d.line)});
    for (const auto& s : shader.xfbStrides) {
        const std::string where = "xfb_stride on " + lineOf(s.line);
        checkStrideBuffer(s.buffer, where, limits);
        Stride& known = strides[std::size_t(s.buffer)];
        if (!known.where.empty() && known.bytes != s.stride)
            fail(ErrorCode::LayoutStride,
                 {where, " gives buffer ", std::to_string(s.buffer), " a stride of ", std::to_string(s.stride),
                  " bytes, but ", known.where, " gave it ", std::to_string(known.bytes),
                  "; a buffer has one stride (GLSL 4.40 section 4.4.2.1): make them equal"});
        known = {s.stride, where};
    }
    if (out.empty())
        fail(ErrorCode::LayoutConflict,
             {"the shader declares xfb_stride (", "xfb_stride on " + lineOf(shader.xfbStrides[0].line),
              ") but no output has xfb_offset, so it captures nothing (GLSL 4.40); give the outputs to capture "
              "layout(xfb_offset = N), or drop the xfb_stride"});
    return out;
}

std::vector<Placement> fromDeclaration(const std::vector<DeclaredEntry>& declaration) {
    std::vector<Placement> out;
    for (std::size_t i = 0; i < declaration.size(); ++i) {
        const DeclaredEntry& e = declaration[i];
        const std::string where = "declaration entry " + std::to_string(i);
        if (!e.varying.empty() && !e.semantic.empty())
            fail(ErrorCode::LayoutConflict, {where, " names both varying '", e.varying, "' and semantic '", e.semantic,
                                             "'; give one of them (neither: a gap)"});
        std::string varying = e.semantic.empty() ? e.varying : outputOfSemantic(e, where);
        if (varying.empty() && e.firstComponent != 0)
            fail(ErrorCode::LayoutComponents,
                 {where, " is a gap of ", std::to_string(e.components), " words with a first component of ",
                  std::to_string(e.firstComponent), "; a gap has no varying to start in: set it to 0"});
        out.push_back({varying, e.firstComponent, e.components, e.buffer, std::nullopt, where});
    }
    return out;
}

// GL's list: names, gl_SkipComponents1..4 (gaps) and gl_NextBuffer (the next buffer).
std::vector<Placement> fromList(const std::vector<std::string>& names) {
    std::vector<Placement> out;
    int buffer = 0;
    for (std::size_t i = 0; i < names.size(); ++i) {
        const std::string& n = names[i];
        const std::string where = "varyings[" + std::to_string(i) + "]";
        if (n == "gl_NextBuffer") {
            ++buffer;
        } else if (isSkip(n)) {
            const std::string_view count = std::string_view(n).substr(17);
            if (count.size() != 1 || count[0] < '1' || count[0] > '4')
                fail(ErrorCode::LayoutComponents, {where, " '", n,
                                                   "' is not a skip of GL: write gl_SkipComponents1, 2, 3 or 4 "
                                                   "(several in a row for a longer gap)"});
            out.push_back({"", 0, count[0] - '0', buffer, std::nullopt, where});
        } else {
            out.push_back({n, 0, 0, buffer, std::nullopt, where});
        }
    }
    // A gl_NextBuffer at the end, or two in a row, leave a buffer with nothing: layOut() names it.
    if (!names.empty() && names.back() == "gl_NextBuffer") out.push_back({"", 0, 0, buffer, std::nullopt, "end"});
    return out;
}

// One field being placed: what layOut() keeps per placement.
struct Placed {
    std::size_t varying; // index in CapturePlan::varyings; SIZE_MAX for a gap
    int first = 0, count = 0, offset = 0, buffer = 0;
    const Placement* from = nullptr;
};

CapturePlan layOut(const ShaderInterface& shader, const std::vector<Placement>& placements, const Strides& strides,
                   const Limits& limits) {
    const OutputIndex outputs = indexOutputs(shader);
    CapturePlan plan;
    plan.declared = true;
    std::vector<Placed> placed;
    // Flat lists, not maps, here and below: each map type cost the wasm module a tree's code.
    std::vector<int> cursor(
        std::size_t(std::max(limits.maxSeparateAttribs, 0))); // the byte after each buffer's last entry
    int buffers = 0;                                          // 1 + the highest buffer with an entry
    // Components taken of each output (an element `a[1]` is components of `a`), to refuse overlaps.
    struct Taken {
        std::string base;
        int from, to;
        std::string varying, where;
    };
    std::vector<Taken> taken;
    for (const Placement& p : placements) {
        if (p.buffer < 0 || p.buffer >= limits.maxSeparateAttribs)
            fail(ErrorCode::LayoutBuffer,
                 {p.where, (p.varying.empty() ? "" : " ('" + p.varying + "')"), " is in buffer ",
                  std::to_string(p.buffer), ", but this context has transform-feedback buffers 0..",
                  std::to_string(limits.maxSeparateAttribs - 1),
                  " (MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS); put it in a lower buffer"});
        Placed q{SIZE_MAX, p.first, p.count, 0, p.buffer, &p};
        if (p.varying.empty()) {
            if (p.count <= 0 && p.where != "end")
                fail(ErrorCode::LayoutComponents, {p.where, " is a gap of ", std::to_string(p.count),
                                                   " words; a gap skips at least one 32-bit word"});
        } else {
            const CapturedVarying v = lookUpVarying(shader, outputs, p.varying);
            const int n = v.components();
            // 64-bit: a first component and a count near 2^31 each must not wrap into range.
            if (p.first < 0 || p.first >= n || p.count < 0 || std::int64_t(p.first) + p.count > n)
                fail(ErrorCode::LayoutComponents,
                     {p.where, " captures components ", std::to_string(p.first), "..",
                      std::to_string(std::int64_t(p.first) + (p.count ? p.count : n - p.first) - 1), " of '", v.name,
                      "' (", v.type.name, (v.arraySize ? "[" + std::to_string(v.arraySize) + "]" : ""), "), which has ",
                      std::to_string(n), " (0..", std::to_string(n - 1),
                      "); start within it and count at most to its end (0 counts to the end)"});
            if (q.count == 0) q.count = n - p.first;
            // Overlapping components of one output are captured twice: GL refuses such a link.
            const auto open = v.name.find('[');
            const std::string base = open == std::string::npos ? v.name : v.name.substr(0, open);
            const int at = open == std::string::npos ? 0 : std::stoi(v.name.substr(open + 1)) * v.type.components();
            for (const Taken& t : taken)
                if (t.base == base && at + q.first < t.to && t.from < at + q.first + q.count)
                    fail(ErrorCode::DuplicateVarying,
                         {p.where, " captures components of '", base, "' that ", t.where, " ('", t.varying,
                          "') captures already; capture each component once"});
            taken.push_back({base, at + q.first, at + q.first + q.count, v.name, p.where});
            auto known = std::find_if(plan.varyings.begin(), plan.varyings.end(),
                                      [&](const CapturedVarying& x) { return x.name == v.name; });
            q.varying = std::size_t(known - plan.varyings.begin());
            if (known == plan.varyings.end()) plan.varyings.push_back(v);
        }
        int& next = cursor[std::size_t(p.buffer)];
        buffers = std::max(buffers, p.buffer + 1);
        q.offset = p.offset.value_or(next);
        if (q.offset % 4)
            fail(ErrorCode::LayoutOffset,
                 {p.where, " places '", p.varying, "' at xfb_offset ", std::to_string(q.offset),
                  ", not a multiple of 4: 32-bit components start on 4-byte "
                  "boundaries (GLSL 4.40 section 4.4.2.1); use ",
                  std::to_string(q.offset / 4 * 4), " or ", std::to_string(q.offset / 4 * 4 + 4)});
        // Within the most a buffer holds, before anything is added up in int (a gap of 2^31 words).
        const std::int64_t end = std::int64_t(q.offset) + 4 * std::int64_t(q.count);
        if (end > 4LL * limits.maxInterleavedComponents)
            fail(ErrorCode::InterleavedComponents,
                 {p.where, " reaches byte ", std::to_string(end), " of buffer ", std::to_string(p.buffer),
                  ", past the ", std::to_string(limits.maxInterleavedComponents),
                  " components (MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS) a record holds; capture less into it, "
                  "or spread the fields over more buffers"});
        next = std::max(next, int(end));
        placed.push_back(q);
    }
    // Buffers in order, each with its fields by offset; they number 0..n-1.
    auto name = [&](const Placed& q) {
        return q.varying == SIZE_MAX ? std::string("a gap") : "'" + plan.varyings[q.varying].name + "'";
    };
    for (int b = 0; b < buffers; ++b) {
        std::vector<const Placed*> fields;
        for (const Placed& q : placed)
            if (q.buffer == b && q.count > 0) fields.push_back(&q);
        // By offset, in entry order where offsets tie (the pointers follow it).
        std::sort(fields.begin(), fields.end(),
                  [](auto* x, auto* y) { return x->offset != y->offset ? x->offset < y->offset : x < y; });
        bool any = std::any_of(fields.begin(), fields.end(), [](auto* q) { return q->varying != SIZE_MAX; });
        if (!any)
            fail(ErrorCode::LayoutBuffer,
                 {"buffer ", std::to_string(b), " of the declared layout captures nothing (of buffers 0..",
                  std::to_string(buffers - 1),
                  "): buffers are numbered from 0 without holes, each the binding of one output entry in "
                  "order; move the entries of later buffers down, or drop the extra gl_NextBuffer"});
        for (std::size_t k = 1; k < fields.size(); ++k) {
            const Placed &a = *fields[k - 1], &c = *fields[k];
            if (c.offset < a.offset + 4 * a.count)
                fail(ErrorCode::LayoutOverlap,
                     {c.from->where, " places ", name(c), " at offset ", std::to_string(c.offset), " of buffer ",
                      std::to_string(b), ", inside ", name(a), " (", a.from->where, ", bytes ",
                      std::to_string(a.offset), "..", std::to_string(a.offset + 4 * a.count - 1),
                      "); entries of one buffer may not overlap: move it to offset ",
                      std::to_string(a.offset + 4 * a.count)});
        }
        const Placed& last = **std::max_element(fields.begin(), fields.end(), [](auto* x, auto* y) {
            return x->offset + 4 * x->count < y->offset + 4 * y->count;
        });
        const int extent = last.offset + 4 * last.count;
        int stride = extent;
        if (const Stride& s = strides[std::size_t(b)]; s.bytes != 0) {
            stride = s.bytes;
            if (stride % 4 || stride < extent)
                fail(ErrorCode::LayoutStride,
                     {s.where, " gives buffer ", std::to_string(b), " a stride of ", std::to_string(stride), " bytes, ",
                      (stride % 4 ? std::string("not a multiple of 4")
                                  : "less than its extent of " + std::to_string(extent) + " bytes (" + name(last) +
                                        " at offset " + std::to_string(last.offset) + " ends there)"),
                      " (GLSL 4.40 section 4.4.2.1); use ", std::to_string(std::max(extent, (stride + 3) / 4 * 4))});
        }
        if (stride / 4 > limits.maxInterleavedComponents)
            fail(ErrorCode::InterleavedComponents,
                 {"buffer ", std::to_string(b), " of the declared layout has a stride of ", std::to_string(stride),
                  " bytes (", std::to_string(stride / 4),
                  " components, gaps included) but MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS is ",
                  std::to_string(limits.maxInterleavedComponents),
                  "; capture less into it, or spread the fields over more buffers"});
        OutputLayout layout{b, stride, {}};
        for (const Placed* q : fields) {
            if (q->varying == SIZE_MAX) continue;
            const CapturedVarying& v = plan.varyings[q->varying];
            layout.fields.push_back({v.name, q->offset, q->count, *componentTypeOf(v.type.kind), q->first});
        }
        plan.buffers.push_back(std::move(layout));
    }
    for (std::size_t b = std::size_t(buffers); b < strides.size(); ++b)
        if (strides[b].bytes != 0 && !strides[b].where.starts_with("xfb_stride"))
            fail(ErrorCode::LayoutBuffer,
                 {strides[b].where, " gives buffer ", std::to_string(b), " a stride, but the layout has buffers 0..",
                  std::to_string(buffers - 1), "; drop it or capture into that buffer"});
    return plan;
}

} // namespace

bool declaresLayout(const ShaderInterface& shader, const CaptureOptions& options) {
    return shader.declaresXfbLayout() || !options.declaration.empty() || !options.strides.empty() ||
           std::any_of(options.varyings.begin(), options.varyings.end(),
                       [](const std::string& n) { return isLayoutWord(n); });
}

CapturePlan planDeclaredLayout(const ShaderInterface& shader, const CaptureOptions& options, const Limits& limits) {
    // One way at a time: the GL 4.4 driver ignores a list where the shader declares offsets, so a
    // program stating both would mean two different layouts.
    const bool qualifiers = shader.declaresXfbLayout();
    const bool list = std::any_of(options.varyings.begin(), options.varyings.end(),
                                  [](const std::string& n) { return isLayoutWord(n); });
    // Generated or hostile input stops here: the checks below compare entries pairwise.
    const std::size_t entries = std::max(options.declaration.size(), options.varyings.size());
    if (entries > std::size_t(limits::maxDeclarations))
        fail(ErrorCode::TooManyDeclarations,
             {"the declared layout has ", std::to_string(entries), " entries; at most ",
              std::to_string(limits::maxDeclarations), " are accepted (xfb/limits.hpp), far above what a GL captures"});
    if (options.strides.size() > std::size_t(std::max(limits.maxSeparateAttribs, 0)))
        fail(ErrorCode::LayoutBuffer, {"CaptureOptions::strides gives ", std::to_string(options.strides.size()),
                                       " strides, but this context has transform-feedback buffers 0..",
                                       std::to_string(limits.maxSeparateAttribs - 1),
                                       " (MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS); give one per buffer"});
    if (shader.unplacedXfbLine)
        fail(ErrorCode::LayoutConflict,
             {"an xfb_* qualifier on ", lineOf(shader.unplacedXfbLine),
              " is on an interface block, an input or a struct member, which xfb does not read; declare the "
              "captured values as plain outputs with layout(xfb_buffer = B, xfb_offset = O)"});
    std::vector<std::string> ways;
    if (qualifiers) ways.push_back("the shader's xfb_offset qualifiers");
    if (!options.declaration.empty()) ways.push_back("CaptureOptions::declaration");
    if (!options.varyings.empty()) ways.push_back("the varyings list");
    if (ways.size() > 1)
        fail(ErrorCode::LayoutConflict, {"the capture layout is given twice, by ", ways[0], " and by ", ways[1],
                                         "; state it one way (qualifiers, a declaration, or a list with "
                                         "gl_SkipComponents / gl_NextBuffer)"});
    if (qualifiers && !options.strides.empty())
        fail(ErrorCode::LayoutConflict,
             {"CaptureOptions::strides are given, but the shader declares its layout with xfb_* qualifiers; "
              "declare the strides there with layout(xfb_buffer = B, xfb_stride = S) out;"});
    if (options.mode == CaptureMode::Separate)
        fail(ErrorCode::LayoutConflict,
             {"a declared layout (", ways.empty() ? std::string_view("CaptureOptions::strides") : ways[0],
              ") places every field itself, which GL does in interleaved mode only (gl_NextBuffer and "
              "gl_SkipComponents are interleaved-mode words); use CaptureMode::Interleaved with one buffer per "
              "field for what separate mode gives"});
    if (!qualifiers && options.declaration.empty() && !list)
        fail(ErrorCode::LayoutConflict,
             {"CaptureOptions::strides are given without a declared layout; declare the entries "
              "(CaptureOptions::declaration, or gl_SkipComponents / gl_NextBuffer in the list), or drop the strides"});
    Strides strides(std::max(options.strides.size(), std::size_t(std::max(limits.maxSeparateAttribs, 0))));
    for (std::size_t b = 0; b < options.strides.size(); ++b)
        strides[b] = {options.strides[b], "strides[" + std::to_string(b) + "]"};
    std::vector<Placement> placements = qualifiers                     ? fromQualifiers(shader, strides, limits)
                                        : !options.declaration.empty() ? fromDeclaration(options.declaration)
                                                                       : fromList(options.varyings);
    return layOut(shader, placements, strides, limits);
}

} // namespace xfb::plan
