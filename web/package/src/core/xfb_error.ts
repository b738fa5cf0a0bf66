import type { ErrorCode } from '#engine-tables';

/**
 * Every failure of xfb: a stable {@link XfbError.code} from the engine's table
 * (engine/include/xfb/enum_tables.hpp) and a message that names the offending thing and the fix.
 * The WebAssembly modules answer their failures with this class too. One class for both engines:
 * webgpu.js imports it from index.js (web/package/scripts/bundle.mjs), so `instanceof` holds.
 */
export class XfbError extends Error {
  /** The stable code, e.g. `'XFB_SEPARATE_COMPONENTS'`. */
  readonly code: ErrorCode;
  /** The message without the code prefix. */
  readonly detail: string;
  override readonly name = 'XfbError';

  constructor(code: ErrorCode, message: string) {
    super(`${code}: ${message}`);
    this.code = code;
    this.detail = message;
  }
}
