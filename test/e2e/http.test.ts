/**
 * The HTTP contract (/work/shared/CONTRACT.md), checked end to end against the real Bun, Deno and
 * Node entries: the same requests and the same expectations on every runtime.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { parseItem } from 'structured-headers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ENTITY_TAG,
  expectCacheControl,
  expectEveryResponseHeaders,
  expectHeadMatchesGet,
  expectMediaType,
  expectProblem,
  inOneWindow,
  openApiValidator,
  parseLinks,
  PROBLEMS,
  rateLimit,
  send,
  sendRaw,
  strings,
  tokens,
  type Reply,
} from '../support/e2e.ts';
import { DOCS_ASSETS } from '../../src/docs/assets.ts';
import { PREFLIGHTS, WRONG_METHODS } from '../support/cases.ts';
import { ENTRIES, ROOT, startEntry, type RunningEntry } from '../support/entries.ts';

const QUOTA = 1_000_000;
const SAMPLE_FACTS = JSON.parse(readFileSync(`${ROOT}src/facts/sample-facts.json`, 'utf8'));

const JSON_TYPES = ['application/json'];
const OPENAPI_TYPES = ['application/json', 'application/openapi+json'];

interface Resource {
  path: string;
  /** The OpenAPI path template of the operation. */
  operation: string;
  cacheControl: string;
  mediaTypes: string[];
  /** The body is text, not JSON. */
  text?: boolean;
  check(body: any, base: string, headers: Record<string, string>): void;
}

