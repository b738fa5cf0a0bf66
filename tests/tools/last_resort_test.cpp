// The tools' last-resort handler (engine/tools/last_resort.cpp), in process: whatever escapes a
// tool's body becomes exit status 1 and one "PATH: XFB_CODE: message" line, never an abort.
#include "last_resort.hpp"
#include "xfb/error.hpp"

#include <doctest/doctest.h>

#include <cstdio>
#include <fcntl.h>
#include <fstream>
#include <iterator>
#include <new>
#include <stdexcept>
#include <string>
#include <unistd.h>

namespace {

struct Reported {
    int status;
    std::string err;
};

// Runs reportFailures with stderr redirected to a file.
Reported report(const std::function<int()>& body) {
    std::string path = std::string(XFB_WORK_DIR) + "/last-resort-" + std::to_string(getpid()) + ".txt";
    std::fflush(stderr);
    int saved = dup(2);
    int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    REQUIRE(fd >= 0);
    dup2(fd, 2);
    close(fd);
    int status = xfb::tools::reportFailures("in.vert", body);
    std::fflush(stderr);
    dup2(saved, 2);
    close(saved);
    std::ifstream f(path);
    std::string err((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    std::remove(path.c_str());
    return {status, err};
}

} // namespace

TEST_CASE("last resort: every exception leaves as exit 1 and a coded line") {
    auto r = report([] { return 0; });
    CHECK(r.status == 0);
    CHECK(r.err.empty());
    r = report([]() -> int { throw xfb::Error(xfb::ErrorCode::ArraySize, "line 2: array size 9 is over the limit"); });
    CHECK(r.status == 1);
    CHECK(r.err == "in.vert: XFB_ARRAY_SIZE: line 2: array size 9 is over the limit\n");
    r = report([]() -> int { throw std::bad_alloc(); });
    CHECK(r.status == 1);
    CHECK(r.err.rfind("in.vert: XFB_OUT_OF_MEMORY: out of memory", 0) == 0);
    r = report([]() -> int { throw std::out_of_range("stoi"); });
    CHECK(r.status == 1);
    CHECK(r.err == "in.vert: XFB_INTERNAL: unexpected exception (a bug in xfb, please report it): stoi\n");
    r = report([]() -> int { throw 42; });
    CHECK(r.status == 1);
    CHECK(r.err.rfind("in.vert: XFB_INTERNAL: unexpected exception of unknown type", 0) == 0);
    CHECK(xfb::errorCodeName(xfb::ErrorCode::Internal) == "XFB_INTERNAL");
}
