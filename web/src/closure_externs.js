/**
 * @fileoverview Closure Compiler externs of the xfb modules (emcc --closure 1, web/CMakeLists.txt):
 * the names that code outside the module uses on Emscripten's objects, which Closure's ADVANCED
 * pass must therefore not rename. index.js reaches Emscripten's GL object as Module.GL
 * (library.js) and uses these members of it, of its context records, of its WebGLProgram
 * records (the uniform location cache, for replayed steps), and of the attributes it passes to
 * GL.registerContext. A new use in index.js of another GL member goes here too; the
 * Chromium suites (ctest -R web.chromium) fail otherwise.
 * @externs
 */

/** @type {?} */ Object.prototype.registerContext;
/** @type {?} */ Object.prototype.makeContextCurrent;
/** @type {?} */ Object.prototype.currentContext;
/** @type {?} */ Object.prototype.handle;
/** @type {?} */ Object.prototype.getNewId;
/** @type {?} */ Object.prototype.buffers;
/** @type {?} */ Object.prototype.textures;
/** @type {?} */ Object.prototype.programs;
/** @type {?} */ Object.prototype.vaos;
/** @type {?} */ Object.prototype.transformFeedbacks;
/** @type {?} */ Object.prototype.uniformLocsById;
/** @type {?} */ Object.prototype.uniformArrayNamesById;
/** @type {?} */ Object.prototype.majorVersion;
/** @type {?} */ Object.prototype.minorVersion;
/** @type {?} */ Object.prototype.enableExtensionsByDefault;
