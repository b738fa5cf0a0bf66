import { fail } from '../core/errors.js';
import type { CheckedProgramOptions } from '../core/program_options.js';
import type { ObjectRegistry } from '../core/registry.js';
import type { Plan, UniformLayout, UniformValue } from '../core/types.js';
import { checkUniformName, checkUniformValues, numberKindOf } from '../core/uniform_values.js';
import type { XfbWebGpu } from './engine.js';
import { WebGpuObject } from './object.js';
import type { Translation } from './wasm_module.js';

type UniformEntry = Translation['uniforms'][number];

/** A simulation translated to WGSL, with its uniform values in a byte image of the uniform buffer. */
export class XfbWebGpuProgram extends WebGpuObject {
  /** A name for messages and labels. */
  readonly label: string;
  readonly #source: string;
  readonly #options: CheckedProgramOptions;
  readonly #translation: Translation;
  readonly #geometry: string | undefined;
  readonly #uniforms = new Map<string, UniformEntry>();
  readonly #bytes: ArrayBuffer;
  readonly #views: Readonly<Record<'float' | 'int' | 'uint', Float32Array | Int32Array | Uint32Array>>;
  #version = 0;

  /** @internal Use `XfbWebGpu.createProgram()`. */
  constructor(
    owner: XfbWebGpu,
    registry: ObjectRegistry,
    source: string,
    options: CheckedProgramOptions,
    translation: Translation,
    label: string,
    geometry?: string,
  ) {
    super(owner, registry, 'program');
    this.#geometry = geometry;
    this.#source = source;
    this.#options = options;
    this.#translation = translation;
    this.label = label;
    for (const u of translation.uniforms) this.#uniforms.set(u.name, u);
    this.#bytes = new ArrayBuffer(translation.uniformBytes);
    this.#views = {
      float: new Float32Array(this.#bytes),
      int: new Int32Array(this.#bytes),
      uint: new Uint32Array(this.#bytes),
    };
  }

  /** Attributes (ATTRn), captured varyings and the output buffer layout (as on WebGL2). */
  get plan(): Plan {
    this.check();
    return this.#translation.plan;
  }
  /** The WGSL this program translates to with the default roles (every input in one {input}, one {output} per captured buffer). */
  get wgsl(): string {
    this.check();
    return this.#translation.source;
  }
  /** Uniform buffer layout: per uniform its offset, array and column strides (WGSL rules). */
  get uniformLayout(): UniformLayout {
    return { bytes: this.#translation.uniformBytes, uniforms: this.#translation.uniforms.map((u) => ({ ...u })) };
  }

  /** @internal */
  protected override nameForMessages(): string {
    return this.label;
  }

  /** Sets a uniform in the program's uniform image (written to the GPU by the next step): a number,
   *  an array of numbers or a typed array, converted to the uniform's declared type; matrices
   *  column-major, arrays element after element (as on WebGL2). The same value checks as on WebGL2.
   *  @throws XfbError XFB_UNKNOWN_UNIFORM, XFB_UNIFORM_TYPE, XFB_INVALID_ARGUMENT. */
  setUniform(name: string, value: UniformValue): void {
    this.check('setUniform()');
    checkUniformName(name);
    const u = this.#uniforms.get(name);
    const numberKind = numberKindOf(u?.kind);
    const values = checkUniformValues(name, value, numberKind);
    if (!u) {
      const texture = this.#translation.textures.some((t) => t.name === name);
      fail(
        'XFB_UNKNOWN_UNIFORM',
        texture
          ? `'${name}' is a sampler: on WebGPU give its texture with pipeline.setTexture('${name}', texture)`
          : `program '${this.label}' declares no uniform '${name}'; uniforms: ${[...this.#uniforms.keys()].sort().join(', ') || 'none'}`,
      );
    }
    const perElement = u.columns * u.rows;
    const elements = Math.max(1, u.arraySize);
    if (values.length % perElement || values.length > perElement * elements)
      // The words of WebGL2's check (engine/src/gl/program.cpp: a bool is stored as int), asserted by the misuse table.
      fail(
        'XFB_UNIFORM_TYPE',
        `uniform '${name}' is ${numberKind}x${perElement}${u.arraySize > 1 ? `[${u.arraySize}]` : ''} but the value has ${values.length} numbers`,
      );
    const view = this.#views[numberKind];
    for (let i = 0; i < values.length; i++) {
      const e = Math.floor(i / perElement),
        c = Math.floor((i % perElement) / u.rows),
        r = i % u.rows;
      view[(u.offset + e * u.arrayStride + c * u.columnStride + r * 4) / 4] = values[i] as number;
    }
    this.#version++;
  }

  /** The geometry shader (createProgram({ geometry })), or undefined for a vertex program. */
  get geometry(): string | undefined {
    this.check();
    return this.#geometry;
  }

  /** @internal */
  get source(): string {
    return this.#source;
  }
  /** @internal */
  get options(): CheckedProgramOptions {
    return this.#options;
  }
  /** @internal The uniform image. */
  get uniformBytes(): ArrayBuffer {
    return this.#bytes;
  }
  /** @internal Grows with every setUniform(): a pipeline writes its uniform buffer when it moved. */
  get version(): number {
    return this.#version;
  }

  protected release(): void {}
}
