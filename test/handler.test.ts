import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import pkg from '../package.json' with { type: 'json' };
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { factsJsonSchema } from '../src/api/facts-json-schema.ts';
import type { Handler } from '../src/handler.ts';
import { toResponse, type Answered } from '../src/http/answer.ts';
import { MemoryStore } from '../src/ratelimit/stores/memory.ts';
import type { CounterStore } from '../src/ratelimit/store.ts';
import { DOCS_ASSETS } from '../src/docs/assets.ts';
import { DOCS_ASSET_TEXT } from '../src/docs/generated/bodies.ts';
import { PROBLEM_CODES } from '../src/contract/problem-codes.ts';
import { PREFLIGHTS, WRONG_METHODS } from './support/cases.ts';
import { BASE, closeHandlers, get, makeHandler, sampleFacts } from './support/handler.ts';

const RATE_LIMIT_HEADERS = ['ratelimit-policy', 'ratelimit', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];

function expectEveryResponseHeaders(response: Response) {
  expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  expect(response.headers.get('access-control-allow-origin')).toBe('*');
  expect(response.headers.get('access-control-allow-credentials')).toBeNull();
  expect(response.headers.get('link')).toContain(`<${BASE}/openapi.json>; rel="service-desc"`);
  for (const name of RATE_LIMIT_HEADERS) expect(response.headers.get(name), name).not.toBeNull();
  expect(response.headers.get('access-control-expose-headers')).toContain('RateLimit-Policy');
}

async function expectProblem(response: Response, status: number, code: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
  expect(response.headers.get('cache-control')).toBe('no-store');
  expectEveryResponseHeaders(response);
  const body = await response.json();
  expect(body).toMatchObject({ type: `${BASE}/problems/${code}`, status, code });
  expect(body.title).toEqual(expect.any(String));
  expect(body.detail).toEqual(expect.any(String));
  expect(body.resolution).toEqual(expect.any(String));
  return body;
}

