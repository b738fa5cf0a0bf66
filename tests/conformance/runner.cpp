// The native runner of the conformance table (tests/conformance/table.mjs, exported to JSON by
// export.mjs): every case on one headless context (gl43core, gles30 or gles32), on each backend
// the context has (transform feedback; compute on GL 4.3 / ES 3.1). The application's own GL
// calls of the `app` ops are made here with raw GL, and every buffer is read back with raw GL
// (never with xfb, whose calls a case may be testing).
// Usage: xfb-conformance API CASES.json [ID-SUBSTRING]
// Prints PASS / FAIL / N/A per case and runtime, the totals, and `xfb-test-run: cases=N asserts=M`.
#include "gl/gl_api.hpp"
#include "xfb/headless_context.hpp"
#include "xfb/xfb.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <regex>
#include <string>
#include <vector>

using json = nlohmann::json;

namespace {

constexpr std::uint32_t kSentinel = 0xdeadbeef;
long long asserts = 0;

struct CaseFailure {
    std::string message;
};

void check(bool ok, const std::string& message) {
    ++asserts;
    if (!ok) throw CaseFailure{message};
}

std::string hex(std::uint32_t w) {
    char text[16];
    std::snprintf(text, sizeof text, "0x%08x", w);
    return text;
}

GLint getInt(GLenum name) {
    GLint v = 0;
    glGetIntegerv(name, &v);
    return v;
}

bool getBool(GLenum name) {
    GLboolean v = GL_FALSE;
    glGetBooleanv(name, &v);
    return v == GL_TRUE;
}

// Raw GL read of a buffer's words, keeping the application's COPY_READ binding.
// Reads at most the buffer's GL size (other code may have re-specified it smaller).
std::vector<std::uint32_t> rawRead(GLuint name, std::size_t words) {
    GLint saved = getInt(GL_COPY_READ_BUFFER_BINDING);
    glBindBuffer(GL_COPY_READ_BUFFER, name);
    GLint64 size = 0;
    glGetBufferParameteri64v(GL_COPY_READ_BUFFER, GL_BUFFER_SIZE, &size);
    words = std::min(words, std::size_t(size / 4));
    std::vector<std::uint32_t> out(words, 0);
    if (auto* p = static_cast<const std::uint32_t*>(
            glMapBufferRange(GL_COPY_READ_BUFFER, 0, GLsizeiptr(words * 4), GL_MAP_READ_BIT))) {
        std::memcpy(out.data(), p, words * 4);
        glUnmapBuffer(GL_COPY_READ_BUFFER);
    }
    glBindBuffer(GL_COPY_READ_BUFFER, GLuint(saved));
    return out;
}

void compareWords(const std::vector<std::uint32_t>& got, const std::vector<std::uint32_t>& want,
                  const std::string& what) {
    check(got.size() == want.size(),
          what + ": " + std::to_string(got.size()) + " words, expected " + std::to_string(want.size()));
    for (std::size_t i = 0; i < want.size(); ++i)
        check(got[i] == want[i], what + ": word " + std::to_string(i) + " is " + hex(got[i]) + ", expected " +
                                     hex(want[i]) +
                                     (want[i] == kSentinel  ? " (the sentinel: never written)"
                                      : got[i] == kSentinel ? " (the sentinel: not written)"
                                                            : ""));
}

xfb::VertexFormat formatOf(const json& format) {
    std::vector<xfb::VertexAttribute> attributes;
    for (const auto& f : format) {
        xfb::VertexAttribute a;
        a.semantic = *xfb::semanticFromName(f.at("semantic").get<std::string>());
        a.type = *xfb::enumFromName<xfb::ComponentType>(xfb::componentTypeNames, f.at("type").get<std::string>());
        a.components = f.at("components").get<int>();
        a.offset = f.value("offset", -1);
        attributes.push_back(a);
    }
    return xfb::VertexFormat::interleaved(std::move(attributes));
}

xfb::DrawDesc drawOf(const json& op) {
    xfb::DrawDesc d;
    auto mode = xfb::enumFromName<xfb::DrawMode>(xfb::drawModeNames, op.at("mode").get<std::string>());
    d.mode = mode ? *mode : xfb::DrawMode(op.value("rawMode", 1000)); // out-of-enum modes are a case of their own
    d.vertexCount = op.value("count", 0);
    if (op.contains("indices")) d.indices = op.at("indices").get<std::vector<std::uint32_t>>();
    if (op.contains("restartIndex") && !op.at("restartIndex").is_null())
        d.restartIndex = op.at("restartIndex").get<std::uint32_t>();
    return d;
}

// The application's transform feedback of an `app: feedback` op: its own program, buffer, VAO and
// object, capturing v = vec4(gl_VertexID, 1, 2, 3).
struct AppFeedback {
    GLuint program = 0, vertexShader = 0, fragmentShader = 0, buffer = 0, object = 0, vertexArray = 0;
    std::string state; // bound, active, paused

