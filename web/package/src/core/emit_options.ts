// createPipeline()'s emitted outputs (WebGPU: compute passes; WebGL2: the fragment backend's pyramid).
import { checkName } from './checks.js';
import { invalid } from './errors.js';
import type { EmitDesc } from './types.js';

function isEmitDesc(e: unknown): e is EmitDesc {
  return !!e && typeof (e as EmitDesc).varying === 'string' && typeof (e as EmitDesc).count === 'string';
}

/** emits: [{ varying, count }] output names; overflow: 'error' (default) or 'clamp'. */
export function checkEmitOptions(
  emits: unknown,
  overflow: unknown,
): { emits: EmitDesc[]; overflow: 'error' | 'clamp' } {
  const list = emits === undefined ? [] : emits;
  if (!Array.isArray(list) || list.some((e: unknown) => !isEmitDesc(e)))
    invalid(
      'createPipeline(): emits must be an array of { varying, count } (output names), one {output} entry each after the captured ones',
    );
  return {
    emits: (list as EmitDesc[]).map((e) => ({ varying: e.varying, count: e.count })),
    overflow: checkName(
      overflow === undefined ? 'error' : overflow,
      ['error', 'clamp'] as const,
      'createPipeline(): overflow',
      "'error' or 'clamp'",
    ),
  };
}
