/**
 * @module The rate limit as the handler sees it: the counter store chosen from the options, the
 * `default` policy's limiter, who a request counts against, and each request's verdict: the header
 * fields its answer carries and, over quota or failing closed, its refusal.
 */
import { withDefaults } from '../defaults.ts';
import type { HeaderRecord } from '../headers.ts';
import type { Logger } from '../log.ts';
import type { ProblemMembers } from '../problems.ts';
import { clientKey } from './client.ts';
import { policyFields, stateFields } from './fields.ts';
import { Limiter, type RateLimitState } from './limiter.ts';
import { MemoryStore } from './memory.ts';
import type { Policy } from './policies.ts';
import { redisTargetOf } from './redis-target.ts';
import type { CounterStore } from './store.ts';

export interface RateLimitOptions {
  /** Requests per window per client. */
  quota: number;
  windowSeconds: number;
  /** When the shared store is unreachable: keep answering and count in memory (`open`), or answer 503 (`closed`). */
  fail: 'open' | 'closed';
  /** IPv6 clients count per network of this many leading bits (IPv4 ones per address). */
  ipv6PrefixBits: number;
  /**
   * The Redis shared by every instance, at most one of: one server (`redisUrl`), a Redis Cluster's
   * seed nodes (`redisClusterUrls`), or the sentinels watching a master (`redisSentinel`). Without
   * any (or `store`), counters live in this process's memory.
   */
  redisUrl?: string;
  redisClusterUrls?: string[];
  redisSentinel?: { urls: string[]; masterName: string };
  /** Networks with their own quota (RATE_LIMIT_POLICIES); checked, not applied yet. */
  policies?: Policy[];
  /** A counter store of the app's own, used instead of memory or Redis. */
  store?: CounterStore;
}

export const RATE_LIMIT_DEFAULTS: RateLimitOptions = { quota: 120, windowSeconds: 60, fail: 'open', ipv6PrefixBits: 56 };

export type Refusal = { code: 'rate_limited' | 'service_unavailable'; members?: ProblemMembers };

export interface Verdict {
  /** The rate-limit fields that change per request (and Retry-After with a refusal). */
  headers: HeaderRecord;
  refusal?: Refusal;
}

export interface RateLimit {
  /** The fields every answer carries unchanged: the policy and its quota. */
  readonly policyFields: HeaderRecord;
  readonly storeKind: CounterStore['kind'];
  readonly redisMode: CounterStore['redisMode'];
  /** Who a request counts against. */
  keyOf(request: Request, clientAddress: string | undefined): string;
  /** Counts the request (or, not `counted`, only reads its client's count); answers at once with the memory store. */
  check(request: Request, clientAddress: string | undefined, counted: boolean): Verdict | Promise<Verdict>;
  /** Why the store is unreachable, while it is. */
  failure(): string | undefined;
  close(): Promise<void>;
}

/** Failing closed, the store may be back at once: a retry in a few seconds, not at the window's end. */
const FAIL_CLOSED_RETRY_SECONDS = 2;
const VIOLATED: ProblemMembers = { 'violated-policies': ['default'] };

export async function createRateLimit(given: Partial<RateLimitOptions> | undefined, trustProxyHops: number, logger: Logger): Promise<RateLimit> {
  const options = withDefaults(RATE_LIMIT_DEFAULTS, given);
  const { quota, windowSeconds, fail, ipv6PrefixBits, store: own } = options;
  const target = redisTargetOf(options);
  // The Redis client is loaded only by a service that uses it.
  const store: CounterStore = own ?? (target ? (await import('./redis.ts')).createRedisStore(target) : new MemoryStore());
  const limiter = new Limiter({ quota, windowSeconds, fail, store, logger });
  const keyOf = (request: Request, address: string | undefined) => clientKey(request, address, trustProxyHops, ipv6PrefixBits);

  function verdict(state: RateLimitState, counted: boolean): Verdict {
    const headers = stateFields(state);
    if (!counted) return { headers };
    if (state.unavailable) {
      headers['Retry-After'] = String(FAIL_CLOSED_RETRY_SECONDS);
      return { headers, refusal: { code: 'service_unavailable' } };
    }
    if (state.exceeded) {
      headers['Retry-After'] = String(state.resetSeconds);
      return { headers, refusal: { code: 'rate_limited', members: VIOLATED } };
    }
    return { headers };
  }

  return {
    policyFields: policyFields(quota, windowSeconds),
    storeKind: store.kind,
    redisMode: store.redisMode,
    keyOf,
    check(request, address, counted) {
      const key = keyOf(request, address);
      const state = counted ? limiter.hit(key) : limiter.peek(key);
      return state instanceof Promise ? state.then((settled) => verdict(settled, counted)) : verdict(state, counted);
    },
    failure: () => limiter.health().failure,
    close: () => limiter.close(),
  };
}
