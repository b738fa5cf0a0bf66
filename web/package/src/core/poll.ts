// Waiting for the GPU without blocking: WebGL2 makes a fence's or a query's result visible only
// after control returns to the event loop, so read() and stepChecked() poll across tasks.
// Polling once per animation frame (what xfb did first) made every wait at least one frame
// (~16 ms) and never ended in a hidden tab, where frames stop. Timer tasks instead: browsers
// clamp a chain of them to ~4 ms (to ~1 s in a hidden tab), so a read right after a step resolves
// within a few ms of the GPU finishing. Polling faster (message-channel tasks, tens of µs apart)
// measured slower on SwiftShader (bench-read: 1.7-4.0x the hand-written getBufferSubData against
// 1.1-2.8x with timers): the poll took the CPU the software rasterizer needed.

/** Resolves to the first value `poll()` gives other than null, asking once per timer task (never
 *  in the calling task). */
export async function pollFor<T>(poll: () => T | null): Promise<T> {
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 0));
    const value = poll();
    if (value !== null) return value;
  }
}
