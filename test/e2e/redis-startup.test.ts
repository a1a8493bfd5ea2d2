/**
 * Exact from the first request: two instances of one runtime, started together on one Redis and hit
 * at once as soon as both announce their URL, count every request in Redis, run after run. A store
 * that is still making its first connection is not "down": the first requests wait for it. Runs
 * alternate between Redis on loopback and Redis reached over a link whose connections take up to
 * 300 ms to set up (a Redis across a network), still within the 1 s the first connection is waited for.
 */
import { createClient } from '@redis/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send } from '../support/e2e.ts';
import { RUNTIMES, startEntry, type RunningEntry } from '../support/entries.ts';
import { slowLink, startRedis, type RedisServer, type SlowLink } from '../support/redis.ts';

const RUNS = 20;
const QUOTA = 6;
/** Alternating between the two instances: the quota, then one refused request on each. */
const REQUESTS = QUOTA + 2;
/** How long each run's connections to Redis take to set up, in turn. */
const DELAYS_MS = [0, 50, 150, 300];

let redis: RedisServer;
let admin: ReturnType<typeof createClient>;
let link: SlowLink;
beforeAll(async () => {
  redis = await startRedis();
  link = await slowLink(redis.port, 0);
  admin = createClient({ url: redis.url() });
  admin.on('error', () => {});
  await admin.connect();
});
afterAll(async () => {
  admin?.destroy();
  await link?.close();
  await redis?.dispose();
});

/** Every count the instances left in Redis (a burst that straddles a window edge counts in two keys). */
async function countedInRedis(): Promise<number> {
  let total = 0;
  for await (const keys of admin.scanIterator({ MATCH: 'ratelimit:*' })) {
    for (const key of keys) total += Number(await admin.get(key));
  }
  return total;
}

interface Run {
  run: number;
  delayMs: number;
  counted: number;
  statuses: number[];
  remaining: number[];
  /** What the instances logged about the store, to tell a failed first connection from a slow answer. */
  logged: string[];
}

describe.each(RUNTIMES)('%s: two instances started together on one Redis', (runtime) => {
  it(`count every request in Redis from the first one, in each of ${RUNS} runs`, async () => {
    const env = { REDIS_URL: `redis://127.0.0.1:${link.port}`, RATE_LIMIT_QUOTA: String(QUOTA), RATE_LIMIT_WINDOW_SECONDS: '3600' };
    const runs: Run[] = [];
    const started = performance.now();
    for (let run = 1; run <= RUNS; run++) {
      await admin.flushAll();
      link.delayMs = DELAYS_MS[run % DELAYS_MS.length]!;
      const instances: RunningEntry[] = await Promise.all([startEntry(runtime, env), startEntry(runtime, env)]);
      try {
        const replies = await Promise.all(Array.from({ length: REQUESTS }, (_, i) => send(`${instances[i % 2]!.url}/api/v1`)));
        runs.push({
          run,
          delayMs: link.delayMs,
          counted: await countedInRedis(),
          statuses: replies.map((reply) => reply.status),
          remaining: replies.map((reply) => Number(reply.headers['x-ratelimit-remaining'])),
          logged: instances.flatMap((instance) =>
            instance
              .output()
              .split('\n')
              .filter((line) => line.includes('rate_limit_store')),
          ),
        });
      } finally {
        await Promise.all(instances.map((instance) => instance.stop()));
      }
    }
    console.log(`${runtime}: ${RUNS} runs in ${Math.round(performance.now() - started)} ms`);

    const wrong = runs.filter(({ counted }) => counted !== REQUESTS);
    expect(wrong, `runs whose Redis count is not the ${REQUESTS} requests sent: ${JSON.stringify(wrong)}`).toEqual([]);
    for (const { run, statuses, remaining } of runs) {
      // Across both instances exactly the quota is admitted, each admitted request seeing its own count.
      expect(statuses.filter((status) => status === 200).length, `run ${run}: ${statuses}`).toBe(QUOTA);
      expect(statuses.filter((status) => status === 429).length, `run ${run}: ${statuses}`).toBe(REQUESTS - QUOTA);
      const admitted = remaining.filter((_, i) => statuses[i] === 200).sort((a, b) => b - a);
      expect(admitted, `run ${run}: remaining ${remaining}`).toEqual(Array.from({ length: QUOTA }, (_, i) => QUOTA - 1 - i));
    }
  }, 300_000); // Twenty pairs of fresh processes on a shared, loaded machine.
});
