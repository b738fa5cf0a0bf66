// Emscripten's names of the WebGLBuffers adoptBuffer() takes. A WebGLBuffer Emscripten names
// already (adopted before, or one of xfb's own) keeps its name, so that two adoptions name one GL
// buffer and the engine refuses it twice in a role list as natively; another gets a new name,
// forgotten when the last adoption holding it is disposed.
import type { EmscriptenGl, NamedBuffer } from './wasm_module.js';

export class AdoptedNames {
  readonly #GL: EmscriptenGl;
  /** Names put in Emscripten's table here: how many live adoptions hold each. */
  readonly #holders = new Map<number, number>();

  constructor(GL: EmscriptenGl) {
    this.#GL = GL;
  }

  /** Names `glBuffer` for the duration of `adopt(name)` and keeps the name if it succeeds. */
  adopt<T>(glBuffer: NamedBuffer, adopt: (name: number) => T): { name: number; result: T } {
    const GL = this.#GL;
    const known = GL.buffers[glBuffer.name] === glBuffer;
    const name = known ? glBuffer.name : GL.getNewId(GL.buffers);
    if (!known) {
      GL.buffers[name] = glBuffer;
      glBuffer.name = name;
    }
    let result: T;
    try {
      result = adopt(name);
    } catch (e) {
      if (!known) GL.buffers[name] = null;
      throw e;
    }
    const holders = this.#holders.get(name); // undefined for a known name: xfb's own buffer, never forgotten
    if (!known) this.#holders.set(name, 1);
    else if (holders) this.#holders.set(name, holders + 1);
    return { name, result };
  }

  /** An adoption of `name` disposed: the name is forgotten with the last one (the WebGLBuffer is kept). */
  release(name: number): void {
    const holders = this.#holders.get(name);
    if (holders === undefined) return;
    if (holders > 1) this.#holders.set(name, holders - 1);
    else {
      this.#holders.delete(name);
      this.#GL.buffers[name] = null;
    }
  }
}
