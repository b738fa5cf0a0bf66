# Installs xfb as a CMake package (find_package(xfb CONFIG)): xfb::plan (pure planner, no GL) and
# xfb::xfb (the GL engine), their public headers, a version file, a pkg-config file (native) and
# the tools. The same rules serve the native and the Emscripten build; each installs its own
# prefix, and a package built for one is refused by the other (the version file compares the
# pointer size: "version: 0.1.0 (32bit)" for the wasm32 package seen from a native build).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(XFB_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/xfb)
set(xfb_targets xfb_plan)
if(NOT XFB_PLAN_ONLY)
  list(APPEND xfb_targets xfb)
endif()

install(TARGETS ${xfb_targets} EXPORT xfbTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

# Public headers; plan_json.hpp belongs to the tools and bindings (nlohmann), headless_context.hpp
# to native builds (EGL), the GL headers to builds with GL; detail/ is no public API (the bindings').
set(xfb_header_excludes PATTERN plan_json.hpp EXCLUDE PATTERN detail EXCLUDE)
if(EMSCRIPTEN OR XFB_PLAN_ONLY)
  list(APPEND xfb_header_excludes PATTERN headless_context.hpp EXCLUDE)
endif()
install(DIRECTORY ${PROJECT_SOURCE_DIR}/engine/include/xfb DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN *.hpp ${xfb_header_excludes})

if(EMSCRIPTEN AND NOT XFB_PLAN_ONLY)
  # program.hpp includes <glm/glm.hpp>; under Emscripten /usr/include cannot be on the include
  # path (its libc headers would shadow Emscripten's), so the package carries a folder holding
  # only a link to Debian's glm, as the build tree does (engine/CMakeLists.txt).
  set(xfb_glm_dir ${CMAKE_INSTALL_INCLUDEDIR}/xfb-system-headers)
  install(CODE "file(MAKE_DIRECTORY \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${xfb_glm_dir}\")
    file(CREATE_LINK /usr/include/glm \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${xfb_glm_dir}/glm\" SYMBOLIC)")
  target_include_directories(xfb INTERFACE $<INSTALL_INTERFACE:${xfb_glm_dir}>) # imported: -isystem anyway
  # The state guard's JavaScript library, which libxfb.a calls (engine/CMakeLists.txt).
  install(FILES ${XFB_STATE_GUARD_LIBRARY} DESTINATION ${CMAKE_INSTALL_LIBDIR})
  target_link_options(xfb INTERFACE $<INSTALL_INTERFACE:--js-library=$<INSTALL_PREFIX>/${CMAKE_INSTALL_LIBDIR}/state_guard_library.js>)
endif()

install(EXPORT xfbTargets NAMESPACE xfb:: DESTINATION ${XFB_CMAKE_DIR})

# 0.x: a minor release may change the API (semantic versioning's rule for 0.y.z), so
# find_package(xfb 0.1) accepts 0.1.z only. From 1.0 on, SameMajorVersion.
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/xfbConfig.cmake.in
  ${PROJECT_BINARY_DIR}/package/xfbConfig.cmake INSTALL_DESTINATION ${XFB_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/package/xfbConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/package/xfbConfig.cmake ${PROJECT_BINARY_DIR}/package/xfbConfigVersion.cmake
  DESTINATION ${XFB_CMAKE_DIR})

if(NOT EMSCRIPTEN AND NOT XFB_PLAN_ONLY)
  # pkg-config for non-CMake builds; prefix relative to the .pc file, so the prefix can move.
  file(RELATIVE_PATH XFB_PC_PREFIX /root/${CMAKE_INSTALL_LIBDIR}/pkgconfig /root)
  string(REGEX REPLACE "/$" "" XFB_PC_PREFIX "${XFB_PC_PREFIX}")
  configure_file(${PROJECT_SOURCE_DIR}/cmake/xfb.pc.in ${PROJECT_BINARY_DIR}/package/xfb.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/package/xfb.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endif()

if(XFB_BUILD_TOOLS AND TARGET xfb-inspect)
  install(TARGETS xfb-inspect xfb-run RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()

# `cpack` in a native build folder: libxfb-dev_<version>_<arch>.deb with the same files under /usr.
if(PROJECT_IS_TOP_LEVEL AND NOT EMSCRIPTEN)
  set(CPACK_GENERATOR DEB)
  set(CPACK_PACKAGE_NAME libxfb-dev)
  set(CPACK_PACKAGE_CONTACT "xfb maintainers")
  set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "xfb: transform-feedback engine for OpenGL 4.3 core / GLES 3.0 (C++20 static libraries, headers, CMake package, tools)")
  set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
  set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
  set(CPACK_DEBIAN_PACKAGE_SECTION libdevel)
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "libglm-dev, libopengl-dev, libegl-dev")
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON) # the tools' run-time libraries
  include(CPack)
endif()
