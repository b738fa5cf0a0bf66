// The engines' events, with the same names and checks on both.
import { typeName } from './checks.js';
import { invalid } from './errors.js';
import type { RestoredFrom } from './restore_shadow.js';

/** What each event hands its listeners. */
export interface EventDetails<Buffer> {
  contextlost: { reason?: string; message?: string };
  contextrestored: { buffers: { buffer: Buffer; label: string; restoredFrom: RestoredFrom }[] };
}

/** The events of both engines (on WebGPU 'contextrestored' fires at the end of restore(device)). */
export type EventName = 'contextlost' | 'contextrestored';
const EVENT_NAMES: readonly EventName[] = ['contextlost', 'contextrestored'];

function checkListener(type: unknown, listener: unknown, what: string): asserts type is EventName {
  if (!(EVENT_NAMES as readonly unknown[]).includes(type))
    invalid(`${what}: the event must be 'contextlost' or 'contextrestored', got '${String(type)}'`);
  if (typeof listener !== 'function') invalid(`${what}: the listener must be a function, got ${typeName(listener)}`);
}

/** Listeners by event name. */
export class Listeners<Buffer> {
  readonly #byEvent = new Map<EventName, Set<(detail: never) => void>>();

  add(type: unknown, listener: unknown): void {
    checkListener(type, listener, 'on()');
    let set = this.#byEvent.get(type);
    if (!set) this.#byEvent.set(type, (set = new Set()));
    set.add(listener as (detail: never) => void);
  }

  remove(type: unknown, listener: unknown): void {
    checkListener(type, listener, 'off()');
    this.#byEvent.get(type)?.delete(listener as (detail: never) => void);
  }

  emit<E extends EventName>(type: E, detail: EventDetails<Buffer>[E]): void {
    for (const listener of this.#byEvent.get(type) ?? []) (listener as (d: EventDetails<Buffer>[E]) => void)(detail);
  }
}
