#pragma once
// Helpers for asserting xfb errors in unit tests.
#include "xfb/error.hpp"

#include <doctest/doctest.h>

#include <string>

// Runs `expr`, requires it to throw xfb::Error with `expected` code, and returns the message.
#define XFB_REQUIRE_ERROR(expr, expected)                                                                              \
    [&]() -> std::string {                                                                                             \
        try {                                                                                                          \
            (void)(expr);                                                                                              \
        } catch (const xfb::Error& e) {                                                                                \
            CHECK_MESSAGE(e.code() == (expected), "got ", xfb::errorCodeName(e.code()), ": ", e.what());               \
            return e.message();                                                                                        \
        }                                                                                                              \
        FAIL("expected ", xfb::errorCodeName(expected), " from ", #expr);                                              \
        return {};                                                                                                     \
    }()

inline bool contains(const std::string& haystack, const std::string& needle) {
    return haystack.find(needle) != std::string::npos;
}
