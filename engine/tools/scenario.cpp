#include "scenario.hpp"

#include "file_io.hpp"
#include "xfb/error.hpp"
#include "xfb/limits.hpp"

#include <climits>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <random>

namespace xfb::tools {

using json = nlohmann::json;

namespace {

[[noreturn]] void fail(const std::string& field, const std::string& what) {
    throw Error(ErrorCode::Scenario, "field '" + field + "': " + what);
}

const json& require(const json& obj, const std::string& key, const std::string& where) {
    if (!obj.contains(key)) fail(where.empty() ? key : where + "." + key, "is required");
    return obj.at(key);
}

// A value stored into a 32-bit component must fit it: no silent wrap, no undefined conversion.
double checkedNumber(double v, ComponentType t, const std::string& field) {
    bool fits = t == ComponentType::Float32 ? std::isfinite(v) && std::fabs(v) <= 3.4028234663852886e38
                : t == ComponentType::Int32 ? v >= INT_MIN && v <= INT_MAX && v == std::floor(v)
                                            : v >= 0 && v <= 4294967295.0 && v == std::floor(v);
    if (!fits) fail(field, std::to_string(v) + " does not fit " + std::string(componentTypeName(t)));
    return v;
}

// The JSON's shape is checked here; its values by parseVertexFormat(), as for C++ and JavaScript.
VertexFormat parseFormat(const json& v, const std::string& field) {
    if (!v.is_array()) fail(field, "must be a non-empty array of {semantic, type, components[, offset]}");
    auto number = [](const json& n) { return n.is_number() ? n.get<double>() : std::nan(""); };
    std::vector<AttributeDescription> described;
    for (std::size_t i = 0; i < v.size(); ++i) {
        const json& a = v[i];
        if (!a.is_object()) fail(field + "[" + std::to_string(i) + "]", "must be an object");
        AttributeDescription d;
        if (a.contains("semantic") && a["semantic"].is_string()) d.semantic = a["semantic"].get<std::string>();
        if (a.contains("type")) d.type = a["type"].is_string() ? a["type"].get<std::string>() : a["type"].dump();
        if (a.contains("components")) d.components = number(a["components"]);
        if (a.contains("offset")) d.offset = number(a["offset"]);
        described.push_back(std::move(d));
    }
    return parseVertexFormat(described, field);
}

void storeNumber(std::byte* at, ComponentType t, double v) {
    if (t == ComponentType::Float32) {
        float f = float(v);
        std::memcpy(at, &f, 4);
    } else if (t == ComponentType::Int32) {
        std::int32_t i = std::int32_t(v);
        std::memcpy(at, &i, 4);
    } else {
        std::uint32_t u = std::uint32_t(v);
        std::memcpy(at, &u, 4);
    }
}

int componentsPerElement(const VertexFormat& f) {
    int n = 0;
    for (auto& a : f.attributes) n += a.components;
    return n;
}

std::vector<std::byte> parseData(const json& b, const VertexFormat& format, std::int64_t count,
                                 const std::filesystem::path& dir, const std::string& field) {
    // Checked before allocating: count x stride within the WebGL2 buffer limit (and memory).
    std::vector<std::byte> bytes(checkedBufferBytes(count, format.stride, limits::maxWebGLBufferBytes, field));
    int sources = int(b.contains("data")) + int(b.contains("data_file")) + int(b.contains("random"));
    if (sources > 1) fail(field, "give at most one of data, data_file, random");
    if (b.contains("data_file")) {
        const json& f = b["data_file"];
        if (!f.is_string()) fail(field + ".data_file", "must be a path");
        std::string raw =
            readFile((dir / f.get<std::string>()).string(), "field '" + field + ".data_file'", bytes.size() + 1);
        if (raw.size() != bytes.size())
            fail(field + ".data_file", "holds " + std::to_string(raw.size()) + " bytes; " + std::to_string(count) +
                                           " elements of " + format.describe() + " need " +
                                           std::to_string(bytes.size()));
        std::memcpy(bytes.data(), raw.data(), raw.size());
        return bytes;
    }
    auto perElement = std::size_t(componentsPerElement(format));
    std::function<double(std::size_t, ComponentType)> value;
    json data;
    std::mt19937 rng;
    double lo = 0, hi = 1;
    if (b.contains("data")) {
        data = b["data"];
        if (!data.is_array()) fail(field + ".data", "must be an array of numbers");
        if (data.size() != perElement * std::size_t(count))
            fail(field + ".data", "has " + std::to_string(data.size()) + " numbers; " + std::to_string(count) +
                                      " elements x " + std::to_string(perElement) + " components need " +
                                      std::to_string(perElement * std::size_t(count)));
        value = [&](std::size_t i, ComponentType t) {
            std::string at = field + ".data[" + std::to_string(i) + "]";
            if (!data[i].is_number()) fail(at, "must be a number");
            return checkedNumber(data[i].get<double>(), t, at);
        };
    } else if (b.contains("random")) {
        const json& r = b["random"];
        if (!r.is_object()) fail(field + ".random", "must be {\"seed\": N, \"min\": x, \"max\": y}");
        rng.seed(r.value("seed", 1u));
        lo = r.value("min", 0.0);
        hi = r.value("max", 1.0);
        if (!(hi > lo)) fail(field + ".random", "max must be greater than min");
        if (!std::isfinite(lo) || !std::isfinite(hi) || std::fabs(lo) > 4294967295.0 || std::fabs(hi) > 4294967295.0)
            fail(field + ".random", "min and max must be finite and within +-4294967295");
        for (const auto& a : format.attributes)
            if (a.type != ComponentType::Float32) {
                checkedNumber(std::ceil(lo), a.type, field + ".random.min");
                checkedNumber(std::floor(hi), a.type, field + ".random.max");
            }
        value = [&](std::size_t, ComponentType t) {
            if (t == ComponentType::Float32) return std::uniform_real_distribution<double>(lo, hi)(rng);
            return double(std::uniform_int_distribution<std::int64_t>(std::int64_t(lo), std::int64_t(hi))(rng));
        };
    } else {
        return bytes; // zeros
    }
    std::size_t i = 0;
    for (std::int64_t e = 0; e < count; ++e)
        for (const auto& a : format.attributes)
            for (int c = 0; c < a.components; ++c)
                storeNumber(&bytes[std::size_t(e) * std::size_t(format.stride) + std::size_t(a.offset + 4 * c)], a.type,
                            value(i++, a.type));
    return bytes;
}

} // namespace

static Scenario parseScenario(const std::string& path);

Scenario loadScenario(const std::string& path) {
    try {
        return parseScenario(path);
    } catch (const json::exception& e) {
        // A value of the wrong JSON type where the checks above did not look (e.g. "seed": "x").
        throw Error(ErrorCode::Scenario, "'" + path + "': " + e.what());
    }
}

static Scenario parseScenario(const std::string& path) {
    const std::string text = readFile(path, "scenario", std::uint64_t(1) << 30);
    json j;
    try {
        j = json::parse(text);
    } catch (const json::parse_error& e) {
        throw Error(ErrorCode::Scenario, "'" + path + "' is not valid JSON: " + e.what());
    }
    if (!j.is_object()) throw Error(ErrorCode::Scenario, "'" + path + "' must hold a JSON object");
    static const std::vector<std::string> known = {"shader",   "mode",    "varyings",   "portable", "defines",
                                                   "api",      "backend", "count",      "steps",    "checked",
                                                   "uniforms", "buffers", "description"};
    for (auto& [key, v] : j.items())
        if (std::find(known.begin(), known.end(), key) == known.end())
            fail(key, "unknown field (known: shader, mode, varyings, portable, defines, "
                      "api, backend, count, steps, checked, uniforms, buffers)");
    std::filesystem::path dir = std::filesystem::path(path).parent_path();
    Scenario s;
    const json& shader = require(j, "shader", "");
    if (!shader.is_string()) fail("shader", "must be the path of a vertex shader file");
    s.shaderPath = (dir / shader.get<std::string>()).string();
    s.source = readFile(s.shaderPath, "field 'shader'", 4 * limits::maxSourceBytes);

    if (j.contains("mode")) {
        std::string m = j["mode"].is_string() ? j["mode"].get<std::string>() : "";
        if (m != "interleaved" && m != "separate") fail("mode", "must be \"interleaved\" or \"separate\"");
        s.capture.mode = m == "separate" ? CaptureMode::Separate : CaptureMode::Interleaved;
    }
    if (j.contains("varyings")) {
        if (!j["varyings"].is_array()) fail("varyings", "must be an array of output names");
        for (auto& v : j["varyings"]) {
            if (!v.is_string()) fail("varyings", "must hold strings");
            s.capture.varyings.push_back(v.get<std::string>());
        }
    }
    if (j.contains("portable")) {
        if (!j["portable"].is_boolean()) fail("portable", "must be true or false");
        s.capture.portable = j["portable"].get<bool>();
    }
    if (j.contains("defines")) {
        if (!j["defines"].is_object()) fail("defines", "must be an object of NAME: value");
        for (auto& [k, v] : j["defines"].items()) s.read.defines[k] = v.is_string() ? v.get<std::string>() : v.dump();
    }
    if (j.contains("api")) {
        s.api = j["api"].is_string() ? j["api"].get<std::string>() : "";
        if (s.api != "gl43core" && s.api != "gles30") fail("api", "must be \"gl43core\" or \"gles30\"");
    }
    if (j.contains("backend")) {
        s.backend = j["backend"].is_string() ? j["backend"].get<std::string>() : "";
        if (s.backend != "tf" && s.backend != "compute" && s.backend != "auto")
            fail("backend", "must be \"tf\", \"compute\" or \"auto\"");
    }
    const json& count = require(j, "count", "");
    if (!count.is_number_integer() || count.get<std::int64_t>() <= 0 ||
        (count.is_number_unsigned() && count.get<std::uint64_t>() > INT64_MAX))
        fail("count", "must be an integer > 0");
    s.count = count.get<std::int64_t>();
    if (j.contains("steps")) {
        const json& steps = j["steps"];
        if (!steps.is_number_integer() || steps.get<std::int64_t>() < 0 || steps.get<std::int64_t>() > INT_MAX ||
            (steps.is_number_unsigned() && steps.get<std::uint64_t>() > INT_MAX))
            fail("steps", "must be an integer 0.." + std::to_string(INT_MAX));
        s.steps = j["steps"].get<int>();
    }
    if (j.contains("checked")) {
        if (!j["checked"].is_boolean()) fail("checked", "must be true or false");
        s.checked = j["checked"].get<bool>();
    }
    if (j.contains("uniforms")) {
        if (!j["uniforms"].is_object()) fail("uniforms", "must be an object of name: number or array");
        s.uniforms = j["uniforms"];
    }
    const json& buffers = require(j, "buffers", "");
    if (!buffers.is_array() || buffers.empty()) fail("buffers", "must be a non-empty array");
    for (std::size_t i = 0; i < buffers.size(); ++i) {
        std::string f = "buffers[" + std::to_string(i) + "]";
        const json& b = buffers[i];
        if (!b.is_object()) fail(f, "must be an object");
        ScenarioBuffer sb;
        sb.name = b.value("name", "buffer" + std::to_string(i));
        const json& role = require(b, "role", f);
        if (!role.is_array() || role.empty())
            fail(f + ".role", "must be [\"input\", \"output\"], [\"input\"] or [\"output\"]");
        for (auto& r : role) {
            std::string v = r.is_string() ? r.get<std::string>() : "";
            if (v == "input")
                sb.input = true;
            else if (v == "output")
                sb.output = true;
            else
                fail(f + ".role", "unknown role '" + r.dump() + "'; use \"input\" and/or \"output\"");
        }
        sb.format = parseFormat(require(b, "format", f), f + ".format");
        try {
            sb.format.validate();
        } catch (const Error& e) { fail(f + ".format", e.message()); }
        sb.data = parseData(b, sb.format, s.count, dir, f);
        s.buffers.push_back(std::move(sb));
    }
    return s;
}

json bufferValues(const VertexFormat& format, std::int64_t count, const std::vector<std::byte>& bytes) {
    json out = json::array();
    for (std::int64_t e = 0; e < count; ++e)
        for (const auto& a : format.attributes)
            for (int c = 0; c < a.components; ++c) {
                const std::byte* p =
                    &bytes[std::size_t(e) * std::size_t(format.stride) + std::size_t(a.offset + 4 * c)];
                if (a.type == ComponentType::Float32) {
                    float v;
                    std::memcpy(&v, p, 4);
                    out.push_back(v);
                } else if (a.type == ComponentType::Int32) {
                    std::int32_t v;
                    std::memcpy(&v, p, 4);
                    out.push_back(v);
                } else {
                    std::uint32_t v;
                    std::memcpy(&v, p, 4);
                    out.push_back(v);
                }
            }
    return out;
}

} // namespace xfb::tools
