/**
 * What only the Worker has: the quota held in the RATE_LIMIT_COUNTER Durable Object across
 * isolates (two Workers in one workerd, built from the same bundle `wrangler deploy` uploads), the
 * memory store per isolate without that binding, the failure policy when the Durable Object throws
 * or never answers; and `npm run start:workers` refusing to start with one message naming the
 * variable or the file (a bad or busy PORT, a refused facts file), never a trace.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { Miniflare, type WorkerOptions } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../support/entries.ts';
import { sleep } from '../support/net.ts';
import { checkNetworkPolicies, POLICY_ENV } from '../support/ratelimit.ts';
import { startRedis, type RedisServer } from '../support/redis.ts';
import { startRestServer, type RestServer } from '../support/upstash.ts';

const QUOTA = 5;
// Windows start at multiples of their length since the epoch (src/ratelimit/limiter.ts). With one a
// day, a countdown falls in one window unless it starts in a day's last seconds; then it waits for
// the next day's window (see countdown), so the count never restarts halfway through.
const WINDOW_SECONDS = 86_400;
const COUNTDOWN_MARGIN_MS = 15_000;
const BASE = 'https://api.example.test';
const dir = mkdtempSync(join(tmpdir(), 'e2e-workers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A RateLimitCounter that throws or never answers on demand (POST /mode/...), as a third Worker. */
const FAILING_COUNTER = join(ROOT, 'test/fixtures/failing-counter.js');

/**
 * The counters behind RATE_LIMIT_COUNTER: the bundle's own Durable Object (in the first Worker),
 * the failing stand-in, or no binding at all.
 */
type Counters = 'durable-object' | 'failing' | 'none';

/** Two Workers (two isolates) from the one bundle; what workerd prints goes to `output` if given. */
function twoIsolates(
  script: string,
  counters: Counters,
  bindings: Record<string, string> = {},
  output?: (text: string) => void,
): Miniflare {
  const scriptName = counters === 'failing' ? 'counter' : 'first';
  const worker = (name: string): WorkerOptions => ({
    name,
    modules: [{ type: 'ESModule', path: script }],
    modulesRoot: dir,
    compatibilityDate: '2026-04-26',
    compatibilityFlags: ['nodejs_compat'],
    bindings: { RATE_LIMIT_QUOTA: String(QUOTA), RATE_LIMIT_WINDOW_SECONDS: String(WINDOW_SECONDS), PUBLIC_BASE_URL: BASE, ...bindings },
    durableObjects: counters === 'none' ? {} : { RATE_LIMIT_COUNTER: { className: 'RateLimitCounter', scriptName } },
  });
  const workers = [worker('first'), worker('second')];
  if (counters === 'failing') {
    workers.push({
      name: 'counter',
      modules: [{ type: 'ESModule', path: FAILING_COUNTER }],
      modulesRoot: dirname(FAILING_COUNTER),
      compatibilityDate: '2026-04-26',
    });
  }
  const handleRuntimeStdio =
    output &&
    ((...streams: NodeJS.ReadableStream[]) =>
      streams.forEach((stream) => {
        stream.on('data', (chunk) => output(String(chunk)));
      }));
  return new Miniflare({ host: '127.0.0.1', port: 0, cf: false, workers, ...(handleRuntimeStdio && { handleRuntimeStdio }) });
}

/** Makes every RateLimitCounter of the failing stand-in throw, hang, or count again. */
async function counterMode(mf: Miniflare, mode: 'throw' | 'hang' | 'count') {
  const response = await (await mf.getWorker('counter')).fetch(`http://counter.test/mode/${mode}`, { method: 'POST' });
  expect(response.status).toBe(204);
}

/** Collects what workerd prints; `logged(event)` are the JSON log lines of that event. */
function workerdOutput() {
  let text = '';
  return {
    output: (chunk: string) => void (text += chunk),
    logged: (event: string) => text.split('\n').filter((line) => line.includes(`"event":"${event}"`)),
  };
}

