/**
 * Redis with Sentinel: a real master, replica and sentinel (quorum 1, down after 1 s) on loopback
 * ports. Three instances (Bun, Deno and Node) count on the master the sentinel names; when the master is
 * killed under load, every request is still answered (no 5xx, no connection error), each instance
 * logs the loss and the regain once, and counts land on the promoted replica without a restart.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RUNTIMES, startEntry, type RunningEntry } from '../support/entries.ts';
import { awayFromWindowEdge, checkNetworkPolicies, eventually, NETWORK_POLICIES, steadyLoad } from '../support/ratelimit.ts';
import { sleep } from '../support/net.ts';
import { infoFields, redisCli, startSentinel, type RedisSentinelProcesses } from '../support/redis.ts';

const WINDOW = 3600;
const QUOTA = 100_000;

let redis: RedisSentinelProcesses;
let instances: RunningEntry[];
const get = (instance: RunningEntry, path: string, from: string) =>
  fetch(`${instance.url}${path}`, { headers: { 'x-forwarded-for': from } });
const health = async (instance: RunningEntry) =>
  (await (await get(instance, '/api/v1/health', '192.0.2.254')).json()) as Record<string, unknown>;
const logged = (instance: RunningEntry, from: number) =>
  instance
    .output()
    .slice(from)
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
const keyOf = (client: string) => `ratelimit:${Date.now() - (Date.now() % (WINDOW * 1000))}:default:${client}`;
const remaining = async (instance: RunningEntry, client: string) =>
  Number((await get(instance, '/api/v1', client)).headers.get('x-ratelimit-remaining'));

beforeAll(async () => {
  redis = await startSentinel();
  const env = {
    REDIS_SENTINEL_URLS: redis.urls().join(','),
    REDIS_SENTINEL_MASTER: redis.masterName,
    RATE_LIMIT_QUOTA: String(QUOTA),
    RATE_LIMIT_WINDOW_SECONDS: String(WINDOW),
    TRUST_PROXY_HOPS: '1',
    RATE_LIMIT_POLICIES: JSON.stringify(NETWORK_POLICIES),
  };
  instances = await Promise.all(RUNTIMES.map((runtime) => startEntry(runtime, env)));
});
afterAll(async () => {
  await Promise.all((instances ?? []).map((instance) => instance.stop()));
  await redis?.dispose();
});

describe('Bun, Deno and Node instances on a Sentinel-watched master', () => {
  it('say in health that they count through Sentinel, and count on the master', async () => {
    await awayFromWindowEdge(WINDOW);
    for (const instance of instances)
      expect(await health(instance)).toMatchObject({ status: 'ok', rateLimitStore: 'redis', redisMode: 'sentinel' });
    const seen = [];
    for (const instance of instances) seen.push(await remaining(instance, '198.51.100.60'));
    expect(seen).toEqual([QUOTA - 1, QUOTA - 2, QUOTA - 3]);
    expect((await redisCli(redis.master.port, 'get', keyOf('198.51.100.60'))).trim()).toBe('3');
  });

  it('count a listed network under its own policy across the three, named in every field', async () => {
    await awayFromWindowEdge(WINDOW);
    let next = 0;
    await checkNetworkPolicies((address) => get(instances[next++ % instances.length]!, '/api/v1', address));
  });

  it('keep answering when the master is killed under load, log the loss once, and count on the promoted replica', async () => {
    await awayFromWindowEdge(WINDOW, 40_000);
    const from = instances.map((instance) => instance.output().length);
    const load = steadyLoad(instances, (n) => `198.19.1.${n & 255}`);
    await sleep(300);
    await redis.master.kill();
    const killedAt = performance.now();
    await eventually(async () => (await redis.masterPort()) === redis.replica.port, 30_000);
    expect(await redis.masterPort(), 'the sentinel promoted the replica').toBe(redis.replica.port);
    for (const instance of instances) {
      expect(await eventually(async () => (await health(instance)).status === 'ok', 30_000), 'back to ok on the new master').toBe(true);
    }
    console.log(`sentinel: counting in Redis again ${Math.round(performance.now() - killedAt)} ms after the master was killed`);
    await load.stop();
    for (const [i, instance] of instances.entries()) {
      const lines = logged(instance, from[i]!);
      expect(
        lines.filter((line) => line.event === 'rate_limit_store_lost'),
        `lost lines of instance ${i}`,
      ).toHaveLength(1);
      expect(
        lines.filter((line) => line.event === 'rate_limit_store_regained'),
        `regained lines of instance ${i}`,
      ).toHaveLength(1);
      expect(
        lines.filter((line) => line.level === 'error'),
        `error lines of instance ${i}`,
      ).toEqual([]);
      expect(JSON.stringify(lines)).not.toContain(String(redis.master.port));
    }

    // The promoted replica is a master now and holds the counts, shared by both instances.
    expect(infoFields(await redisCli(redis.replica.port, 'info', 'replication')).role).toBe('master');
    const client = '198.51.100.61';
    const seen = [];
    for (let i = 0; i < 4; i++) seen.push(await remaining(instances[i % instances.length]!, client));
    expect(seen).toEqual([QUOTA - 1, QUOTA - 2, QUOTA - 3, QUOTA - 4]);
    expect((await redisCli(redis.replica.port, 'get', keyOf(client))).trim()).toBe('4');
  }, 120_000);
});
