/** @module The one counting script every Redis store runs, over TCP (@redis/client) or over HTTP (redis-rest.ts), and how a batch is put to it. */

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
