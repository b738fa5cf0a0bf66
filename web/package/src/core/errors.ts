import type { ErrorCode } from '#engine-tables';
import { XfbError } from './xfb_error.js';

export { XfbError };

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
