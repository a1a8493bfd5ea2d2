/**
 * Running it in production, against each real runtime entry: health never throttled, IPv6 clients
 * per /56 (in memory and in Redis), the access log, a slow oversized MCP body read to its 413,
 * SIGHUP reloading the facts, and a Redis outage logged once each way per instance.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sample from '../../src/facts/sample-facts.json' with { type: 'json' };
import { RUNTIMES, startEntry, type RunningEntry } from '../support/entries.ts';
import { eventually } from '../support/ratelimit.ts';
import { sleep } from '../support/net.ts';
import { startRedis, type RedisServer } from '../support/redis.ts';

const QUOTA = 5;
let nextAddress = 1;
/** A client address never used before in this run (10.0.0.1, 10.0.0.2, ...): a tight loop may send thousands. */
const freshAddress = () => {
  const n = nextAddress++;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
};

function get(base: string, path: string, from: string, method = 'GET') {
  return fetch(`${base}${path}`, { method, headers: { 'x-forwarded-for': from } });
}

function logLines(server: RunningEntry, from = 0): Record<string, any>[] {
  return server
    .output()
    .slice(from)
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line));
}

/** A 70 KiB MCP body with its Content-Length, written in 4 KiB pieces a few ms apart over a raw socket. */
function slowOversizedPost(base: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(base);
  const body = Buffer.alloc(70 * 1024, 'x');
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    let received = Buffer.alloc(0);
    let finished = false;
    const done = () => {
      const text = received.toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      const length = Number(/content-length: *(\d+)/i.exec(text.slice(0, end))?.[1] ?? NaN);
      if (end < 0 || received.length < end + 4 + length) return false;
      finished = true;
      socket.destroy();
      resolve({ status: Number(text.slice(9, 12)), body: text.slice(end + 4, end + 4 + length) });
      return true;
    };
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      done();
    });
    socket.on('error', (error) => finished || reject(error));
    socket.on('close', () => finished || done() || reject(new Error(`closed without a full answer: ${received.toString('latin1')}`)));
    socket.on('connect', async () => {
      socket.write(
        `POST /mcp HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nX-Forwarded-For: ${freshAddress()}\r\nConnection: close\r\n\r\n`,
      );
      for (let offset = 0; offset < body.length && !finished && !socket.destroyed; offset += 4096) {
        socket.write(body.subarray(offset, offset + 4096));
        await sleep(3);
      }
    });
  });
}

