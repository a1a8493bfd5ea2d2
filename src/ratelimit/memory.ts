/** @module In-memory counters: exact within one process, O(1) per request, one window held at a time. */
import type { CounterStore } from './store.ts';

export class MemoryStore implements CounterStore {
  readonly kind = 'memory';
  #windowStart = -Infinity;
  #counts = new Map<string, number>();

  increment(key: string, windowStart: number): number {
    // Every key shares the epoch-aligned window, so a new window drops the whole previous map:
    // memory stays bounded by the clients of one window, with no timer per key.
    if (windowStart > this.#windowStart) {
      this.#windowStart = windowStart;
      this.#counts = new Map();
    }
    const count = (this.#counts.get(key) ?? 0) + 1;
    this.#counts.set(key, count);
    return count;
  }

  current(key: string, windowStart: number): number {
    return windowStart === this.#windowStart ? (this.#counts.get(key) ?? 0) : 0;
  }

  /** Number of clients counted in the current window. */
  get size(): number {
    return this.#counts.size;
  }

  async close(): Promise<void> {}
}
