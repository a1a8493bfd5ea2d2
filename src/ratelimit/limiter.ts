/**
 * @module The `default` rate-limit policy: counts each request in a fixed, epoch-aligned window and
 * reports the state the headers advertise (see fields.ts). When the shared store fails, the failure policy decides:
 * fail open keeps counting in memory per instance; fail closed marks the request unavailable.
 * Losing and regaining the store is logged once each, not once per request.
 */
import type { Logger } from '../log.ts';
import { MemoryStore } from './memory.ts';
import type { CounterStore } from './store.ts';

export interface RateLimitState {
  quota: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
  /** When the window resets, Unix epoch seconds. */
  resetEpoch: number;
  exceeded: boolean;
  /** Fail closed and the store is down: answer 503. */
  unavailable: boolean;
}

export interface LimiterOptions {
  quota: number;
  windowSeconds: number;
  fail: 'open' | 'closed';
  store: CounterStore;
  logger?: Logger;
}

export interface StoreHealth {
  store: CounterStore['kind'];
  failure?: string;
}

export class Limiter {
  readonly #quota: number;
  readonly #windowMs: number;
  readonly #failClosed: boolean;
  readonly #store: CounterStore;
  readonly #fallback = new MemoryStore();
  readonly #log: Logger;
  #failure: string | undefined;
  /**
   * Bumped on each loss and recovery. An answer to a command sent before the last change says
   * nothing about the store now (a late reply, a timeout racing a reconnect), so it changes nothing.
   */
  #generation = 0;

  constructor({ quota, windowSeconds, fail, store, logger = () => {} }: LimiterOptions) {
    this.#quota = quota;
    this.#windowMs = windowSeconds * 1000;
    this.#failClosed = fail === 'closed';
    this.#store = store;
    this.#log = logger;
  }

  get #policy() {
    return this.#failClosed ? 'closed' : 'open';
  }

  /** Counts this request and returns the state after it (at once with a store that answers at once). */
  hit(key: string, now = Date.now()): RateLimitState | Promise<RateLimitState> {
    return this.#count(key, now, true);
  }

  /** The state without counting anything (CORS preflights and health are not counted). */
  peek(key: string, now = Date.now()): RateLimitState | Promise<RateLimitState> {
    return this.#count(key, now, false);
  }

  #count(key: string, now: number, counts: boolean): RateLimitState | Promise<RateLimitState> {
    const windowStart = now - (now % this.#windowMs);
    const generation = this.#generation;
    let pending: number | Promise<number>;
    try {
      pending = counts ? this.#store.increment(key, windowStart, this.#windowMs) : this.#store.current(key, windowStart);
    } catch (error) {
      return this.#failed(error as Error, key, windowStart, now, counts, generation);
    }
    // The memory store answers at once: no promise, no extra turn of the event loop per request.
    if (typeof pending === 'number') return this.#counted(pending, windowStart, now, generation);
    return pending.then(
      (count) => this.#counted(count, windowStart, now, generation),
      (error: Error) => this.#failed(error, key, windowStart, now, counts, generation),
    );
  }

  #counted(count: number, windowStart: number, now: number, generation: number): RateLimitState {
    if (this.#failure !== undefined && generation === this.#generation) this.#regained();
    return this.#state(count, windowStart, now, false);
  }

  /** The store failed: count in memory, and fail closed if the policy says so. */
  #failed(error: Error, key: string, windowStart: number, now: number, counts: boolean, generation: number): RateLimitState {
    if (this.#failure !== undefined || generation === this.#generation) this.#lost(error);
    const count = counts ? this.#fallback.increment(key, windowStart) : this.#fallback.current(key, windowStart);
    return this.#state(count, windowStart, now, this.#failClosed);
  }

  #state(count: number, windowStart: number, now: number, unavailable: boolean): RateLimitState {
    const resetAt = windowStart + this.#windowMs;
    return {
      quota: this.#quota,
      remaining: Math.max(0, this.#quota - count),
      resetSeconds: Math.ceil((resetAt - now) / 1000),
      resetEpoch: Math.ceil(resetAt / 1000),
      exceeded: count > this.#quota,
      unavailable,
    };
  }

  #lost(error: Error): void {
    const wasUp = this.#failure === undefined;
    this.#failure = `rate-limit store unreachable (${error.message}); ${this.#failClosed ? 'failing closed' : 'counting in memory per instance'}`;
    if (!wasUp) return;
    this.#generation++;
    this.#log({ level: 'warn', event: 'rate_limit_store_lost', store: this.#store.kind, failPolicy: this.#policy, reason: this.#failure });
  }

  #regained(): void {
    this.#failure = undefined;
    this.#generation++;
    this.#log({ level: 'info', event: 'rate_limit_store_regained', store: this.#store.kind, failPolicy: this.#policy });
  }

  health(): StoreHealth {
    return { store: this.#store.kind, failure: this.#failure };
  }

  close(): Promise<void> {
    return this.#store.close();
  }
}
