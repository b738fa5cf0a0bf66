#pragma once
// Results of the extern "C" boundary as JSON text, which JavaScript reads with one JSON.parse:
// a writer of a few dozen lines in place of a JSON library (nlohmann's serializer pulls in its
// number formatting and value tree). Only what the results hold: objects, arrays, strings,
// booleans and integers. Also the builder planFields() writes through (xfb/plan_fields.hpp).
// The writers are out of line (json_text.cpp): one copy each, not one per field written.
#include <concepts>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace xfb::boundary {

/// An object or array being written: its text without the closing bracket.
struct Json {
    std::string text;
    char close;
    std::string done() && { return std::move(text += close); }
};

void write(std::string& out, std::string_view s);
void write(std::string& out, bool b);
void write(std::string& out, std::int64_t v);
void write(std::string& out, const Json& v);
inline void write(std::string& out, const std::string& s) { write(out, std::string_view(s)); }
inline void write(std::string& out, const char* s) { write(out, std::string_view(s)); }
template<std::integral T>
requires(!std::same_as<T, bool>) void write(std::string& out, T v) { write(out, std::int64_t(v)); }
template<class T>
void write(std::string& out, const std::vector<T>& list) {
    out += '[';
    for (std::size_t i = 0; i < list.size(); ++i) {
        if (i) out += ',';
        write(out, list[i]);
    }
    out += ']';
}

/// Starts the next member of `o`: the separator, and `"key":` unless `key` is null (an array).
void next(Json& o, const char* key);

/// The builder of xfb/plan_fields.hpp, and the results' own objects.
struct JsonBuilder {
    using Value = Json;
    static Json object() { return {"{", '}'}; }
    static Json array() { return {"[", ']'}; }
    template<class T>
    static void set(Json& o, const char* key, const T& v) {
        next(o, key);
        write(o.text, v);
    }
    template<class T>
    static void push(Json& a, const T& v) {
        next(a, nullptr);
        write(a.text, v);
    }
};

} // namespace xfb::boundary
