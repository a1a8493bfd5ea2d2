/** @module The interface every rate-limit counter store implements. */
import { within } from '../util/deadline.ts';
import type { RedisReach } from './stores/choice.ts';

/** A store failure, worded for the health endpoint: the kind of failure, never a host, port, password or table's address. */
export class StoreError extends Error {
  override name = 'StoreError';
}

/** `call()` within `timeoutMs`, any failure (a throw included) worded as a StoreError naming the store (`Deno KV`, `the Durable Object`). */
export function boundedCall<T>(store: string, timeoutMs: number, call: () => Promise<T>): Promise<T> {
  let answer: Promise<T>;
  try {
    answer = call();
  } catch (error) {
    answer = Promise.reject(error);
  }
  return within(timeoutMs, answer, () => new StoreError(`${store} did not answer within ${timeoutMs} ms`)).catch((error: unknown) => {
    if (error instanceof StoreError) throw error;
    throw new StoreError(`${store.replace(/^(?!the )/, 'the ')} call failed (${error instanceof Error ? error.name : 'unknown error'})`);
  });
}

/** What a shared store may be given; each store reads the fields it uses and defaults the rest. */
export interface StoreOptions {
  /** The longest one call waits for the store before it counts as failed (the limiter then skips it until a probe finds it back). */
  commandTimeoutMs?: number;
  /** What the store's keys begin with. */
  keyPrefix?: string;
  /**
   * Most commands queued or waiting for an answer at once; a full queue fails fast like any other
   * store failure. A backstop: while the store is down or hangs, requests are not sent to it at all.
   */
  maxPendingCommands?: number;
  /** The setting that named the store, as its way in calls it (`RATE_LIMIT_DENO_KV`, `rateLimit.denoKv`), for its refusals. */
  setting?: string;
}

export interface CounterStore {
  readonly kind: 'memory' | 'redis' | 'durable-object' | 'dynamodb' | 'deno-kv';
  /** How the Redis store reaches Redis (health reports it); only on the Redis stores. */
  readonly redisMode?: RedisReach;
  /**
   * Counts one request for `key` in the fixed window of `windowMs` that starts at `windowStart`
   * (epoch ms) and returns the count so far in that window. Windows are aligned to the epoch, so
   * every instance and every key agree on where a window starts. `key` names the policy and the
   * client (`default:192.0.2.7`); policies may have windows of different lengths.
   */
  increment(key: string, windowStart: number, windowMs: number): number | Promise<number>;
  /**
   * The count so far for `key` in that window, without counting anything (for CORS preflights and
   * health); `windowMs` for a store that keeps windows of different lengths apart.
   */
  current(key: string, windowStart: number, windowMs?: number): number | Promise<number>;
  close(): Promise<void>;
}