interface HealthBody {
  status: 'ok' | 'degraded';
  rateLimitStore?: string;
  redisMode?: string;
  reason?: string;
}

describe('the Worker in workerd (Miniflare)', () => {
  let script: string;

  beforeAll(async () => {
    await promisify(execFile)(join(ROOT, 'node_modules/.bin/wrangler'), ['deploy', '--dry-run', '--outdir', dir], {
      cwd: ROOT,
      env: { ...process.env, WRANGLER_SEND_METRICS: 'false', NO_COLOR: '1' },
    });
    script = join(dir, 'workers.js');
  });

  /** Requests from one client, alternating between the two isolates, each its own fetch call, all in one window. */
  async function countdown(mf: Miniflare, client: string, requests: number) {
    const left = WINDOW_SECONDS * 1000 - (Date.now() % (WINDOW_SECONDS * 1000));
    if (left < COUNTDOWN_MARGIN_MS) await sleep(left + 100);
    const isolates = [await mf.getWorker('first'), await mf.getWorker('second')];
    const replies: { status: number; remaining: string | null; policy: string | null; store: string | undefined; health: HealthBody }[] =
      [];
    for (let i = 0; i < requests; i++) {
      // Health is not counted, so the countdown goes through the API index; health names the store.
      const isolate = isolates[i % 2]!;
      const response = await isolate.fetch('http://worker.test/api/v1', { headers: { 'CF-Connecting-IP': client } });
      await response.arrayBuffer();
      const health = await isolate.fetch('http://worker.test/api/v1/health', { headers: { 'CF-Connecting-IP': client } });
      const body = (await health.json()) as HealthBody;
      expect(health.status).toBe(200);
      const [remaining, policy] = [response.headers.get('x-ratelimit-remaining'), response.headers.get('ratelimit-policy')];
      replies.push({ status: response.status, remaining, policy, store: body.rateLimitStore, health: body });
    }
    return replies;
  }

  /** Polls each isolate's health (whose uncounted read of the client's count starts the probe write when one is due) until it says ok. */
  async function backInEachIsolate(mf: Miniflare) {
    for (const name of ['first', 'second']) {
      const isolate = await mf.getWorker(name);
      await expect
        .poll(async () => ((await (await isolate.fetch('http://worker.test/api/v1/health')).json()) as HealthBody).status, {
          timeout: 5_000,
          interval: 100,
        })
        .toBe('ok');
    }
  }

  describe('with the RATE_LIMIT_COUNTER binding', () => {
    let mf: Miniflare;
    beforeAll(async () => {
      mf = twoIsolates(script, 'durable-object');
      await mf.ready;
    });
    afterAll(() => mf?.dispose());

    it(`counts one client across isolates 4..0, then 429, in the Durable Object store`, async () => {
      const replies = await countdown(mf, '198.51.100.7', QUOTA + 2);
      expect(replies.map((reply) => reply.status)).toEqual([200, 200, 200, 200, 200, 429, 429]);
      expect(replies.map((reply) => reply.remaining)).toEqual(['4', '3', '2', '1', '0', '0', '0']);
      expect(replies[0]!.store).toBe('durable-object');
      expect(replies[0]!.policy).toBe(`"default";q=${QUOTA};w=${WINDOW_SECONDS}`);
    });

    it('counts two CF-Connecting-IP addresses apart', async () => {
      const first = await countdown(mf, '198.51.100.8', 3);
      const second = await countdown(mf, '2001:db8::8', 2);
      expect(first.map((reply) => reply.remaining)).toEqual(['4', '3', '2']);
      expect(second.map((reply) => reply.remaining)).toEqual(['4', '3']);
    });
  });

  describe('with Redis over HTTP (RATE_LIMIT_REDIS_REST_URL and _TOKEN) beside the binding', () => {
    let mf: Miniflare;
    let redis: RedisServer;
    let rest: RestServer;
    beforeAll(async () => {
      redis = await startRedis();
      rest = await startRestServer(redis.url());
      mf = twoIsolates(script, 'durable-object', rest.env);
      await mf.ready;
    });
    afterAll(async () => {
      await mf?.dispose().catch(() => {});
      await rest?.dispose();
      await redis?.dispose();
    });

    it('counts one client across isolates in Redis, not in the Durable Object, and health says "rest"', async () => {
      const replies = await countdown(mf, '198.51.100.17', QUOTA + 1);
      expect(replies.map((reply) => reply.status)).toEqual([200, 200, 200, 200, 200, 429]);
      expect(replies[0]!.health).toMatchObject({ status: 'ok', rateLimitStore: 'redis', redisMode: 'rest' });
      const window = Date.now() - (Date.now() % (WINDOW_SECONDS * 1000));
      expect(Number((await rest.command('GET', `ratelimit:${window}:default:198.51.100.17`)).result)).toBe(QUOTA + 1);
    });

    it('with a refused token, logs the block naming the variable and answers the 503 problem, health saying why', async () => {
      let text = '';
      const refused = twoIsolates(script, 'none', { ...rest.env, RATE_LIMIT_REDIS_REST_TOKEN: 'wrong-token' }, (chunk) => (text += chunk));
      try {
        const worker = await refused.getWorker('first');
        const answer = await worker.fetch('http://worker.test/api/v1', { headers: { 'CF-Connecting-IP': '198.51.100.18' } });
        expect(answer.status).toBe(503);
        expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
        expect(((await answer.json()) as { type: string }).type).toBe(`${BASE}/problems/service_unavailable`);
        const health = (await (await worker.fetch('http://worker.test/api/v1/health')).json()) as HealthBody;
        expect(health).toMatchObject({ status: 'degraded', reason: expect.stringContaining('refused the configured token or URL') });
        for (let tries = 0; tries < 50 && !text.includes('RATE_LIMIT_REDIS_REST_TOKEN'); tries++) await sleep(100);
        expect(text).toMatch(
          /Invalid configuration:\n {2}RATE_LIMIT_REDIS_REST_TOKEN: the Redis REST server at .* refused the token \(HTTP 401\)/,
        );
        expect(text).not.toContain('wrong-token');
      } finally {
        await refused.dispose();
      }
    });
  });

  describe('{base}', () => {
    it('is PUBLIC_BASE_URL, whatever the URL and Host of the first request', async () => {
      const mf = twoIsolates(script, 'none');
      try {
        const first = await (await mf.getWorker('first')).fetch('http://forged.example/openapi.json', {
          headers: { host: 'forged.example' },
        });
        const text = await first.text();
        expect(JSON.parse(text).servers[0].url).toBe(BASE);
        expect(text).not.toContain('forged.example');
      } finally {
        await mf.dispose();
      }
    });

    it('is required: without PUBLIC_BASE_URL the Worker refuses to load, naming it', async () => {
      let text = '';
      const mf = twoIsolates(script, 'none', { PUBLIC_BASE_URL: '' }, (chunk) => (text += chunk));
      try {
        await expect(mf.ready).rejects.toThrow();
      } finally {
        await mf.dispose().catch(() => {});
      }
      expect(text).toContain('PUBLIC_BASE_URL is unset: on Workers it is required');
    });
  });

  describe('with per-network policies and the RATE_LIMIT_COUNTER binding', () => {
    let mf: Miniflare;
    beforeAll(async () => {
      mf = twoIsolates(script, 'durable-object', POLICY_ENV);
      await mf.ready;
    });
    afterAll(() => mf?.dispose());

    it('counts a listed network under its own policy across isolates, in the Durable Object store', async () => {
      const isolates = [await mf.getWorker('first'), await mf.getWorker('second')];
      let next = 0;
      await checkNetworkPolicies(async (address) => {
        const response = await isolates[next++ % 2]!.fetch('http://worker.test/api/v1', { headers: { 'CF-Connecting-IP': address } });
        return response as unknown as Response;
      });
    });
  });

  describe('without the binding', () => {
    let mf: Miniflare;
    beforeAll(async () => {
      mf = twoIsolates(script, 'none');
      await mf.ready;
    });
    afterAll(() => mf?.dispose());

    it('counts in memory per isolate (the quota is not shared), and health says "memory"', async () => {
      const replies = await countdown(mf, '198.51.100.9', 4);
      expect(replies.map((reply) => reply.remaining)).toEqual(['4', '4', '3', '3']);
      expect(replies[0]!.store).toBe('memory');
    });
  });

  describe('when the Durable Object fails, failing open (the default)', () => {
    let mf: Miniflare;
    const { output, logged } = workerdOutput();
    beforeAll(async () => {
      mf = twoIsolates(script, 'failing', {}, output);
      await mf.ready;
    });
    afterAll(() => mf?.dispose());

    it('keeps answering, counts in memory per isolate, and health says "degraded" with the reason', async () => {
      await counterMode(mf, 'throw');
      const replies = await countdown(mf, '198.51.100.10', 4);
      expect(replies.map((reply) => reply.status)).toEqual([200, 200, 200, 200]);
      expect(replies.map((reply) => reply.remaining)).toEqual(['4', '4', '3', '3']);
      for (const { health } of replies) {
        expect(health).toMatchObject({ status: 'degraded', rateLimitStore: 'durable-object' });
        expect(health.reason).toMatch(/Durable Object call failed \(Error\).*counting in memory per instance/);
      }
    });

    it('counts in the Durable Object again once it answers, logging the loss and the return once in each isolate', async () => {
      await counterMode(mf, 'count');
      // A probe write, once a second while the store is down, finds it back.
      await backInEachIsolate(mf);
      const replies = await countdown(mf, '198.51.100.11', 4);
      expect(replies.map((reply) => reply.remaining)).toEqual(['4', '3', '2', '1']);
      expect(replies.map((reply) => reply.health.status)).toEqual(['ok', 'ok', 'ok', 'ok']);
      // Four failed counts and four failed health reads in the first test, yet one line per isolate.
      await expect.poll(() => logged('rate_limit_store_regained').length).toBe(2);
      expect(logged('rate_limit_store_lost')).toHaveLength(2);
      for (const line of logged('rate_limit_store_lost')) expect(line).toContain('"failPolicy":"open"');
    });
  });

  describe('when the Durable Object never answers, failing closed', () => {
    let mf: Miniflare;
    const { output, logged } = workerdOutput();
    beforeAll(async () => {
      mf = twoIsolates(script, 'failing', { RATE_LIMIT_FAIL: 'closed' }, output);
      await mf.ready;
    });
    afterAll(() => mf?.dispose());

    it('answers 503 service_unavailable with a short Retry-After after the 1 s bound, and health 200 "degraded"', async () => {
      await counterMode(mf, 'hang');
      const replies = await countdown(mf, '198.51.100.12', 2);
      expect(replies.map((reply) => reply.status)).toEqual([503, 503]);
      const isolate = await mf.getWorker('second');
      const refused = await isolate.fetch('http://worker.test/api/v1/product', { headers: { 'CF-Connecting-IP': '198.51.100.12' } });
      expect(refused.status).toBe(503);
      expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(await refused.json()).toMatchObject({ status: 503, code: 'service_unavailable' });
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(5);
      for (const { health } of replies) {
        expect(health).toMatchObject({ status: 'degraded', rateLimitStore: 'durable-object' });
        expect(health.reason).toMatch(/did not answer within 1000 ms.*failing closed/);
      }
    });

    it('serves again once the Durable Object answers', async () => {
      await counterMode(mf, 'count');
      await backInEachIsolate(mf);
      const replies = await countdown(mf, '198.51.100.13', 2);
      expect(replies.map((reply) => reply.status)).toEqual([200, 200]);
      expect(replies.map((reply) => reply.remaining)).toEqual(['4', '3']);
      expect(replies[1]!.health.status).toBe('ok');
      await expect.poll(() => logged('rate_limit_store_regained').length).toBe(2);
      expect(logged('rate_limit_store_lost')).toHaveLength(2);
      for (const line of logged('rate_limit_store_lost')) expect(line).toContain('"failPolicy":"closed"');
    });
  });
});

