# xfb_embed_shaders(TARGET name NAMESPACE ns FILES a.vert b.vert ...)
# Generates a static library `name` whose header <name.hpp> declares one
# `inline constexpr std::string_view` per file (dots and dashes become '_'),
# regenerated whenever a shader changes. Shaders live in shaders/ as plain GLSL
# so they can be read, diffed and fed to xfb-inspect as they are.
function(xfb_embed_shaders)
  cmake_parse_arguments(E "" "TARGET;NAMESPACE" "FILES" ${ARGN})
  set(out_dir "${CMAKE_CURRENT_BINARY_DIR}/${E_TARGET}")
  set(header "${out_dir}/${E_TARGET}.hpp")
  set(abs_files "")
  foreach(f IN LISTS E_FILES)
    list(APPEND abs_files "${CMAKE_CURRENT_SOURCE_DIR}/${f}")
  endforeach()
  string(REPLACE ";" "|" files_arg "${abs_files}") # a list would split into several arguments
  add_custom_command(
    OUTPUT "${header}"
    COMMAND ${CMAKE_COMMAND} -DOUT=${header} -DNS=${E_NAMESPACE} "-DFILES=${files_arg}"
            -P "${PROJECT_SOURCE_DIR}/cmake/XfbEmbedRun.cmake"
    DEPENDS ${abs_files} "${PROJECT_SOURCE_DIR}/cmake/XfbEmbedRun.cmake"
    COMMENT "Embedding shaders into ${E_TARGET}.hpp"
    VERBATIM)
  add_custom_target(${E_TARGET}_gen DEPENDS "${header}")
  add_library(${E_TARGET} INTERFACE)
  add_dependencies(${E_TARGET} ${E_TARGET}_gen)
  target_include_directories(${E_TARGET} INTERFACE "${out_dir}")
endfunction()
