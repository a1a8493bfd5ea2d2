/**
 * @module Redis counters shared by every instance: atomic script calls bounded by a short timeout,
 * reconnecting by itself after an outage. Increments wait for no timer: one goes out at once, and
 * those that arrive while it is answered go out together as one script call over all their keys
 * (one round trip, one command for Redis to parse), so a busy instance pays per batch, not per request.
 */
import { createClient, defineScript, ErrorReply } from '@redis/client';
import type { CounterStore } from './store.ts';

// INCR and PEXPIRE run atomically inside the script, so N instances admit exactly the quota; a key
// named twice in one batch is counted twice, in order. KEYS[i] expires ARGV[i] ms after its first count.
// After a Redis restart the script cache is empty: node-redis retries EVALSHA as EVAL on NOSCRIPT.
const incrementWindows = defineScript({
  SCRIPT:
    "local counts = {} for i, key in ipairs(KEYS) do local n = redis.call('INCR', key) " +
    "if n == 1 then redis.call('PEXPIRE', key, ARGV[i]) end counts[i] = n end return counts",
  parseCommand(parser, increments: Increment[]) {
    parser.push(String(increments.length));
    for (const { key } of increments) parser.pushKey(key);
    for (const { ttlMs } of increments) parser.push(String(ttlMs));
  },
  transformReply: (reply: unknown) => reply as number[],
});

interface Increment {
  key: string;
  ttlMs: number;
  resolve(count: number): void;
  reject(error: unknown): void;
}

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
    scripts: { incrementWindows },
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

  // At most one batch waits for Redis; what arrives meanwhile waits for it (bounded by its
  // timeout, after which `stalled` fails the next batch at once) and goes out as the next batch.
  let waiting: Increment[] = [];
  let sending = false;
  function send(): void {
    if (sending || waiting.length === 0) return;
    const batch = waiting;
    waiting = [];
    sending = true;
    const settled = () => {
      sending = false;
      send();
    };
    bounded(() => client.incrementWindows(batch)).then(
      (counts) => {
        batch.forEach((increment, i) => increment.resolve(counts[i]!));
        settled();
      },
      (error: unknown) => {
        for (const increment of batch) increment.reject(error);
        settled();
      },
    );
  }

  return {
    kind: 'redis',
    increment(key, windowStart, windowMs) {
      if (waiting.length >= maxPendingCommands) return Promise.reject(new RedisStoreError('too many Redis commands waiting for an answer'));
      return new Promise<number>((resolve, reject) => {
        // The key expires a little after its window so late requests of the window still find it.
        waiting.push({ key: `${keyPrefix}:${windowStart}:${key}`, ttlMs: windowMs + 1000, resolve, reject });
        // Increments of the same tick join the first one's batch.
        if (waiting.length === 1) queueMicrotask(send);
      });
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
