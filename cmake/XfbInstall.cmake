# Installs xfb as a CMake package (find_package(xfb CONFIG)): xfb::plan (pure planner, no GL) and
# xfb::xfb (the GL engine), their public headers, a version file, a pkg-config file (native) and
# the tools. The same rules serve the native and the Emscripten build; each installs its own
# prefix, and a package built for one refuses to load in the other (xfbConfig.cmake).
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
# to native builds (EGL), the GL headers to builds with GL.
set(xfb_header_excludes PATTERN plan_json.hpp EXCLUDE)
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
  target_include_directories(xfb SYSTEM INTERFACE $<INSTALL_INTERFACE:${xfb_glm_dir}>)
endif()

install(EXPORT xfbTargets NAMESPACE xfb:: DESTINATION ${XFB_CMAKE_DIR})

# 0.x: a minor release may change the API (semantic versioning's rule for 0.y.z), so
# find_package(xfb 0.1) accepts 0.1.z only. From 1.0 on, SameMajorVersion.
set(XFB_PACKAGE_EMSCRIPTEN ${EMSCRIPTEN})
if(NOT XFB_PACKAGE_EMSCRIPTEN)
  set(XFB_PACKAGE_EMSCRIPTEN OFF)
endif()
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