    // `holds`: a GL buffer of xfb's bound at index 0 instead of its own buffer (bound state only).
    void create(const std::string& how, GLuint holds = 0) {
        state = how;
        const char* vs = "#version 300 es\nout vec4 v;\nvoid main() { v = vec4(float(gl_VertexID), 1.0, 2.0, 3.0); "
                         "gl_Position = vec4(0.0); }\n";
        const char* fs = "#version 300 es\nprecision mediump float;\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n";
        vertexShader = glCreateShader(GL_VERTEX_SHADER);
        glShaderSource(vertexShader, 1, &vs, nullptr);
        glCompileShader(vertexShader);
        fragmentShader = glCreateShader(GL_FRAGMENT_SHADER);
        glShaderSource(fragmentShader, 1, &fs, nullptr);
        glCompileShader(fragmentShader);
        program = glCreateProgram();
        glAttachShader(program, vertexShader);
        glAttachShader(program, fragmentShader);
        const char* varying = "v";
        glTransformFeedbackVaryings(program, 1, &varying, GL_INTERLEAVED_ATTRIBS);
        glLinkProgram(program);
        glGenBuffers(1, &buffer);
        glBindBuffer(GL_COPY_WRITE_BUFFER, buffer);
        std::vector<std::uint32_t> fill(8, kSentinel);
        glBufferData(GL_COPY_WRITE_BUFFER, 32, fill.data(), GL_DYNAMIC_COPY);
        glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
        glGenVertexArrays(1, &vertexArray);
        glBindVertexArray(vertexArray);
        glGenTransformFeedbacks(1, &object);
        glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, object);
        glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, holds ? holds : buffer);
        if (how == "bound") return;
        glUseProgram(program);
        glEnable(GL_RASTERIZER_DISCARD);
        glBeginTransformFeedback(GL_POINTS);
        glDrawArrays(GL_POINTS, 0, 1);
        if (how == "paused") glPauseTransformFeedback();
    }

    // Its state is as it left it and its capture goes on: vertex 1 after vertex 0.
    void verifyAndRelease() {
        if (!object) return;
        check(getInt(GL_TRANSFORM_FEEDBACK_BINDING) == GLint(object),
              "app feedback: its transform feedback object is no longer bound");
        check(getInt(GL_VERTEX_ARRAY_BINDING) == GLint(vertexArray),
              "app feedback: its vertex array is no longer bound");
        if (state != "bound") {
            check(getBool(GL_TRANSFORM_FEEDBACK_ACTIVE), "app feedback: its transform feedback is no longer active");
            check(getBool(GL_TRANSFORM_FEEDBACK_PAUSED) == (state == "paused"),
                  "app feedback: its paused state changed");
            check(getInt(GL_CURRENT_PROGRAM) == GLint(program), "app feedback: its program is no longer current");
            if (state == "paused") glResumeTransformFeedback();
            glDrawArrays(GL_POINTS, 1, 1);
            glEndTransformFeedback();
            glDisable(GL_RASTERIZER_DISCARD);
            check(glGetError() == GL_NO_ERROR, "app feedback: its own draw after the xfb calls raised a GL error");
            float want[8] = {0, 1, 2, 3, 1, 1, 2, 3};
            std::vector<std::uint32_t> words(8);
            std::memcpy(words.data(), want, 32);
            compareWords(rawRead(buffer, 8), words, "app feedback: its own captured buffer");
        }
        release();
    }

    void release() {
        if (!object) return;
        if (getBool(GL_TRANSFORM_FEEDBACK_ACTIVE)) glEndTransformFeedback();
        glDisable(GL_RASTERIZER_DISCARD);
        glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, 0);
        glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, 0);
        glUseProgram(0);
        glBindVertexArray(0);
        glDeleteTransformFeedbacks(1, &object);
        glDeleteVertexArrays(1, &vertexArray);
        glDeleteBuffers(1, &buffer);
        glDeleteProgram(program);
        glDeleteShader(vertexShader);
        glDeleteShader(fragmentShader);
        object = 0;
    }
};

GLenum targetOf(const std::string& name) {
    static const std::map<std::string, std::pair<GLenum, GLenum>> targets = {
        {"ARRAY_BUFFER", {GL_ARRAY_BUFFER, GL_ARRAY_BUFFER_BINDING}},
        {"UNIFORM_BUFFER", {GL_UNIFORM_BUFFER, GL_UNIFORM_BUFFER_BINDING}},
        {"PIXEL_PACK_BUFFER", {GL_PIXEL_PACK_BUFFER, GL_PIXEL_PACK_BUFFER_BINDING}},
        {"PIXEL_UNPACK_BUFFER", {GL_PIXEL_UNPACK_BUFFER, GL_PIXEL_UNPACK_BUFFER_BINDING}},
        {"COPY_READ_BUFFER", {GL_COPY_READ_BUFFER, GL_COPY_READ_BUFFER_BINDING}},
        {"COPY_WRITE_BUFFER", {GL_COPY_WRITE_BUFFER, GL_COPY_WRITE_BUFFER_BINDING}},
        {"TRANSFORM_FEEDBACK_BUFFER", {GL_TRANSFORM_FEEDBACK_BUFFER, GL_TRANSFORM_FEEDBACK_BUFFER_BINDING}},
    };
    auto it = targets.find(name);
    if (it == targets.end()) throw CaseFailure{"app: unknown bind target " + name};
    return it->second.first;
}

