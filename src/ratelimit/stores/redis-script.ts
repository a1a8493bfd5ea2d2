/** @module The one counting script every Redis store runs, over TCP (@redis/client) or over HTTP (redis-rest.ts), how a batch is put to it, and how a store batches its increments. */
import { StoreError } from '../store.ts';

export interface Increment {
  key: string;
  ttlMs: number;
}

/** A key of one script call, named once with how many requests it counts. */
export interface Counted extends Increment {
  by: number;
}

/**
 * INCRBY and PEXPIRE run atomically inside the script, so N instances admit exactly the quota. Each
 * key is named once with how many requests it counts (ARGV[2i-1]) and its expiry (ARGV[2i], ms after
 * its first count); the reply is each key's total after them.
 */
export const INCREMENT_WINDOWS_SCRIPT =
  "local totals = {} for i, key in ipairs(KEYS) do local by = tonumber(ARGV[2 * i - 1]) local n = redis.call('INCRBY', key, by) " +
  "if n == by then redis.call('PEXPIRE', key, ARGV[2 * i]) end totals[i] = n end return totals";

/** The script's SHA-1, as EVALSHA names it (written out, so no start computes it; test/ratelimit/stores/redis-script.test.ts checks it). */
export const INCREMENT_WINDOWS_SHA1 = '89768802de3923ce5d744f62f413f3fb964f9c00';

/**
 * The increments of one script call, each key once with how many requests it counts: a batch of 32
 * requests of one client is one INCRBY of 32, not 32 INCRs, nor 32 keys and 32 counts on the wire.
 * The count of each request is then the key's total before them plus its place among them.
 */
export async function countTogether(increments: Increment[], call: (keys: Counted[]) => Promise<number[]>): Promise<number[]> {
  const byKey = new Map<string, Counted>();
  // Each request's place among those of its key in this call: 0 for the first.
  const places = increments.map(({ key, ttlMs }) => {
    const counted = byKey.get(key);
    if (counted) return counted.by++;
    byKey.set(key, { key, ttlMs, by: 1 });
    return 0;
  });
  const keys = [...byKey.values()];
  const totals = await call(keys);
  const before = new Map(keys.map((counted, i) => [counted.key, totals[i]! - counted.by]));
  return increments.map(({ key }, i) => before.get(key)! + places[i]! + 1);
}

export interface Batching {
  keyPrefix: string;
  maxPendingCommands: number;
  /** The refusal's words when `maxPendingCommands` increments are already waiting. */
  tooMany: string;
  /** The script calls a batch needs (a Cluster groups it by slot); one call by default. */
  split?: <T extends Increment>(batch: T[]) => T[][];
  /** One script call: each increment's count, in order. */
  count(group: Increment[]): Promise<number[]>;
  /**
   * When a batch that found none in flight goes out: in a microtask by default (the increments of one
   * turn of JavaScript). A store whose runtimes all have `setImmediate` passes it, so that the
   * requests read in one pass over the sockets go out as one batch, not the first one alone.
   */
  schedule?: (send: () => void) => void;
}

interface Pending extends Increment {
  resolve(count: number): void;
  reject(error: unknown): void;
}

/**
 * How every Redis store sends its increments: one batch at a time waits for Redis; what arrives
 * meanwhile waits for it (bounded by the store's deadline) and goes out together as the next batch,
 * so a busy instance pays per batch, not per request. Gives the store's `increment` and its key names.
 */
export function batchedIncrements({
  keyPrefix,
  maxPendingCommands,
  tooMany,
  split = (batch) => [batch],
  count,
  schedule = queueMicrotask,
}: Batching) {
  let waiting: Pending[] = [];
  let sending = false;
  function send(): void {
    if (sending || waiting.length === 0) return;
    const batch = waiting;
    waiting = [];
    sending = true;
    const calls = split(batch).map((group) =>
      count(group).then(
        (counts) => {
          for (const [i, pending] of group.entries()) pending.resolve(counts[i]!);
        },
        (error: unknown) => {
          for (const pending of group) pending.reject(error);
        },
      ),
    );
    void Promise.all(calls).then(() => {
      sending = false;
      send();
    });
  }

  const keyOf = (key: string, windowStart: number) => `${keyPrefix}:${windowStart}:${key}`;

  return {
    keyOf,
    increment(key: string, windowStart: number, windowMs: number): Promise<number> {
      if (waiting.length >= maxPendingCommands) return Promise.reject(new StoreError(tooMany));
      return new Promise<number>((resolve, reject) => {
        // The key expires a little after its window so late requests of the window still find it.
        waiting.push({ key: keyOf(key, windowStart), ttlMs: windowMs + 1000, resolve, reject });
        // Increments that arrive before it goes out join the first one's batch.
        if (waiting.length === 1) schedule(send);
      });
    },
  };
}
