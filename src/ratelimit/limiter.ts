/**
 * @module Counting under a quota: each request in a fixed, epoch-aligned window of its policy (the
 * `default` one, or one a network has of its own), with the state the headers advertise (see
 * fields.ts). When the shared store fails, the failure policy decides: fail open keeps counting in
 * memory per instance, up to the instance's share of the quota; fail closed marks the request
 * unavailable. The outage itself (said once, skipped at once, probed back) is outage.ts's.
 */
import type { Logger } from '../util/log.ts';
import { MemoryStore } from './stores/memory.ts';
import type { CounterStore } from './store.ts';
import { Outage } from './outage.ts';

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
  /**
   * Failing open, the fraction of each quota one instance admits while the store is down, counted in
   * its own memory (RATE_LIMIT_FAIL_OPEN_SHARE): N instances admit at most N x share x quota between them.
   */
  failOpenShare?: number;
  store: CounterStore;
  logger?: Logger;
  /** How often a store that is down is probed (one write). */
  probeEveryMs?: number;
}

/** The rule for the failure policy, checked on every way in (RATE_LIMIT_FAIL, `rateLimit.fail`). */
export const FAIL_RULE = 'must be "open" or "closed"';
export const isFail = (value: unknown): value is 'open' | 'closed' => value === 'open' || value === 'closed';

/** The rule for a fail-open share, checked on every way in (RATE_LIMIT_FAIL_OPEN_SHARE, `rateLimit.failOpenShare`). */
export const FAIL_OPEN_SHARE_RULE =
  'must be a fraction above 0 and at most 1, such as 0.5 (with 2 instances, each admits half the quota while the store is down)';
export const isFailOpenShare = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 && value <= 1;

/** The key the probe writes, apart from every client's (theirs are `<policy>:<address|network|unknown>`). */
const PROBE_KEY = 'limiter:probe';
const PROBE_WINDOW_MS = 60_000;

export class Limiter {
  /** The `default` policy: every client's but those a network policy claims. */
  readonly #default: Quota;
  readonly #failClosed: boolean;
  readonly #share: number;
  readonly #store: CounterStore;
  readonly #fallback = new MemoryStore();
  readonly #outage: Outage;

  constructor({ quota, windowSeconds, fail, failOpenShare = 1, store, logger = () => {}, probeEveryMs }: LimiterOptions) {
    this.#default = { name: 'default', quota, windowMs: windowSeconds * 1000 };
    this.#failClosed = fail === 'closed';
    this.#share = failOpenShare;
    this.#store = store;
    const failPolicy = this.#failClosed ? 'closed' : 'open';
    this.#outage = new Outage({
      probeEveryMs,
      probe: () => {
        const now = Date.now();
        return store.increment(PROBE_KEY, now - (now % PROBE_WINDOW_MS), PROBE_WINDOW_MS);
      },
      changed: (reason) =>
        reason === undefined
          ? logger({ level: 'info', event: 'rate_limit_store_regained', store: store.kind, failPolicy })
          : logger({ level: 'warn', event: 'rate_limit_store_lost', store: store.kind, failPolicy, reason }),
    });
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
    const outage = this.#outage;
    // A store known down is not asked (and not waited for) until a probe finds it back.
    if (outage.skips(now)) return this.#inMemory(key, windowStart, now, counts, quota);
    const generation = outage.generation;
    let pending: number | Promise<number>;
    try {
      pending = counts ? this.#store.increment(key, windowStart, windowMs) : this.#store.current(key, windowStart, windowMs);
    } catch (error) {
      return this.#failed(error as Error, key, windowStart, now, counts, generation, quota);
    }
    // The memory store answers at once: no promise, no extra turn of the event loop per request.
    if (typeof pending === 'number') return this.#state(pending, windowStart, now, false, quota);
    return outage.waitFor(
      pending,
      (count) => this.#state(count, windowStart, now, false, quota),
      (error) => this.#failed(error, key, windowStart, now, counts, generation, quota),
      () => this.#inMemory(key, windowStart, now, counts, quota),
    );
  }

  /** The store failed: the outage begins (unless the call was stale), and this request is answered without it. */
  #failed(error: Error, key: string, windowStart: number, now: number, counts: boolean, generation: number, quota: Quota): RateLimitState {
    const policy = this.#failClosed ? 'failing closed' : 'counting in memory per instance';
    this.#outage.failed(`rate-limit store unreachable (${error.message}); ${policy}`, generation);
    return this.#inMemory(key, windowStart, now, counts, quota);
  }

  /** Without the store: counted in this instance's memory, against its share of the quota; or unavailable, failing closed. */
  #inMemory(key: string, windowStart: number, now: number, counts: boolean, quota: Quota): RateLimitState {
    const { windowMs } = quota;
    const count = counts ? this.#fallback.increment(key, windowStart, windowMs) : this.#fallback.current(key, windowStart, windowMs);
    const share = { ...quota, quota: Math.max(1, Math.floor(quota.quota * this.#share)) };
    return this.#state(count, windowStart, now, this.#failClosed, share);
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

  /** Why the store fails now (the limiter then fails open or closed), or undefined while it answers. */
  failure(): string | undefined {
    return this.#outage.reason;
  }

  close(): Promise<void> {
    this.#outage.close();
    return this.#store.close();
  }
}