GLenum bindingQueryOf(GLenum target) {
    switch (target) {
        case GL_ARRAY_BUFFER: return GL_ARRAY_BUFFER_BINDING;
        case GL_UNIFORM_BUFFER: return GL_UNIFORM_BUFFER_BINDING;
        case GL_PIXEL_PACK_BUFFER: return GL_PIXEL_PACK_BUFFER_BINDING;
        case GL_PIXEL_UNPACK_BUFFER: return GL_PIXEL_UNPACK_BUFFER_BINDING;
        case GL_COPY_READ_BUFFER: return GL_COPY_READ_BUFFER_BINDING;
        case GL_COPY_WRITE_BUFFER: return GL_COPY_WRITE_BUFFER_BINDING;
        default: return GL_TRANSFORM_FEEDBACK_BUFFER_BINDING;
    }
}

// One case on one runtime.
class CaseRun {
public:
    CaseRun(xfb::Device& device, const json& c, xfb::Backend backend) : device_(device), case_(c), backend_(backend) {}
    ~CaseRun() {
        releaseApp();
        if (device_.isContextLost()) device_.contextRestored(); // the next case starts on a live context
    }

    void run() {
        createBuffers();
        const auto& ops = case_.at("run");
        for (std::size_t i = 0; i < ops.size(); ++i)
            runOp(ops[i], "op " + std::to_string(i) + " (" + ops[i].at("op").get<std::string>() + ")");
        for (const auto& [name, words] : case_.at("expect").items())
            compareWords(readWords(name), words.get<std::vector<std::uint32_t>>(), "buffer " + name);
        verifyApp();
        std::vector<unsigned> foreign = device_.takeForeignErrors();
        check(foreign.empty(), "xfb saw " + std::to_string(foreign.size()) +
                                   " GL error(s) pending at its calls, first " +
                                   (foreign.empty() ? "" : hex(foreign[0])));
        GLenum error = glGetError();
        check(error == GL_NO_ERROR, "a GL error is pending after the case: " + hex(error));
    }

private:
    struct BufferSlot {
        std::unique_ptr<xfb::Buffer> buffer;
        GLuint own = 0; // the application's GL buffer, for adopted ones
        std::size_t words = 0;
    };

    xfb::Device& device_;
    const json& case_;
    xfb::Backend backend_;
    std::map<std::string, BufferSlot> buffers_;
    std::map<std::string, std::unique_ptr<xfb::Program>> programs_;
    std::map<std::string, std::unique_ptr<xfb::Pipeline>> pipelines_;
    std::map<std::string, std::unique_ptr<xfb::PrimitiveCapture>> captures_;
    std::unique_ptr<xfb::Population> population_;
    std::map<std::string, std::unique_ptr<xfb::ReadbackRequest>> reads_;
    // The application's state the `app` ops made: (binding query or indexed target, index) -> GL name.
    std::vector<std::pair<GLenum, GLuint>> appBindings_;
    struct Indexed {
        GLenum target;
        GLuint index, name;
        GLintptr offset;
        GLsizeiptr size; // 0: bound whole (glBindBufferBase)
    };
    std::vector<Indexed> appIndexed_;
    GLuint appVertexArray_ = 0;
    GLuint appVertexArrayBuffer_ = 0;
    AppFeedback appFeedback_;

    void createBuffers() {
        for (const auto& [name, b] : case_.at("buffers").items())
            if (!b.value("later", false)) createBuffer(name, b);
    }

    void createBuffer(const std::string& name, const json& b) {
        auto initial = b.at("initial").get<std::vector<std::uint32_t>>();
        xfb::VertexFormat format = formatOf(b.at("format"));
        std::int64_t count = b.at("count").get<std::int64_t>();
        BufferSlot slot;
        slot.words = initial.size();
        if (b.contains("adoptOf")) {
            slot.buffer = std::make_unique<xfb::Buffer>(
                xfb::Buffer::adopt(device_, format, count, buffers_.at(b.at("adoptOf").get<std::string>()).own));
        } else if (b.value("adopt", false)) {
            glGenBuffers(1, &slot.own);
            glBindBuffer(GL_COPY_WRITE_BUFFER, slot.own);
            glBufferData(GL_COPY_WRITE_BUFFER, GLsizeiptr(initial.size() * 4), initial.data(), GL_DYNAMIC_COPY);
            glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
            slot.buffer = std::make_unique<xfb::Buffer>(xfb::Buffer::adopt(device_, format, count, slot.own));
        } else {
            slot.buffer =
                b.value("withoutData", false)
                    ? std::make_unique<xfb::Buffer>(device_, format, count)
                    : std::make_unique<xfb::Buffer>(device_, format, count, std::span<const std::uint32_t>(initial));
        }
        buffers_.emplace(name, std::move(slot));
    }

