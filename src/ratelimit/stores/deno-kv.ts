/**
 * @module Counters in Deno KV, on Deno only: the platform's own database on Deno Deploy
 * (`RATE_LIMIT_DENO_KV=on`), or a file that processes on one machine share. Each window is a key of
 * its own (`["ratelimit", <window start>, <key>]`) written with `expireIn`, so KV drops it after
 * its window.
 *
 * Exact under concurrency: a count is written with `kv.atomic()` checked against the versionstamp
 * it was read at, and read and written again when another writer came first. So that one process
 * does not race itself, one write per key is out at a time, and the increments that arrive meanwhile
 * go out as the next write, which adds them all (coalesce.ts): retries happen only between
 * processes. (`atomic().sum()` is exact too, but takes no `expireIn` and returns no count.)
 * A write that waits out its deadline (another process holding the file's write lock) or fails is
 * an outage for the limiter (outage.ts) even while reads still answer.
 */
import { invalidConfiguration, settingLine } from '../../util/startup-error.ts';
import { coalesced } from './coalesce.ts';
import { boundedCall, StoreError, type CounterStore, type StoreOptions } from '../store.ts';

/** The part of Deno's KV API this store uses (declared here so the module compiles without Deno's types). */
interface KvEntry {
  value: unknown;
  versionstamp: string | null;
}
interface Kv {
  get(key: unknown[], options?: { consistency?: 'strong' | 'eventual' }): Promise<KvEntry>;
  atomic(): {
    check(entry: { key: unknown[]; versionstamp: string | null }): ReturnType<Kv['atomic']>;
    set(key: unknown[], value: unknown, options?: { expireIn?: number }): ReturnType<Kv['atomic']>;
    commit(): Promise<{ ok: boolean }>;
  };
  close(): void;
}

/** `on` opens the platform's default database; anything else is a file path. */
export async function createDenoKvStore(path: string, options: StoreOptions = {}): Promise<CounterStore> {
  // Named as the way in calls it: RATE_LIMIT_DENO_KV from the environment, `rateLimit.denoKv` from createHandler.
  const { setting = 'RATE_LIMIT_DENO_KV' } = options;
  const deno = (globalThis as { Deno?: { openKv?(path?: string): Promise<Kv> } }).Deno;
  if (!deno) throw invalidConfiguration(`${setting} is set, but Deno KV exists only on Deno: unset it, or serve with Deno.`);
  if (!deno.openKv) throw invalidConfiguration(`${setting} is set, but Deno KV is not enabled: run Deno with --unstable-kv.`);
  let kv: Kv;
  try {
    kv = await deno.openKv(path === 'on' ? undefined : path);
  } catch (error) {
    throw invalidConfiguration(settingLine(setting, path, `Deno KV cannot be opened (${(error as Error).message}).`));
  }
  return kvStore(kv, options);
}

/** The store over an open KV database (the part tested without Deno). */
export function kvStore(kv: Kv, { commandTimeoutMs = 1000 }: StoreOptions = {}): CounterStore {
  const keyOf = (key: string, windowStart: number) => ['ratelimit', windowStart, key];

  /** Adds `n` to the key's count, kept until a second after its window ends; the count before. */
  async function add(key: unknown[], n: number, expiresAt: number): Promise<number> {
    const giveUpAt = Date.now() + commandTimeoutMs;
    while (Date.now() < giveUpAt) {
      try {
        const entry = await kv.get(key);
        const before = typeof entry.value === 'number' ? entry.value : 0;
        const { ok } = await kv
          .atomic()
          .check({ key, versionstamp: entry.versionstamp })
          .set(key, before + n, { expireIn: Math.max(1000, expiresAt - Date.now()) })
          .commit();
        if (ok) return before;
      } catch (error) {
        // A KV file shared by processes is an SQLite database: another process's write holds the
        // lock for a moment (SQLITE_BUSY). Anything else is a failure.
        if (!String((error as Error)?.message).includes('database is locked')) throw error;
        await new Promise((resolve) => setTimeout(resolve, 2 + Math.random() * 8));
      }
    }
    throw new StoreError(`Deno KV did not answer within ${commandTimeoutMs} ms`);
  }

  // Per key, one write at a time: the increments that arrive while it is out go together in the next.
  const increment = coalesced(async (key, windowStart, windowMs, n) => {
    const before = await boundedCall('Deno KV', commandTimeoutMs, () => add(keyOf(key, windowStart), n, windowStart + windowMs + 1000));
    return before + n;
  });

  return {
    kind: 'deno-kv',
    increment,
    current: (key, windowStart) =>
      boundedCall('Deno KV', commandTimeoutMs, () =>
        kv.get(keyOf(key, windowStart)).then(({ value }) => (typeof value === 'number' ? value : 0)),
      ),
    async close() {
      kv.close();
    },
  };
}