describe('handler', () => {
  let handle: Handler;
  beforeAll(async () => {
    handle = await makeHandler();
  });
  afterAll(() => handle.close());

  describe.each([
    ['/api/v1', 'public, max-age=60'],
    ['/api/v1/health', 'no-store'],
    ['/api/v1/product', 'public, max-age=60'],
    ['/openapi.json', 'public, max-age=60'],
    ['/problems/rate_limited', 'public, max-age=86400'],
  ])('GET %s', (path, cacheControl) => {
    it('answers 200 JSON with an ETag and the caching policy', async () => {
      const response = await handle(get(path));
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(response.headers.get('cache-control')).toBe(cacheControl);
      expect(response.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]+"$/);
      expectEveryResponseHeaders(response);
      const text = await response.text();
      expect(Number(response.headers.get('content-length'))).toBe(new TextEncoder().encode(text).byteLength);
      expect(() => JSON.parse(text)).not.toThrow();
    });

    it('answers HEAD with the GET headers and no body', async () => {
      const getResponse = await handle(get(path));
      const headResponse = await handle(get(path, { method: 'HEAD' }));
      expect(headResponse.status).toBe(200);
      expect(await headResponse.text()).toBe('');
      expect(headResponse.headers.get('content-length')).toBe(getResponse.headers.get('content-length'));
      expect(headResponse.headers.get('etag')).toBe(getResponse.headers.get('etag'));
    });

    it('answers a matching If-None-Match with 304 and no body', async () => {
      const etag = (await handle(get(path))).headers.get('etag')!;
      const response = await handle(get(path, { headers: { 'if-none-match': `"other", W/${etag}` } }));
      expect(response.status).toBe(304);
      expect(await response.text()).toBe('');
      expect(response.headers.get('etag')).toBe(etag);
      expect(response.headers.get('cache-control')).toBe(cacheControl);
      expect(response.headers.get('content-type')).toBeNull();
      expectEveryResponseHeaders(response);
    });

    it('answers a stale If-None-Match with 200', async () => {
      const response = await handle(get(path, { headers: { 'if-none-match': '"stale"' } }));
      expect(response.status).toBe(200);
    });
  });

  it('serves the JSON Schema of the facts file, which takes the sample facts and names its own URL', async () => {
    const response = await handle(get('/schemas/facts.json'));
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const schema = await response.json();
    expect(schema).toEqual(factsJsonSchema(BASE));
    expect(schema.$id).toBe(`${BASE}/schemas/facts.json`);
    const ajv = new Ajv2020({ strict: false });
    addFormats.default(ajv);
    const validate = ajv.compile(schema);
    expect(validate({ $schema: schema.$id, ...sampleFacts() }), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ ...sampleFacts(), unknown: true })).toBe(false);
  });

  it('serves the facts exactly as reviewed', async () => {
    const response = await handle(get('/api/v1/product?unknown=ignored'));
    expect(await response.json()).toEqual(sampleFacts());
  });

  it('lists every endpoint, the OpenAPI document and the MCP tools in the index', async () => {
    const index = await (await handle(get('/api/v1'))).json();
    expect(index.links).toEqual({
      self: `${BASE}/api/v1`,
      health: `${BASE}/api/v1/health`,
      product: `${BASE}/api/v1/product`,
      openapi: `${BASE}/openapi.json`,
      problems: `${BASE}/problems/api_route_not_found`,
      apiCatalog: `${BASE}/.well-known/api-catalog`,
      llmsTxt: `${BASE}/llms.txt`,
      mcpServerCard: `${BASE}/mcp/server-card`,
      docs: `${BASE}/docs`,
    });
    expect(index.mcp).toMatchObject({ url: `${BASE}/mcp`, transport: 'streamable-http' });
    expect(index.mcp.tools).toEqual(['get_product_overview', 'list_public_resources', 'list_start_options', 'search', 'fetch']);
    expect(index.mcp.protocolVersions).toContain('2026-07-28');
    expect(index.deprecation).toBeUndefined();
  });

  it('reports health ok with the memory store, the release, and which facts it serves since when', async () => {
    const before = Date.now();
    const fresh = await makeHandler();
    const body = await (await fresh(get('/api/v1/health'))).json();
    expect(body).toEqual({
      status: 'ok',
      version: pkg.version,
      rateLimitStore: 'memory',
      facts: { reviewedOn: sampleFacts().product.reviewedOn, loadedAt: expect.any(String) },
    });
    expect(Date.parse(body.facts.loadedAt)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(body.facts.loadedAt)).toBeLessThanOrEqual(Date.now());
  });

  it.each(PROBLEM_CODES)('describes the problem type %s at its type URI', async (code) => {
    const body = await (await handle(get(`/problems/${code}`))).json();
    expect(body).toMatchObject({ type: `${BASE}/problems/${code}`, code });
  });

  it.each(DOCS_ASSETS.map((asset) => [asset.path, asset] as const))(
    'serves %s byte for byte as its file, with its type',
    async (path, asset) => {
      const response = await handle(get(path));
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe(asset.contentType);
      expect(await response.text()).toBe(DOCS_ASSET_TEXT[asset.file]);
    },
  );

  it('gives the product in JSON, Markdown and plain text three ETags', async () => {
    const etags = await Promise.all(
      ['application/json', 'text/markdown', 'text/plain'].map(async (accept) =>
        (await handle(get('/api/v1/product', { headers: { accept } }))).headers.get('etag'),
      ),
    );
    expect(new Set(etags).size).toBe(3);
  });

  it('sends the OpenAPI document gzip-coded when accepted, with its own ETag', async () => {
    const plain = await handle(get('/openapi.json'));
    const coded = await handle(get('/openapi.json', { headers: { 'accept-encoding': 'br, gzip;q=0.8' } }));
    expect(coded.headers.get('content-encoding')).toBe('gzip');
    expect(coded.headers.get('vary')).toBe('Accept-Encoding');
    expect(plain.headers.get('vary')).toBe('Accept-Encoding');
    expect(coded.headers.get('etag')).not.toBe(plain.headers.get('etag'));
    const inflated = await new Response(coded.body!.pipeThrough(new DecompressionStream('gzip'))).text();
    expect(inflated).toBe(await plain.text());
    const refused = await handle(get('/openapi.json', { headers: { 'accept-encoding': 'gzip;q=0' } }));
    expect(refused.headers.get('content-encoding')).toBeNull();
  });

  it.each([
    '/api',
    '/api/v2',
    '/api/v1/products',
    '/openapi.yaml',
    '/problems/unknown',
    '/mcp/extra',
    '/docs/',
    '/docs/nope.js',
    '/index.html',
  ])('answers %s with the 404 problem', async (path) => {
    const body = await expectProblem(await handle(get(path)), 404, 'api_route_not_found');
    expect(body.detail).toContain('not part of the public contract');
    expect(body.resolution).toContain(`${BASE}/openapi.json`);
  });

  it.each(WRONG_METHODS)('answers %s %s with the 405 problem and Allow', async (method, path, allow) => {
    const response = await handle(get(path, { method }));
    expect(response.headers.get('allow')).toBe(allow);
    await expectProblem(response, 405, 'method_not_allowed');
  });

  it('answers a HEAD to an unknown path with a bodiless 404', async () => {
    const response = await handle(get('/nope', { method: 'HEAD' }));
    expect(response.status).toBe(404);
    expect(await response.text()).toBe('');
  });

  it.each(PREFLIGHTS)('answers a preflight on %s with 204, Allow and the CORS answer', async (path, allow) => {
    const response = await handle(
      get(path, {
        method: 'OPTIONS',
        headers: {
          origin: 'https://elsewhere.example.org',
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'if-none-match',
        },
      }),
    );
    expect(response.status).toBe(204);
    expect(response.headers.get('allow')).toBe(allow);
    expect(response.headers.get('access-control-allow-methods')).toBe(allow);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('access-control-allow-headers')).toBe('if-none-match');
    expectEveryResponseHeaders(response);
  });

  it('refuses a preflight to /mcp from an origin that is not allowed', async () => {
    const response = await handle(get('/mcp', { method: 'OPTIONS', headers: { origin: 'https://evil.example.org' } }));
    await expectProblem(response, 403, 'origin_not_allowed');
  });

  it('accepts a preflight to /mcp from its own origin', async () => {
    const response = await handle(get('/mcp', { method: 'OPTIONS', headers: { origin: BASE } }));
    expect(response.status).toBe(204);
    expect(response.headers.get('allow')).toBe('POST, OPTIONS');
  });

  it('answers a preflight to an unknown path with the 404 problem', async () => {
    await expectProblem(await handle(get('/nope', { method: 'OPTIONS' })), 404, 'api_route_not_found');
  });
});

