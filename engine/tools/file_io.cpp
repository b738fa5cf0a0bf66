#include "file_io.hpp"

#include "xfb/error.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>

namespace xfb::tools {

namespace {
using File = std::unique_ptr<std::FILE, int (*)(std::FILE*)>;
} // namespace

std::string readFile(const std::string& path, const std::string& what, std::uint64_t maxBytes) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        throw Error(ErrorCode::FileRead, what + " '" + path + "' is a directory; give the path of a file");
    File f(std::fopen(path.c_str(), "rb"), &std::fclose);
    if (!f) throw Error(ErrorCode::FileRead, "cannot read " + what + " '" + path + "': " + std::strerror(errno));
    std::string text;
    char chunk[65536];
    for (std::size_t n; (n = std::fread(chunk, 1, sizeof chunk, f.get())) > 0;) {
        if (text.size() + n > maxBytes)
            throw Error(ErrorCode::FileRead, what + " '" + path + "' is longer than " + std::to_string(maxBytes) +
                                                 " bytes, the most accepted here");
        text.append(chunk, n);
    }
    if (std::ferror(f.get()))
        throw Error(ErrorCode::FileRead, "cannot read " + what + " '" + path + "': " + std::strerror(errno));
    return text;
}

void writeFile(const std::string& path, const std::string& what, std::span<const char> bytes) {
    File f(std::fopen(path.c_str(), "wb"), &std::fclose);
    if (!f) throw Error(ErrorCode::FileWrite, "cannot write " + what + " '" + path + "': " + std::strerror(errno));
    bool ok = std::fwrite(bytes.data(), 1, bytes.size(), f.get()) == bytes.size();
    ok = std::fclose(f.release()) == 0 && ok; // a full disk may only show at close
    if (!ok) throw Error(ErrorCode::FileWrite, "cannot write " + what + " '" + path + "': " + std::strerror(errno));
}

} // namespace xfb::tools
