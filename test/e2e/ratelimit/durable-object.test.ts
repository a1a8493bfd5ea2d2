/**
 * Counters in Durable Objects (src/ratelimit/stores/durable-object.ts), in workerd through Miniflare: the
 * real RateLimitCounter behind createDurableObjectStore, in a small Worker bundled with wrangler as
 * `wrangler deploy` bundles the service's. One object per key, counting atomically under concurrent
 * calls, a new window starting from one, the count dropped by the object's alarm after its window;
 * and the store's bound on a call and its wording when the object fails or never answers, which
 * names the kind of failure and nothing the object said.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../support/entries.ts';

const WORKER = join(ROOT, 'test/fixtures/counter-worker.ts');
/**
 * The real RateLimitCounter cannot be made to fail or hang: failing-counter.js, a stand-in with the
 * same methods, throws or never answers on demand (test/fixtures/README.md).
 */
const FAILING_COUNTER = join(ROOT, 'test/fixtures/failing-counter.js');
const WINDOW_MS = 60_000;

const dir = mkdtempSync(join(tmpdir(), 'durable-object-'));
let mf: Miniflare;

beforeAll(async () => {
  // A configuration of its own, so that the bundle holds only the test Worker and what it imports.
  const config = join(dir, 'wrangler.jsonc');
  writeFileSync(
    config,
    JSON.stringify({ name: 'counter-test', main: WORKER, compatibility_date: '2026-04-26', compatibility_flags: ['nodejs_compat'] }),
  );
  await promisify(execFile)(
    join(ROOT, 'node_modules/.bin/wrangler'),
    ['deploy', '--dry-run', '--outdir', join(dir, 'out'), '--config', config],
    {
      cwd: dir,
      env: { ...process.env, WRANGLER_SEND_METRICS: 'false', NO_COLOR: '1' },
    },
  );
  mf = new Miniflare({
    cf: false,
    workers: [
      {
        name: 'counter-test',
        modules: [{ type: 'ESModule', path: join(dir, 'out/counter-worker.js') }],
        modulesRoot: join(dir, 'out'),
        compatibilityDate: '2026-04-26',
        compatibilityFlags: ['nodejs_compat'],
        durableObjects: { COUNTER: 'RateLimitCounter', FAILING: { className: 'RateLimitCounter', scriptName: 'failing' } },
      },
      {
        name: 'failing',
        modules: [{ type: 'ESModule', path: FAILING_COUNTER }],
        modulesRoot: dirname(FAILING_COUNTER),
        compatibilityDate: '2026-04-26',
      },
    ],
  });
  await mf.ready;
});
afterAll(async () => {
  await mf?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

interface Answer {
  status: number;
  count?: number;
  counts?: number[];
  kind?: string;
  error?: { name: string; message: string };
  ms?: number;
}

/** One store call in the Worker. */
async function call(path: string, params: Record<string, string | number>, method = 'GET'): Promise<Answer> {
  const query = new URLSearchParams(Object.entries(params).map(([name, value]) => [name, String(value)]));
  const response = await mf.dispatchFetch(`http://counter.test${path}?${query}`, { method });
  return { status: response.status, ...((await response.json()) as object) };
}

const increment = (key: string, start: number, extra: Record<string, string | number> = {}) =>
  call('/increment', { key, start, window: WINDOW_MS, ...extra }, 'POST');
const current = (key: string, start: number, extra: Record<string, string | number> = {}) => call('/current', { key, start, ...extra });
/** The start of the window `now` falls in, as the limiter aligns windows to the epoch. */
const windowOf = (now = Date.now()) => now - (now % WINDOW_MS);

/** Switches every object of the failing stand-in to throwing, hanging or counting. */
async function failingMode(mode: 'throw' | 'hang' | 'count') {
  const response = await (await mf.getWorker('failing')).fetch(`http://failing.test/mode/${mode}`, { method: 'POST' });
  expect(response.status).toBe(204);
}

describe('RateLimitCounter behind createDurableObjectStore', () => {
  it('counts a key from one, and reads the count without counting', async () => {
    const start = windowOf();
    expect(await current('reader', start)).toMatchObject({ status: 200, count: 0 });
    const counts = [];
    for (let i = 0; i < 4; i++) counts.push((await increment('reader', start)).count);
    expect(counts).toEqual([1, 2, 3, 4]);
    expect((await current('reader', start)).count).toBe(4);
    expect((await current('reader', start)).count).toBe(4);
  });

  it('says it is the Durable Object store', async () => {
    expect((await increment('kind', windowOf())).kind).toBe('durable-object');
  });

  it('keeps one object per key', async () => {
    const start = windowOf();
    await increment('first-key', start);
    await increment('first-key', start);
    expect((await increment('second-key', start)).count).toBe(1);
    expect((await current('first-key', start)).count).toBe(2);
  });

  it('starts a new window from one, and keeps no count of the previous window', async () => {
    const start = windowOf();
    await increment('windows', start);
    await increment('windows', start);
    expect((await increment('windows', start + WINDOW_MS)).count).toBe(1);
    expect((await current('windows', start + WINDOW_MS)).count).toBe(1);
    expect((await current('windows', start)).count).toBe(0);
  });

  it('counts 50 concurrent calls exactly, each seeing its own count', async () => {
    const { status, counts } = await call('/burst', { key: 'burst', start: windowOf(), window: WINDOW_MS, n: 50 }, 'POST');
    expect(status).toBe(200);
    expect([...counts!].sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
  });

  it('drops the count a second after its window ends, by its alarm', async () => {
    // A window that ends half a second from now: the alarm is due 1.5 s from now.
    const start = Date.now() - WINDOW_MS + 500;
    expect((await increment('expiring', start)).count).toBe(1);
    expect((await increment('expiring', start)).count).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await current('expiring', start)).count, 'still there before the alarm').toBe(2);
    await expect.poll(async () => (await current('expiring', start)).count, { timeout: 5000, interval: 100 }).toBe(0);
  });
});

describe("the store's bound and wording when the object fails", () => {
  afterAll(() => failingMode('count'));

  it('counts through the stand-in while it answers', async () => {
    await failingMode('count');
    expect((await increment('stand-in', windowOf(), { binding: 'FAILING' })).count).toBe(1);
  });

  it('names a call that failed by the kind of error only, not by what the object said', async () => {
    await failingMode('throw');
    for (const answer of [
      await increment('thrown', windowOf(), { binding: 'FAILING' }),
      await current('thrown', windowOf(), { binding: 'FAILING' }),
    ]) {
      expect(answer.status).toBe(500);
      expect(answer.error).toEqual({ name: 'StoreError', message: 'the Durable Object call failed (Error)' });
      // The object threw an error naming a host and a password.
      for (const named of ['10.0.0.7', '6379', 'hunter2', 'storage']) expect(answer.error!.message).not.toContain(named);
    }
  });

  it('gives up on a call the object never answers after commandTimeoutMs, 1000 ms by default', async () => {
    await failingMode('hang');
    const bounded = await increment('hung', windowOf(), { binding: 'FAILING', timeout: 200 });
    expect(bounded.error).toEqual({ name: 'StoreError', message: 'the Durable Object did not answer within 200 ms' });
    expect(bounded.ms).toBeGreaterThanOrEqual(195);
    expect(bounded.ms).toBeLessThan(900);
    const byDefault = await current('hung', windowOf(), { binding: 'FAILING' });
    expect(byDefault.error).toEqual({ name: 'StoreError', message: 'the Durable Object did not answer within 1000 ms' });
    expect(byDefault.ms).toBeGreaterThanOrEqual(995);
    expect(byDefault.ms).toBeLessThan(2000);
  });
});
