/**
 * @module Redis counters shared by every instance: one atomic script call (one round trip) per
 * request, bounded by a short timeout, reconnecting by itself after an outage.
 */
import { createClient, defineScript, ErrorReply } from 'redis';
import type { CounterStore } from './store.ts';

// INCR and PEXPIRE run atomically inside the script, so N instances admit exactly the quota.
// After a Redis restart the script cache is empty: node-redis retries EVALSHA as EVAL on NOSCRIPT.
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
  /**
   * Most commands queued or waiting for an answer at once; a full queue fails fast like any other
   * store failure. A backstop: while Redis hangs, requests are not sent to it at all (see below).
   */
  maxPendingCommands?: number;
}

/** A store failure, worded for the health endpoint: it never carries the Redis host, port or password. */
export class RedisStoreError extends Error {
  override name = 'RedisStoreError';
}

export function createRedisStore(
  url: string,
  { commandTimeoutMs = 250, keyPrefix = 'ratelimit:default', maxPendingCommands = 10_000 }: RedisStoreOptions = {},
): CounterStore {
  const client = createClient({
    url,
    // Fail fast while disconnected instead of queueing requests behind an outage.
    disableOfflineQueue: true,
    commandsQueueMaxLength: maxPendingCommands,
    socket: { connectTimeout: 1000, reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, 2000) },
    scripts: { incrementWindow },
    // node-redis applies this only while a command waits to be written, not once it is sent:
    // `bounded` below is what bounds the wait for an answer.
    commandOptions: { timeout: commandTimeoutMs },
  });
  // Errors surface through rejected commands; the listener keeps the client from throwing them.
  client.on('error', () => {});
  // An unreachable store at start-up must not stop start-up: the client keeps reconnecting, and
  // this promise stays pending until the first connection succeeds (or the client is destroyed).
  const connecting = client.connect().catch(() => {});

  // A hung Redis (process stopped, connection still open) answers nothing and the socket does not
  // drop. After one command times out, requests stop going to Redis and fail at once, so they
  // neither wait nor pile up, nor count late when Redis resumes; a single PING probes until it answers.
  const timedOut = () => new RedisStoreError(`Redis did not answer within ${commandTimeoutMs} ms`);
  let stalled = false;
  let probing = false;
  client.on('ready', () => (stalled = false));
  function probe(): void {
    if (probing) return;
    probing = true;
    client
      .ping()
      .then(() => (stalled = false), () => {})
      .finally(() => (probing = false));
  }

  /** Runs one command if connected, and gives up on it after `commandTimeoutMs`. */
  function bounded<T>(command: () => Promise<T>): Promise<T> {
    if (!client.isReady) return Promise.reject(new RedisStoreError('Redis is not connected'));
    if (stalled) {
      probe();
      return Promise.reject(timedOut());
    }
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        stalled = true;
        reject(timedOut());
      }, commandTimeoutMs);
      command().then(
        (value) => {
          clearTimeout(timer);
          stalled = false;
          resolve(value);
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(storeError(error));
        },
      );
    });
  }

  return {
    kind: 'redis',
    increment(key, windowStart, windowMs) {
      // The key expires a little after its window so late requests of the window still find it.
      return bounded(() => client.incrementWindow(`${keyPrefix}:${windowStart}:${key}`, windowMs + 1000));
    },
    current(key, windowStart) {
      return bounded(async () => Number((await client.get(`${keyPrefix}:${windowStart}:${key}`)) ?? 0));
    },
    async close() {
      // Destroy first: `connecting` never settles while Redis is unreachable, so awaiting it first
      // would hang the shutdown. Destroying again after it settles closes a socket that finished
      // connecting during the first destroy.
      client.destroy();
      await connecting;
      client.destroy();
    },
  };
}

/** Keeps the kind of failure and drops anything that could name the server (addresses, URLs). */
function storeError(error: unknown): RedisStoreError {
  if (error instanceof RedisStoreError) return error;
  if (error instanceof ErrorReply) {
    // An error reply starts with its code (OOM, READONLY, LOADING, NOPERM...).
    const code = /^[A-Z][A-Z_-]*/.exec(error.message)?.[0] ?? 'ERR';
    return new RedisStoreError(`Redis refused the command (${code})`);
  }
  const name = error instanceof Error ? error.name : '';
  if (name === 'TimeoutError') return new RedisStoreError('Redis did not answer in time');
  if (error instanceof Error && error.message === 'The queue is full') {
    return new RedisStoreError('too many Redis commands waiting for an answer');
  }
  return new RedisStoreError('Redis connection failed');
}
