#pragma once
// The tools run as a user runs them: as processes, stdout and stderr captured apart. Each test
// process has a folder of its own (ctest -j runs test cases as parallel processes in one build
// folder) and every path handed out is fresh, so no run reads what another left behind.
#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace xfbtest {

struct Result {
    bool exited = false; // false: killed by a signal (a crash)
    int status = -1;     // the exit status when exited
    std::string out, err;
};

inline const std::string& workDir() {
    static const std::string dir = [] {
        std::string d = std::string(XFB_WORK_DIR) + "/run-" + std::to_string(getpid());
        std::filesystem::remove_all(d);
        std::filesystem::create_directories(d);
        return d;
    }();
    return dir;
}

// A path in workDir() that no earlier call returned.
inline std::string freshPath(const std::string& name) {
    static int serial = 0;
    return workDir() + "/" + std::to_string(++serial) + "-" + name;
}

inline Result run(const std::string& command) {
    std::string errFile = freshPath("stderr.txt");
    FILE* p = popen((command + " 2>" + errFile).c_str(), "r");
    REQUIRE(p);
    Result r;
    char buf[4096];
    for (std::size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) r.out.append(buf, n);
    int raw = pclose(p);
    // popen's shell reports a signal that killed the tool as exit status 128 + N.
    r.exited = WIFEXITED(raw) && WEXITSTATUS(raw) < 128;
    r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    std::ifstream e(errFile);
    r.err.assign(std::istreambuf_iterator<char>(e), std::istreambuf_iterator<char>());
    return r;
}

// Writes `text` to a fresh path named after `name` and returns the path.
inline std::string writeFile(const std::string& name, const std::string& text) {
    std::string path = freshPath(name);
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

} // namespace xfbtest
