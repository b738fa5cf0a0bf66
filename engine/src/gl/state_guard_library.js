// The one JavaScript save/restore of the application's WebGL2 state (README "Sharing a context"),
// an Emscripten JS library (emcc --js-library, carried by the xfb target: engine/CMakeLists.txt).
// The wasm engine's StateGuard (state_guard.cpp) calls it around every entry point, and the npm
// package's replayed step calls it around its own pass. On WebGL the saved state is kept as WebGL
// objects: the engine's programs and buffers have no Emscripten name.
//
// Interface, Module.GL.xfbStateGuard (set when the module starts, before any engine call; its
// names survive Closure):
//   bits      { program, vertexArray, arrayBuffer, copyBuffers, unpackBuffer, transformFeedback,
//               discard, textures, pixelStore, samplers, feedbackBuffer, writtenBindings,
//               framebuffer, packBuffer, packStore, raster }: the
//             engine's StateBit values (XFB_GUARDED_STATE in state_guard.hpp), numbers to OR.
//   save(gl, bits, writes, subject, firstUnit = 0, units = 0) -> token
//             Saves the state `bits` names on the WebGL2RenderingContext `gl`; clears what must not
//             stay bound while xfb runs (the bits' comments in state_guard.hpp) and sets the relied-on
//             state (pixelStore, samplers) to xfb's values. `writes(subject, webglBuffer)` says whether
//             the guarded work may write that buffer (asked only with bits.writtenBindings, which
//             clears and restores every binding holding such a buffer: ARRAY_BUFFER, UNIFORM_BUFFER
//             and its indexed points, PIXEL_PACK/UNPACK, COPY_READ/WRITE; subject is passed through,
//             so one predicate serves many callers without a closure each). textures/samplers: units
//             [firstUnit, firstUnit + units). Makes only the queries and binds the bits need (bits 0:
//             none). The token is opaque: hand it to restore() once.
//   restore(gl, token, unwinding = false)
//             Binds again what save() found, where it differs from what xfb leaves (xfb's code leaves
//             its bindings at zero). unwinding: the guarded work stopped half-way (an exception), so
//             every saved binding is set again, also those found at zero. Tokens nest: restore the
//             last one saved first.
// The engine's guard passes writes = "one of xfb's buffers" (GL.buffers holds it under its name).
// Numbers in the code below are GL enums, named in the comment beside them.
mergeInto(LibraryManager.library, {
  $xfbStateGuard__deps: ['$GL'],
  $xfbStateGuard: {
    // The bits, as xfb_state_guard_ready() received them (each a single bit; 0 until then).
    program: 0, vertexArray: 0, arrayBuffer: 0, copyBuffers: 0, unpackBuffer: 0, transformFeedback: 0,
    discard: 0, textures: 0, pixelStore: 0, samplers: 0, feedbackBuffer: 0, writtenBindings: 0,
    framebuffer: 0, packBuffer: 0, packStore: 0, raster: 0,
    given: null, // the bits by name, while xfb_state_guard_bit() receives them
    stack: [], // the engine's open guards (they nest)
    // The engine's `writes`: its guarded work may write any of its own buffers.
    ownBuffer: function (_, b) { return GL.buffers[b.name] === b; },

    // MAX_UNIFORM_BUFFER_BINDINGS, read once.
    uniformPoints: 0,
    // WebGL2 refuses a transform-feedback draw (INVALID_OPERATION) while a buffer it writes is also
    // bound to another target. Clears the bindings other than ARRAY_BUFFER (save() has it) that hold
    // a buffer writes(subject, buffer) names: the generic UNIFORM_BUFFER, PIXEL_PACK/UNPACK,
    // COPY_READ/WRITE bindings and the indexed UNIFORM_BUFFER points. Returns what rebind() binds
    // again, or null when it cleared nothing.
    // Every point is read at every call (72 in Chromium, answered without a GPU round trip): no
    // cheaper sign tells that the application bound one (issue 39: bindBufferBase, then the generic
    // binding set back to what it held, was missed by a scan keyed on the generic binding). A point
    // holding a written buffer has its range (UNIFORM_BUFFER_START/SIZE, a round trip each) read then.
    unbindWritten: function (g, writes, subject) {
      // UNIFORM, PIXEL_PACK, PIXEL_UNPACK, COPY_READ, COPY_WRITE as target, binding
      var t = [0x8A11, 0x8A28, 0x88EB, 0x88ED, 0x88EC, 0x88EF, 0x8F36, 0x8F36, 0x8F37, 0x8F37];
      var n = xfbStateGuard.uniformPoints || (xfbStateGuard.uniformPoints = g.getParameter(0x8A2F)); // MAX_UNIFORM_BUFFER_BINDINGS
      var ub = g.getParameter(0x8A28), s = null, i, b;
      for (i = 0; i < 10; i += 2) {
        b = i ? g.getParameter(t[i + 1]) : ub;
        if (b && writes(subject, b)) (s = s || { ub: ub, t: [], p: [] }).t.push(t[i], b), g.bindBuffer(t[i], null);
      }
      for (i = 0; i < n; i++) {
        b = g.getIndexedParameter(0x8A28, i); // UNIFORM_BUFFER_BINDING
        if (!b || !writes(subject, b)) continue;
        (s = s || { ub: ub, t: [], p: [] }).p.push(i, b, [g.getIndexedParameter(0x8A29, i), g.getIndexedParameter(0x8A2A, i)]); // START, SIZE
        g.bindBufferBase(0x8A11, i, null);
      }
      return s;
    },
    rebind: function (g, s) {
      for (var i = 0; i < s.p.length; i += 3) {
        var r = s.p[i + 2];
        if (r[1]) g.bindBufferRange(0x8A11, s.p[i], s.p[i + 1], r[0], r[1]);
        else g.bindBufferBase(0x8A11, s.p[i], s.p[i + 1]);
      }
      if (s.p.length) g.bindBuffer(0x8A11, s.ub); // bindBufferBase/Range set the generic binding too
      for (i = 0; i < s.t.length; i += 2) g.bindBuffer(s.t[i], s.t[i + 1]);
    },

    save: function (g, bits, writes, subject, firstUnit, units) {
      var G = xfbStateGuard, s = { b: bits, f: firstUnit || 0, n: units || 0, a: null, o: null }, i, v;
      // A program the application deleted while current stays current until replaced, and cannot be
      // made current again: its DELETE_STATUS is read now, while it still exists (after xfb's
      // useProgram the query would be an INVALID_VALUE). isProgram() would answer at restore, but in
      // Chromium it is a synchronous round trip to the GPU process (~100 us, most of a step's CPU time).
      if ((bits & G.program) && (s.p = g.getParameter(0x8B8D))) s.pd = g.getProgramParameter(s.p, 0x8B80); // CURRENT_PROGRAM, DELETE_STATUS
      if (bits & G.vertexArray) s.v = g.getParameter(0x85B5); // VERTEX_ARRAY_BINDING
      // Generic buffer bindings are cleared while xfb runs: WebGL2 refuses a transform-feedback
      // draw while one of its buffers is also bound to another target.
      if ((bits & G.arrayBuffer) && (s.a = g.getParameter(0x8894))) g.bindBuffer(0x8892, null); // ARRAY_BUFFER
      if ((bits & G.copyBuffers) && (s.r = g.getParameter(0x8F36))) g.bindBuffer(0x8F36, null); // COPY_READ_BUFFER
      if ((bits & G.copyBuffers) && (s.w = g.getParameter(0x8F37))) g.bindBuffer(0x8F37, null); // COPY_WRITE_BUFFER
      if ((bits & G.unpackBuffer) && (s.u = g.getParameter(0x88EF))) g.bindBuffer(0x88EC, null); // PIXEL_UNPACK_BUFFER
      if ((bits & G.packBuffer) && (s.k = g.getParameter(0x88ED))) g.bindBuffer(0x88EB, null); // PIXEL_PACK_BUFFER
      if (bits & G.framebuffer) { s.df = g.getParameter(0x8CA6); s.rf = g.getParameter(0x8CAA); } // DRAW_/READ_FRAMEBUFFER_BINDING
      if (bits & G.raster) {
        // The fragment backend's draws: its viewport, no scissor, no culling, every colour written.
        s.vp = g.getParameter(0x0BA2); // VIEWPORT
        if ((s.sc = g.isEnabled(0x0C11))) g.disable(0x0C11); // SCISSOR_TEST
        if ((s.cf = g.isEnabled(0x0B44))) g.disable(0x0B44); // CULL_FACE
        s.cm = g.getParameter(0x0C23); // COLOR_WRITEMASK
        if (!(s.cm[0] && s.cm[1] && s.cm[2] && s.cm[3])) g.colorMask(true, true, true, true);
      }
      if (bits & G.writtenBindings) {
        // ARRAY_BUFFER only if it holds a written buffer (unless arrayBuffer cleared it above):
        // another buffer there stays bound, untouched.
        if (!(bits & G.arrayBuffer) && (v = g.getParameter(0x8894)) && writes(subject, v)) s.a = v, g.bindBuffer(0x8892, null);
        s.o = G.unbindWritten(g, writes, subject);
      }
      // The application's transform feedback object, unbound around copies, fences and passes.
      if ((bits & (G.transformFeedback | G.copyBuffers)) && (s.t = g.getParameter(0x8E25))) g.bindTransformFeedback(0x8E22, null); // TRANSFORM_FEEDBACK_BINDING
      if ((bits & G.feedbackBuffer) && (s.fb = g.getParameter(0x8C8F))) g.bindBuffer(0x8C8E, null); // TRANSFORM_FEEDBACK_BUFFER(_BINDING)
      if (bits & G.discard) s.d = g.isEnabled(0x8C89); // RASTERIZER_DISCARD
      if (bits & (G.textures | G.samplers)) {
        s.at = g.getParameter(0x84E0); s.tx = []; s.sm = []; // ACTIVE_TEXTURE
        for (i = 0; i < s.n; i++) {
          g.activeTexture(0x84C0 + s.f + i); // TEXTURE0 + unit
          if (bits & G.textures) s.tx.push(g.getParameter(0x8069)); // TEXTURE_BINDING_2D
          if (bits & G.samplers) { s.sm.push(g.getParameter(0x8919)); if (s.sm[i]) g.bindSampler(s.f + i, null); } // SAMPLER_BINDING
        }
        // The query walked the units: the active one back now when no restore will (owned context).
        if (!(bits & G.textures)) g.activeTexture(s.at);
      }
      if (bits & G.pixelStore) {
        // UNPACK_FLIP_Y_WEBGL, UNPACK_PREMULTIPLY_ALPHA_WEBGL, ROW_LENGTH, SKIP_ROWS, SKIP_PIXELS, ALIGNMENT
        var names = [0x9240, 0x9241, 0x0CF2, 0x0CF3, 0x0CF4, 0x0CF5], values = [false, false, 0, 0, 0, 4];
        s.ps = [];
        for (i = 0; i < names.length; i++) {
          v = g.getParameter(names[i]);
          if (v !== values[i]) { s.ps.push(names[i], v); g.pixelStorei(names[i], values[i]); }
        }
      }
      if (bits & G.packStore) {
        // PACK_ROW_LENGTH, PACK_SKIP_ROWS, PACK_SKIP_PIXELS, PACK_ALIGNMENT
        var packNames = [0x0D02, 0x0D03, 0x0D04, 0x0D05], packValues = [0, 0, 0, 4];
        s.pp = [];
        for (i = 0; i < packNames.length; i++) {
          v = g.getParameter(packNames[i]);
          if (v !== packValues[i]) { s.pp.push(packNames[i], v); g.pixelStorei(packNames[i], packValues[i]); }
        }
      }
      return s;
    },

    restore: function (g, s, unwinding) {
      var G = xfbStateGuard, b = s.b, u = !!unwinding, i;
      // name 0: deleted by xfb's own glDeleteProgram (Emscripten's mark) during this call.
      if (b & G.program) g.useProgram(s.p && !s.pd && s.p.name !== 0 ? s.p : null);
      if (b & G.vertexArray) g.bindVertexArray(s.v);
      if (s.a || (u && (b & G.arrayBuffer))) g.bindBuffer(0x8892, s.a);
      if ((b & G.copyBuffers) && (s.r || u)) g.bindBuffer(0x8F36, s.r);
      if ((b & G.copyBuffers) && (s.w || u)) g.bindBuffer(0x8F37, s.w);
      if ((b & G.unpackBuffer) && (s.u || u)) g.bindBuffer(0x88EC, s.u);
      if ((b & G.packBuffer) && (s.k || u)) g.bindBuffer(0x88EB, s.k);
      if ((b & G.framebuffer) && (s.df || u)) g.bindFramebuffer(0x8CA9, s.df); // DRAW_FRAMEBUFFER
      if ((b & G.framebuffer) && (s.rf || u)) g.bindFramebuffer(0x8CA8, s.rf); // READ_FRAMEBUFFER
      if (b & G.raster) {
        g.viewport(s.vp[0], s.vp[1], s.vp[2], s.vp[3]);
        if (s.sc) g.enable(0x0C11);
        if (s.cf) g.enable(0x0B44);
        if (!(s.cm[0] && s.cm[1] && s.cm[2] && s.cm[3])) g.colorMask(s.cm[0], s.cm[1], s.cm[2], s.cm[3]);
      }
      if ((b & (G.transformFeedback | G.copyBuffers)) && (s.t || (u && (b & G.transformFeedback)))) g.bindTransformFeedback(0x8E22, s.t);
      if (s.o) G.rebind(g, s.o);
      if ((b & G.feedbackBuffer) && (s.fb || u)) g.bindBuffer(0x8C8E, s.fb);
      if ((b & G.discard) && (s.d || u)) { if (s.d) g.enable(0x8C89); else g.disable(0x8C89); }
      for (i = 0; i < s.n; i++) {
        if (b & G.textures) { g.activeTexture(0x84C0 + s.f + i); g.bindTexture(0x0DE1, s.tx[i]); } // TEXTURE_2D
        if ((b & G.samplers) && s.sm[i]) g.bindSampler(s.f + i, s.sm[i]);
      }
      if (b & G.textures) g.activeTexture(s.at);
      if (b & G.pixelStore) for (i = 0; i < s.ps.length; i += 2) g.pixelStorei(s.ps[i], s.ps[i + 1]);
      if (b & G.packStore) for (i = 0; i < s.pp.length; i += 2) g.pixelStorei(s.pp[i], s.pp[i + 1]);
    },
  },

  // state_guard.cpp, once when the module starts (a static initialiser): each bit by name
  // (XFB_GUARDED_STATE), then ready(), which exposes Module.GL.xfbStateGuard for the package. A name
  // known on one side only stops the module here, rather than a guard that silently saves nothing.
  xfb_state_guard_bit__deps: ['$xfbStateGuard'],
  xfb_state_guard_bit: function (name, bit) {
    (xfbStateGuard.given || (xfbStateGuard.given = {}))[UTF8ToString(name)] = bit;
  },
  xfb_state_guard_ready__deps: ['$xfbStateGuard', '$GL'],
  xfb_state_guard_ready: function () {
    var G = xfbStateGuard, given = G.given || {}, read = 0;
    function bit(name) {
      var v = given[name];
      if (typeof v != 'number') throw new Error("XFB_INTERNAL: the engine gives no state bit '" + name + "' (XFB_GUARDED_STATE in engine/src/gl/state_guard.hpp); give state_guard_library.js the engine's names");
      read++;
      return v;
    }
    // Quoted: these are the engine's names, which Closure must not rename.
    G.program = bit('program'); G.vertexArray = bit('vertexArray'); G.arrayBuffer = bit('arrayBuffer');
    G.copyBuffers = bit('copyBuffers'); G.unpackBuffer = bit('unpackBuffer'); G.transformFeedback = bit('transformFeedback');
    G.discard = bit('discard'); G.textures = bit('textures'); G.pixelStore = bit('pixelStore'); G.samplers = bit('samplers');
    G.feedbackBuffer = bit('feedbackBuffer'); G.writtenBindings = bit('writtenBindings');
    G.framebuffer = bit('framebuffer'); G.packBuffer = bit('packBuffer'); G.packStore = bit('packStore'); G.raster = bit('raster');
    if (read !== Object.keys(given).length)
      throw new Error('XFB_INTERNAL: the engine gives state bits that state_guard_library.js does not save (' + Object.keys(given).join(', ') + '); teach it the new ones');
    GL['xfbStateGuard'] = { 'bits': Object.freeze(given), 'save': G.save, 'restore': G.restore };
  },

  // StateGuard (state_guard.cpp): guards nest, so the tokens are kept on a stack.
  xfb_guard_save__deps: ['$xfbStateGuard'],
  xfb_guard_save: function (bits, firstUnit, units) {
    xfbStateGuard.stack.push(xfbStateGuard.save(GLctx, bits, xfbStateGuard.ownBuffer, 0, firstUnit, units));
  },
  xfb_guard_restore__deps: ['$xfbStateGuard'],
  xfb_guard_restore: function (unwinding) {
    xfbStateGuard.restore(GLctx, xfbStateGuard.stack.pop(), unwinding);
  },
});