    BufferSlot& slot(const std::string& name) {
        auto it = buffers_.find(name);
        if (it == buffers_.end()) throw CaseFailure{"no buffer named " + name};
        return it->second;
    }
    std::vector<std::uint32_t> readWords(const std::string& name) {
        auto& s = slot(name);
        return rawRead(s.buffer->glName(), s.words);
    }
    std::map<std::string, std::vector<std::uint32_t>> snapshot() {
        std::map<std::string, std::vector<std::uint32_t>> all;
        for (auto& [name, s] : buffers_)
            if (s.buffer) all[name] = readWords(name);
        return all;
    }
    template<class T>
    T& named(std::map<std::string, std::unique_ptr<T>>& objects, const std::string& name, const char* kind) {
        auto it = objects.find(name);
        if (it == objects.end() || !it->second)
            throw CaseFailure{std::string("no ") + kind + " named " + name + " (its creation failed or was refused)"};
        return *it->second;
    }

    std::vector<xfb::Entry> entriesOf(const json& op) {
        std::vector<xfb::Entry> entries;
        for (const auto& e : op.at("entries"))
            entries.push_back({e.contains("input") ? slot(e.at("input").get<std::string>()).buffer.get() : nullptr,
                               e.contains("output") ? slot(e.at("output").get<std::string>()).buffer.get() : nullptr});
        return entries;
    }

    void runOp(const json& op, const std::string& where) {
        const std::string kind = op.at("op").get<std::string>();
        const std::string error = op.value("error", "");
        if (kind == "app") return appOp(op, where);
        std::map<std::string, std::vector<std::uint32_t>> before;
        if (!error.empty() && !device_.isContextLost()) before = snapshot();
        try {
            perform(kind, op, where);
        } catch (const xfb::Error& e) {
            check(!error.empty(), where + " threw " + e.what());
            check(std::string(xfb::errorCodeName(e.code())) == error,
                  where + " threw " + e.what() + ", expected " + error);
            const auto written = op.value("writes", std::vector<std::string>{}); // a pass that ran before the refusal
            for (auto& [name, words] : before)
                if (std::find(written.begin(), written.end(), name) == written.end())
                    compareWords(readWords(name), words, where + " was refused but buffer " + name + " changed");
            return;
        }
        check(error.empty(), where + " returned normally, expected " + error);
    }

