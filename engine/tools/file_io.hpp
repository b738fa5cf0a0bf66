#pragma once
// Reading and writing the tools' files with coded errors: a missing file, a directory, an
// unreadable path or a failed write is an xfb::Error (FileRead / FileWrite), never an
// std::ios_base::failure or a silently empty string.
#include <cstdint>
#include <span>
#include <string>

namespace xfb::tools {

/// The whole file. `what` names it in messages ("shader", "field 'buffers[0].data_file'").
/// @throws Error FileRead: no such file, a directory, unreadable, or longer than maxBytes
std::string readFile(const std::string& path, const std::string& what, std::uint64_t maxBytes);

/// Writes (replaces) the file.
/// @throws Error FileWrite: the folder is missing, the path is a directory, the disk is full...
void writeFile(const std::string& path, const std::string& what, std::span<const char> bytes);

} // namespace xfb::tools