const RESOURCES: Resource[] = [
  {
    path: '/api/v1',
    operation: '/api/v1',
    cacheControl: 'public, max-age=60',
    mediaTypes: JSON_TYPES,
    check(body, base) {
      expect(typeof body.name).toBe('string');
      expect(strings(body)).toEqual(
        expect.arrayContaining([
          `${base}/api/v1/health`,
          `${base}/api/v1/product`,
          `${base}/openapi.json`,
          `${base}/mcp`,
          `${base}/.well-known/api-catalog`,
          `${base}/llms.txt`,
          `${base}/mcp/server-card`,
          'get_product_overview',
          'list_public_resources',
          'list_start_options',
        ]),
      );
    },
  },
  {
    path: '/api/v1/health',
    operation: '/api/v1/health',
    cacheControl: 'no-store',
    mediaTypes: JSON_TYPES,
    check(body) {
      expect(body.status).toBe('ok');
    },
  },
  {
    path: '/api/v1/product',
    operation: '/api/v1/product',
    cacheControl: 'public, max-age=60',
    mediaTypes: JSON_TYPES,
    check(body) {
      // The facts file has exactly the layout of the body: what is reviewed is what is served.
      expect(body).toEqual(SAMPLE_FACTS);
    },
  },
  {
    path: '/openapi.json',
    operation: '/openapi.json',
    cacheControl: 'public, max-age=60',
    mediaTypes: OPENAPI_TYPES,
    check(body, base) {
      expect(body.openapi).toMatch(/^3\.1\./);
      expect(body.servers[0].url).toBe(base);
      expect(Object.keys(body.paths)).toEqual(
        expect.arrayContaining(['/api/v1', '/api/v1/health', '/api/v1/product', '/openapi.json', '/mcp']),
      );
    },
  },
  {
    path: '/.well-known/api-catalog',
    operation: '/.well-known/api-catalog',
    cacheControl: 'public, max-age=60',
    mediaTypes: ['application/linkset+json'],
    check(body, base, headers) {
      expect(headers['content-type']).toBe('application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"');
      expect(parseLinks(headers.link)).toContainEqual({
        uri: `${base}/.well-known/api-catalog`,
        params: { rel: 'api-catalog', type: 'application/linkset+json' },
      });
      expect(body.linkset[0].anchor).toBe(`${base}/api/v1`);
      expect(body.linkset[0]['service-desc']).toEqual([{ href: `${base}/openapi.json`, type: 'application/json' }]);
    },
  },
  {
    path: '/llms.txt',
    operation: '/llms.txt',
    cacheControl: 'public, max-age=60',
    mediaTypes: ['text/markdown'],
    text: true,
    check(body, base) {
      expect(body).toMatch(new RegExp(`^# ${SAMPLE_FACTS.product.name}\n\n> `));
      expect(body).toContain(`](${base}/openapi.json): `);
    },
  },
  {
    path: '/mcp/server-card',
    operation: '/mcp/server-card',
    cacheControl: 'public, max-age=60',
    mediaTypes: ['application/mcp-server-card+json'],
    check(body, base) {
      expect(body.remotes).toEqual([
        { type: 'streamable-http', url: `${base}/mcp`, supportedProtocolVersions: expect.arrayContaining(['2026-07-28']) },
      ]);
    },
  },
  {
    path: '/',
    operation: '/',
    cacheControl: 'public, max-age=60',
    mediaTypes: JSON_TYPES,
    check(body, base) {
      expect(Object.values(body.links)).toEqual(
        expect.arrayContaining([`${base}/api/v1`, `${base}/docs`, `${base}/openapi.json`, `${base}/mcp`]),
      );
    },
  },
  {
    path: '/robots.txt',
    operation: '/robots.txt',
    cacheControl: 'public, max-age=60',
    mediaTypes: ['text/plain'],
    text: true,
    check(body) {
      expect(body).toMatch(/^User-agent: \*$/m);
      expect(body).toMatch(/^Content-Signal: /m);
    },
  },
  {
    path: '/llms-full.txt',
    operation: '/llms-full.txt',
    cacheControl: 'public, max-age=60',
    mediaTypes: ['text/markdown'],
    text: true,
    check(body) {
      expect(body).toMatch(new RegExp(`^# ${SAMPLE_FACTS.product.name}\n\n> `));
      expect(body).toContain(SAMPLE_FACTS.product.reviewedOn);
    },
  },
  {
    path: '/.well-known/mcp/server-card.json',
    operation: '/.well-known/mcp/server-card.json',
    cacheControl: 'public, max-age=60',
    mediaTypes: ['application/mcp-server-card+json'],
    check(body, base) {
      expect(body.remotes).toEqual([
        { type: 'streamable-http', url: `${base}/mcp`, supportedProtocolVersions: expect.arrayContaining(['2026-07-28']) },
      ]);
    },
  },
  {
    path: '/docs',
    operation: '/docs',
    cacheControl: 'public, max-age=60',
    mediaTypes: ['text/html'],
    text: true,
    check(body) {
      expect(body).toMatch(/^<!doctype html>/i);
    },
  },
  {
    path: '/sitemap.xml',
    operation: '/sitemap.xml',
    cacheControl: 'public, max-age=60',
    mediaTypes: ['application/xml'],
    text: true,
    check(body, base) {
      expect(body).toContain(`<url><loc>${base}/</loc><lastmod>${SAMPLE_FACTS.product.reviewedOn}</lastmod></url>`);
    },
  },
  {
    path: '/skill.md',
    operation: '/skill.md',
    cacheControl: 'public, max-age=60',
    mediaTypes: ['text/markdown'],
    text: true,
    check(body) {
      expect(body).toMatch(/^---\nname: product-discovery\ndescription: /);
    },
  },
  {
    path: '/.well-known/agent-skills/product-discovery/SKILL.md',
    operation: '/.well-known/agent-skills/{name}/SKILL.md',
    cacheControl: 'public, max-age=60',
    mediaTypes: ['text/markdown'],
    text: true,
    check(body) {
      expect(body).toMatch(/^---\nname: product-discovery\ndescription: /);
    },
  },
  {
    path: '/.well-known/agent-skills/index.json',
    operation: '/.well-known/agent-skills/index.json',
    cacheControl: 'public, max-age=60',
    mediaTypes: JSON_TYPES,
    check(body, base) {
      expect(body.skills).toEqual([
        expect.objectContaining({ name: 'product-discovery', url: `${base}/.well-known/agent-skills/product-discovery/SKILL.md` }),
      ]);
    },
  },
  // The page's files: fingerprinted names, so they may be kept for a year and never revalidated.
  ...DOCS_ASSETS.map(({ path, contentType }) => ({
    path,
    operation: '/docs/{asset}',
    cacheControl: 'public, max-age=31536000, immutable',
    mediaTypes: [contentType.split(';')[0]!],
    text: true,
    check(body: string) {
      expect(body.length).toBeGreaterThan(0);
    },
  })),
  ...Object.entries(PROBLEMS).map(([code, { status, title }]) => ({
    path: `/problems/${code}`,
    operation: '/problems/{code}',
    cacheControl: 'public, max-age=86400',
    mediaTypes: JSON_TYPES,
    check(body: any, base: string) {
      expect(body).toMatchObject({ type: `${base}/problems/${code}`, code, status, title });
    },
  })),
];