    void perform(const std::string& kind, const json& op, const std::string& where) {
        if (kind == "program") {
            xfb::ProgramDesc desc;
            desc.source = op.at("source").get<std::string>();
            desc.capture.mode =
                *xfb::enumFromName<xfb::CaptureMode>(xfb::captureModeNames, op.at("mode").get<std::string>());
            if (op.contains("varyings")) desc.capture.varyings = op.at("varyings").get<std::vector<std::string>>();
            desc.capture.portable = op.value("portable", true);
            std::string name = op.value("name", "main");
            programs_[name] = nullptr;
            programs_[name] = std::make_unique<xfb::Program>(device_, std::move(desc));
        } else if (kind == "pipeline") {
            xfb::PipelineOptions options;
            if (op.contains("count")) options.count = op.at("count").get<std::int64_t>();
            options.backend = backend_;
            for (const auto& e : op.value("emits", json::array()))
                options.emits.push_back({e.at("varying").get<std::string>(), e.at("count").get<std::string>()});
            if (op.value("overflow", "error") == "clamp") options.overflow = xfb::EmitOverflow::Clamp;
            // Transform feedback writes one record per element: a tf runtime emits through the
            // fragment backend's pyramid passes (as WebGL2 and ES 3.0 do), with compute's bytes.
            if (!options.emits.empty() && backend_ == xfb::Backend::TransformFeedback)
                options.backend = xfb::Backend::Fragment;
            std::string name = op.value("name", "p");
            pipelines_[name] = nullptr;
            pipelines_[name] = std::make_unique<xfb::Pipeline>(
                device_, named(programs_, op.value("program", "main"), "program"), entriesOf(op), options);
        } else if (kind == "step") {
            auto& p = named(pipelines_, op.value("pipeline", "p"), "pipeline");
            for (int t = 0, times = op.value("times", 1); t < times; ++t) p.step(op.value("substeps", 1));
        } else if (kind == "stepChecked") {
            auto& pipeline = named(pipelines_, op.value("pipeline", "p"), "pipeline");
            auto report = pipeline.stepChecked();
            if (op.contains("written"))
                check(report.written == op.at("written").get<std::int64_t>(),
                      where + ": written " + std::to_string(report.written));
            if (op.contains("emitted")) {
                const auto reports = pipeline.emitted();
                const auto& want = op.at("emitted");
                check(reports.size() == want.size(), where + ": " + std::to_string(reports.size()) + " budgets");
                for (std::size_t b = 0; b < std::min(reports.size(), want.size()); ++b) {
                    const auto& r = reports[b];
                    check(r.budget == want[b].at("budget").get<std::string>() &&
                              r.requested == want[b].at("requested").get<std::int64_t>() &&
                              r.written == want[b].at("written").get<std::int64_t>() &&
                              r.capacity == want[b].at("capacity").get<std::int64_t>(),
                          where + ": budget " + r.budget + " requested " + std::to_string(r.requested) + " written " +
                              std::to_string(r.written) + " capacity " + std::to_string(r.capacity));
                }
            }
        } else if (kind == "capture") {
            xfb::PrimitiveCaptureOptions options;
            if (op.contains("vertexCount")) options.vertexCount = op.at("vertexCount").get<std::int64_t>();
            if (op.contains("expansion"))
                options.expansion =
                    *xfb::enumFromName<xfb::Expansion>(xfb::expansionNames, op.at("expansion").get<std::string>());
            std::string name = op.value("name", "c");
            captures_[name] = nullptr;
            captures_[name] = std::make_unique<xfb::PrimitiveCapture>(
                device_, named(programs_, op.value("program", "main"), "program"), entriesOf(op), options);
        } else if (kind == "draw") {
            auto count = named(captures_, op.value("capture", "c"), "capture").capture(drawOf(op));
            if (op.contains("records"))
                check(count.records == op.at("records").get<std::int64_t>(),
                      where + ": records " + std::to_string(count.records));
            if (op.contains("primitives"))
                check(count.primitives == op.at("primitives").get<std::int64_t>(),
                      where + ": primitives " + std::to_string(count.primitives));
        } else if (kind == "session") {
            std::vector<xfb::CapturePart> parts;
            for (const auto& p : op.at("parts"))
                parts.push_back({drawOf(p), p.contains("program")
                                                ? &named(programs_, p.at("program").get<std::string>(), "program")
                                                : nullptr});
            const auto& plan =
                named(captures_, op.value("capture", "c"), "capture").captureSession(parts, op.value("firstRecord", 0));
            if (op.contains("endRecord"))
                check(plan.endRecord == op.at("endRecord").get<std::int64_t>(),
                      where + ": endRecord " + std::to_string(plan.endRecord));
        } else if (kind == "upload") {
            auto data = op.at("data").get<std::vector<std::uint32_t>>();
            slot(op.at("buffer").get<std::string>())
                .buffer->upload(std::span<const std::uint32_t>(data), op.value("offset", 0));
        } else if (kind == "read") {
            auto& s = slot(op.at("buffer").get<std::string>());
            auto bytes = s.buffer->read();
            std::vector<std::uint32_t> words(bytes.size() / 4);
            std::memcpy(words.data(), bytes.data(), words.size() * 4);
            compareWords(words, op.at("expect").get<std::vector<std::uint32_t>>(),
                         where + ": xfb's read of " + op.at("buffer").get<std::string>());
        } else if (kind == "readAsync") {
            reads_[op.at("name").get<std::string>()] =
                std::make_unique<xfb::ReadbackRequest>(slot(op.at("buffer").get<std::string>()).buffer->readAsync());
        } else if (kind == "take") {
            auto& request = named(reads_, op.at("name").get<std::string>(), "read");
            auto bytes = request.take();
            std::vector<std::uint32_t> words(bytes.size() / 4);
            std::memcpy(words.data(), bytes.data(), words.size() * 4);
            if (op.contains("expect"))
                compareWords(words, op.at("expect").get<std::vector<std::uint32_t>>(), where + ": the read");
        } else if (kind == "createBuffer") {
            const std::string name = op.at("buffer").get<std::string>();
            const json& b = case_.at("buffers").at(name);
            if (!b.value("later", false) || buffers_.count(name))
                throw CaseFailure{where + ": buffer " + name + " is not marked later, or exists (a table error)"};
            createBuffer(name, b);
        } else if (kind == "lose") {
            device_.contextLost();
        } else if (kind == "restore") {
            device_.contextRestored();
        } else if (kind == "population") {
            xfb::PopulationOptions options;
            options.capacity = op.at("capacity").get<std::int64_t>();
            for (const auto& f : op.at("state"))
                options.state.push_back({f.at("input").get<std::string>(), f.at("emitted").get<std::string>()});
            options.count = op.at("count").get<std::string>();
            if (op.value("overflow", "error") == "clamp") options.overflow = xfb::EmitOverflow::Clamp;
            // Transform feedback writes one record per element: a tf runtime's population runs on the
            // fragment backend (as ES 3.0 and WebGL2 do), with compute's bytes.
            options.backend =
                backend_ == xfb::Backend::TransformFeedback ? xfb::Backend::Fragment : xfb::Backend::Compute;
            population_ = nullptr;
            population_ = std::make_unique<xfb::Population>(
                device_, named(programs_, op.value("program", "main"), "program"), std::move(options));
        } else if (kind == "spawn") {
            std::vector<std::vector<std::uint32_t>> words;
            for (const auto& f : op.at("fields")) words.push_back(f.get<std::vector<std::uint32_t>>());
            std::vector<std::span<const std::byte>> spans;
            for (const auto& w : words) spans.push_back(std::as_bytes(std::span<const std::uint32_t>(w)));
            livePopulation(where).spawn(spans);
        } else if (kind == "populationStep") {
            for (int t = 0, times = op.value("times", 1); t < times; ++t) livePopulation(where).step();
        } else if (kind == "populationStepChecked") {
            const xfb::PopulationCount c = livePopulation(where).stepChecked();
            if (op.contains("count")) checkCount(c, op.at("count"), where);
        } else if (kind == "populationCount") {
            checkCount(livePopulation(where).count(), op.at("expect"), where);
        } else if (kind == "populationRead") {
            const auto bytes = livePopulation(where).state(op.at("field").get<std::size_t>()).read();
            const auto want = op.at("expect").get<std::vector<std::uint32_t>>();
            std::vector<std::uint32_t> words(std::min(bytes.size() / 4, want.size()));
            std::memcpy(words.data(), bytes.data(), words.size() * 4);
            compareWords(words, want, where + ": field " + std::to_string(op.at("field").get<int>()));
        } else if (kind == "uniform") {
            auto& program = named(programs_, op.value("program", "main"), "program");
            std::string name = op.at("name").get<std::string>();
            const xfb::Declaration* declared = nullptr;
            for (const auto& u : program.shader().uniforms)
                if (u.name == name) declared = &u;
            std::vector<double> values = op.at("value").is_array() ? op.at("value").get<std::vector<double>>()
                                                                   : std::vector<double>{op.at("value").get<double>()};
            // setUniform takes float, int (also for bool and samplers) or uint values.
            xfb::ScalarKind scalar = declared ? declared->type.kind : xfb::ScalarKind::Float;
            if (scalar != xfb::ScalarKind::Float && scalar != xfb::ScalarKind::UInt) scalar = xfb::ScalarKind::Int;
            std::vector<std::uint32_t> words;
            for (double v : values) {
                std::uint32_t w;
                if (scalar == xfb::ScalarKind::Float) {
                    float f = float(v);
                    std::memcpy(&w, &f, 4);
                } else if (scalar == xfb::ScalarKind::UInt)
                    w = std::uint32_t(v);
                else {
                    std::int32_t i = std::int32_t(v);
                    std::memcpy(&w, &i, 4);
                }
                words.push_back(w);
            }
            program.setUniform(name, scalar, std::as_bytes(std::span<const std::uint32_t>(words)));
        } else {
            throw CaseFailure{where + ": unknown op " + kind};
        }
    }

