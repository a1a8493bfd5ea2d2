/**
 * Netlify: `netlify dev --offline` (the platform's own local server, no login or link; it needs Node
 * 22, from npm) serves the function of deploy/netlify/ on exactly the paths its `config.path` lists;
 * any other path is the site's own. The quota is keyed by `context.ip` and counted in a real Redis reached over HTTP (the REST emulator),
 * as it would be across a site's function instances.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isServedPath } from '../../src/routes.ts';
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

const UNSERVED = ['/nope', '/api', '/api/v2', '/api/v1/other', '/mcp/other', '/.netlify/functions/product-discovery'];
/** A few function requests, each loading the service on a busy machine. */
const SLOW = 120_000;

let redis: RedisServer;
let rest: RestServer;
let project: ReturnType<typeof platformProject>;
let netlify: RunningPlatform;

beforeAll(async () => {
  await ensurePlatformTools();
  redis = await startRedis();
  // Redis over HTTP, as the platform's marketplace store hands it out.
  rest = await startRestServer(redis.url());
  project = platformProject('netlify');
  const port = await freePort();
  const env = {
    UPSTASH_REDIS_REST_URL: rest.url,
    UPSTASH_REDIS_REST_TOKEN: rest.token,
    RATE_LIMIT_QUOTA: '1000',
    RATE_LIMIT_WINDOW_SECONDS: '3600',
  };
  netlify = await startPlatform('netlify', ['dev', '--offline', '--internal-disable-edge-functions', '--port', String(port)], {
    cwd: project.dir,
    env,
    ready: /Local dev server ready: (http:\/\/\S+)/,
  });
}, 180_000);

afterAll(async () => {
  await netlify?.stop();
  await rest?.dispose();
  await redis?.dispose();
  project?.dispose();
});

describe('Netlify (netlify dev --offline)', () => {
  servesTheService(() => netlify, "config.path lists, with {base} from Netlify's URL", { getWithBody: false });

  it(
    "counts in Redis over HTTP (the integration's UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN): the count in Redis is what the headers say",
    async () => {
      const from = '127.0.0.9';
      const answer = await request(`${netlify.url}/api/v1`, { from });
      const window = Date.now() - (Date.now() % 3_600_000);
      expect(Number((await rest.command('GET', `ratelimit:${window}:default:${from}`)).result)).toBe(1000 - remaining(answer));
      expect(JSON.parse((await request(`${netlify.url}/api/v1/health`)).text)).toMatchObject({ status: 'ok', redisMode: 'rest' });
    },
    SLOW,
  );

  it(
    "leaves every other path to the site: Netlify's 404, not the service's problem",
    async () => {
      for (const path of UNSERVED) {
        expect(isServedPath(path), path).toBe(false);
        const answer = await request(`${netlify.url}${path}`);
        expect(answer.status, path).toBe(404);
        expect(answer.headers['content-type'] ?? '', path).not.toMatch(/problem\+json/);
        expect(answer.headers.ratelimit, path).toBeUndefined();
      }
    },
    SLOW,
  );

  it(
    'counts a client by context.ip, the address Netlify saw: a forged X-Forwarded-For changes nothing',
    async () => {
      const first = remaining(await request(`${netlify.url}/api/v1`, { from: '127.0.0.3' }));
      expect(first).toBe(999);
      const forged = await request(`${netlify.url}/api/v1`, {
        from: '127.0.0.3',
        headers: { 'x-forwarded-for': '198.51.100.1', 'x-real-ip': '198.51.100.2' },
      });
      expect(remaining(forged)).toBe(first - 1);
      // Another connection address is another client, with a count of its own.
      expect(remaining(await request(`${netlify.url}/api/v1`, { from: '127.0.0.4', headers: { 'x-forwarded-for': '127.0.0.3' } }))).toBe(
        999,
      );
    },
    SLOW,
  );
});
