// The engine gallery pages (web/engines, served here under /engines/): each engine draws 40 frames
// of the xfb fountain over its textured ground; the frame shows both, and no GL error is raised.
import { assert } from './assert.js';

for (const engine of ['three', 'babylon', 'playcanvas']) {
  test(`${engine}: the fountain over a textured ground, 40 frames`, async ({ note }) => {
    const { run } = await import(`/engines/${engine}.js`);
    const canvas = document.createElement('canvas');
    canvas.width = 320;
    canvas.height = 240;
    document.body.appendChild(canvas);
    const { gl, content } = await run(canvas, { frames: 40, count: 5000 });
    note(`pixels off the background: ${content.upper} in the upper half (particles), ${content.lower} in the lower half (ground), ${content.light} light texels`);
    assert(content.upper > 40, `particles are drawn above the ground: ${content.upper} pixels`);
    assert(content.lower > 5000, `the ground is drawn: ${content.lower} pixels`);
    assert(content.light > 2000, `the ground's texture is drawn: ${content.light} light pixels`);
    const error = gl.getError();
    assert(error === gl.NO_ERROR, `GL error 0x${error.toString(16)}`);
  });
}