    void appOp(const json& op, const std::string& where) {
        if (op.contains("bind")) {
            GLenum target = targetOf(op.at("bind").get<std::string>());
            GLuint name = slot(op.at("buffer").get<std::string>()).buffer->glName();
            glBindBuffer(target, name);
            appBindings_.push_back({target, name});
        } else if (op.contains("bindBase") || op.contains("bindRange")) {
            const bool range = op.contains("bindRange");
            GLenum target = targetOf(op.at(range ? "bindRange" : "bindBase").get<std::string>());
            GLuint index = op.at("index").get<GLuint>(),
                   name = slot(op.at("buffer").get<std::string>()).buffer->glName();
            GLintptr offset = op.value("offset", 0);
            GLsizeiptr size = op.value("size", 0);
            if (range)
                glBindBufferRange(target, index, name, offset, size);
            else
                glBindBufferBase(target, index, name);
            appIndexed_.push_back({target, index, name, offset, size});
            appBindings_.push_back({target, name}); // glBindBufferBase/Range bind the generic point too
        } else if (op.contains("unbind")) {
            GLenum target = targetOf(op.at("unbind").get<std::string>());
            glBindBuffer(target, 0);
            std::erase_if(appBindings_, [&](const auto& b) { return b.first == target; });
            appBindings_.push_back({target, 0});
        } else if (op.contains("vertexArray")) {
            appVertexArrayBuffer_ = slot(op.at("vertexArray").get<std::string>()).buffer->glName();
            glGenVertexArrays(1, &appVertexArray_);
            glBindVertexArray(appVertexArray_);
            GLint savedArray = getInt(GL_ARRAY_BUFFER_BINDING);
            glBindBuffer(GL_ARRAY_BUFFER, appVertexArrayBuffer_);
            GLuint location = op.value("location", 0);
            glEnableVertexAttribArray(location);
            glVertexAttribPointer(location, 4, GL_FLOAT, GL_FALSE, 16, nullptr);
            glBindBuffer(GL_ARRAY_BUFFER, GLuint(savedArray));
        } else if (op.contains("feedback")) {
            if (op.contains("holds") && op.at("feedback") != "bound")
                throw CaseFailure{where + ": holds is for a bound (not active) feedback object only"};
            appFeedback_.create(op.at("feedback").get<std::string>(),
                                op.contains("holds") ? slot(op.at("holds").get<std::string>()).buffer->glName() : 0);
        } else if (op.contains("respecify")) {
            GLint saved = getInt(GL_COPY_WRITE_BUFFER_BINDING);
            glBindBuffer(GL_COPY_WRITE_BUFFER, slot(op.at("respecify").get<std::string>()).buffer->glName());
            glBufferData(GL_COPY_WRITE_BUFFER, op.at("bytes").get<GLsizeiptr>(), nullptr, GL_DYNAMIC_COPY);
            glBindBuffer(GL_COPY_WRITE_BUFFER, GLuint(saved));
        } else {
            throw CaseFailure{where + ": unknown app action " + op.dump()};
        }
        check(glGetError() == GL_NO_ERROR, where + ": the application's own GL calls raised an error");
    }

