/** @module The interface every rate-limit counter store implements. */
import type { RedisMode } from './stores/choice.ts';

export interface CounterStore {
  readonly kind: 'memory' | 'redis' | 'durable-object' | 'dynamodb' | 'deno-kv';
  /** How the Redis store reaches Redis (health reports it); only on the Redis store. */
  readonly redisMode?: RedisMode;
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
