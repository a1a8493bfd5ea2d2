/**
 * The Deno KV store in Deno's own KV (node_modules/.bin/deno), one KV file shared by two `deno serve`
 * processes: 1,000 concurrent requests admit exactly the quota, from one address and from five, round
 * after round; the file's write lock held by another process (reads still answer) gives no 5xx,
 * health degraded and back once, the loss and the regain logged once each per process, and exact
 * counting after; RATE_LIMIT_DENO_KV on Node is refused before listening.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type Served } from '../../support/deno-serve.ts';
import { failedStart } from '../../support/entries.ts';
import { sleep } from '../../support/net.ts';
import { awayFromWindowEdge, eventually, steadyLoad } from '../../support/ratelimit.ts';
import { burstOn, expectExactRounds, expectOutageOnce, healthOf, withBusyPort } from '../../support/store-burst.ts';

const WINDOW = 3600;
const dir = mkdtempSync(join(tmpdir(), 'e2e-deno-kv-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const envFor = (file: string, quota: number) => ({
  RATE_LIMIT_DENO_KV: join(dir, file),
  RATE_LIMIT_QUOTA: String(quota),
  RATE_LIMIT_WINDOW_SECONDS: String(WINDOW),
  PUBLIC_BASE_URL: 'https://api.example.test',
  // The test's clients are told apart by X-Forwarded-For, as behind one load balancer.
  TRUST_PROXY_HOPS: '1',
});

/** Another process holding the KV file's SQLite write lock (reads go on, in WAL mode), until released. */
async function lockWrites(file: string): Promise<{ release(): Promise<void> }> {
  const sqlite: ChildProcess = spawn('sqlite3', [file], { stdio: ['pipe', 'pipe', 'pipe'] });
  let output = '';
  sqlite.stdout!.on('data', (chunk) => (output += chunk));
  sqlite.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise((resolve) => sqlite.on('exit', resolve));
  sqlite.stdin!.write(".timeout 5000\nBEGIN IMMEDIATE;\nSELECT 'locked';\n");
  expect(await eventually(async () => output.includes('locked'), 10_000, 20), `sqlite3 took the write lock: ${output}`).toBe(true);
  return {
    async release() {
      sqlite.stdin!.end('ROLLBACK;\n.quit\n');
      await exited;
    },
  };
}

describe('Deno KV shared by two processes under a burst', () => {
  let services: Served[];
  beforeAll(async () => {
    services = await Promise.all([serve(envFor('burst.kv', 100)), serve(envFor('burst.kv', 100))]);
  });
  afterAll(() => Promise.all(services.map((service) => service.stop())));

  it('admits exactly the quota of 1,000 concurrent requests, from one address and from five, in every round', async () => {
    await expectExactRounds(services, { label: 'Deno KV', health: { rateLimitStore: 'deno-kv' }, windowSeconds: WINDOW });
  }, 120_000);
});

describe('Deno KV locked by another process and released', () => {
  let services: Served[];
  beforeAll(async () => {
    services = await Promise.all([serve(envFor('locked.kv', 1_000_000)), serve(envFor('locked.kv', 1_000_000))]);
  });
  afterAll(() => Promise.all(services.map((service) => service.stop())));

  it('no 5xx, health degraded and back once, lost and regained logged once, no request waiting out the lock, exact after', async () => {
    await awayFromWindowEdge(WINDOW, 20_000);
    const load = steadyLoad(services, (n) => `192.0.2.${(n % 200) + 1}`);
    await sleep(300);
    const lock = await lockWrites(join(dir, 'locked.kv'));
    const lockedAt = Date.now();
    for (const service of services) {
      expect(await eventually(async () => (await healthOf(service)).status === 'degraded', 5_000, 50)).toBe(true);
    }
    // The first write meets the lock and gives up at its deadline of one second.
    expect(Date.now() - lockedAt).toBeLessThan(2_500);
    // Known down: a request is answered at once, without waiting for the lock.
    const started = performance.now();
    const answer = await fetch(`${services[0]!.url}/api/v1`, { headers: { 'x-forwarded-for': '198.51.100.50' } });
    expect(answer.status).toBe(200);
    expect(performance.now() - started).toBeLessThan(250);
    // Reads still answer while writes wait: the store stays down, said once.
    await sleep(2_000);
    for (const service of services) expect((await healthOf(service)).status).toBe('degraded');
    await lock.release();
    for (const service of services) {
      expect(await eventually(async () => (await healthOf(service)).status === 'ok', 10_000)).toBe(true);
    }
    await load.stop();
    for (const service of services) expectOutageOnce(service.output());
    const after = await burstOn(services, 200, ['198.51.100.99']);
    expect(after.statuses).toEqual({ 200: 200 });
    expect(after.remainingAdmitted.at(-1)).toBe(1_000_000 - 200);
  }, 60_000);
});

describe('Deno KV where there is none', () => {
  it('refuses RATE_LIMIT_DENO_KV on Node before listening, in one line naming the variable, exit 1', async () => {
    // On a port that is taken: a service that listened first would stop at the port instead.
    const { code, output } = await withBusyPort((port) =>
      failedStart('node', { ...{ RATE_LIMIT_DENO_KV: join(dir, 'node.kv') }, PORT: String(port) }),
    );
    expect(code).toBe(1);
    expect(output).toContain('Invalid configuration:\n  RATE_LIMIT_DENO_KV is set, but Deno KV exists only on Deno');
    expect(output).not.toContain('Cannot listen');
    expect(output).not.toMatch(/^\s+at .+[:(]\d+/m);
  });
});
