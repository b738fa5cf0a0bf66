// Exposes Emscripten's GL object as Module.GL, so the JavaScript API can register the user's
// WebGL2 context (GL.registerContext) and map GL names to WebGLBuffer objects (GL.buffers).
// engine_calls.cpp calls xfb_expose_gl() so the linker keeps this library function and its postset.
mergeInto(LibraryManager.library, {
  xfb_expose_gl__deps: ['$GL'],
  xfb_expose_gl__postset: 'Module["GL"] = GL;',
  xfb_expose_gl: function () {},
});
