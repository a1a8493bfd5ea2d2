/**
 * The DynamoDB store against dynalite (a local DynamoDB) on two `npm run start:node` services: 1,000
 * concurrent requests admit exactly the quota, from one address and from five, round after round; a
 * table killed or frozen (SIGSTOP) mid-burst gives no 5xx, health degraded within a second and back
 * once, the loss and the regain logged once each per instance, and exact counting after; a table that
 * does not exist refuses start-up before listening.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTable, dynamoEnv, startDynalite, stopDynalite } from '../../support/dynamodb.ts';
import { failedStart, startEntry, type RunningEntry } from '../../support/entries.ts';
import { freePort, sleep } from '../../support/net.ts';
import { awayFromWindowEdge, eventually, steadyLoad } from '../../support/ratelimit.ts';
import { burstOn, expectExactRounds, expectOutageOnce, healthOf, withBusyPort } from '../../support/store-burst.ts';

const TABLE = 'product-discovery-ratelimit';
const WINDOW = 3600;
const dir = mkdtempSync(join(tmpdir(), 'e2e-dynamodb-'));
let port: number;
let dynalite: ChildProcess;
const path = join(dir, 'dynalite');

beforeAll(async () => {
  port = await freePort();
  dynalite = await startDynalite(port, path);
  await createTable(port, TABLE);
});
afterAll(async () => {
  if (dynalite) await stopDynalite(dynalite);
  rmSync(dir, { recursive: true, force: true });
});

const envFor = (quota: number, extra: Record<string, string> = {}) => ({
  ...dynamoEnv(port),
  RATE_LIMIT_DYNAMODB_TABLE: TABLE,
  RATE_LIMIT_QUOTA: String(quota),
  RATE_LIMIT_WINDOW_SECONDS: String(WINDOW),
  // The test's clients are told apart by X-Forwarded-For, as behind one load balancer.
  TRUST_PROXY_HOPS: '1',
  ...extra,
});

async function twoServices(env: Record<string, string>): Promise<RunningEntry[]> {
  return Promise.all([startEntry('node', env), startEntry('node', env)]);
}

describe('DynamoDB shared by two services under a burst', () => {
  let services: RunningEntry[];
  beforeAll(async () => {
    services = await twoServices(envFor(100));
  });
  afterAll(() => Promise.all(services.map((service) => service.stop())));

  it('admits exactly the quota of 1,000 concurrent requests, from one address and from five, in every round', async () => {
    await expectExactRounds(services, { label: 'DynamoDB', health: { rateLimitStore: 'dynamodb' }, windowSeconds: WINDOW });
  }, 120_000);

  it('fails closed only while the table is down: a burst with it up refuses no one with a 503', async () => {
    const closed = await twoServices(envFor(50, { RATE_LIMIT_FAIL: 'closed' }));
    try {
      await awayFromWindowEdge(WINDOW, 15_000);
      const burst = await burstOn(closed, 300, ['198.51.100.30']);
      expect(burst.statuses).toEqual({ 200: 50, 429: 250 });
    } finally {
      await Promise.all(closed.map((service) => service.stop()));
    }
  }, 60_000);
});

describe('DynamoDB lost mid-burst and back', () => {
  let services: RunningEntry[];
  beforeAll(async () => {
    services = await twoServices(envFor(1_000_000));
  });
  afterAll(() => Promise.all(services.map((service) => service.stop())));

  for (const fault of ['killed', 'frozen'] as const) {
    it(`${fault}: no 5xx, health degraded within a second and back once, lost and regained logged once, exact after`, async () => {
      await awayFromWindowEdge(WINDOW, 20_000);
      const before = services.map((service) => service.output().length);
      const load = steadyLoad(services, (n) => `192.0.2.${(n % 200) + 1}`);
      await sleep(300);
      const failedAt = Date.now();
      if (fault === 'killed') await stopDynalite(dynalite);
      else dynalite.kill('SIGSTOP');
      for (const service of services) {
        expect(await eventually(async () => (await healthOf(service)).status === 'degraded', 5_000, 50)).toBe(true);
      }
      // The first failed write is seen at once (killed) or at its deadline of one second (frozen).
      expect(Date.now() - failedAt).toBeLessThan(fault === 'killed' ? 1_000 : 2_000);
      await sleep(1_500);
      if (fault === 'killed') dynalite = await startDynalite(port, path);
      else dynalite.kill('SIGCONT');
      for (const service of services) {
        expect(await eventually(async () => (await healthOf(service)).status === 'ok', 10_000)).toBe(true);
      }
      await load.stop();
      for (const [i, service] of services.entries()) expectOutageOnce(service.output().slice(before[i]));
      // Counting in the table again, exactly: one new client across both services.
      const after = await burstOn(services, 200, [fault === 'killed' ? '198.51.100.98' : '198.51.100.99']);
      expect(after.statuses).toEqual({ 200: 200 });
      expect(after.remainingAdmitted.at(-1)).toBe(1_000_000 - 200);
    }, 60_000);
  }
});

describe('DynamoDB down, failing open with a share of 0.5 on two services', () => {
  let services: RunningEntry[];
  beforeAll(async () => {
    services = await twoServices(envFor(100, { RATE_LIMIT_FAIL_OPEN_SHARE: '0.5' }));
  });
  afterAll(async () => {
    await Promise.all(services.map((service) => service.stop()));
    dynalite = await startDynalite(port, path);
  });

  it('admits at most the quota between them (2 x 0.5 x 100) of 1,000 concurrent requests, each instance its half', async () => {
    await awayFromWindowEdge(WINDOW, 15_000);
    await stopDynalite(dynalite);
    const burst = await burstOn(services, 1000, ['198.51.100.120']);
    expect(burst.statuses).toEqual({ 200: 100, 429: 900 });
    // Each instance says what it enforces: its own half, counted down from 49.
    expect(burst.remainingAdmitted).toEqual(Array.from({ length: 100 }, (_, i) => 49 - Math.floor(i / 2)));
    for (const service of services) expect((await healthOf(service)).status).toBe('degraded');
  }, 60_000);
});

describe('DynamoDB misconfigured', () => {
  it('refuses a table that does not exist before listening, in one line naming the variable, exit 1', async () => {
    // On a port that is taken: a service that listened first would stop at the port instead.
    const { code, output } = await withBusyPort((port) =>
      failedStart('node', { ...envFor(5, { RATE_LIMIT_DYNAMODB_TABLE: 'no-such-table' }), PORT: String(port) }),
    );
    expect(code).toBe(1);
    expect(output).toContain('Invalid configuration:\n  RATE_LIMIT_DYNAMODB_TABLE="no-such-table": no such table in us-east-1');
    expect(output).not.toContain('Cannot listen');
    expect(output).not.toMatch(/^\s+at .+[:(]\d+/m);
  });
});
