/**
 * @module The `default` rate-limit policy: counts each request in a fixed, epoch-aligned window and
 * reports the state the headers advertise. When the shared store fails, the failure policy decides:
 * fail open keeps counting in memory per instance; fail closed marks the request unavailable.
 */
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
  #failure: string | undefined;

  constructor({ quota, windowSeconds, fail, store }: LimiterOptions) {
    this.#quota = quota;
    this.#windowMs = windowSeconds * 1000;
    this.#failClosed = fail === 'closed';
    this.#store = store;
  }

  /** Counts this request and returns the state after it. */
  hit(key: string, now = Date.now()): Promise<RateLimitState> {
    return this.#count(key, now, true);
  }

  /** The state without counting anything (CORS preflights are not counted). */
  peek(key: string, now = Date.now()): Promise<RateLimitState> {
    return this.#count(key, now, false);
  }

  async #count(key: string, now: number, counts: boolean): Promise<RateLimitState> {
    const windowStart = now - (now % this.#windowMs);
    let count: number;
    let unavailable = false;
    try {
      count = await (counts ? this.#store.increment(key, windowStart, this.#windowMs) : this.#store.current(key, windowStart));
      this.#failure = undefined;
    } catch (error) {
      this.#failure = `rate-limit store unreachable (${(error as Error).message}); ${
        this.#failClosed ? 'failing closed' : 'counting in memory per instance'
      }`;
      unavailable = this.#failClosed;
      count = counts ? this.#fallback.increment(key, windowStart) : this.#fallback.current(key, windowStart);
    }
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

  health(): StoreHealth {
    return { store: this.#store.kind, failure: this.#failure };
  }

  close(): Promise<void> {
    return this.#store.close();
  }
}

/** The RateLimit fields (draft-ietf-httpapi-ratelimit-headers, -08 to -11) and their X- forms. */
export function rateLimitHeaders(policy: string, state: RateLimitState): Record<string, string> {
  return {
    'RateLimit-Policy': policy,
    RateLimit: `"default";r=${state.remaining};t=${state.resetSeconds}`,
    'X-RateLimit-Limit': String(state.quota),
    'X-RateLimit-Remaining': String(state.remaining),
    'X-RateLimit-Reset': String(state.resetEpoch),
  };
}

export function policyHeader(quota: number, windowSeconds: number): string {
  return `"default";q=${quota};w=${windowSeconds}`;
}

/** The client a request counts against. Without an address (embedded use) all such requests share one key. */
export function clientKey(request: Request, address: string | undefined, trustedHops: number): string {
  if (trustedHops > 0) {
    const forwarded = request.headers.get('x-forwarded-for');
    if (forwarded) {
      // Each trusted proxy appends the address it saw; entries left of those it vouches for may be forged.
      const hops = forwarded.split(',').map((hop) => hop.trim()).filter(Boolean);
      const client = hops[Math.max(0, hops.length - trustedHops)];
      if (client) return normalise(client);
    }
  }
  return address ? normalise(address) : 'unknown';
}

function normalise(address: string): string {
  return address.startsWith('::ffff:') ? address.slice(7) : address;
}