describe('a failing route', () => {
  it('becomes a 500 problem with a request id, the usual headers and nothing internal', async () => {
    const handle = await makeHandler();
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const request = get('/api/v1/product');
    const read = request.headers.get.bind(request.headers);
    // A fault deep in the route's path: reading a conditional header throws.
    Object.defineProperty(request.headers, 'get', {
      value: (name: string) => {
        if (name === 'if-none-match') throw new Error('secret internal failure at /srv/app.ts:12');
        return read(name);
      },
    });
    const response = await handle(request);
    const body = await expectProblem(response, 500, 'internal_error');
    expect(body.instance).toMatch(/^urn:uuid:[0-9a-f-]{36}$/);
    expect(JSON.stringify(body)).not.toContain('secret');
    expect(JSON.stringify(body)).not.toContain('/srv/');
    expect(error).toHaveBeenCalledTimes(1);
    expect(String(error.mock.calls[0]![0])).toContain(body.instance.slice('urn:uuid:'.length));
    error.mockRestore();
    await handle.close();
  });
});

describe('an answer with nothing to wait for', () => {
  afterAll(closeHandlers);

  it('is given at once with the memory store, not as a promise, once the path was first served', async () => {
    const handler = await makeHandler();
    for (const path of ['/api/v1/product', '/nope']) {
      const first = await handler.answer(get(path));
      const again = handler.answer(get(path));
      expect(again, path).not.toBeInstanceOf(Promise);
      expect((again as Answered).status, path).toBe(first.status);
      expect(handler.inFlight, path).toBe(0);
    }
  });

  it('is a promise while the store answers later, and the same answer', async () => {
    const memory = new MemoryStore();
    const later: CounterStore = {
      kind: 'memory',
      increment: async (key, start, windowMs) => memory.increment(key, start, windowMs),
      current: async (key, start, windowMs) => memory.current(key, start, windowMs),
      close: async () => {},
    };
    const handler = await makeHandler({ rateLimit: { quota: 1_000_000, store: later } });
    await handler.answer(get('/api/v1/product'));
    const pending = handler.answer(get('/api/v1/product'));
    expect(pending).toBeInstanceOf(Promise);
    expect(handler.inFlight).toBe(1);
    const response = toResponse(await pending);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-ratelimit-remaining')).toBe('999998');
    expect(handler.inFlight).toBe(0);
  });

  it('becomes the 500 problem at once when a step throws', async () => {
    const handler = await makeHandler({ logger: () => {} });
    await handler.answer(get('/api/v1/product'));
    const request = get('/api/v1/product');
    Object.defineProperty(request.headers, 'get', {
      value: () => {
        throw new Error('a header read failed');
      },
    });
    const answered = handler.answer(request);
    expect(answered).not.toBeInstanceOf(Promise);
    expect((answered as Answered).status).toBe(500);
    expect(handler.inFlight).toBe(0);
  });
});

describe('reload', () => {
  afterAll(closeHandlers);

  it('switches REST, MCP, health and the ETags of what depends on the facts together; requests in between all succeed', async () => {
    const handler = await makeHandler({ logger: () => {} });
    const etag = async (path: string) => (await handler(get(path))).headers.get('etag');
    const mcpName = async () => {
      const body = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_product_overview', arguments: {} } };
      const headers = {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-06-18',
      };
      const answer = await (await handler(get('/mcp', { method: 'POST', headers, body: JSON.stringify(body) }))).json();
      return answer.result.structuredContent.name as string;
    };
    const before = { product: await etag('/api/v1/product'), problem: await etag('/problems/rate_limited'), index: await etag('/api/v1') };
    const next = sampleFacts();
    next.product.name = 'Renamed Galleries';
    next.product.reviewedOn = '2027-01-15';

    const statuses: number[] = [];
    const load = Promise.all(Array.from({ length: 200 }, async () => statuses.push((await handler(get('/api/v1/product'))).status)));
    await handler.reload(next);
    await load;
    expect(statuses.every((status) => status === 200)).toBe(true);

    expect((await (await handler(get('/api/v1/product'))).json()).product.name).toBe('Renamed Galleries');
    expect(await mcpName()).toBe('Renamed Galleries');
    expect((await (await handler(get('/api/v1/health'))).json()).facts.reviewedOn).toBe('2027-01-15');
    expect(await etag('/api/v1/product')).not.toBe(before.product);
    expect(await etag('/api/v1')).not.toBe(before.index);
    expect(await etag('/problems/rate_limited')).toBe(before.problem);
  });
});
