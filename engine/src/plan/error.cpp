#include "xfb/error.hpp"

namespace xfb {

std::string_view errorCodeName(ErrorCode code) { return enumName(errorCodeNames, code, "XFB_UNKNOWN"); }

Error::Error(ErrorCode code, const std::string& message)
    : std::runtime_error(std::string(errorCodeName(code)) + ": " + message), code_(code), message_(message) {}

} // namespace xfb