    // The application's state is as it made it; then it is released.
    void verifyApp() {
        for (auto [target, name] : appBindings_)
            check(getInt(bindingQueryOf(target)) == GLint(name),
                  "the application's binding " + hex(target) + " no longer holds its buffer " + std::to_string(name));
        for (const Indexed& b : appIndexed_) {
            const bool uniform = b.target == GL_UNIFORM_BUFFER;
            GLint bound = -1;
            glGetIntegeri_v(uniform ? GL_UNIFORM_BUFFER_BINDING : GL_TRANSFORM_FEEDBACK_BUFFER_BINDING, b.index,
                            &bound);
            check(bound == GLint(b.name),
                  "the application's indexed binding " + std::to_string(b.index) + " no longer holds its buffer");
            GLint64 start = -1, size = -1;
            glGetInteger64i_v(uniform ? GL_UNIFORM_BUFFER_START : GL_TRANSFORM_FEEDBACK_BUFFER_START, b.index, &start);
            glGetInteger64i_v(uniform ? GL_UNIFORM_BUFFER_SIZE : GL_TRANSFORM_FEEDBACK_BUFFER_SIZE, b.index, &size);
            check(start == b.offset && size == b.size, "the application's indexed binding " + std::to_string(b.index) +
                                                           " has range " + std::to_string(start) + "+" +
                                                           std::to_string(size) + ", it bound " +
                                                           std::to_string(b.offset) + "+" + std::to_string(b.size));
        }
        if (appVertexArray_) {
            check(getInt(GL_VERTEX_ARRAY_BINDING) == GLint(appVertexArray_),
                  "the application's vertex array is no longer bound");
            GLint attribBuffer = -1;
            glGetVertexAttribiv(0, GL_VERTEX_ATTRIB_ARRAY_BUFFER_BINDING, &attribBuffer);
            check(attribBuffer == GLint(appVertexArrayBuffer_),
                  "the application's vertex array no longer reads its buffer");
        }
        appFeedback_.verifyAndRelease();
        releaseApp();
    }

    xfb::Population& livePopulation(const std::string& where) {
        if (!population_) throw CaseFailure{where + ": no population op came before (a table error)"};
        return *population_;
    }
    // The fields of `want` ({ live, capacity, requested, dropped, droppedUnchecked }, any of them).
    void checkCount(const xfb::PopulationCount& c, const json& want, const std::string& where) {
        const std::pair<const char*, std::int64_t> have[] = {{"live", c.live},
                                                             {"capacity", c.capacity},
                                                             {"requested", c.requested},
                                                             {"dropped", c.dropped},
                                                             {"droppedUnchecked", c.droppedUnchecked}};
        for (const auto& [key, value] : have)
            if (want.contains(key))
                check(value == want.at(key).get<std::int64_t>(),
                      where + ": " + key + " is " + std::to_string(value) + ", expected " + want.at(key).dump());
    }

    void releaseApp() {
        appFeedback_.release();
        for (auto [target, name] : appBindings_) glBindBuffer(target, 0);
        for (const Indexed& b : appIndexed_) glBindBufferBase(b.target, b.index, 0);
        appBindings_.clear();
        appIndexed_.clear();
        if (appVertexArray_) {
            glBindVertexArray(0);
            glDeleteVertexArrays(1, &appVertexArray_);
            appVertexArray_ = 0;
        }
        for (auto& [name, s] : buffers_)
            if (s.own) glDeleteBuffers(1, &s.own), s.own = 0;
    }
};

