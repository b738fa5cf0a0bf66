#pragma once
/// @file
/// @brief Rewrites legacy GLSL ES 1.00 vertex shaders as GLSL ES 3.00. Pure, no GL.

#include <string>
#include <string_view>

namespace xfb {

/// A vertex shader without `#version` (or with `#version 100`) uses `attribute`/`varying`. Desktop
/// core contexts reject it, so Program compiles it as GLSL ES 3.00, which every target accepts:
/// `#version 300 es` replaces or precedes the first line (`#line` keeps GL's line numbers the
/// user's), `attribute` -> `in`, `varying` -> `out`, `texture2D`/`textureCube` -> `texture`,
/// `texture2DLod` -> `textureLod`, and a default `precision highp float;` is added.
/// Sources with another `#version` are returned unchanged.
std::string toGlslEs300(std::string_view source);

/// The source without its transform-feedback layout qualifiers (`xfb_buffer`, `xfb_offset`,
/// `xfb_stride`; GLSL 4.40): the capture plan has read them (CapturePlan::declared) and the engine
/// writes that layout itself on every runtime, so the GL compiler must not see them (GLSL ES and
/// GL before 4.4 reject them; a 4.4 driver would ignore the list xfb gives). A `layout()` left empty
/// goes, and so does a default `layout(...) out;` left with nothing to say. Comments become spaces
/// and line numbers stay the user's. Sources without `xfb_` are returned unchanged.
std::string withoutXfbQualifiers(std::string_view source);

} // namespace xfb
