#pragma once
/// @file
/// @brief Error codes and the exception every xfb failure is reported with.
///
/// Every failure has a stable code (its name, e.g. `XFB_SEPARATE_COMPONENTS`, never changes
/// meaning once released) and a message that names the offending thing and says how to fix it.
/// A function that throws leaves every object it was given as it was: a failed step keeps the
/// previous state.

#include "xfb/enum_tables.hpp"

#include <stdexcept>
#include <string>
#include <string_view>

namespace xfb {

/// Stable error codes: the rows of XFB_ERROR_CODES (xfb/enum_tables.hpp), whose comments say what
/// provokes each one.
enum class ErrorCode { XFB_ERROR_CODES(XFB_ENUMERATOR) };

/// The stable name of a code, e.g. "XFB_SEPARATE_COMPONENTS".
std::string_view errorCodeName(ErrorCode code);

/// The one exception type xfb throws. `what()` is "CODE_NAME: message".
class Error : public std::runtime_error {
public:
    Error(ErrorCode code, const std::string& message);
    ErrorCode code() const noexcept { return code_; }
    /// The message without the code prefix.
    const std::string& message() const noexcept { return message_; }

private:
    ErrorCode code_;
    std::string message_;
};

} // namespace xfb
