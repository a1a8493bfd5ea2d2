/**
 * @module Counting under a quota: each request in a fixed, epoch-aligned window of its policy (the
 * `default` one, or one a network has of its own), with the state the headers advertise (see
 * fields.ts). When the shared store fails, the failure policy decides: fail open keeps counting in
 * memory per instance; fail closed marks the request unavailable. Losing and regaining the store is
 * logged once each, not once per request.
 */
import type { Logger } from '../util/log.ts';
import { MemoryStore } from './stores/memory.ts';
import type { CounterStore } from './store.ts';

/** A policy's name and what it allows. */
export interface Quota {
  name: string;
  quota: number;
  windowMs: number;
}

export interface RateLimitState {
  /** The policy counted under. */
  policy: string;
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
  /** The `default` policy: every client's but those a network policy claims. */
  readonly #default: Quota;
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
    this.#default = { name: 'default', quota, windowMs: windowSeconds * 1000 };
    this.#failClosed = fail === 'closed';
    this.#store = store;
    this.#log = logger;
  }

  get #policy() {
    return this.#failClosed ? 'closed' : 'open';
  }

  /**
   * Counts this request of `key` under `quota` (the default policy's unless given) and returns the
   * state after it, at once with a store that answers at once.
   */
  hit(key: string, now = Date.now(), quota = this.#default): RateLimitState | Promise<RateLimitState> {
    return this.#count(key, now, true, quota);
  }

  /** The state without counting anything (CORS preflights and health are not counted). */
  peek(key: string, now = Date.now(), quota = this.#default): RateLimitState | Promise<RateLimitState> {
    return this.#count(key, now, false, quota);
  }

  #count(client: string, now: number, counts: boolean, quota: Quota): RateLimitState | Promise<RateLimitState> {
    const { windowMs } = quota;
    const windowStart = now - (now % windowMs);
    // Each policy counts apart, so a client's key names its policy.
    const key = `${quota.name}:${client}`;
    const generation = this.#generation;
    let pending: number | Promise<number>;
    try {
      pending = counts ? this.#store.increment(key, windowStart, windowMs) : this.#store.current(key, windowStart, windowMs);
    } catch (error) {
      return this.#failed(error as Error, key, windowStart, now, counts, generation, quota);
    }
    // The memory store answers at once: no promise, no extra turn of the event loop per request.
    if (typeof pending === 'number') return this.#counted(pending, windowStart, now, generation, quota);
    return pending.then(
      (count) => this.#counted(count, windowStart, now, generation, quota),
      (error: Error) => this.#failed(error, key, windowStart, now, counts, generation, quota),
    );
  }

  #counted(count: number, windowStart: number, now: number, generation: number, quota: Quota): RateLimitState {
    if (this.#failure !== undefined && generation === this.#generation) this.#regained();
    return this.#state(count, windowStart, now, false, quota);
  }

  /** The store failed: count in memory, and fail closed if the policy says so. */
  #failed(error: Error, key: string, windowStart: number, now: number, counts: boolean, generation: number, quota: Quota): RateLimitState {
    if (this.#failure !== undefined || generation === this.#generation) this.#lost(error);
    const { windowMs } = quota;
    const count = counts ? this.#fallback.increment(key, windowStart, windowMs) : this.#fallback.current(key, windowStart, windowMs);
    return this.#state(count, windowStart, now, this.#failClosed, quota);
  }

  #state(count: number, windowStart: number, now: number, unavailable: boolean, { name, quota, windowMs }: Quota): RateLimitState {
    const resetAt = windowStart + windowMs;
    return {
      policy: name,
      quota,
      remaining: Math.max(0, quota - count),
      resetSeconds: Math.ceil((resetAt - now) / 1000),
      resetEpoch: Math.ceil(resetAt / 1000),
      exceeded: count > quota,
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