// Why a case does not apply to a runtime (table.mjs notApplicable(), the same rules), or "".
std::string notApplicable(const json& c, const std::string& runtime, const std::vector<std::string>& tags,
                          const xfb::Limits& limits) {
    for (const auto& [key, reason] : c.at("na").items())
        if (key == runtime || std::find(tags.begin(), tags.end(), key) != tags.end()) return reason.get<std::string>();
    const std::map<std::string, int> have = {{"maxVertexAttribs", limits.maxVertexAttribs},
                                             {"maxSeparateComponents", limits.maxSeparateComponents},
                                             {"maxSeparateAttribs", limits.maxSeparateAttribs},
                                             {"maxInterleavedComponents", limits.maxInterleavedComponents},
                                             {"maxVaryingVectors", limits.maxVaryingVectors}};
    static const std::regex rule(R"(^(>=|<)(\d+)$)");
    for (const auto& [name, text] : c.at("limits").items()) {
        std::smatch m;
        std::string s = text.get<std::string>();
        auto it = have.find(name);
        if (it == have.end() || !std::regex_match(s, m, rule))
            throw CaseFailure{"unknown limit rule " + name + " " + s + " (a table error)"};
        int value = std::stoi(m[2]);
        bool ok = m[1] == ">=" ? it->second >= value : it->second < value;
        if (!ok) return "needs " + name + " " + s + "; this runtime has " + std::to_string(it->second);
    }
    return "";
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: xfb-conformance gl43core|gles30|gles32 CASES.json [ID-SUBSTRING]\n");
        return 2;
    }
    const std::string api = argv[1];
    // Exactly ES 3.0 (the WebGL2 feature set, no compute) for gles30: see tests/gl/main.cpp.
    if (api == "gles30") setenv("MESA_GLES_VERSION_OVERRIDE", "3.0", 0);
    std::ifstream file(argv[2]);
    json table = json::parse(file);
    const std::string filter = argc > 3 ? argv[3] : "";

    xfb::HeadlessContext context(api == "gl43core" ? xfb::Api::OpenGL43Core : xfb::Api::OpenGLES30);
    xfb::Device device;
    std::vector<std::pair<std::string, xfb::Backend>> runtimes = {{api + ".tf", xfb::Backend::TransformFeedback}};
    if (device.capabilities().compute) runtimes.push_back({api + ".compute", xfb::Backend::Compute});
    std::printf("%s: %s\n", api.c_str(), device.capabilities().version.c_str());

    std::map<std::string, std::array<int, 3>> totals; // pass, fail, not applicable
    for (const auto& c : table.at("cases")) {
        const std::string id = c.at("id").get<std::string>();
        if (!filter.empty() && id.find(filter) == std::string::npos) continue;
        for (const auto& [runtime, backend] : runtimes) {
            // A driver may answer an ES 3.0 request with ES 3.2 and compute (NVIDIA ignores Mesa's cap):
            // that runtime has the tags of gles32's.
            const auto& runtimes = table.at("runtimes");
            auto tags = (runtimes.contains(runtime) ? runtimes.at(runtime)
                                                    : runtimes.at("gles32." + runtime.substr(runtime.find('.') + 1)))
                            .get<std::vector<std::string>>();
            std::string reason, failure;
            try {
                reason = notApplicable(c, runtime, tags, device.limits());
            } catch (const CaseFailure& f) { failure = f.message; }
            if (!reason.empty()) {
                std::printf("N/A   %s %s: %s\n", runtime.c_str(), id.c_str(), reason.c_str());
                ++totals[runtime][2];
                continue;
            }
            try {
                if (failure.empty()) CaseRun(device, c, backend).run();
            } catch (const CaseFailure& f) { failure = f.message; } catch (const std::exception& e) {
                failure = std::string("unexpected exception: ") + e.what();
            }
            while (glGetError() != GL_NO_ERROR) {} // a failed case's error must not fail the next one
            device.takeForeignErrors();
            std::printf("%s  %s %s%s%s\n", failure.empty() ? "PASS" : "FAIL", runtime.c_str(), id.c_str(),
                        failure.empty() ? "" : "\n      ", failure.c_str());
            ++totals[runtime][failure.empty() ? 0 : 1];
        }
    }
    int cases = 0, failed = 0;
    for (const auto& [runtime, t] : totals) {
        std::printf("%s: %d cases, %d pass, %d fail, %d not applicable\n", runtime.c_str(), t[0] + t[1] + t[2], t[0],
                    t[1], t[2]);
        cases += t[0] + t[1] + t[2];
        failed += t[1];
    }
    std::printf("xfb-test-run: cases=%d asserts=%lld\n", cases, asserts);
    return failed || cases == 0 || asserts == 0 ? 1 : 0;
}
