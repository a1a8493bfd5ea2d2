/**
 * @module Redis counters shared by every instance: one atomic script call (one round trip) per
 * request, bounded by a short timeout, reconnecting by itself after an outage.
 */
import { createClient, defineScript } from 'redis';
import type { CounterStore } from './store.ts';

// INCR and PEXPIRE run atomically inside the script, so N instances admit exactly the quota.
const incrementWindow = defineScript({
  NUMBER_OF_KEYS: 1,
  SCRIPT: "local n = redis.call('INCR', KEYS[1]) if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end return n",
  parseCommand(parser, key: string, ttlMs: number) {
    parser.pushKey(key);
    parser.push(String(ttlMs));
  },
  transformReply: (reply: unknown) => reply as number,
});

export interface RedisStoreOptions {
  /** The longest a request waits for Redis before the failure policy applies. */
  commandTimeoutMs?: number;
  keyPrefix?: string;
}

export function createRedisStore(url: string, { commandTimeoutMs = 250, keyPrefix = 'ratelimit:default' }: RedisStoreOptions = {}): CounterStore {
  const client = createClient({
    url,
    // Fail fast while disconnected instead of queueing requests behind an outage.
    disableOfflineQueue: true,
    socket: { connectTimeout: 1000, reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, 2000) },
    scripts: { incrementWindow },
    commandOptions: { timeout: commandTimeoutMs },
  });
  // Errors surface through rejected commands; the listener keeps the client from throwing them.
  client.on('error', () => {});
  // An unreachable store at start-up must not stop start-up: the client keeps reconnecting.
  const connecting = client.connect().catch(() => {});

  return {
    kind: 'redis',
    increment(key, windowStart, windowMs) {
      if (!client.isReady) return Promise.reject(new Error(`Redis at ${redactedHost(url)} is not connected`));
      // The key expires a little after its window so late requests of the window still find it.
      return client.incrementWindow(`${keyPrefix}:${windowStart}:${key}`, windowMs + 1000);
    },
    async current(key, windowStart) {
      if (!client.isReady) throw new Error(`Redis at ${redactedHost(url)} is not connected`);
      return Number((await client.get(`${keyPrefix}:${windowStart}:${key}`)) ?? 0);
    },
    async close() {
      await connecting;
      client.destroy();
    },
  };
}

function redactedHost(url: string): string {
  return new URL(url).host;
}
