// Exposes Emscripten's GL object as Module.GL, so the JavaScript API can register the user's
// WebGL2 context (GL.registerContext) and map GL names to WebGLBuffer objects (GL.buffers).
// bindings.cpp calls xfb_expose_gl() so the linker keeps this library function and its postset.
mergeInto(LibraryManager.library, {
  xfb_expose_gl__deps: ['$GL', '$xfbUnbindWritten', '$xfbRebind'],
  xfb_expose_gl__postset: 'Module["GL"] = GL; GL["xfbUnbindWritten"] = xfbUnbindWritten; GL["xfbRebind"] = xfbRebind;',
  xfb_expose_gl: function () {},

  // WebGL2 refuses a transform-feedback draw (INVALID_OPERATION) while a buffer it writes is also
  // bound to another target. Used by the state guard (gl/state_guard.cpp, CachedOtherBindings) and
  // by index.js's replayed steps: clears the bindings that hold a buffer `writes(subject, buffer)`
  // names, other than ARRAY_BUFFER (the callers' own): the generic UNIFORM_BUFFER, PIXEL_PACK/UNPACK,
  // COPY_READ/WRITE bindings and the indexed UNIFORM_BUFFER points. Returns what $xfbRebind binds
  // again, or null when nothing was cleared.
  // Points cost a query each (72 in Chromium): all are read only when the generic UNIFORM_BUFFER
  // binding differs from the one found by the last call (bindBufferBase/Range set it: the
  // application bound uniform buffers since), otherwise only the points where an xfb buffer was
  // found then. A point's range (UNIFORM_BUFFER_START/SIZE: a GPU round trip each) is read once
  // per point and buffer. Not seen: an xfb buffer bound at a new point, or the same buffer at the
  // same point with another range, followed by a rebind of the generic binding to the very buffer
  // it held at the last xfb call.
  $xfbUnbindWritten__deps: ['$GL'],
  $xfbUnbindWritten: function (g, writes, subject) {
    // t: UNIFORM, PIXEL_PACK, PIXEL_UNPACK, COPY_READ, COPY_WRITE as target, binding
    var m = GL.xfbUniform || (GL.xfbUniform = { generic: undefined, points: [], ranges: new Map(), max: g.getParameter(0x8A2F),
      t: [0x8A11, 0x8A28, 0x88EB, 0x88ED, 0x88EC, 0x88EF, 0x8F36, 0x8F36, 0x8F37, 0x8F37] });
    var ub = g.getParameter(0x8A28), t = m.t, s = null, i, k, b, r, list;
    for (i = 0; i < 10; i += 2) {
      b = i ? g.getParameter(t[i + 1]) : ub;
      if (b && writes(subject, b)) (s = s || { ub: ub, t: [], p: [] }).t.push(t[i], b), g.bindBuffer(t[i], null);
    }
    var scan = ub !== m.generic, n = scan ? m.max : m.points.length;
    if (!n) return s;
    for (list = [], k = 0; k < n; k++) {
      i = scan ? k : m.points[k];
      b = g.getIndexedParameter(0x8A28, i);
      if (!b || GL.buffers[b.name] !== b) continue; // not one of xfb's
      list.push(i);
      if (!writes(subject, b)) continue;
      if (!(r = m.ranges.get(b.name * 128 + i))) m.ranges.set(b.name * 128 + i, (r = [g.getIndexedParameter(0x8A29, i), g.getIndexedParameter(0x8A2A, i)]));
      (s = s || { ub: ub, t: [], p: [] }).p.push(i, b, r);
      g.bindBufferBase(0x8A11, i, null);
    }
    m.points = list;
    m.generic = ub;
    return s;
  },
  $xfbRebind: function (g, s) {
    for (var i = 0; i < s.p.length; i += 3) {
      var r = s.p[i + 2];
      if (r[1]) g.bindBufferRange(0x8A11, s.p[i], s.p[i + 1], r[0], r[1]);
      else g.bindBufferBase(0x8A11, s.p[i], s.p[i + 1]);
    }
    if (s.p.length) g.bindBuffer(0x8A11, s.ub); // bindBufferBase/Range set the generic binding too
    for (i = 0; i < s.t.length; i += 2) g.bindBuffer(s.t[i], s.t[i + 1]);
  },
});
