import type { ErrorCode } from '#engine-tables';

/**
 * Every failure of xfb: a stable {@link XfbError.code} from the engine's table
 * (engine/include/xfb/enum_tables.hpp) and a message that names the offending thing and the fix.
 * The WebAssembly modules answer their failures with this class too.
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

/** Throws an {@link XfbError}. */
export function fail(code: ErrorCode, message: string): never {
  throw new XfbError(code, message);
}

/** Throws XFB_INVALID_ARGUMENT, the code of every refused argument. */
export function invalid(message: string): never {
  throw new XfbError('XFB_INVALID_ARGUMENT', message);
}

/** The engine's answer to a call that may fail: its value, or the XfbError it returned, thrown. */
export function unwrap<T>(result: T | XfbError): T {
  if (result instanceof XfbError) throw result;
  return result;
}
