/**
 * Redis over HTTP (Upstash's REST protocol) as the shared store, against the REST emulator in front
 * of a real redis-server: the store itself, through fetch and through node:http (the script by
 * EVALSHA, EVAL once the cache is flushed, the deadline, the refusal of a wrong token or URL), then
 * two service processes sharing it under 1,000 concurrent requests, the emulator stopped mid-burst,
 * and a start-up refused naming the variable.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisRestStore as createStore } from '../../../src/ratelimit/stores/redis-rest.ts';
import { fetchPost, nodeHttpPost, type Post } from '../../../src/ratelimit/stores/rest-post.ts';
import type { RedisRestTarget } from '../../../src/ratelimit/stores/choice.ts';
import type { StoreOptions } from '../../../src/ratelimit/store.ts';
import { INCREMENT_WINDOWS_SHA1 } from '../../../src/ratelimit/stores/redis-script.ts';
import { StartupError } from '../../../src/util/startup-error.ts';
import { send } from '../../support/e2e.ts';
import { freePort, sleep } from '../../support/net.ts';
import { listen } from '../../support/node-http.ts';
import { failedStart, startEntry, type RunningEntry, type RuntimeName } from '../../support/entries.ts';
import { eventually } from '../../support/ratelimit.ts';
import { startRedis, type RedisServer } from '../../support/redis.ts';
import { expectExactRounds } from '../../support/store-burst.ts';
import { startRestServer, type RestServer } from '../../support/upstash.ts';

let redis: RedisServer;
let rest: RestServer;
beforeAll(async () => {
  redis = await startRedis();
  rest = await startRestServer(redis.url());
});
afterAll(async () => {
  await rest?.dispose();
  await redis?.dispose();
});

describe.each<[string, Post]>([
  ['fetch', fetchPost],
  ['node:http', nodeHttpPost],
])('the store over REST, posting with %s', (_transport, post) => {
  const createRedisRestStore = (target: RedisRestTarget, options: StoreOptions = {}) => createStore(target, { ...options, post });
  // Each transport counts from an empty database.
  beforeAll(async () => {
    expect((await rest.command('FLUSHALL')).result).toBe('OK');
  });

  it('counts exactly with the script, sent again as EVAL after SCRIPT FLUSH', async () => {
    const store = await createRedisRestStore({ url: rest.url, token: rest.token }, { keyPrefix: 'unit' });
    expect((await rest.command('CONFIG', 'RESETSTAT')).result).toBe('OK');
    const counts = await Promise.all(Array.from({ length: 500 }, () => store.increment('a', 0, 60_000)));
    // Coalesced: the increments that arrive together go out as one script call, not 500.
    const stats = String((await rest.command('INFO', 'commandstats')).result);
    const calls = (name: string) => Number(new RegExp(`cmdstat_${name}:calls=(\\d+)`).exec(stats)?.[1] ?? 0);
    expect(calls('evalsha') + calls('eval')).toBeGreaterThan(0);
    expect(calls('evalsha') + calls('eval')).toBeLessThanOrEqual(3);
    expect(counts.toSorted((x, y) => x - y)).toEqual(Array.from({ length: 500 }, (_, i) => i + 1));
    expect(await store.current('a', 0)).toBe(500);
    expect((await rest.command('PTTL', 'unit:0:a')).result).toBeGreaterThan(60_000);
    expect((await rest.command('SCRIPT', 'FLUSH')).result).toBe('OK');
    expect(await store.increment('a', 0, 60_000)).toBe(501);
    expect(store).toMatchObject({ kind: 'redis', redisMode: 'rest' });
  });

  it('starts with one call that loads the script, so the first count is one EVALSHA that finds it', async () => {
    // A server whose script cache is empty, as a new or restarted one.
    expect((await rest.command('SCRIPT', 'FLUSH')).result).toBe('OK');
    expect((await rest.command('CONFIG', 'RESETSTAT')).result).toBe('OK');
    const store = await createRedisRestStore({ url: rest.url, token: rest.token }, { keyPrefix: 'first' });
    expect(await store.increment('a', 0, 60_000)).toBe(1);
    const stats = String((await rest.command('INFO', 'commandstats')).result);
    const commands = [...stats.matchAll(/cmdstat_([\w|]+):calls=(\d+).*?failed_calls=(\d+)/g)]
      .filter(([, name]) => !['config|resetstat', 'info'].includes(name!))
      .map(([, name, calls, failed]) => `${name} ${calls} (${failed} failed)`);
    // The script's own INCRBY and PEXPIRE count as commands too.
    expect(commands.toSorted()).toEqual([
      'evalsha 1 (0 failed)',
      'incrby 1 (0 failed)',
      'pexpire 1 (0 failed)',
      'script|load 1 (0 failed)',
    ]);
  });

  it('refuses a token the server refuses, or a URL that is no REST server, naming the setting', async () => {
    const names = { url: 'KV_REST_API_URL', token: 'KV_REST_API_TOKEN' };
    const refused = createRedisRestStore({ url: rest.url, token: 'wrong', names });
    await expect(refused).rejects.toThrow(StartupError);
    await expect(refused).rejects.toThrow(
      /^Invalid configuration:\n {2}KV_REST_API_TOKEN: the Redis REST server at http:\/\/127\.0\.0\.1:\d+ refused the token \(HTTP 401\)/,
    );
    await expect(createRedisRestStore({ url: `${rest.url}/elsewhere`, token: rest.token, names })).rejects.toThrow(
      /KV_REST_API_URL: http:\/\/127\.0\.0\.1:\d+ did not answer as a Redis REST server \(POST \/ with SCRIPT LOAD got HTTP 404\)/,
    );
    // Nothing listening is an outage, not a mistake: start-up goes on and the failure policy applies.
    const store = await createRedisRestStore({ url: `http://127.0.0.1:${await freePort()}`, token: 't' });
    await expect(store.increment('b', 0, 1000)).rejects.toThrow('Redis over HTTP is unreachable');
  });

  it('gives up on a server that does not answer after commandTimeoutMs, each call', async () => {
    let hang = false;
    // Answers the start-up SCRIPT LOAD as a Redis REST server does, with the script's SHA-1, then nothing.
    const silent = await listen((_request, response) => {
      if (!hang) response.end(JSON.stringify({ result: INCREMENT_WINDOWS_SHA1 }));
    });
    try {
      const store = await createRedisRestStore({ url: `http://127.0.0.1:${silent.port}`, token: 't' }, { commandTimeoutMs: 200 });
      hang = true;
      for (const call of [() => store.increment('c', 0, 1000), () => store.current('c', 0)]) {
        const started = performance.now();
        await expect(call()).rejects.toThrow('Redis over HTTP did not answer within 200 ms');
        expect(performance.now() - started).toBeLessThan(600);
      }
    } finally {
      await silent.close();
    }
  });

  it('refuses a read-only token at start, which the script load meets as NOPERM', async () => {
    const readOnly = await listen((_request, response) =>
      response.writeHead(400).end(JSON.stringify({ error: "NOPERM this user has no permissions to run the 'script|load' command" })),
    );
    try {
      await expect(createRedisRestStore({ url: `http://127.0.0.1:${readOnly.port}`, token: 'read-only' }, {})).rejects.toThrow(
        /refused the token \(NOPERM\).*read-write one/,
      );
    } finally {
      await readOnly.close();
    }
  });
});

const QUOTA = 100;
const BURST = 1000;
const ROUNDS = 2;

/** `count` requests from one client at once, shared in turn between the instances. */
function burst(instances: RunningEntry[], count: number, client: string, each?: () => void) {
  return Promise.all(
    Array.from({ length: count }, (_, i) =>
      send(`${instances[i % instances.length]!.url}/api/v1/product`, { headers: { 'X-Forwarded-For': client } }).then((reply) => {
        each?.();
        return reply.status;
      }),
    ),
  );
}