/** `npm run start:workers` as a user runs it, expected to refuse to start. */
async function refusedStart(env: Record<string, string>) {
  const child = spawn('npm', ['run', '--silent', 'start:workers'], {
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const code = await new Promise<number | null>((resolve) => child.on('exit', (exitCode) => resolve(exitCode)));
  clearTimeout(timer);
  // One block naming the variable or the file: no trace from workerd, Miniflare or Node.
  expect(output).not.toMatch(/kj::Exception|MiniflareCoreError|Uncaught|^\s+at .+[:(]\d+/m);
  expect(output).not.toMatch(/Serving /);
  return { code, output };
}

describe('npm run start:workers refusing to start', () => {
  it('names PORT when it is not a number, before Miniflare sees it', async () => {
    const { code, output } = await refusedStart({ PORT: 'eighty' });
    expect(code).toBe(1);
    expect(output).toContain('Invalid configuration:\n  PORT="eighty": must be a whole number from 0 to 65535\n');
  });

  it('names PORT when the port is already in use', async () => {
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const { port } = busy.address() as AddressInfo;
    try {
      const { code, output } = await refusedStart({ PORT: String(port) });
      expect(code).toBe(1);
      expect(output).toContain(
        `Cannot listen:\n  PORT="${port}": port ${port} is already in use on 127.0.0.1; stop the process that holds it or choose another PORT (0 = any free port).\n`,
      );
    } finally {
      busy.close();
    }
  });

  it('names the facts file and the field it refuses', async () => {
    const facts = JSON.parse(readFileSync(`${ROOT}src/facts/sample-facts.json`, 'utf8'));
    facts.resources[1].url = 'https://editor:hunter2-pass@docs.example.com/';
    const path = join(dir, 'credential.json');
    writeFileSync(path, JSON.stringify(facts));
    const { code, output } = await refusedStart({ FACTS_FILE: path, PORT: '0' });
    expect(code).toBe(1);
    expect(output).toContain(
      `Facts file ${path} was refused:\n  resources[1].url: URL carries user info; remove the user name and password from it\n`,
    );
    expect(output).not.toContain('hunter2-pass');
  });

  it('names the line and column of a facts file that is not JSON', async () => {
    const path = join(dir, 'broken.json');
    writeFileSync(path, '{\n  "product": {\n');
    const { code, output } = await refusedStart({ FACTS_FILE: path, PORT: '0' });
    expect(code).toBe(1);
    expect(output).toContain(`Facts file ${path} is not valid JSON at line 3, column 1:`);
  });

  it('names PUBLIC_BASE_URL with user information, never echoing it', async () => {
    const { code, output } = await refusedStart({ PUBLIC_BASE_URL: 'https://user:secret@api.example.com', PORT: '0' });
    expect(code).toBe(1);
    expect(output).toContain('Invalid configuration:\n  PUBLIC_BASE_URL="https://***@api.example.com": must not carry user information');
    expect(output).not.toContain('secret');
  });

  it("prints the Worker's own refusal of a binding without the trace", async () => {
    const { code, output } = await refusedStart({ REDIS_URL: 'redis://127.0.0.1:6379', PORT: '0' });
    expect(code).toBe(1);
    expect(output).toContain('Invalid configuration:\n  REDIS_URL is not used on Workers');
  });
});
