/**
 * Redis Cluster: a real 3-master, 3-replica cluster on loopback ports, shared by every test here (the
 * one that kills a master runs last). The store sends one script call per key, each to its key's
 * master; three instances (Bun, Deno and Node) share one quota through the cluster; losing a master keeps
 * every instance answering, is logged once each way, and counting goes on on the promoted replica.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisStore } from '../../src/ratelimit/stores/redis.ts';
import { RUNTIMES, startEntry, type RunningEntry } from '../support/entries.ts';
import { closeHandlers, makeHandler, send } from '../support/handler.ts';
import { awayFromWindowEdge, checkNetworkPolicies, eventually, NETWORK_POLICIES, steadyLoad } from '../support/ratelimit.ts';
import { sleep } from '../support/net.ts';
import { infoFields, redisCli, startCluster, type ClusterNode, type RedisClusterProcesses } from '../support/redis.ts';

const WINDOW = 3600;
const QUOTA = 10;

let cluster: RedisClusterProcesses;
beforeAll(async () => {
  cluster = await startCluster();
});
afterAll(async () => {
  await cluster?.dispose();
});

const masters = async () => (await cluster.topology()).filter((node) => node.role === 'master' && !node.failing && node.slots.length > 0);
const windowStart = () => Date.now() - (Date.now() % (WINDOW * 1000));

/** Keys on one node matching a pattern (SCAN, so only keys the node itself holds). */
async function keysOn(port: number, pattern: string): Promise<string[]> {
  return (await redisCli(port, '--scan', '--pattern', pattern)).split('\n').filter(Boolean);
}

/** Whether a slot falls in a master's ranges ("0-5460", or a single slot). */
function serves(node: ClusterNode, slot: number): boolean {
  return node.slots.some((range) => {
    const [from, to = from] = range.split('-').map(Number);
    return slot >= from! && slot <= to!;
  });
}

describe('per-network policies on a cluster', () => {
  it('counts a listed network under its own policy across two instances, named in every field', async () => {
    await awayFromWindowEdge(WINDOW);
    const options = { rateLimit: { quota: 5, windowSeconds: WINDOW, redisClusterUrls: cluster.urls(), policies: NETWORK_POLICIES } };
    const instances = [await makeHandler(options), await makeHandler(options)];
    try {
      let next = 0;
      await checkNetworkPolicies((address) => send(instances[next++ % 2]!, '/api/v1', { address }));
    } finally {
      await closeHandlers();
    }
  });
});

describe('the Redis store on a cluster', () => {
  it('counts a batch over many clients exactly, one script call per key, with keys on all three masters', async () => {
    const store = createRedisStore({ mode: 'cluster', urls: cluster.urls() }, { keyPrefix: 'test:batch' });
    try {
      const calls = async () => {
        let total = 0;
        for (const node of await masters()) {
          const stats = infoFields(await redisCli(node.port, 'info', 'commandstats'));
          for (const command of ['cmdstat_evalsha', 'cmdstat_eval']) total += Number(/calls=(\d+)/.exec(stats[command] ?? '')?.[1] ?? 0);
        }
        return total;
      };
      // The first call waits for the cluster to be discovered and loads the script.
      expect(await store.increment('warm-up', 0, 60_000)).toBe(1);
      const before = await calls();
      // 300 increments over 60 clients in one tick: one batch, split by key.
      const keys = Array.from({ length: 300 }, (_, i) => `client-${i % 60}`);
      const counts = await Promise.all(keys.map((key) => store.increment(key, 0, 60_000)));
      for (let k = 0; k < 60; k++) {
        const seen = counts.filter((_, i) => keys[i] === `client-${k}`).sort((a, b) => a - b);
        expect(seen, `client-${k}`).toEqual([1, 2, 3, 4, 5]);
      }
      const sent = (await calls()) - before;
      expect(sent, 'script calls: at least one per key, and the repeats of a key go together').toBeGreaterThanOrEqual(60);
      expect(sent).toBeLessThan(300);
      for (const node of await masters()) {
        expect((await keysOn(node.port, 'test:batch:0:client-*')).length, `keys on the master at ${node.port}`).toBeGreaterThan(5);
      }
      expect(await store.current('client-7', 0)).toBe(5);
    } finally {
      await store.close();
    }
  });
});

