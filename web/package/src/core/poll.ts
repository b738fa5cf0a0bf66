// Waiting for the GPU without blocking: WebGL2 makes a fence's or a query's result visible only
// after control returns to the event loop, so read() and stepChecked() poll across tasks.
// Measured in headless Chromium on SwiftShader (bench-read, docs/performance.md):
// - requestAnimationFrame polling made every wait at least one frame (~16 ms), and stopped in a
//   hidden tab; a chain of setTimeout(0) tasks is clamped to 4 ms after five hops, so a read of 16
//   elements cost 5-8 ms against 0.5-1 ms for a blocking getBufferSubData.
// - Message-channel tasks are not clamped, but the fence still showed up only 2-3 ms late: Chromium
//   learns of it when the GPU process next answers. A synchronous round trip before each poll (the
//   caller's `roundTrip`) brings it at once: 1-2 polls at 1e3 elements. It waits for the GPU
//   process to read the commands, not for the GPU to run them (60-70 polls during a 25 ms step).
// - Polling that never yields to ordinary tasks never sees the fence: scheduler.postTask
//   ('user-blocking') polled 150 000 times in 1.5 s without it. Message tasks and timers do yield.
// So: message-channel hops for the first kFastMs, then timer hops (a long wait leaves the CPU to
// a software rasterizer, and timers still run in a hidden tab); every wait is bounded.

/** How long polls follow each other without a timer's clamp. */
const kFastMs = 8;

/** Resolves to the first value `poll()` gives other than null, asking once per task (never in the
 *  calling task). Before each poll: `check(waitedMs)`, which throws (a coded XfbError) once the
 *  wait can no longer end or took too long, and `roundTrip()`. */
export async function pollFor<T>(
  poll: () => T | null,
  check: (waitedMs: number) => void,
  roundTrip: () => void,
): Promise<T> {
  const start = performance.now();
  for (;;) {
    await (performance.now() - start < kFastMs ? nextMessageTask() : new Promise((resolve) => setTimeout(resolve, 0)));
    check(performance.now() - start);
    roundTrip();
    const value = poll();
    if (value !== null) return value;
  }
}

// One channel for every wait: each message resolves the oldest hop (messages arrive in order).
let channel: MessageChannel | null = null;
const hops: (() => void)[] = [];
function nextMessageTask(): Promise<void> {
  if (!channel) {
    channel = new MessageChannel();
    channel.port1.onmessage = () => hops.shift()?.();
  }
  const port = channel.port2;
  return new Promise((resolve) => {
    hops.push(resolve);
    port.postMessage(0);
  });
}
