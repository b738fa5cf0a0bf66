import { fail } from '../core/errors.js';
import type { CheckedProgramOptions } from '../core/program_options.js';
import type { ObjectRegistry } from '../core/registry.js';
import type { Plan, UniformLayout, UniformValue } from '../core/types.js';
import { checkUniformName, checkUniformValues, numberKindOf } from '../core/uniform_values.js';
import type { XfbWebGpu } from './engine.js';
import { WebGpuObject } from './object.js';
import type { GeometryTranslation, Translation } from './wasm_module.js';

type UniformEntry = Translation['uniforms'][number];

/** A uniform buffer's byte image: the layout the translation gave it and the values set. */
interface UniformBlock {
  readonly uniforms: Map<string, UniformEntry>;
  readonly bytes: ArrayBuffer;
  readonly views: Readonly<Record<'float' | 'int' | 'uint', Float32Array | Int32Array | Uint32Array>>;
}

function uniformBlock(uniforms: UniformEntry[], byteLength: number): UniformBlock {
  const bytes = new ArrayBuffer(byteLength);
  return {
    uniforms: new Map(uniforms.map((u) => [u.name, u])),
    bytes,
    views: { float: new Float32Array(bytes), int: new Int32Array(bytes), uint: new Uint32Array(bytes) },
  };
}

/** A simulation translated to WGSL, with its uniform values in a byte image of the uniform buffer
 *  (a geometry program: a second image, of its geometry kernels' buffer, for the geometry shader's uniforms). */
export class XfbWebGpuProgram extends WebGpuObject {
  /** A name for messages and labels. */
  readonly label: string;
  readonly #source: string;
  readonly #options: CheckedProgramOptions;
  readonly #translation: Translation;
  readonly #geometry: string | undefined;
  readonly #blocks: UniformBlock[];
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
    // The vertex shader's uniforms, then a geometry shader's (its kernels' buffer): a name both
    // declare (one type, or the translation refused the program as GL's link) is one value, in both.
    this.#blocks = [uniformBlock(translation.uniforms, translation.uniformBytes)];
    if ('geometry' in translation) {
      const g = (translation as GeometryTranslation).geometry;
      this.#blocks.push(uniformBlock(g.uniforms, g.uniformBytes));
    }
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
    const blocks = this.#blocks.filter((b) => b.uniforms.has(name));
    const u = blocks[0]?.uniforms.get(name);
    const numberKind = numberKindOf(u?.kind);
    const values = checkUniformValues(name, value, numberKind);
    if (!u) {
      const texture = this.#translation.textures.some((t) => t.name === name);
      fail(
        'XFB_UNKNOWN_UNIFORM',
        texture
          ? `'${name}' is a sampler: on WebGPU give its texture with pipeline.setTexture('${name}', texture)`
          : `program '${this.label}' declares no uniform '${name}'; uniforms: ${[...new Set(this.#blocks.flatMap((b) => [...b.uniforms.keys()]))].sort().join(', ') || 'none'}`,
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
    for (const block of blocks) {
      const at = block.uniforms.get(name) as UniformEntry;
      const view = block.views[numberKind];
      for (let i = 0; i < values.length; i++) {
        const e = Math.floor(i / perElement),
          c = Math.floor((i % perElement) / u.rows),
          r = i % u.rows;
        view[(at.offset + e * at.arrayStride + c * at.columnStride + r * 4) / 4] = values[i] as number;
      }
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
  /** @internal The uniform image (of the vertex shader's uniforms). */
  get uniformBytes(): ArrayBuffer {
    return (this.#blocks[0] as UniformBlock).bytes;
  }
  /** @internal A geometry program's: the image of its geometry kernels' uniform buffer (the
   *  geometry shader's uniforms from byte 32; the capture writes its counts before them). */
  get geometryUniformBytes(): ArrayBuffer {
    return this.#blocks[1]?.bytes ?? new ArrayBuffer(0);
  }
  /** @internal Grows with every setUniform(): a pipeline writes its uniform buffer when it moved. */
  get version(): number {
    return this.#version;
  }

  protected release(): void {}
}
