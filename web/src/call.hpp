#pragma once
// The extern "C" boundary's calling convention (web/package/src/core/boundary.ts and webgl2/wasm_module.ts are the
// other side). Every xfb_* function returns 0, or an ErrorCode's value + 1 when it failed; then xfb_result() holds the
// call's result as JSON text ("" for none), or the failure's message. Numbers and ids cross as numbers, a string as
// (pointer, byte length) into the heap, a list of strings as one such text with each item ended by '\0', a list of
// numbers as (pointer, count) of doubles. Nothing throws across the boundary.
#include "xfb/error.hpp"

#include <emscripten/emscripten.h>

#include <new>
#include <span>
#include <string>
#include <vector>

namespace xfb::boundary {

/// The last call's JSON result or failure message, read by xfb_result().
inline std::string& lastResult() {
    static std::string text;
    return text;
}

/// The exception being handled as a status, its message in lastResult(). One out-of-line copy, so
/// each function's guarded() holds a single catch-all.
[[gnu::noinline]] inline int currentFailure() {
    try {
        throw;
    } catch (const Error& e) {
        lastResult() = e.message();
        return int(e.code()) + 1;
    } catch (const std::bad_alloc&) {
        lastResult() = "the WebAssembly heap has no room for this; use smaller buffers or counts";
        return int(ErrorCode::OutOfMemory) + 1;
    } catch (const std::exception& e) {
        lastResult() = e.what();
        return int(ErrorCode::Internal) + 1;
    }
}

/// Runs `f` (returning the result's JSON text) and answers with the status.
template<class F>
int guarded(F&& f) {
    try {
        lastResult() = f();
        return 0;
    } catch (...) { return currentFailure(); }
}

inline std::string text(const char* p, int bytes) { return {p, std::size_t(bytes)}; }

/// Items each ended by '\0'.
inline std::vector<std::string> textList(const char* p, int bytes) {
    std::vector<std::string> items;
    for (const char *at = p, *end = p + bytes; at < end;) {
        std::string item(at);
        at += item.size() + 1;
        items.push_back(std::move(item));
    }
    return items;
}

inline std::span<const double> numbers(const double* p, int count) { return {p, std::size_t(count)}; }

} // namespace xfb::boundary
