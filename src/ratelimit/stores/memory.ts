/**
 * @module In-memory counters: exact within one process, O(1) per request, one window held at a time
 * per window length (a policy per network may count over a window of its own).
 */
import type { CounterStore } from '../store.ts';

interface Window {
  start: number;
  counts: Map<string, number>;
}

export class MemoryStore implements CounterStore {
  readonly kind = 'memory';
  #windows = new Map<number, Window>();

  increment(key: string, windowStart: number, windowMs = 0): number {
    let window = this.#windows.get(windowMs);
    // Every key of a window length shares its epoch-aligned window, so a new window drops the whole
    // previous map: memory stays bounded by the clients of one window, with no timer per key.
    if (!window || windowStart > window.start) this.#windows.set(windowMs, (window = { start: windowStart, counts: new Map() }));
    const count = (window.counts.get(key) ?? 0) + 1;
    window.counts.set(key, count);
    return count;
  }

  current(key: string, windowStart: number, windowMs = 0): number {
    const window = this.#windows.get(windowMs);
    return windowStart === window?.start ? (window.counts.get(key) ?? 0) : 0;
  }

  /** Number of clients counted in the current windows. */
  get size(): number {
    let size = 0;
    for (const window of this.#windows.values()) size += window.counts.size;
    return size;
  }

  async close(): Promise<void> {}
}