describe.each(RUNTIMES)('%s entry in production', (runtime) => {
  let server: RunningEntry;
  let base: string;
  const dir = mkdtempSync(join(tmpdir(), 'facts-'));
  const factsFile = join(dir, 'facts.json');

  beforeAll(async () => {
    writeFileSync(factsFile, JSON.stringify(sample));
    server = await startEntry(runtime, {
      RATE_LIMIT_QUOTA: String(QUOTA),
      RATE_LIMIT_WINDOW_SECONDS: '3600',
      TRUST_PROXY_HOPS: '1',
      ACCESS_LOG: 'json',
      FACTS_FILE: factsFile,
    });
    base = server.url;
  });
  afterAll(async () => {
    expect(await server?.stop()).toBe(0);
  });

  it('answers health 500 times from one address with a quota of 5, while the other routes hit 429', async () => {
    const from = freshAddress();
    for (let i = 0; i < 500; i += 10) {
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, j) => get(base, '/api/v1/health', from, (i + j) % 2 ? 'HEAD' : 'GET')),
      );
      for (const answer of answers) {
        expect(answer.status).toBe(200);
        expect(answer.headers.get('x-ratelimit-remaining')).toBe(String(QUOTA));
        await answer.arrayBuffer();
      }
    }
    const statuses = [];
    for (let i = 0; i <= QUOTA; i++) statuses.push((await get(base, '/api/v1/product', from)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    const health = await get(base, '/api/v1/health', from);
    expect([health.status, health.headers.get('x-ratelimit-remaining')]).toEqual([200, '0']);
  });

  it('counts IPv6 clients per /56 and IPv4-mapped ones as their IPv4 address', async () => {
    const statuses = async (addresses: string[]) => {
      const seen = [];
      for (const address of addresses) seen.push((await get(base, '/api/v1', address)).status);
      return seen;
    };
    expect(
      await statuses(['2001:db8:1:1::1', '2001:db8:1:1::1', '2001:db8:1:ff::2', '2001:db8:1:ff::2', '2001:db8:1:1::1', '2001:db8:1:ff::2']),
    ).toEqual([200, 200, 200, 200, 200, 429]);
    expect(await statuses(['2001:db8:2::1'])).toEqual([200]);
    expect(await statuses(['::ffff:192.0.2.1', '192.0.2.1', '::ffff:192.0.2.1', '192.0.2.1', '192.0.2.1', '::ffff:192.0.2.1'])).toEqual([
      200, 200, 200, 200, 200, 429,
    ]);
    const lines = logLines(server).filter((line) => line.event === 'request' && line.path === '/api/v1');
    expect(lines.map((line) => line.client)).toEqual(expect.arrayContaining(['2001:db8:1::/56', '2001:db8:2::/56', '192.0.2.1']));
  });

  it('writes one JSON access line per request', async () => {
    const before = server.output().length;
    const answer = await get(base, '/api/v1/product', freshAddress());
    expect(answer.status).toBe(200);
    expect(await eventually(async () => logLines(server, before).some((line) => line.event === 'request'))).toBe(true);
    const [line] = logLines(server, before).filter((entry) => entry.event === 'request');
    expect(line).toMatchObject({
      level: 'info',
      method: 'GET',
      path: '/api/v1/product',
      status: 200,
      requestId: expect.any(String),
      durationMs: expect.any(Number),
    });
    expect(Date.parse(line!.time)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('answers a slowly sent 70 KiB MCP body with the 413 problem, every time', async () => {
    for (let attempt = 0; attempt < 12; attempt++) {
      const answer = await slowOversizedPost(base);
      expect(answer.status, `attempt ${attempt + 1}`).toBe(413);
      expect(JSON.parse(answer.body).code).toBe('payload_too_large');
    }
  });

  it('reloads the facts on SIGHUP: a valid file switches REST, MCP and ETags together, a refused one changes nothing', async () => {
    const etags = async () => {
      const [product, problem] = await Promise.all([
        get(base, '/api/v1/product', freshAddress()),
        get(base, '/problems/rate_limited', freshAddress()),
      ]);
      return { product: product.headers.get('etag'), name: (await product.json()).product.name, problem: problem.headers.get('etag') };
    };
    const mcpName = async () => {
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_product_overview', arguments: {} } });
      const headers = { 'content-type': 'application/json', 'mcp-protocol-version': '2025-06-18', 'x-forwarded-for': freshAddress() };
      return (await (await fetch(`${base}/mcp`, { method: 'POST', headers, body })).json()).result.structuredContent.name;
    };
    const first = await etags();
    // Requests keep coming while the file is reloaded: none fails, each sees the old or the new facts.
    let loading = true;
    const seen: Array<{ status: number; etag: string | null; name: string }> = [];
    const load = (async () => {
      while (loading) {
        const answer = await get(base, '/api/v1/product', freshAddress());
        seen.push({ status: answer.status, etag: answer.headers.get('etag'), name: (await answer.json()).product.name });
      }
    })();

    const renamed = structuredClone(sample);
    renamed.product.name = 'Renamed Galleries';
    writeFileSync(factsFile, JSON.stringify(renamed));
    server.child.kill('SIGHUP');
    expect(await eventually(async () => (await etags()).name === 'Renamed Galleries')).toBe(true);
    const second = await etags();
    expect(await mcpName()).toBe('Renamed Galleries');
    expect(second.product).not.toBe(first.product);
    expect(second.problem).toBe(first.problem);

    const before = server.output().length;
    const refused = structuredClone(renamed);
    refused.product.name = 'Never Served';
    refused.resources[1]!.url = 'https://docs.example.com/?access_token=abc';
    writeFileSync(factsFile, JSON.stringify(refused));
    server.child.kill('SIGHUP');
    expect(await eventually(async () => logLines(server, before).some((line) => line.event === 'facts_refused'))).toBe(true);
    loading = false;
    await load;
    const refusal = logLines(server, before).find((line) => line.event === 'facts_refused')!;
    expect(refusal.reason).toContain('resources[1].url');
    expect(refusal.reason).toContain('access_token');
    expect(await etags()).toEqual(second);
    expect(await mcpName()).toBe('Renamed Galleries');

    expect(seen.length).toBeGreaterThan(0);
    for (const answer of seen) {
      expect(answer.status).toBe(200);
      // The ETag names exactly the facts served with it.
      expect([answer.etag, answer.name]).toEqual(
        answer.name === 'Renamed Galleries' ? [second.product, answer.name] : [first.product, sample.product.name],
      );
    }
  });
});

describe('Bun, Deno and Node instances sharing one Redis', () => {
  let redis: RedisServer;
  let servers: RunningEntry[];
  const health = async (server: RunningEntry) => (await (await get(server.url, '/api/v1/health', '192.0.2.254')).json()).status;

  beforeAll(async () => {
    redis = await startRedis();
    const env = { REDIS_URL: redis.url(), RATE_LIMIT_QUOTA: String(QUOTA), RATE_LIMIT_WINDOW_SECONDS: '3600', TRUST_PROXY_HOPS: '1' };
    servers = await Promise.all(RUNTIMES.map((runtime) => startEntry(runtime, env)));
    for (const server of servers) expect(await eventually(async () => (await health(server)) === 'ok')).toBe(true);
  });
  afterAll(async () => {
    await Promise.all((servers ?? []).map((server) => server.stop()));
    await redis?.dispose();
  });

  it('counts one IPv6 /56 across instances, and another /56 apart', async () => {
    const addresses = ['2001:db8:1:1::1', '2001:db8:1:ff::2', '2001:db8:1:1::1', '2001:db8:1:ff::2', '2001:db8:1:1::3', '2001:db8:1:ff::2'];
    const statuses = [];
    for (const [i, address] of addresses.entries()) statuses.push((await get(servers[i % servers.length]!.url, '/api/v1', address)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    expect((await get(servers[0]!.url, '/api/v1', '2001:db8:2::1')).status).toBe(200);
    expect((await get(servers[1]!.url, '/api/v1', '::ffff:192.0.2.77')).headers.get('x-ratelimit-remaining')).toBe('4');
    expect((await get(servers[2]!.url, '/api/v1', '192.0.2.77')).headers.get('x-ratelimit-remaining')).toBe('3');
  });

  it('logs losing and regaining Redis exactly once each per instance, under load', async () => {
    const from = servers.map((server) => server.output().length);
    let loading = true;
    const failures: string[] = [];
    const load = Promise.all(
      servers.map(async (server) => {
        while (loading) {
          const answer = await get(server.url, '/api/v1', freshAddress()).catch((error: Error) => error);
          if (answer instanceof Error) failures.push(answer.message);
          else await answer.arrayBuffer();
        }
      }),
    );
    await sleep(300);
    await redis.stop();
    await sleep(1500);
    await redis.start();
    for (const server of servers) expect(await eventually(async () => (await health(server)) === 'ok', 15_000)).toBe(true);
    await sleep(300);
    loading = false;
    await load;
    expect(failures).toEqual([]);
    for (const [i, server] of servers.entries()) {
      const lines = logLines(server, from[i]);
      const lost = lines.filter((line) => line.event === 'rate_limit_store_lost');
      const regained = lines.filter((line) => line.event === 'rate_limit_store_regained');
      expect(lost, `${RUNTIMES[i]} lost lines`).toHaveLength(1);
      expect(regained, `${RUNTIMES[i]} regained lines`).toHaveLength(1);
      expect(lost[0]).toMatchObject({ level: 'warn', failPolicy: 'open', store: 'redis' });
      expect(JSON.stringify(lost[0])).not.toContain(String(redis.port));
    }
  });
});
