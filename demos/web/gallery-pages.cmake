# The gallery's other pages and what its cards link (issue 29), for the web build (included by
# demos/CMakeLists.txt). `./xfb demo` serves build/wasm/gallery at / (and the npm package at /npm/),
# so everything lands in that folder:
#   thumbs/         the cards' thumbnails (committed in demos/web/thumbs; tests/web/gallery.mjs cuts
#                   them from its screenshots and fails when one is missing or stale)
#   source/         each demo's C++ source, which its card links
#   bench.html, bench/, shaders/bench_particles.vert
#                   the benchmark page; bench/core.js is the implementation tests/web/page/bench.js
#                   (./xfb bench) runs too
#   engines/        the three.js, Babylon.js and PlayCanvas fountains (web/engines)
#   modules/        three, @babylonjs/core and playcanvas: symbolic links into tests/web/node_modules
#                   (./xfb setup installs them with npm ci; the engine pages and the benchmark import
#                   them from /modules/, as the browser tests do)
set(xfb_gallery_out ${CMAKE_BINARY_DIR}/gallery)
foreach(f bench.html bench/core.js bench/page.js)
  configure_file(${CMAKE_CURRENT_LIST_DIR}/${f} ${xfb_gallery_out}/${f} COPYONLY)
endforeach()
file(GLOB xfb_gallery_thumbs CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/thumbs/*.png)
foreach(f ${xfb_gallery_thumbs})
  get_filename_component(name ${f} NAME)
  configure_file(${f} ${xfb_gallery_out}/thumbs/${name} COPYONLY)
endforeach()
foreach(demo particles flock cloth trails skinning fireworks)
  configure_file(${PROJECT_SOURCE_DIR}/demos/${demo}.cpp ${xfb_gallery_out}/source/${demo}.cpp COPYONLY)
endforeach()
configure_file(${PROJECT_SOURCE_DIR}/shaders/bench_particles.vert ${xfb_gallery_out}/shaders/bench_particles.vert COPYONLY)
foreach(f three.html three.js babylon.html babylon.js playcanvas.html playcanvas.js fountain.js)
  configure_file(${PROJECT_SOURCE_DIR}/web/engines/${f} ${xfb_gallery_out}/engines/${f} COPYONLY)
endforeach()
file(MAKE_DIRECTORY ${xfb_gallery_out}/modules/@babylonjs)
foreach(m three playcanvas @babylonjs/core)
  file(CREATE_LINK ${PROJECT_SOURCE_DIR}/tests/web/node_modules/${m} ${xfb_gallery_out}/modules/${m} SYMBOLIC)
endforeach()