async function health(instance: RunningEntry) {
  return JSON.parse((await send(`${instance.url}/api/v1/health`)).body.toString()) as {
    status: string;
    redisMode?: string;
    reason?: string;
  };
}

const events = (instance: RunningEntry, event: string) =>
  instance
    .output()
    .split('\n')
    .filter((line) => line.includes(`"event":"${event}"`));

describe.each<[RuntimeName, RuntimeName, number]>([
  ['node', 'node', 0],
  ['bun', 'deno', 1],
])('two services (%s and %s) on one Redis over HTTP', (first, second, pair) => {
  let instances: RunningEntry[] = [];
  const env = () => ({ ...rest.env, RATE_LIMIT_QUOTA: String(QUOTA), RATE_LIMIT_WINDOW_SECONDS: '3600', TRUST_PROXY_HOPS: '1' });
  beforeAll(async () => {
    instances = await Promise.all([startEntry(first, env()), startEntry(second, env())]);
  });
  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.stop()));
  });

  it(`admit exactly the quota of ${QUOTA} under ${BURST} concurrent requests, from one address and from five, in each of ${ROUNDS} rounds`, async () => {
    await expectExactRounds(instances, {
      label: `Redis over HTTP (${first} and ${second})`,
      health: { rateLimitStore: 'redis', redisMode: 'rest' },
      rounds: ROUNDS,
      net: pair,
      afterRound: async (round, client) => {
        const window = Date.now() - (Date.now() % 3_600_000);
        const counted = Number((await rest.command('GET', `ratelimit:${window}:default:${client}`)).result);
        expect(counted, `round ${round} counted in Redis`).toBe(BURST);
      },
    });
  }, 120_000);

  it('answer through the emulator stopped mid-burst with no 5xx, degraded, then back, logged once each', async () => {
    let answered = 0;
    let stopping: Promise<void> | undefined;
    const statuses = await burst(instances, 400, `203.0.${113 + pair}.9`, () => {
      if (++answered === 100) stopping = rest.stop();
    });
    await stopping;
    expect(statuses.filter((status) => status >= 500)).toEqual([]);
    // After the loss, a few more requests while the store is away.
    expect((await burst(instances, 20, `203.0.${113 + pair}.10`)).filter((status) => status >= 500)).toEqual([]);
    for (const instance of instances) {
      expect(await health(instance)).toMatchObject({ status: 'degraded', reason: expect.stringContaining('Redis over HTTP') });
    }
    await rest.start();
    for (const instance of instances) {
      const back = await eventually(async () => {
        await send(`${instance.url}/api/v1/product`, { headers: { 'X-Forwarded-For': `203.0.${113 + pair}.11` } });
        return (await health(instance)).status === 'ok';
      });
      expect(back, `back: ${instance.output().slice(-1500)}`).toBe(true);
      await sleep(1200);
      expect((await health(instance)).status).toBe('ok');
      expect(events(instance, 'rate_limit_store_lost')).toHaveLength(1);
      expect(events(instance, 'rate_limit_store_regained')).toHaveLength(1);
    }
  });
});

describe('a wrong token or URL at start-up', () => {
  it.each([
    ['RATE_LIMIT_REDIS_REST_TOKEN', () => ({ ...rest.env, RATE_LIMIT_REDIS_REST_TOKEN: 'wrong-token' })],
    ['KV_REST_API_TOKEN', () => ({ KV_REST_API_URL: rest.url, KV_REST_API_TOKEN: 'wrong-token' })],
    ['UPSTASH_REDIS_REST_URL', () => ({ UPSTASH_REDIS_REST_URL: `${rest.url}/nothing-here`, UPSTASH_REDIS_REST_TOKEN: rest.token })],
  ])('stops start-up with one line naming %s, exit 1', async (variable, env) => {
    const { code, output } = await failedStart('node', env());
    expect(code).toBe(1);
    expect(output.split('\n').filter((line) => line.includes(variable))).toHaveLength(1);
    expect(output).not.toMatch(/^\s+at .+[:(]\d+/m);
    expect(output).not.toContain('wrong-token');
  });
});
