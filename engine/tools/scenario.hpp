#pragma once
// xfb-run's scenario file: parsing and validation (format: engine/tools/README.md). Every error
// is Error(Scenario) naming the JSON field, e.g. "buffers[1].format[0].semantic".
#include "xfb/capture_plan.hpp"
#include "xfb/shader_interface.hpp"
#include "xfb/vertex_format.hpp"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace xfb::tools {

struct ScenarioBuffer {
    std::string name;
    bool input = false, output = false;
    VertexFormat format;
    std::vector<std::byte> data; // count x stride bytes; zeros when the file gives none
};

struct Scenario {
    std::string shaderPath; // resolved against the scenario's folder
    std::string source;
    CaptureOptions capture;
    ReadOptions read;
    std::string api = "gl43core";
    std::string backend = "tf";
    std::int64_t count = 0;
    int steps = 1;
    bool checked = false;
    nlohmann::json uniforms = nlohmann::json::object();
    std::vector<ScenarioBuffer> buffers;
};

/// @throws Error Scenario
Scenario loadScenario(const std::string& path);

/// A buffer's bytes as JSON numbers, element by element, attribute by attribute.
nlohmann::json bufferValues(const VertexFormat& format, std::int64_t count, const std::vector<std::byte>& bytes);

} // namespace xfb::tools
