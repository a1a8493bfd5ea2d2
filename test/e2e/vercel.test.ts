/**
 * Vercel: `vercel dev --local` (the platform's own local server, no login or link) serves the catch-all
 * function of deploy/vercel/ on exactly the paths its vercel.json routes; any other path is Vercel's
 * own 404. `vercel dev` starts a fresh function process per request (seconds each on a busy machine),
 * so the quota is counted in a real Redis reached over HTTP (the REST emulator), as it would be across a deployment's instances, and the
 * file asks for few function requests.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isServedPath } from '../../src/routes.ts';
import { sleep } from '../support/net.ts';
import { freePort } from '../support/net.ts';
import { startRedis, type RedisServer } from '../support/redis.ts';
import { startRestServer, type RestServer } from '../support/upstash.ts';
import {
  ensurePlatformTools,
  platformProject,
  remaining,
  request,
  servesTheService,
  startPlatform,
  type RunningPlatform,
} from '../support/platforms.ts';

const UNSERVED = ['/nope', '/api', '/api/v2', '/api/v1/other', '/api/other', '/mcp/other', '/.env', '/index.html'];

/** A few function requests, each a new process. */
const SLOW = 120_000;

let redis: RedisServer;
let rest: RestServer;
let project: ReturnType<typeof platformProject>;
let vercel: RunningPlatform;

beforeAll(async () => {
  await ensurePlatformTools();
  redis = await startRedis();
  // Redis over HTTP, as the platform's marketplace store hands it out.
  rest = await startRestServer(redis.url());
  project = platformProject('vercel');
  const port = await freePort();
  // The function's variables, as the project's environment variables would give them on Vercel.
  const env = { KV_REST_API_URL: rest.url, KV_REST_API_TOKEN: rest.token, RATE_LIMIT_QUOTA: '1000', RATE_LIMIT_WINDOW_SECONDS: '3600' };
  vercel = await startPlatform('vercel', ['dev', '--local', '--yes', '--listen', `127.0.0.1:${port}`], {
    cwd: project.dir,
    env,
    ready: /Ready! Available at (http:\/\/\S+)/,
  });
}, 180_000);

afterAll(async () => {
  await vercel?.stop();
  await rest?.dispose();
  await redis?.dispose();
  project?.dispose();
});

describe('Vercel (vercel dev --local)', () => {
  servesTheService(() => vercel, "vercel.json routes, with {base} from Vercel's deployment URL");

  it(
    "counts in Redis over HTTP (the marketplace store's KV_REST_API_URL and KV_REST_API_TOKEN): the count in Redis is what the headers say",
    async () => {
      const from = '127.0.0.9';
      const answer = await request(`${vercel.url}/api/v1`, { from });
      const window = Date.now() - (Date.now() % 3_600_000);
      expect(Number((await rest.command('GET', `ratelimit:${window}:default:${from}`)).result)).toBe(1000 - remaining(answer));
      expect(JSON.parse((await request(`${vercel.url}/api/v1/health`)).text)).toMatchObject({ status: 'ok', redisMode: 'rest' });
    },
    SLOW,
  );

  it("leaves every other path to Vercel: its own 404, not the service's problem", async () => {
    for (const path of UNSERVED) {
      expect(isServedPath(path), path).toBe(false);
      const answer = await request(`${vercel.url}${path}`);
      expect(answer.status, path).toBe(404);
      expect(answer.headers['content-type'], path).not.toMatch(/problem\+json/);
      expect(answer.headers.ratelimit, path).toBeUndefined();
    }
  });

  it(
    'counts a client by the address Vercel saw (X-Real-IP): a forged X-Forwarded-For or X-Real-IP changes nothing',
    async () => {
      const first = remaining(await request(`${vercel.url}/api/v1`, { from: '127.0.0.3' }));
      expect(first).toBe(999);
      const forged = await request(`${vercel.url}/api/v1`, {
        from: '127.0.0.3',
        headers: { 'x-forwarded-for': '198.51.100.1', 'x-real-ip': '198.51.100.2' },
      });
      expect(remaining(forged)).toBe(first - 1);
      const again = await request(`${vercel.url}/api/v1`, { from: '127.0.0.3', headers: { 'x-forwarded-for': '198.51.100.3' } });
      expect(remaining(again)).toBe(first - 2);
      // Another connection address is another client, with a count of its own.
      expect(remaining(await request(`${vercel.url}/api/v1`, { from: '127.0.0.4' }))).toBe(999);
    },
    SLOW,
  );
});

describe('Vercel with a bad variable', () => {
  it(
    'fails the invocation with the one-block message naming the variable, and no stack trace',
    async () => {
      const port = await freePort();
      const refusing = await startPlatform('vercel', ['dev', '--local', '--yes', '--listen', `127.0.0.1:${port}`], {
        cwd: project.dir,
        env: { RATE_LIMIT_QUOTA: 'lots' },
        ready: /Ready! Available at (http:\/\/\S+)/,
      });
      try {
        const answer = await request(`${refusing.url}/api/v1`);
        // The function's process printed the block and exited 1: `vercel dev` had no response from it.
        expect(answer.status).toBe(502);
        expect(answer.headers.ratelimit).toBeUndefined();
        for (let tries = 0; tries < 50 && !refusing.output().includes('RATE_LIMIT_QUOTA'); tries++) await sleep(100);
        expect(refusing.output()).toContain('Invalid configuration:\n  RATE_LIMIT_QUOTA="lots": must be a whole number');
        // What follows the block is the next log line, not a stack trace (the CLI's own messages may carry theirs).
        const after = refusing.output().slice(refusing.output().indexOf('Invalid configuration:')).split('\n').slice(2, 4);
        expect(after.filter((line) => /^\s+at /.test(line))).toEqual([]);
      } finally {
        await refusing.stop();
      }
    },
    SLOW,
  );
});
