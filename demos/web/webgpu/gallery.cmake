# The WebGPU gallery (webgpu.html?demo=NAME), for the web build (included by demos/CMakeLists.txt):
# the shell and demo modules copied next to the page, and the C++ demos' simulation GLSL (and the
# skinning demo's geometry pass) extracted into gallery/webgpu/glsl/ by extract-glsl.mjs, again
# whenever a demo's source changes, so both galleries run the same shaders.
find_program(XFB_NODE NAMES node nodejs REQUIRED)
set(xfb_webgpu_dir ${CMAKE_CURRENT_LIST_DIR})
set(xfb_webgpu_out ${CMAKE_BINARY_DIR}/gallery/webgpu)
foreach(f app.js panel.js gpu.js math.js particles.js flock.js cloth.js trails.js skinning.js)
  configure_file(${xfb_webgpu_dir}/${f} ${xfb_webgpu_out}/${f} COPYONLY)
endforeach()
set(xfb_webgpu_glsl particles.vert flock.vert cloth.vert trails.vert skinning.vert skinning-sleeve.vert
  skinning-for-geometry.vert skinning-normals.geom)
list(TRANSFORM xfb_webgpu_glsl PREPEND ${xfb_webgpu_out}/glsl/)
set(xfb_webgpu_demo_sources particles.cpp flock.cpp cloth.cpp trails.cpp skinning.cpp app/render.hpp)
list(TRANSFORM xfb_webgpu_demo_sources PREPEND ${PROJECT_SOURCE_DIR}/demos/)
add_custom_command(OUTPUT ${xfb_webgpu_glsl}
  COMMAND ${XFB_NODE} ${xfb_webgpu_dir}/extract-glsl.mjs ${xfb_webgpu_out}/glsl ${PROJECT_SOURCE_DIR}/demos
  DEPENDS ${xfb_webgpu_dir}/extract-glsl.mjs ${xfb_webgpu_demo_sources}
  COMMENT "WebGPU gallery: the demos' simulation GLSL")
add_custom_target(xfb-gallery-webgpu ALL DEPENDS ${xfb_webgpu_glsl})
