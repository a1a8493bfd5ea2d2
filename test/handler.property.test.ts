import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Handler } from '../src/handler.ts';
import { pathsOf } from '../src/route.ts';
import { ROUTES } from '../src/routes.ts';
import { PROBLEM_CODES } from '../src/contract/problem-codes.ts';
import { BASE, makeHandler } from './support/handler.ts';

const KNOWN_SEGMENTS = [
  ...['api', 'v1', 'health', 'product', 'openapi.json', 'problems', 'mcp', ...PROBLEM_CODES],
  ...['.well-known', 'api-catalog', 'llms.txt', 'server-card', 'robots.txt', 'llms-full.txt', 'server-card.json', 'docs'],
  ...['..', '%2e', '', 'index.html'],
];
const segment = fc.oneof(fc.constantFrom(...KNOWN_SEGMENTS), fc.webSegment());
const KNOWN_PATHS = ROUTES.flatMap((route) => pathsOf(route).map(({ path }) => path));
const path = fc.oneof(
  fc.constantFrom(...KNOWN_PATHS),
  fc.array(segment, { maxLength: 5 }).map((segments) => `/${segments.join('/')}`),
);
const query = fc.option(fc.webQueryParameters(), { nil: undefined });
const method = fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'PROPFIND', 'QUERY');
const headerName = fc.constantFrom(
  'accept',
  'accept-encoding',
  'if-none-match',
  'origin',
  'content-type',
  'x-forwarded-for',
  'access-control-request-headers',
  'mcp-protocol-version',
  'mcp-method',
);
const headerValue = fc.oneof(
  fc.constantFrom(
    '*/*',
    'text/html',
    'application/json',
    'gzip;q=0',
    'gzip, br',
    '*',
    '"x"',
    'https://evil.example.org',
    'application/json; charset=utf-8',
    '2026-07-28',
    'tools/call',
  ),
  fc.string({ unit: fc.constantFrom(...'abc ,;=*/"-_.0123456789'.split('')), maxLength: 40 }),
);
const headers = fc.dictionary(headerName, headerValue, { maxKeys: 5 });
const body = fc.oneof(fc.constant(undefined), fc.json(), fc.string({ maxLength: 200 }));

describe('any request', () => {
  let handle: Handler;
  beforeAll(async () => {
    handle = await makeHandler();
  });
  afterAll(() => handle.close());

  it('gets no 5xx, no HTML, and every error is a valid problem', async () => {
    await fc.assert(
      fc.asyncProperty(method, path, query, headers, body, async (method, path, query, headers, body) => {
        const search = query ? `?${new URLSearchParams(query)}` : '';
        const withBody = body !== undefined && !['GET', 'HEAD'].includes(method);
        const response = await handle(new Request(`${BASE}${path}${search}`, { method, headers, body: withBody ? body : undefined }));
        const type = response.headers.get('content-type') ?? '';
        const text = await response.text();

        expect(response.status).toBeLessThan(500);
        // The docs page is the one HTML answer the service sends.
        if (!(path === '/docs' && response.status < 400)) {
          expect(type).not.toContain('html');
          // The sitemap is XML; nothing else starts with a tag.
          if (!type.startsWith('application/xml')) expect(text.trimStart().startsWith('<')).toBe(false);
        }
        expect(response.headers.get('x-content-type-options')).toBe('nosniff');
        expect(response.headers.get('x-ratelimit-limit')).not.toBeNull();
        if (response.status < 400) return;
        // JSON-RPC errors inside an MCP exchange stay JSON-RPC errors, as MCP requires.
        if (path === '/mcp' && method === 'POST' && type.startsWith('application/json')) return;
        expect(type).toBe('application/problem+json; charset=utf-8');
        if (method === 'HEAD') {
          expect(text).toBe('');
          return;
        }
        const problem = JSON.parse(text);
        expect(problem.status).toBe(response.status);
        expect(problem.type).toBe(`${BASE}/problems/${problem.code}`);
        expect(PROBLEM_CODES).toContain(problem.code);
        expect(typeof problem.title).toBe('string');
        expect(typeof problem.detail).toBe('string');
        expect(typeof problem.resolution).toBe('string');
      }),
      { numRuns: 400 },
    );
  }, 60_000);
});