describe('Bun, Deno and Node instances on one cluster', () => {
  let instances: RunningEntry[];
  const get = (instance: RunningEntry, path: string, from: string) =>
    fetch(`${instance.url}${path}`, { headers: { 'x-forwarded-for': from } });
  const health = async (instance: RunningEntry) =>
    (await (await get(instance, '/api/v1/health', '192.0.2.254')).json()) as Record<string, unknown>;
  const events = (instance: RunningEntry, from: number, event: string) =>
    instance
      .output()
      .slice(from)
      .split('\n')
      .filter((line) => line.startsWith('{') && JSON.parse(line).event === event);

  beforeAll(async () => {
    const env = {
      REDIS_CLUSTER_URLS: cluster.urls().join(','),
      RATE_LIMIT_QUOTA: String(QUOTA),
      RATE_LIMIT_WINDOW_SECONDS: String(WINDOW),
      TRUST_PROXY_HOPS: '1',
    };
    instances = await Promise.all(RUNTIMES.map((runtime) => startEntry(runtime, env)));
  });
  afterAll(async () => {
    await Promise.all((instances ?? []).map((instance) => instance.stop()));
  });

  it('say in health that they count in a Redis Cluster', async () => {
    for (const instance of instances) {
      expect(await health(instance)).toMatchObject({ status: 'ok', rateLimitStore: 'redis', redisMode: 'cluster' });
    }
  });

  it('admit exactly the quota across all three, in turn, then refuse on each', async () => {
    await awayFromWindowEdge(WINDOW);
    const answers = [];
    for (let i = 0; i < QUOTA + 3; i++) answers.push(await get(instances[i % instances.length]!, '/api/v1', '198.51.100.40'));
    expect(answers.map((answer) => answer.status)).toEqual([...Array<number>(QUOTA).fill(200), 429, 429, 429]);
    expect(answers.map((answer) => Number(answer.headers.get('x-ratelimit-remaining')))).toEqual([
      ...Array.from({ length: QUOTA }, (_, i) => QUOTA - 1 - i),
      0,
      0,
      0,
    ]);
  });

  it('spread the counters of many clients over all three masters', async () => {
    await awayFromWindowEdge(WINDOW);
    const clients = Array.from({ length: 60 }, (_, i) => `198.18.0.${i + 1}`);
    for (const [i, client] of clients.entries()) expect((await get(instances[i % instances.length]!, '/api/v1', client)).status).toBe(200);
    let held = 0;
    for (const node of await masters()) {
      const keys = await keysOn(node.port, `ratelimit:${windowStart()}:default:198.18.0.*`);
      expect(keys.length, `clients counted on the master at ${node.port}`).toBeGreaterThan(5);
      held += keys.length;
    }
    expect(held).toBe(clients.length);
  });

  it('keep answering when a master dies: no 5xx, health degraded then ok, lost and regained logged once each, counting goes on', async () => {
    await awayFromWindowEdge(WINDOW, 40_000);
    const from = instances.map((instance) => instance.output().length);
    const victim = (await masters())[0]!;
    // Steady traffic from many clients, so some keys live on the master that dies.
    const load = steadyLoad(instances, (n) => `198.19.${(n >> 8) & 255}.${n & 255}`);
    await sleep(300);
    await cluster.server(victim.port).kill();
    const killedAt = performance.now();
    const degraded = await Promise.all(
      instances.map((instance) => eventually(async () => (await health(instance)).status === 'degraded', 10_000, 50)),
    );
    expect(degraded, 'each instance reports degraded while the master is gone').toEqual(instances.map(() => true));
    for (const instance of instances) {
      expect(await eventually(async () => (await health(instance)).status === 'ok', 30_000), 'back to ok after the failover').toBe(true);
    }
    console.log(`cluster: counting in Redis again ${Math.round(performance.now() - killedAt)} ms after a master was killed`);
    await load.stop();
    for (const [i, instance] of instances.entries()) {
      expect(events(instance, from[i]!, 'rate_limit_store_lost'), `lost lines of instance ${i}`).toHaveLength(1);
      expect(events(instance, from[i]!, 'rate_limit_store_regained'), `regained lines of instance ${i}`).toHaveLength(1);
    }

    // Counting goes on, shared, for a client whose counter lives on the promoted replica.
    const promoted = (await masters()).find((node) => serves(node, Number(victim.slots[0]!.split('-')[0])))!;
    expect(promoted.port, 'a replica took over the dead master').not.toBe(victim.port);
    let client = '';
    for (let i = 51; !client; i++) {
      const slot = Number(await redisCli(promoted.port, 'cluster', 'keyslot', `ratelimit:${windowStart()}:default:198.51.100.${i}`));
      if (serves(promoted, slot)) client = `198.51.100.${i}`;
    }
    const remaining = [];
    for (let i = 0; i < 4; i++)
      remaining.push(Number((await get(instances[i % instances.length]!, '/api/v1', client)).headers.get('x-ratelimit-remaining')));
    expect(remaining).toEqual([QUOTA - 1, QUOTA - 2, QUOTA - 3, QUOTA - 4]);
    expect((await redisCli(promoted.port, 'get', `ratelimit:${windowStart()}:default:${client}`)).trim()).toBe('4');
  }, 120_000);
});

describe('a store started while a master is down', () => {
  it("counts once the master's replica has taken over, without a restart", async () => {
    const nodes = await cluster.topology();
    const victim = nodes.find(
      (node) => node.role === 'master' && !node.failing && nodes.some((replica) => replica.masterId === node.id && !replica.failing),
    )!;
    expect(victim, 'a master that still has a replica').toBeDefined();
    await cluster.server(victim.port).kill();
    // Started at once: the topology it finds still names the dead master, whose replica takes over only later.
    const store = createRedisStore({ mode: 'cluster', urls: cluster.urls() }, { keyPrefix: 'test:late' });
    try {
      const started = performance.now();
      const keys = Array.from({ length: 30 }, (_, i) => `client-${i}`);
      const counting = await eventually(
        async () => {
          const results = await Promise.allSettled(keys.map((key) => store.increment(key, 0, 60_000)));
          return results.every((result) => result.status === 'fulfilled');
        },
        40_000,
        200,
      );
      expect(counting, 'every key counted in Redis again').toBe(true);
      console.log(`cluster: a store started during a failover counted ${Math.round(performance.now() - started)} ms later`);
    } finally {
      await store.close();
    }
  }, 120_000);
});
