#include "last_resort.hpp"

#include "xfb/error.hpp"

#include <cstdio>
#include <exception>
#include <new>

namespace xfb::tools {

namespace {
void print(const std::string& path, ErrorCode code, const std::string& message) noexcept {
    std::fprintf(stderr, "%s: %s: %s\n", path.c_str(), std::string(errorCodeName(code)).c_str(), message.c_str());
}
} // namespace

int reportFailures(const std::string& path, const std::function<int()>& body) noexcept {
    try {
        try {
            return body();
        } catch (const Error& e) { print(path, e.code(), e.message()); } catch (const std::bad_alloc&) {
            print(path, ErrorCode::OutOfMemory, "out of memory; use fewer elements or smaller buffers");
        } catch (const std::exception& e) {
            print(path, ErrorCode::Internal,
                  std::string("unexpected exception (a bug in xfb, please report it): ") + e.what());
        } catch (...) {
            print(path, ErrorCode::Internal, "unexpected exception of unknown type (a bug in xfb, please report it)");
        }
    } catch (...) {
        std::fputs("xfb: XFB_INTERNAL: failed while reporting an error\n",
                   stderr); // e.g. bad_alloc building the message
    }
    return 1;
}

} // namespace xfb::tools