describe.each(ENTRIES)('%s entry: HTTP contract', (runtime) => {
  let server: RunningEntry;
  let base: string;
  let validate: ReturnType<typeof openApiValidator>;
  const url = (path: string) => `${base}${path}`;

  beforeAll(async () => {
    server = await startEntry(runtime, { RATE_LIMIT_QUOTA: String(QUOTA) });
    base = server.url;
    validate = openApiValidator((await send(url('/openapi.json'))).json());
  });
  afterAll(async () => {
    expect(await server?.stop()).toBe(0);
  });

  // Field names are case-insensitive, but a reader of the raw answer (curl -i) sees them as sent.
  it.each([
    ['/api/v1/product', ['ETag', 'Cache-Control', 'Content-Type']],
    ['/nope', ['Cache-Control', 'Content-Type']],
  ])('GET %s writes the header names as the contract spells them', async (path, own) => {
    const { names } = await sendRaw(base, 'GET', path);
    const spelled = ['RateLimit-Policy', 'RateLimit', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Link'];
    spelled.push('X-Content-Type-Options', 'Access-Control-Allow-Origin', 'Access-Control-Expose-Headers', ...own);
    expect(names).toEqual(expect.arrayContaining(spelled));
  });

  describe.each(RESOURCES)('$path', (resource) => {
    it('GET answers 200 with the typed JSON body, an ETag, its Cache-Control and every-response headers', async () => {
      const response = await send(url(resource.path));
      expect(response.status).toBe(200);
      expectMediaType(response.headers, ...resource.mediaTypes);
      expect(response.headers['content-encoding']).toBeUndefined();
      expect(response.headers.etag).toMatch(ENTITY_TAG);
      expectCacheControl(response.headers, resource.cacheControl);
      expectEveryResponseHeaders(response, base, QUOTA);
      expect(response.headers.deprecation, 'no Deprecation while none is configured').toBeUndefined();
      expect(response.headers.sunset).toBeUndefined();
      const body = resource.text ? response.text() : response.json();
      const mediaType = response.headers['content-type']!.split(';')[0]!.trim().toLowerCase();
      validate.response(resource.operation, 'get', 200, mediaType, body);
      resource.check(body, base, response.headers);
    });

    it('HEAD answers as GET without a body; Content-Length is the GET length or absent', async () => {
      const get = await send(url(resource.path));
      const head = await sendRaw(base, 'HEAD', resource.path);
      expect(head.status).toBe(200);
      expectHeadMatchesGet(head, get);
      expect(head.headers['content-type']).toBe(get.headers['content-type']);
      expect(head.headers.etag).toBe(get.headers.etag);
      expectCacheControl(head.headers, resource.cacheControl);
      expectEveryResponseHeaders(head, base, QUOTA);
    });

    it('If-None-Match with the ETag answers 304 with the ETag, Cache-Control and every-response headers', async () => {
      const get = await send(url(resource.path));
      const etag = get.headers.etag!;
      for (const method of ['GET', 'HEAD']) {
        const notModified = await sendRaw(base, method, resource.path, { 'If-None-Match': etag });
        expect(notModified.status, `${method} with If-None-Match`).toBe(304);
        expect(notModified.body.byteLength, 'a 304 has no body').toBe(0);
        // RFC 9110 section 8.6: only the length a 200 would have, if any (never a Content-Length: 0).
        const length = notModified.headers['content-length'];
        if (length !== undefined) expect(length, '304 Content-Length').toBe(String(get.body.byteLength));
        expect(notModified.headers.etag).toBe(etag);
        expectCacheControl(notModified.headers, resource.cacheControl);
        expectEveryResponseHeaders(notModified, base, QUOTA);
      }
      // RFC 9110 section 13.1.2: a list, and the weak comparison.
      expect((await send(url(resource.path), { headers: { 'If-None-Match': `"other", ${etag}` } })).status).toBe(304);
      expect((await send(url(resource.path), { headers: { 'If-None-Match': `W/${etag.replace(/^W\//, '')}` } })).status).toBe(304);
      const changed = await send(url(resource.path), { headers: { 'If-None-Match': '"not-the-current-etag"' } });
      expect(changed.status).toBe(200);
      expect(changed.body).toEqual(get.body);
    });
  });

  it('ignores unknown query parameters', async () => {
    const plain = await send(url('/api/v1/product'));
    const withQuery = await send(url('/api/v1/product?token=abc&utm_source=x'));
    expect(withQuery.status).toBe(200);
    expect(withQuery.body).toEqual(plain.body);
    expect(withQuery.headers.etag).toBe(plain.headers.etag);
  });

  describe('content coding of /openapi.json', () => {
    it('is gzip when Accept-Encoding admits it, decoding (once) to the identity body, with Vary', async () => {
      const identity = await send(url('/openapi.json'));
      const gzip = await send(url('/openapi.json'), { headers: { 'Accept-Encoding': 'gzip' } });
      expect(gzip.status).toBe(200);
      expect(gzip.headers['content-encoding']).toBe('gzip');
      expect(tokens(gzip.headers.vary)).toContain('accept-encoding');
      expectMediaType(gzip.headers, ...OPENAPI_TYPES);
      expect(gzip.body.byteLength).toBeLessThan(identity.body.byteLength);
      if (gzip.headers['content-length'] !== undefined) expect(gzip.headers['content-length']).toBe(String(gzip.body.byteLength));
      // Decoded once, it is the identity body byte for byte: not compressed twice (Deno compresses on its own).
      const decoded = gunzipSync(gzip.body);
      expect(decoded.equals(identity.body), 'gunzip(gzip body) equals the identity body').toBe(true);
      // RFC 9110 section 8.8.3: another coding is another representation, so not the identity's strong ETag.
      expect(gzip.headers.etag).toMatch(ENTITY_TAG);
      expect(gzip.headers.etag).not.toBe(identity.headers.etag);
      expectCacheControl(gzip.headers, 'public, max-age=60');
      expectEveryResponseHeaders(gzip, base, QUOTA);
    });

    it('HEAD with Accept-Encoding: gzip has no body and the gzip GET length (or none)', async () => {
      const get = await send(url('/openapi.json'), { headers: { 'Accept-Encoding': 'gzip' } });
      const head = await sendRaw(base, 'HEAD', '/openapi.json', { 'Accept-Encoding': 'gzip' });
      expect(head.status).toBe(200);
      expect(head.headers['content-encoding']).toBe('gzip');
      expectHeadMatchesGet(head, get);
    });

    it('answers 304 to If-None-Match with the gzip ETag', async () => {
      const get = await send(url('/openapi.json'), { headers: { 'Accept-Encoding': 'gzip' } });
      const notModified = await send(url('/openapi.json'), {
        headers: { 'Accept-Encoding': 'gzip', 'If-None-Match': get.headers.etag! },
      });
      expect(notModified.status).toBe(304);
      expect(notModified.headers.etag).toBe(get.headers.etag);
      expect(tokens(notModified.headers.vary)).toContain('accept-encoding');
      expectEveryResponseHeaders(notModified, base, QUOTA);
    });

    // Cloudflare's edge (which Miniflare emulates in front of the Worker) codes the answer in br
    // itself for a client that prefers br: that choice is the platform's, not the handler's.
    const edgeBrotli = runtime === 'workers' ? ' (skipped on Workers: the edge answers a br client with br)' : '';
    async function expectGzip(acceptEncoding: string) {
      const identity = await send(url('/openapi.json'));
      const response = await send(url('/openapi.json'), { headers: { 'Accept-Encoding': acceptEncoding } });
      expect(response.status).toBe(200);
      expect(response.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(response.body).equals(identity.body)).toBe(true);
    }

    it.each(['GZIP', 'deflate, gzip', 'gzip;q=0.5, identity;q=0.1', 'gzip, *;q=0'])('is gzip with Accept-Encoding: %s', expectGzip);

    it.skipIf(edgeBrotli)(`is gzip with Accept-Encoding: br;q=1, gzip;q=0.8${edgeBrotli}`, () => expectGzip('br;q=1, gzip;q=0.8'));

    // RFC 9110 section 12.5.3: a coding named explicitly takes precedence over "*", whatever the order.
    it('is not gzip with Accept-Encoding: *, gzip;q=0 (gzip explicitly refused)', async () => {
      const response = await send(url('/openapi.json'), { headers: { 'Accept-Encoding': '*, gzip;q=0' } });
      expect(response.headers['content-encoding'] ?? 'identity').not.toBe('gzip');
    });

    it('is gzip with Accept-Encoding: *;q=0, gzip (identity excluded, gzip acceptable)', async () => {
      const response = await send(url('/openapi.json'), { headers: { 'Accept-Encoding': '*;q=0, gzip' } });
      expect(response.headers['content-encoding']).toBe('gzip');
    });

    async function expectIdentity(acceptEncoding: string | undefined) {
      const response = await send(url('/openapi.json'), { headers: acceptEncoding ? { 'Accept-Encoding': acceptEncoding } : {} });
      expect(response.status).toBe(200);
      expect(response.headers['content-encoding'] ?? 'identity').toBe('identity');
      expect(tokens(response.headers.vary)).toContain('accept-encoding');
      expect(response.json().openapi).toMatch(/^3\.1\./);
    }

    it.each([
      ['no Accept-Encoding', undefined],
      ['Accept-Encoding: identity', 'identity'],
      ['Accept-Encoding: gzip;q=0', 'gzip;q=0'],
    ])('is identity with %s, with Vary: Accept-Encoding', (_, acceptEncoding) => expectIdentity(acceptEncoding));

    it.skipIf(edgeBrotli)(`is identity with Accept-Encoding: br, with Vary: Accept-Encoding${edgeBrotli}`, () => expectIdentity('br'));
  });

  describe('unknown paths', () => {
    it.each([
      '/api',
      '/api/',
      '/api/v2',
      '/api/v1/nope',
      '/api/v1/products',
      '/openapi.yaml',
      '/problems/nope',
      '/mcp/x',
      '/index.html',
      '/docs/',
      '/docs/x',
      '/docs/nope.js',
      '//',
    ])('GET %s is the 404 api_route_not_found problem pointing at the OpenAPI document', async (path) => {
      const response = await send(url(path));
      const body = expectProblem(response, base, 'api_route_not_found', validate);
      expect(body.detail).toMatch(/not part of the public contract/i);
      expect(body.resolution).toContain(`${base}/openapi.json`);
      expectEveryResponseHeaders(response, base, QUOTA);
      expect(response.text()).not.toMatch(/<html|<body/i);
    });

    // The contract serves exactly the paths of its surface table: a trailing slash makes another path.
    it.each(['/api/v1/', '/api/v1/product/', '/openapi.json/', '/api/v1/health//'])(
      'GET %s (a served path plus a trailing slash) is the 404 problem',
      async (path) => {
        const response = await send(url(path));
        expectProblem(response, base, 'api_route_not_found', validate);
      },
    );

    it('HEAD /nope is a 404 without a body; Content-Length is the GET length or absent', async () => {
      const get = await send(url('/nope'));
      const head = await sendRaw(base, 'HEAD', '/nope');
      expect(head.status).toBe(404);
      expectMediaType(head.headers, 'application/problem+json');
      expectHeadMatchesGet(head, get);
      expectEveryResponseHeaders(head, base, QUOTA);
    });

    it('GET and HEAD with a body are served as without one', async () => {
      for (const method of ['GET', 'HEAD']) {
        const reply = await sendRaw(base, method, '/api/v1', { 'Content-Type': 'text/plain', 'Content-Length': '5' }, 'hello');
        expect(reply.status, method).toBe(200);
        expectEveryResponseHeaders(reply, base, QUOTA);
      }
    });

    it('POST to an unknown path is a 404 too', async () => {
      const response = await send(url('/api/v1/nope'), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
      expectProblem(response, base, 'api_route_not_found', validate);
      expectEveryResponseHeaders(response, base, QUOTA);
    });
  });

  describe('known paths with another method', () => {
    it.each(WRONG_METHODS)('%s %s is the 405 method_not_allowed problem with Allow', async (method, path, allowed) => {
      const response = await send(url(path), { method });
      expectProblem(response, base, 'method_not_allowed', validate);
      const allow = tokens(response.headers.allow, 'upper');
      expect(allow.sort()).toEqual(allowed.split(', ').sort());
      expect(allow).not.toContain(method);
      expectEveryResponseHeaders(response, base, QUOTA);
    });

    it('HEAD /mcp is a 405 without a body', async () => {
      const get = await send(url('/mcp'));
      const head = await sendRaw(base, 'HEAD', '/mcp');
      expect(head.status).toBe(405);
      expect(tokens(head.headers.allow, 'upper')).toContain('POST');
      expectHeadMatchesGet(head, get);
      expectEveryResponseHeaders(head, base, QUOTA);
    });
  });

  describe('CORS preflight', () => {
    it.each(PREFLIGHTS)('OPTIONS %s answers 204 with Allow and the preflight headers, never credentials', async (path, allowed) => {
      const response = await sendRaw(base, 'OPTIONS', path, {
        Origin: 'https://app.example.org',
        'Access-Control-Request-Method': 'GET',
        'Access-Control-Request-Headers': 'if-none-match',
      });
      expect(response.status).toBe(204);
      expect(response.body.byteLength).toBe(0);
      // RFC 9110 section 8.6: a server must not send Content-Length in a 204.
      expect(response.headers['content-length'], 'no Content-Length on a 204').toBeUndefined();
      expect(tokens(response.headers.allow, 'upper').sort()).toEqual(allowed.split(', ').sort());
      expect(tokens(response.headers['access-control-allow-methods'], 'upper')).toEqual(expect.arrayContaining(['GET', 'HEAD']));
      const allowHeaders = response.headers['access-control-allow-headers'];
      if (allowHeaders !== undefined && allowHeaders !== '*') expect(tokens(allowHeaders)).toContain('if-none-match');
      expectEveryResponseHeaders(response, base, QUOTA);
    });

    it('OPTIONS /mcp from the service origin answers 204 allowing POST', async () => {
      const response = await sendRaw(base, 'OPTIONS', '/mcp', {
        Origin: new URL(base).origin,
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'content-type, mcp-protocol-version',
      });
      expect(response.status).toBe(204);
      expect(response.body.byteLength).toBe(0);
      expect(response.headers['content-length'], 'no Content-Length on a 204').toBeUndefined();
      expect(tokens(response.headers.allow, 'upper')).toContain('POST');
      expect(tokens(response.headers['access-control-allow-methods'], 'upper')).toContain('POST');
      const allowHeaders = response.headers['access-control-allow-headers'];
      if (allowHeaders !== undefined && allowHeaders !== '*') {
        expect(tokens(allowHeaders)).toEqual(expect.arrayContaining(['content-type', 'mcp-protocol-version']));
      }
      expectEveryResponseHeaders(response, base, QUOTA);
    });

    it('OPTIONS /mcp from an origin that is not allowed is the 403 origin_not_allowed problem', async () => {
      const response = await send(url('/mcp'), {
        method: 'OPTIONS',
        headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'POST' },
      });
      expectProblem(response, base, 'origin_not_allowed', validate);
      expect(response.headers['access-control-allow-credentials']).toBeUndefined();
      expectEveryResponseHeaders(response, base, QUOTA);
    });

    it('OPTIONS on an unknown path is the 404 problem', async () => {
      const response = await send(url('/nope'), {
        method: 'OPTIONS',
        headers: { Origin: 'https://app.example.org', 'Access-Control-Request-Method': 'GET' },
      });
      expectProblem(response, base, 'api_route_not_found', validate);
      expectEveryResponseHeaders(response, base, QUOTA);
    });
  });

  it('a POST /mcp answer carries the every-response headers too', async () => {
    const response = await send(url('/mcp'), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'e2e', version: '1.0.0' } },
      }),
    });
    expect(response.status).toBe(200);
    expectMediaType(response.headers, 'application/json');
    expect(response.json()).toMatchObject({ jsonrpc: '2.0', id: 1, result: { protocolVersion: '2025-06-18' } });
    expectEveryResponseHeaders(response, base, QUOTA);
  });

  it('counts every request (200, 304, 404, 405, MCP) but not preflights or health', async () => {
    const replies = await inOneWindow(async () => {
      const first = await send(url('/api/v1'));
      return [
        first,
        await send(url('/api/v1'), { headers: { 'If-None-Match': first.headers.etag! } }),
        await send(url('/nope')),
        await send(url('/api/v1'), { method: 'DELETE' }),
        await send(url('/api/v1'), {
          method: 'OPTIONS',
          headers: { Origin: 'https://app.example.org', 'Access-Control-Request-Method': 'GET' },
        }),
        await send(url('/mcp'), {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
        }),
        await send(url('/api/v1/health')),
      ];
    });
    expect(replies.map((reply) => reply.status).slice(0, 5)).toEqual([200, 304, 404, 405, 204]);
    const remaining = replies.map((reply) => rateLimit(reply.headers, QUOTA).remaining);
    const first = remaining[0]!;
    //             200        304        404        405        OPTIONS    /mcp       health
    expect(remaining).toEqual([first, first - 1, first - 2, first - 3, first - 3, first - 4, first - 4]);
  });

  it('no OpenAPI operation says deprecated while no deprecation is configured', async () => {
    const document = (await send(url('/openapi.json'))).json();
    let operations = 0;
    for (const [path, item] of Object.entries<any>(document.paths)) {
      for (const [method, operation] of Object.entries<any>(item)) {
        if (!operation || typeof operation !== 'object' || !('responses' in operation)) continue;
        operations++;
        expect(operation.deprecated ?? false, `${method} ${path} deprecated`).toBe(false);
      }
    }
    expect(operations).toBeGreaterThan(0);
  });

  describe('with a quota of 3 (RATE_LIMIT_QUOTA=3, one trusted proxy)', () => {
    const SMALL = 3;
    let small: RunningEntry;
    let smallBase: string;
    let client = 0;
    /** A client of its own per call, so every check starts with a full quota. */
    const nextClient = () => `203.0.113.${++client}`;

    beforeAll(async () => {
      small = await startEntry(runtime, { RATE_LIMIT_QUOTA: String(SMALL), TRUST_PROXY_HOPS: '1' });
      smallBase = small.url;
    });
    afterAll(async () => {
      expect(await small?.stop()).toBe(0);
    });

    it('counts down 2, 1, 0, then answers 429 with Retry-After, remaining 0 and violated-policies', async () => {
      const replies = await inOneWindow(async () => {
        const headers = { 'X-Forwarded-For': nextClient() };
        const replies: Reply[] = [];
        for (let i = 0; i < 4; i++) replies.push(await send(`${smallBase}/api/v1/product`, { headers }));
        replies.push(await send(`${smallBase}/api/v1/health`, { headers }));
        return replies;
      });
      // Health is never refused (load balancers probe it from one address) and still says where the client stands.
      expect(replies.map((reply) => reply.status)).toEqual([200, 200, 200, 429, 200]);
      expect(replies.map((reply) => expectEveryResponseHeaders(reply, smallBase, SMALL).remaining)).toEqual([2, 1, 0, 0, 0]);

      const limited = replies[3]!;
      const body = expectProblem(limited, smallBase, 'rate_limited', validate);
      expect(body['violated-policies']).toEqual(['default']);
      const state = rateLimit(limited.headers, SMALL);
      expect(limited.headers['retry-after']).toMatch(/^\d+$/);
      const retryAfter = Number(limited.headers['retry-after']);
      // Not earlier than the window's end, and no later than one window.
      expect(retryAfter).toBeGreaterThanOrEqual(state.resetSeconds);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
    });

    it('over quota: every path answers 429 (HEAD without a body), a preflight still 204 with remaining 0', async () => {
      const replies = await inOneWindow(async () => {
        const headers = { 'X-Forwarded-For': nextClient() };
        const replies: Reply[] = [];
        for (let i = 0; i < SMALL; i++) replies.push(await send(`${smallBase}/api/v1`, { headers }));
        for (const [method, path] of [
          ['GET', '/openapi.json'],
          ['GET', '/problems/rate_limited'],
          ['GET', '/nope'],
          ['DELETE', '/api/v1/product'],
        ] as const) {
          replies.push(await send(`${smallBase}${path}`, { method, headers }));
        }
        replies.push(
          await send(`${smallBase}/mcp`, {
            method: 'POST',
            headers: { ...headers, 'Content-Type': 'application/json' },
            body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
          }),
          await send(`${smallBase}/api/v1/product`, { headers }),
          await sendRaw(smallBase, 'HEAD', '/api/v1/product', headers),
          await sendRaw(smallBase, 'OPTIONS', '/api/v1/product', {
            ...headers,
            Origin: 'https://app.example.org',
            'Access-Control-Request-Method': 'GET',
          }),
        );
        return replies;
      });
      const limited = replies.slice(SMALL, -2);
      const [get, head, preflight] = replies.slice(-3) as [Reply, Reply, Reply];
      expect(limited.map((reply) => reply.status)).toEqual(limited.map(() => 429));
      for (const response of limited) {
        const body = expectProblem(response, smallBase, 'rate_limited', validate);
        expect(body['violated-policies']).toEqual(['default']);
        expect(response.headers['retry-after']).toMatch(/^\d+$/);
        expect(expectEveryResponseHeaders(response, smallBase, SMALL).remaining).toBe(0);
      }
      expect(head.status).toBe(429);
      expect(head.headers['retry-after']).toMatch(/^\d+$/);
      expectHeadMatchesGet(head, get);
      expectEveryResponseHeaders(head, smallBase, SMALL);
      expect(preflight.status, 'a preflight is neither counted nor refused').toBe(204);
      expect(preflight.body.byteLength).toBe(0);
      expect(expectEveryResponseHeaders(preflight, smallBase, SMALL).remaining).toBe(0);
    });

    it('counts per client: another client is not limited', async () => {
      const [exhausted, other] = await inOneWindow(async () => {
        const headers = { 'X-Forwarded-For': nextClient() };
        for (let i = 0; i < SMALL; i++) await send(`${smallBase}/api/v1`, { headers });
        return [
          await send(`${smallBase}/api/v1`, { headers }),
          await send(`${smallBase}/api/v1`, { headers: { 'X-Forwarded-For': nextClient() } }),
        ];
      });
      expect(exhausted!.status).toBe(429);
      expect(other!.status).toBe(200);
      expect(rateLimit(other!.headers, SMALL).remaining).toBe(SMALL - 1);
    });

    it("counts a request without X-Forwarded-For against the connection's address", async () => {
      const [direct] = await inOneWindow(async () => {
        for (let i = 0; i < SMALL; i++) await send(`${smallBase}/api/v1`, { headers: { 'X-Forwarded-For': '127.0.0.1' } });
        return [await send(`${smallBase}/api/v1`)];
      });
      expect(direct!.status, 'the connection, 127.0.0.1, spent its quota as a forwarded client').toBe(429);
    });
  });

  describe('with v1 deprecated (DEPRECATION_DATE=2026-01-01, SUNSET_DATE=2026-12-31) behind PUBLIC_BASE_URL', () => {
    let deprecated: RunningEntry;
    /** Where requests go: the address the entry listens on. */
    let depUrl: string;
    /** `{base}` in the answers: PUBLIC_BASE_URL with its trailing slash dropped. */
    const depBase = 'https://api.example.test';
    const DEPRECATED_AT = Date.UTC(2026, 0, 1);
    const SUNSET_AT = Date.UTC(2026, 11, 31);
    const IMF_FIXDATE =
      /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;

    beforeAll(async () => {
      deprecated = await startEntry(runtime, {
        RATE_LIMIT_QUOTA: String(QUOTA),
        DEPRECATION_DATE: '2026-01-01',
        SUNSET_DATE: '2026-12-31',
        PUBLIC_BASE_URL: 'https://api.example.test/',
      });
      depUrl = deprecated.url;
    });
    afterAll(async () => {
      expect(await deprecated?.stop()).toBe(0);
    });

    const v1Requests: [string, string, Record<string, string>?][] = [
      ['GET', '/api/v1'],
      ['GET', '/api/v1/health'],
      ['GET', '/api/v1/product'],
      ['HEAD', '/api/v1/product'],
      ['GET', '/api/v1/nope'],
      ['DELETE', '/api/v1/product'],
      ['OPTIONS', '/api/v1/product', { Origin: 'https://app.example.org', 'Access-Control-Request-Method': 'GET' }],
    ];

    it.each(v1Requests)('%s %s carries Deprecation, Sunset and the successor-version Link', async (method, path, headers = {}) => {
      const response = await sendRaw(depUrl, method, path, headers);
      expectEveryResponseHeaders(response, depBase, QUOTA);

      const deprecation = response.headers.deprecation;
      expect(deprecation, 'Deprecation').toBeDefined();
      const [value, params] = parseItem(deprecation!);
      expect(value, 'Deprecation is an RFC 9651 Date item (@<seconds>)').toBeInstanceOf(Date);
      expect((value as Date).getTime()).toBe(DEPRECATED_AT);
      expect(params.size).toBe(0);
      expect(deprecation).toBe(`@${DEPRECATED_AT / 1000}`);

      const sunset = response.headers.sunset;
      expect(sunset, 'Sunset is an IMF-fixdate').toMatch(IMF_FIXDATE);
      expect(Date.parse(sunset!)).toBe(SUNSET_AT);
      expect(new Date(Date.parse(sunset!)).toUTCString()).toBe(sunset);

      const links = parseLinks(response.headers.link);
      expect(links).toContainEqual({ uri: `${depBase}/api/v2`, params: { rel: 'successor-version' } });
      expect(links).toContainEqual({ uri: `${depBase}/openapi.json`, params: { rel: 'service-desc' } });
    });

    it('a 304 under /api/v1 carries them too', async () => {
      const get = await send(`${depUrl}/api/v1/product`);
      const notModified = await send(`${depUrl}/api/v1/product`, { headers: { 'If-None-Match': get.headers.etag! } });
      expect(notModified.status).toBe(304);
      expect(notModified.headers.deprecation).toBe(`@${DEPRECATED_AT / 1000}`);
      expect(Date.parse(notModified.headers.sunset!)).toBe(SUNSET_AT);
      expect(parseLinks(notModified.headers.link)).toContainEqual({ uri: `${depBase}/api/v2`, params: { rel: 'successor-version' } });
    });

    it.each([
      ['GET', '/openapi.json'],
      ['GET', '/problems/rate_limited'],
      ['GET', '/'],
      ['GET', '/nope'],
      ['GET', '/api/v2'],
      ['GET', '/mcp'],
      ['OPTIONS', '/openapi.json'],
    ])('%s %s (not under /api/v1) carries no Deprecation, Sunset or successor link', async (method, path) => {
      const response = await sendRaw(
        depUrl,
        method,
        path,
        method === 'OPTIONS' ? { Origin: 'https://app.example.org', 'Access-Control-Request-Method': 'GET' } : {},
      );
      expectEveryResponseHeaders(response, depBase, QUOTA);
      expect(response.headers.deprecation).toBeUndefined();
      expect(response.headers.sunset).toBeUndefined();
      expect(parseLinks(response.headers.link).filter((link) => tokens(link.params.rel).includes('successor-version'))).toEqual([]);
    });

    // "/api/v10" and "/api/v1beta" share a prefix with "/api/v1" but are not paths under it.
    it.each(['/api/v10', '/api/v1beta'])('%s (a sibling of /api/v1, not under it) carries no Deprecation', async (path) => {
      const response = await send(`${depUrl}${path}`);
      expect(response.status).toBe(404);
      expect(response.headers.deprecation).toBeUndefined();
      expect(response.headers.sunset).toBeUndefined();
    });

    it('the OpenAPI document marks the /api/v1 operations, and only them, deprecated: true', async () => {
      const document = (await send(`${depUrl}/openapi.json`)).json();
      let v1Operations = 0;
      for (const [path, item] of Object.entries<any>(document.paths)) {
        for (const [method, operation] of Object.entries<any>(item)) {
          if (!operation || typeof operation !== 'object' || !('responses' in operation)) continue;
          const underV1 = path === '/api/v1' || path.startsWith('/api/v1/');
          if (underV1) v1Operations++;
          expect(operation.deprecated ?? false, `${method} ${path} deprecated`).toBe(underV1);
        }
      }
      expect(v1Operations).toBeGreaterThanOrEqual(6); // GET and HEAD of /api/v1, /health, /product
    });

    it('the index still validates against the served schema and links from {base}', async () => {
      const response = await send(`${depUrl}/api/v1`);
      expect(response.status).toBe(200);
      const document = (await send(`${depUrl}/openapi.json`)).json();
      openApiValidator(document).response('/api/v1', 'get', 200, 'application/json', response.json());
      expect(strings(response.json())).toEqual(
        expect.arrayContaining([`${depBase}/api/v1/product`, `${depBase}/openapi.json`, `${depBase}/mcp`]),
      );
    });

    it('{base} is PUBLIC_BASE_URL without its trailing slash: servers, problem types, resolutions', async () => {
      const document = (await send(`${depUrl}/openapi.json`)).json();
      expect(document.servers[0].url).toBe(depBase);
      const problem = (await send(`${depUrl}/nope`)).json();
      expect(problem.type).toBe(`${depBase}/problems/api_route_not_found`);
      expect(problem.resolution).toContain(`${depBase}/openapi.json`);
      expect((await send(`${depUrl}/problems/rate_limited`)).json().type).toBe(`${depBase}/problems/rate_limited`);
    });

    it('the MCP origin allowed by default is the origin of {base}, not the listening address', async () => {
      const preflight = (origin: string) => sendRaw(depUrl, 'OPTIONS', '/mcp', { Origin: origin, 'Access-Control-Request-Method': 'POST' });
      expect((await preflight(depBase)).status).toBe(204);
      const refused = await preflight(new URL(depUrl).origin);
      expect(refused.status).toBe(403);
      expect(JSON.parse(refused.body.toString('utf8')).code).toBe('origin_not_allowed');
    });
  });
});
