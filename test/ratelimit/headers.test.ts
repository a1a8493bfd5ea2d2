import { afterAll, describe, expect, it } from 'vitest';
import { EXPOSED } from '../support/cases.ts';
import type { Handler } from '../../src/handler.ts';
import { BASE, closeHandlers, makeHandler, send } from '../support/handler.ts';
import { awayFromWindowEdge, limits } from '../support/ratelimit.ts';
import { sleep } from '../support/net.ts';

const WINDOW = 3600;
let nextClient = 1;
/** A fresh client address per test, so tests never share a counter. */
const freshClient = () => `198.51.100.${nextClient++}`;

async function quotaFive(): Promise<Handler> {
  await awayFromWindowEdge(WINDOW);
  return makeHandler({ rateLimit: { quota: 5, windowSeconds: WINDOW } });
}

describe('rate-limit headers on every answer', () => {
  afterAll(closeHandlers);

  it('counts down 4, 3, 2, 1, 0, then answers 429 with Retry-After and violated-policies', async () => {
    const handler = await quotaFive();
    const address = freshClient();
    const seen = [];
    for (let i = 0; i < 5; i++) {
      const response = await send(handler, '/api/v1/product', { address });
      expect(response.status).toBe(200);
      const parsed = limits(response);
      expect(parsed.policy).toEqual({ name: 'default', q: 5, w: WINDOW });
      seen.push(parsed.remaining);
    }
    expect(seen).toEqual([4, 3, 2, 1, 0]);

    const sixth = await send(handler, '/api/v1/product', { address });
    const answeredAt = Date.now() / 1000;
    expect(sixth.status).toBe(429);
    expect(sixth.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(sixth.headers.get('cache-control')).toBe('no-store');
    const parsed = limits(sixth);
    expect(parsed.remaining).toBe(0);
    expect(parsed.rateLimit.r).toBe(0);

    const retryAfter = sixth.headers.get('retry-after');
    expect(retryAfter).toMatch(/^\d+$/);
    const seconds = Number(retryAfter);
    expect(seconds).toBeGreaterThanOrEqual(1);
    expect(seconds).toBeGreaterThanOrEqual(parsed.rateLimit.t);
    // Not earlier than the window's end: now + Retry-After reaches X-RateLimit-Reset.
    expect(answeredAt + seconds).toBeGreaterThanOrEqual(parsed.reset);

    const body = await sixth.json();
    expect(body).toMatchObject({
      type: `${BASE}/problems/rate_limited`,
      status: 429,
      code: 'rate_limited',
      title: 'Too many requests',
      'violated-policies': ['default'],
      retryAfter: seconds,
    });
    expect(body.detail).toContain(`${seconds} seconds`);
    expect(typeof body.resolution).toBe('string');

    // Still over: a seventh is refused too, and the headers still read 0.
    const seventh = await send(handler, '/api/v1', { address });
    expect(seventh.status).toBe(429);
    expect(limits(seventh).remaining).toBe(0);
  });

  it('does not count CORS preflights, which still carry the headers', async () => {
    const handler = await quotaFive();
    const address = freshClient();
    expect(limits(await send(handler, '/api/v1/product', { address })).remaining).toBe(4);
    for (const path of ['/api/v1/product', '/api/v1', '/mcp', '/openapi.json', '/no/such/path']) {
      const preflight = await send(handler, path, {
        address,
        method: 'OPTIONS',
        headers: { Origin: 'http://127.0.0.1:8787', 'Access-Control-Request-Method': 'GET' },
      });
      expect(preflight.status, `OPTIONS ${path}`).not.toBe(429);
      const parsed = limits(preflight);
      expect(parsed.remaining, `OPTIONS ${path}`).toBe(4);
      expect(parsed.policy.q).toBe(5);
    }
    expect((await send(handler, '/api/v1/product', { address, method: 'OPTIONS' })).status).toBe(204);
    expect(limits(await send(handler, '/api/v1/product', { address })).remaining).toBe(3);
  });

  it('does not count GET or HEAD of health, which still carry the headers, even far past the quota', async () => {
    const handler = await quotaFive();
    const address = freshClient();
    expect(limits(await send(handler, '/api/v1/product', { address })).remaining).toBe(4);
    for (let i = 0; i < 500; i++) {
      const method = i % 2 ? 'HEAD' : 'GET';
      const health = await send(handler, '/api/v1/health', { address, method });
      expect(health.status, `${method} health #${i + 1}`).toBe(200);
      expect(limits(health).remaining, `${method} health #${i + 1}`).toBe(4);
    }
    // Other methods on the health path are counted like any request.
    expect((await send(handler, '/api/v1/health', { address, method: 'POST' })).status).toBe(405);
    for (const remaining of [2, 1, 0]) expect(limits(await send(handler, '/api/v1', { address })).remaining).toBe(remaining);
    expect((await send(handler, '/api/v1/product', { address })).status).toBe(429);
    const health = await send(handler, '/api/v1/health', { address });
    expect(health.status).toBe(200);
    expect(limits(health).remaining).toBe(0);
  });

  it('counts errors, 304s, HEAD, /problems and /mcp, each carrying the headers', async () => {
    await awayFromWindowEdge(WINDOW);
    const handler = await makeHandler({ rateLimit: { quota: 20, windowSeconds: WINDOW } });
    const address = freshClient();
    const first = await send(handler, '/api/v1/product', { address });
    const etag = first.headers.get('etag');
    expect(etag).toBeTruthy();

    const requests: Array<[string, Parameters<typeof send>[2], number]> = [
      ['/no/such/path', {}, 404],
      ['/api/v1/nope', {}, 404],
      ['/api/v1/product', { method: 'DELETE' }, 405],
      ['/api/v1/product', { headers: { 'If-None-Match': etag! } }, 304],
      ['/api/v1/product', { method: 'HEAD' }, 200],
      ['/problems/rate_limited', {}, 200],
      ['/mcp', { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: 'hello' }, 415],
    ];
    let expected = 19;
    for (const [path, options, status] of requests) {
      const response = await send(handler, path, { address, ...options });
      expect(response.status, `${options?.method ?? 'GET'} ${path}`).toBe(status);
      expect(limits(response).remaining, `${options?.method ?? 'GET'} ${path} counted`).toBe(--expected);
    }
  });

  it('counts 404s towards the quota until they are refused with 429', async () => {
    const handler = await quotaFive();
    const address = freshClient();
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await send(handler, `/missing/${i}`, { address })).status);
    expect(statuses).toEqual([404, 404, 404, 404, 404, 429]);
    expect((await send(handler, '/api/v1', { address })).status).toBe(429);
  });

  it('starts over when a new window begins', async () => {
    const handler = await makeHandler({ rateLimit: { quota: 2, windowSeconds: 1 } });
    const address = freshClient();
    // Run until a full quota has been used up inside one window, then wait for the next one.
    let refused: Response | undefined;
    for (let attempt = 0; attempt < 10 && !refused; attempt++) {
      await sleep(1000 - (Date.now() % 1000) + 5); // the start of a window
      const responses = [];
      for (let i = 0; i < 3; i++) responses.push(await send(handler, '/api/v1', { address }));
      if (responses.map((r) => r.status).join() === '200,200,429') refused = responses[2];
    }
    expect(refused, 'three requests inside one 1-second window').toBeDefined();
    const { reset } = limits(refused!);
    const wait = reset * 1000 - Date.now();
    if (wait > 0) await sleep(wait + 20);

    const after = await send(handler, '/api/v1', { address });
    expect(after.status).toBe(200);
    const parsed = limits(after);
    expect(parsed.remaining).toBe(1);
    expect(parsed.reset).toBeGreaterThan(reset);
  });

  it('reports the defaults from the contract: 120 requests per 60 s', async () => {
    const handler = await makeHandler({ rateLimit: {} });
    const parsed = limits(await send(handler, '/api/v1', { address: freshClient() }));
    expect(parsed.policy).toEqual({ name: 'default', q: 120, w: 60 });
    expect(parsed.limit).toBe(120);
  });

  it('exposes the rate-limit headers to browsers', async () => {
    const handler = await quotaFive();
    const exposed = (await send(handler, '/api/v1', { address: freshClient() })).headers.get('access-control-expose-headers') ?? '';
    const names = exposed.split(',').map((name) => name.trim().toLowerCase());
    for (const name of EXPOSED.filter((name) => /rate|retry/i.test(name)).map((name) => name.toLowerCase())) {
      expect(names).toContain(name);
    }
  });
});

describe('failing closed with a store that is down', () => {
  afterAll(closeHandlers);

  it('answers 503 to everything but health, and health 200 degraded even past the quota', async () => {
    const down = {
      kind: 'redis' as const,
      increment: () => Promise.reject(new Error('down')),
      current: () => Promise.reject(new Error('down')),
      close: async () => {},
    };
    const handler = await makeHandler({ rateLimit: { quota: 2, windowSeconds: WINDOW, fail: 'closed', store: down } });
    const address = freshClient();
    for (let i = 0; i < 4; i++) {
      const product = await send(handler, '/api/v1/product', { address });
      expect(product.status).toBe(503);
      expect((await product.json()).code).toBe('service_unavailable');
      // The store may be back at once: a retry in a few seconds, not at the end of the hour-long window.
      expect(Number(product.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(Number(product.headers.get('retry-after'))).toBeLessThanOrEqual(5);
      expect(product.headers.get('cache-control')).toBe('no-store');
      const health = await send(handler, '/api/v1/health', { address });
      expect(health.status).toBe(200);
      expect((await health.json()).status).toBe('degraded');
    }
  });
});
