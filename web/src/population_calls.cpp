// The population functions of the WebGL2 module (C++ xfb::Population; the package's
// webgl2/population.ts), linked only into dist/xfb-full.wasm, which createXfb({ gl, populations:
// true }) loads: the default module stays as small as plain steps and captures need (web.size).
#include "engine.hpp"
#include "inputs.hpp"
#include "xfb/detail/emitted_draw.hpp"

using namespace xfb;
using namespace xfb::boundary;

namespace {

Json populationCount(const PopulationCount& c) {
    return fields({{"live", c.live},
                   {"capacity", c.capacity},
                   {"requested", c.requested},
                   {"dropped", c.dropped},
                   {"droppedUnchecked", c.droppedUnchecked}});
}

/// A buffer's layout as the package's BufferLayout: { stride, attributes: [{ semantic, type, components, offset }] }.
Json layoutOf(const VertexFormat& format) {
    Json attributes = JsonBuilder::array();
    for (const auto& a : format.attributes) {
        Json o = fields({{"components", a.components}, {"offset", a.offset}});
        JsonBuilder::set(o, "semantic", semanticName(a.semantic));
        JsonBuilder::set(o, "type", std::string(componentTypeName(a.type)));
        JsonBuilder::push(attributes, std::move(o));
    }
    Json o = fields({{"stride", format.stride}});
    JsonBuilder::set(o, "attributes", std::move(attributes));
    return o;
}

} // namespace

#define XFB_C EMSCRIPTEN_KEEPALIVE
extern "C" {

/// fields: input, emitted, input, emitted ... (PopulationOptions::state); clampOverflow: EmitOverflow::Clamp.
XFB_C int xfb_create_population(Engine* e, int programId, double capacity, const char* fieldNames, int fieldBytes,
                                const char* count, int countBytes, bool clampOverflow, const char* backend,
                                int backendBytes) {
    return guarded([&] {
        PopulationOptions o;
        o.capacity = std::int64_t(capacity);
        const auto names = textList(fieldNames, fieldBytes);
        for (std::size_t i = 0; i + 1 < names.size(); i += 2) o.state.push_back({names[i], names[i + 1]});
        o.count = text(count, countBytes);
        o.overflow = clampOverflow ? EmitOverflow::Clamp : EmitOverflow::Error;
        o.backend = fromName<Backend>(text(backend, backendBytes), backendNames, "backend");
        return e->add(e->populations, *e->device, e->program(programId), std::move(o));
    });
}
/// { backend, capacity, steps, glCalls, fields: [{ input, emitted, layout }] }
XFB_C int xfb_population_info(Engine* e, int id) {
    return guarded([&] {
        auto& p = e->population(id);
        Json list = JsonBuilder::array();
        for (const auto& f : p.plan().fields) {
            Json o = JsonBuilder::object();
            JsonBuilder::set(o, "input", f.input);
            JsonBuilder::set(o, "emitted", f.emitted);
            JsonBuilder::set(o, "layout", layoutOf(f.format));
            JsonBuilder::push(list, std::move(o));
        }
        Json o =
            fields({{"capacity", p.capacity()}, {"steps", std::int64_t(p.stepsTaken())}, {"glCalls", p.lastGlCalls()}});
        JsonBuilder::set(o, "backend", backendName(p.backend()));
        JsonBuilder::set(o, "fields", std::move(list));
        return std::move(o).done();
    });
}
XFB_C int xfb_population_step(Engine* e, int id) {
    return guarded([&] {
        e->population(id).step();
        return std::string();
    });
}
XFB_C int xfb_population_step_checked(Engine* e, int id) {
    return guarded([&] { return populationCount(e->population(id).stepChecked()).done(); });
}
/// `sizes`: the bytes of each field's records, one after the other at `data`.
XFB_C int xfb_population_spawn(Engine* e, int id, const std::byte* data, const double* sizes, int fieldCount) {
    return guarded([&] {
        std::vector<std::span<const std::byte>> spans;
        for (int f = 0; f < fieldCount; ++f) {
            spans.push_back(heapBytes(data, sizes[f]));
            data += std::size_t(sizes[f]);
        }
        e->population(id).spawn(spans);
        return std::string();
    });
}
XFB_C int xfb_population_count_async(Engine* e, int id) {
    return guarded([&] {
        int rid = e->next++;
        e->counts.emplace(rid, e->population(id).countAsync());
        return std::to_string(rid);
    });
}
XFB_C int xfb_population_count_ready(Engine* e, int rid) {
    return guarded([&] { return std::string(Engine::find(e->counts, rid, "count").ready() ? "true" : "false"); });
}
XFB_C int xfb_population_count_take(Engine* e, int rid) {
    return guarded([&] {
        const PopulationCount c = Engine::find(e->counts, rid, "count").take();
        e->counts.erase(rid);
        return populationCount(c).done();
    });
}
/// Elements [first, first + count) of field `field`'s current state (the package checked both).
XFB_C int xfb_population_read_async(Engine* e, int id, int field, int first, int count) {
    return guarded([&] {
        int rid = e->next++;
        e->readbacks.emplace(rid, e->population(id).state(std::size_t(field)).readAsync(first, count));
        return std::to_string(rid);
    });
}
XFB_C int xfb_population_gl_name(Engine* e, int id, int field) {
    return guarded([&] { return std::to_string(e->population(id).state(std::size_t(field)).glName()); });
}
XFB_C int xfb_population_count_texture(Engine* e, int id) {
    return guarded([&] { return std::to_string(e->population(id).countTexture()); });
}
/// detail::populationDrawUniforms(): { unit, row, component, perPrimitive } for the bound WebGLProgram.
XFB_C int xfb_population_draw_uniforms(Engine* e, int id, const char* mode, int modeBytes, bool readsTotal,
                                       const char* program, int programBytes) {
    return guarded([&] {
        const auto u = detail::populationDrawUniforms(e->population(id), *drawMode(text(mode, modeBytes), false),
                                                      readsTotal, text(program, programBytes));
        return fields({{"unit", u.unit}, {"row", u.row}, {"component", u.component}, {"perPrimitive", u.perPrimitive}})
            .done();
    });
}
XFB_C int xfb_population_draw(Engine* e, int id, const char* mode, int modeBytes) {
    return guarded([&] {
        detail::drawPopulationWithUniformsSet(e->population(id), *drawMode(text(mode, modeBytes), false));
        return std::string();
    });
}

} // extern "C"
