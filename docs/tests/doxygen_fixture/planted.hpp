#pragma once
/// @file
/// @brief Planted comment errors for docs.doxygen-planted: Doxygen must report each of the 3.

namespace planted {

/// A WGSL attribute outside backticks is an unknown command: @group(0).
/// @param count a parameter that exists
/// @param missing a parameter that does not exist
int scale(int count);

/// An HTML tag never closed: xfb_first<b>[i].
struct Unclosed {
    int value = 0; ///< documented
};

} // namespace planted
