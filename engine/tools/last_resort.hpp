#pragma once
// The tools' error boundary: every failure leaves main() as "PATH: XFB_CODE: message" on stderr
// and exit status 1 (exit 2 stays for bad arguments, see usage()).
#include <functional>
#include <string>

namespace xfb::tools {

/// Runs `body` and returns its exit status. An xfb::Error prints its code; std::bad_alloc prints
/// XFB_OUT_OF_MEMORY; any other exception, which is a bug, prints XFB_INTERNAL with what it says.
/// `path` is the input the tool was working on (the tool's name when there is none yet).
int reportFailures(const std::string& path, const std::function<int()>& body) noexcept;

} // namespace xfb::tools
