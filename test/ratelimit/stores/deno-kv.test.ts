import { makeHandler } from '../../support/handler.ts';
import { describe, expect, it } from 'vitest';
import { createDenoKvStore, kvStore } from '../../../src/ratelimit/stores/deno-kv.ts';
import { StartupError } from '../../../src/util/startup-error.ts';

/**
 * Deno KV's semantics in memory, as far as the store uses them: versionstamps that change on every
 * write, a check that fails the commit when the entry changed since it was read, and answers that
 * arrive later (each call awaits a timer), so writers interleave. `busy` commits throw SQLite's
 * "database is locked", as a file another process is writing does.
 */
class FakeKv {
  entries = new Map<string, { value: unknown; versionstamp: string; expireIn?: number }>();
  version = 0;
  commits = 0;
  busy = 0;

  async get(key: unknown[]) {
    await new Promise((resolve) => setTimeout(resolve, 1));
    const entry = this.entries.get(JSON.stringify(key));
    return { value: entry?.value ?? null, versionstamp: entry?.versionstamp ?? null };
  }

  atomic() {
    const checks: { key: unknown[]; versionstamp: string | null }[] = [];
    const sets: { key: unknown[]; value: unknown; expireIn?: number }[] = [];
    const operation = {
      check: (entry: { key: unknown[]; versionstamp: string | null }) => (checks.push(entry), operation),
      set: (key: unknown[], value: unknown, options?: { expireIn?: number }) => (sets.push({ key, value, ...options }), operation),
      commit: async () => {
        await new Promise((resolve) => setTimeout(resolve, 1));
        if (this.busy > 0 && this.busy--) throw new TypeError('database is locked');
        const ok = checks.every(({ key, versionstamp }) => (this.entries.get(JSON.stringify(key))?.versionstamp ?? null) === versionstamp);
        if (!ok) return { ok: false };
        this.commits++;
        const versionstamp = String(++this.version).padStart(20, '0');
        for (const { key, value, expireIn } of sets) this.entries.set(JSON.stringify(key), { value, versionstamp, expireIn });
        return { ok: true };
      },
    };
    return operation;
  }

  close() {}
}

const WINDOW = 60_000;
const start = Date.now() - (Date.now() % WINDOW);

describe('the Deno KV store', () => {
  it('gives concurrent increments of one key distinct, exact counts, writing them together', async () => {
    const kv = new FakeKv();
    const store = kvStore(kv);
    const counts = await Promise.all(Array.from({ length: 50 }, () => store.increment('default:192.0.2.1', start, WINDOW)));
    expect(counts.sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    // Increments of the same moment go out as one write.
    expect(kv.commits).toBe(1);
    expect(await store.current('default:192.0.2.1', start)).toBe(50);
    expect(store.kind).toBe('deno-kv');
  });

  it('stays exact with another writer (another process) on the same key, and through a locked database', async () => {
    const kv = new FakeKv();
    kv.busy = 3;
    const one = kvStore(kv);
    const other = kvStore(kv);
    const counts = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? one : other).increment('default:k', start, WINDOW)));
    expect(counts.sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
  });

  it('keeps each window and key apart, each written to expire a second after its window', async () => {
    const kv = new FakeKv();
    const store = kvStore(kv);
    // A window that has just begun, whatever the time the test runs at.
    const begun = Date.now();
    await store.increment('default:a', begun, WINDOW);
    const written = Date.now();
    await store.increment('default:a', begun + WINDOW, WINDOW);
    expect(await store.increment('default:b', begun, WINDOW)).toBe(1);
    expect(await store.current('default:a', begun)).toBe(1);
    expect(await store.current('default:c', begun)).toBe(0);
    const { expireIn } = kv.entries.get(JSON.stringify(['ratelimit', begun, 'default:a']))!;
    expect(expireIn).toBeGreaterThanOrEqual(begun + WINDOW + 1000 - written);
    expect(expireIn).toBeLessThanOrEqual(WINDOW + 1000);
  });

  it('rejects with a worded error when KV fails or does not answer in time, for the failure policy to apply', async () => {
    const failing = new FakeKv();
    failing.get = async () => Promise.reject(new Error('disk I/O error'));
    await expect(kvStore(failing).increment('k', start, WINDOW)).rejects.toThrow('the Deno KV call failed (Error)');
    const hung = new FakeKv();
    hung.get = () => new Promise(() => {});
    await expect(kvStore(hung, { commandTimeoutMs: 50 }).current('k', start)).rejects.toThrow('Deno KV did not answer within 50 ms');
    const locked = new FakeKv();
    locked.busy = Number.POSITIVE_INFINITY;
    await expect(kvStore(locked, { commandTimeoutMs: 50 }).increment('k', start, WINDOW)).rejects.toThrow(
      /^Deno KV did not answer within 50 ms$/,
    );
  });

  it('refuses to start outside Deno, naming RATE_LIMIT_DENO_KV', async () => {
    const refused = createDenoKvStore('on');
    await expect(refused).rejects.toBeInstanceOf(StartupError);
    await expect(refused).rejects.toThrow('RATE_LIMIT_DENO_KV is set, but Deno KV exists only on Deno');
  });

  it("refuses createHandler's rateLimit.denoKv outside Deno naming the option, not the variable", async () => {
    const refused = makeHandler({ rateLimit: { denoKv: 'on' } });
    await expect(refused).rejects.toThrow(/^Invalid configuration:\n {2}rateLimit\.denoKv is set, but Deno KV exists only on Deno/);
    await expect(refused).rejects.not.toThrow('RATE_LIMIT_DENO_KV');
  });
});
