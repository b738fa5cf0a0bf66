#pragma once
// The WebGL2 module's Engine (objects under integer ids) and the helpers its extern "C" functions
// share: web/src/engine_calls.cpp (every module) and web/src/population_calls.cpp (only the module
// with populations, dist/xfb-full.wasm: web/CMakeLists.txt).
#include "call.hpp"
#include "json_text.hpp"
#include "xfb/xfb.hpp"

#include <map>
#include <optional>

namespace xfb::boundary {

/// The objects of one engine (xfb_engine_create answers its address).
struct Engine {
    std::optional<Device> device;
    int next = 1;
    std::map<int, Buffer> buffers;
    std::map<int, Program> programs;
    std::map<int, Pipeline> pipelines;
    std::map<int, PrimitiveCapture> captures;
    std::map<int, Population> populations;
    std::map<int, ReadbackRequest> readbacks;
    std::map<int, PopulationCountRequest> counts; // Population::countAsync()
    std::vector<std::byte> taken;

    template<class M>
    static typename M::mapped_type& find(M& map, int id, const char* what) {
        auto it = map.find(id);
        if (it == map.end()) throw Error(ErrorCode::Disposed, std::string("this ") + what + " was disposed");
        return it->second;
    }
    Buffer& buffer(int id) { return find(buffers, id, "buffer"); }
    Program& program(int id) { return find(programs, id, "program"); }
    Pipeline& pipeline(int id) { return find(pipelines, id, "pipeline"); }
    PrimitiveCapture& capture(int id) { return find(captures, id, "capture"); }
    Population& population(int id) { return find(populations, id, "population"); }
    /// Pairs (input id, output id), 0 for none.
    std::vector<Entry> entries(const double* ids, int count) {
        std::vector<Entry> list;
        for (int i = 0; i + 1 < count; i += 2)
            list.push_back({ids[i] ? &buffer(int(ids[i])) : nullptr, ids[i + 1] ? &buffer(int(ids[i + 1])) : nullptr});
        return list;
    }
    template<class T, class... A>
    std::string add(std::map<int, T>& map, A&&... args) {
        int id = next++;
        map.emplace(id, T(std::forward<A>(args)...));
        return std::to_string(id);
    }
};

inline std::span<const std::byte> heapBytes(const void* p, double bytes) {
    return {static_cast<const std::byte*>(p), std::size_t(bytes)};
}

inline std::optional<DrawMode> drawMode(const std::string& mode, bool optional) {
    if (optional && mode.empty()) return std::nullopt;
    auto m = drawModeFromName(mode);
    if (!m) throw Error(ErrorCode::InvalidArgument, "unknown draw mode '" + mode + "'");
    return m;
}

/// An object of integer fields: fields({{"a", 1}, {"b", n}}).
inline Json fields(std::initializer_list<std::pair<const char*, std::int64_t>> list) {
    Json o = JsonBuilder::object();
    for (const auto& [k, v] : list) JsonBuilder::set(o, k, v);
    return o;
}

} // namespace xfb::boundary
