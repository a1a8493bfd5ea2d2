import { describe, expect, it } from 'vitest';
import { EXPOSED } from '../support/cases.ts';
import { deprecationNotice } from '../../src/contract/deprecation.ts';
import LinkHeader from 'http-link-header';
import { buildRoot } from '../../src/discovery/root.ts';
import { carriedHeaders, headerComponents, HEADERS, mergeHeaders, pathHeaders, type HeaderSettings } from '../../src/http/headers.ts';
import { ROUTES } from '../../src/routes.ts';
import { PROBLEM_CODES } from '../../src/contract/problem-codes.ts';
import { sampleFacts } from '../support/handler.ts';

const BASE = 'https://api.example.com';
const route = (path: string) => ROUTES.find((candidate) => candidate.path === path)!;
const settings: HeaderSettings = {
  base: BASE,
  docsPage: true,
  contentSignal: 'search=yes, ai-input=yes',
  rateLimitPolicy: { 'RateLimit-Policy': '"default";q=120;w=60', 'X-RateLimit-Limit': '120' },
};
const deprecated: HeaderSettings = {
  ...settings,
  deprecation: deprecationNotice(BASE, {
    deprecatedAt: new Date('2027-01-01'),
    sunsetAt: new Date('2027-07-01'),
    successorPath: '/api/v2',
  }),
};
const SERVICE_DESC = `<${BASE}/openapi.json>; rel="service-desc"`;

describe('mergeHeaders', () => {
  it('copies the parts into a new record: a later value replaces an earlier one in its place, new names come last', () => {
    const fixed = { 'Content-Type': 'application/json', RateLimit: 'fixed', ETag: '"a"' };
    const merged = mergeHeaders(fixed, { RateLimit: 'mine', 'X-RateLimit-Remaining': '9' }, { ETag: '"b"' });
    expect(Object.entries(merged)).toEqual([
      ['Content-Type', 'application/json'],
      ['RateLimit', 'mine'],
      ['ETag', '"b"'],
      ['X-RateLimit-Remaining', '9'],
    ]);
    expect(merged).not.toBe(fixed);
    expect(fixed.RateLimit).toBe('fixed');
  });
});

describe('the header rules', () => {
  it('let cross-origin scripts read exactly the contract headers', () => {
    const exposed = pathHeaders(settings, '/api/v1/product', route('/api/v1/product')).document['Access-Control-Expose-Headers']!.split(
      ', ',
    );
    expect(exposed.sort()).toEqual([...EXPOSED].sort());
  });

  it('put CORS, nosniff, the service-desc link and the rate-limit policy on every kind of answer, never credentials', () => {
    for (const path of ['/api/v1/product', '/mcp', '/unknown']) {
      const headers = pathHeaders(
        settings,
        path,
        ROUTES.find((candidate) => candidate.path === path),
      );
      for (const record of [headers.document, headers.problem('api_route_not_found'), headers.preflight, headers.mcp, headers.mcpError]) {
        expect(record).toMatchObject({
          'X-Content-Type-Options': 'nosniff',
          'Access-Control-Allow-Origin': '*',
          Link: expect.stringContaining(SERVICE_DESC),
          'RateLimit-Policy': '"default";q=120;w=60',
          'X-RateLimit-Limit': '120',
        });
        expect(record['Access-Control-Allow-Credentials']).toBeUndefined();
      }
    }
  });

  it('give a document its cache policy, and every error no-store', () => {
    const product = pathHeaders(settings, '/api/v1/product', route('/api/v1/product'));
    expect(product.document['Cache-Control']).toBe('public, max-age=60');
    expect(pathHeaders(settings, '/api/v1/health', route('/api/v1/health')).document['Cache-Control']).toBe('no-store');
    for (const code of PROBLEM_CODES) expect(product.problem(code)['Cache-Control'], code).toBe('no-store');
    expect(product.preflight['Cache-Control']).toBe('no-store');
    const mcp = pathHeaders(settings, '/mcp', route('/mcp'));
    expect(mcp.mcpError['Cache-Control']).toBe('no-store');
    expect(mcp.mcp['Cache-Control'], "a successful MCP answer keeps the SDK's").toBeUndefined();
  });

  it('give every document, and only documents, the AI preferences of the content signal as Content-Usage', () => {
    for (const each of ROUTES.filter((candidate) => typeof candidate.answer === 'function')) {
      const headers = pathHeaders(settings, each.path, each);
      expect(headers.document['Content-Usage'], each.path).toBe('search=y');
      expect(headers.problem('rate_limited')['Content-Usage'], each.path).toBeUndefined();
      expect(headers.preflight['Content-Usage'], each.path).toBeUndefined();
    }
    const noTraining = pathHeaders(
      { ...settings, contentSignal: 'search=yes, ai-input=yes, ai-train=no' },
      '/llms.txt',
      route('/llms.txt'),
    );
    expect(noTraining.document['Content-Usage']).toBe('search=y, train-ai=n');
    expect(
      pathHeaders({ ...settings, contentSignal: 'ai-input=yes' }, '/llms.txt', route('/llms.txt')).document['Content-Usage'],
    ).toBeUndefined();
  });

  it('name the methods in Allow on a 405 and a preflight only', () => {
    const mcp = pathHeaders(settings, '/mcp', route('/mcp'));
    expect(mcp.problem('method_not_allowed').Allow).toBe('POST, OPTIONS');
    expect(mcp.problem('payload_too_large').Allow).toBeUndefined();
    expect(mcp.preflight).toMatchObject({
      Allow: 'POST, OPTIONS',
      'Access-Control-Allow-Methods': 'POST, OPTIONS',
      'Access-Control-Max-Age': '86400',
      Vary: 'Access-Control-Request-Headers',
    });
    expect(mcp.document.Allow).toBeUndefined();
  });

  it('link the API and the catalog to the catalog (RFC 9727 section 3), the catalog also to the JSON-LD, and nothing else', () => {
    const catalog = `<${BASE}/.well-known/api-catalog>; rel="api-catalog"; type="application/linkset+json"`;
    expect(pathHeaders(settings, '/api/v1', route('/api/v1')).document.Link).toBe(`${SERVICE_DESC}, ${catalog}`);
    const jsonLd = `<${BASE}/api/v1/product>; rel="describedby"; type="application/ld+json"`;
    expect(pathHeaders(settings, '/.well-known/api-catalog', route('/.well-known/api-catalog')).document.Link).toBe(
      `${SERVICE_DESC}, ${catalog}, ${jsonLd}`,
    );
    expect(pathHeaders(settings, '/api/v1/product', route('/api/v1/product')).document.Link).toBe(SERVICE_DESC);
  });

  describe("the root's Link field (RFC 8288), read by a parser", () => {
    const parsed = (docsPage: boolean) => LinkHeader.parse(pathHeaders({ ...settings, docsPage }, '/', route('/')).document.Link!);

    it('links the catalog, the OpenAPI document, the docs page and the server card, each but the first with its type', () => {
      const links = parsed(true);
      const one = (rel: string) => {
        const refs = links.rel(rel);
        expect(refs, rel).toHaveLength(1);
        return { uri: refs[0]!.uri, type: refs[0]!.type };
      };
      expect(one('service-desc')).toEqual({ uri: `${BASE}/openapi.json`, type: undefined });
      expect(one('api-catalog')).toEqual({ uri: `${BASE}/.well-known/api-catalog`, type: 'application/linkset+json' });
      expect(one('service-doc')).toEqual({ uri: `${BASE}/docs`, type: 'text/html' });
      expect(links.rel('describedby').map(({ uri, type }) => ({ uri, type }))).toEqual([
        { uri: `${BASE}/mcp/server-card`, type: 'application/mcp-server-card+json' },
        { uri: `${BASE}/api/v1/product`, type: 'application/ld+json' },
      ]);
      expect(one('alternate')).toEqual({ uri: `${BASE}/`, type: 'text/markdown' });
      expect(links.refs).toHaveLength(6);
    });

    it('has no service-doc while the docs page is off, on every answer of the root', () => {
      expect(parsed(false).rel('service-doc')).toEqual([]);
      expect(
        parsed(false)
          .refs.map((ref) => ref.rel)
          .sort(),
      ).toEqual(['alternate', 'api-catalog', 'describedby', 'describedby', 'service-desc']);
      const off = pathHeaders({ ...settings, docsPage: false }, '/', route('/'));
      expect(off.problem('method_not_allowed').Link).toBe(off.document.Link);
    });

    it('names the same targets as the body, besides its own other representation', () => {
      const root = buildRoot({ base: BASE, facts: sampleFacts(), docsPage: true });
      const targets = parsed(true)
        .refs.filter((ref) => ref.rel !== 'alternate')
        .map((ref) => ref.uri);
      expect(Object.values(root.links)).toEqual(expect.arrayContaining(targets));
    });
  });

  it('carry the deprecation under /api/v1 only, and only while one is announced', () => {
    const v1 = pathHeaders(deprecated, '/api/v1', route('/api/v1')).document;
    expect(v1.Deprecation).toBe(`@${Date.parse('2027-01-01') / 1000}`);
    expect(v1.Sunset).toBe('Thu, 01 Jul 2027 00:00:00 GMT');
    expect(v1.Link).toBe(
      `${SERVICE_DESC}, <${BASE}/api/v2>; rel="successor-version", <${BASE}/.well-known/api-catalog>; rel="api-catalog"; type="application/linkset+json"`,
    );
    expect(pathHeaders(deprecated, '/api/v1/nope').problem('api_route_not_found').Deprecation).toBeDefined();
    expect(pathHeaders(deprecated, '/openapi.json', route('/openapi.json')).document.Deprecation).toBeUndefined();
    expect(pathHeaders(settings, '/api/v1', route('/api/v1')).document.Deprecation).toBeUndefined();
  });

  it('document what each kind of answer carries, every name with its component', () => {
    expect(carriedHeaders('/api/v1', 'document')).toEqual(
      expect.arrayContaining(['Deprecation', 'Sunset', 'ETag', 'Cache-Control', 'Vary']),
    );
    expect(carriedHeaders('/openapi.json', 'document')).not.toContain('Deprecation');
    expect(carriedHeaders('/x', 'problem', 'rate_limited')).toContain('Retry-After');
    expect(carriedHeaders('/x', 'problem', 'service_unavailable')).toContain('Retry-After');
    expect(carriedHeaders('/x', 'problem', 'api_route_not_found')).not.toContain('Retry-After');
    expect(carriedHeaders('/mcp', 'mcp')).not.toContain('Cache-Control');
    const components = headerComponents();
    for (const kind of ['document', 'notModified', 'problem', 'preflight', 'mcp', 'mcpError'] as const) {
      for (const name of carriedHeaders('/api/v1', kind, 'method_not_allowed')) expect(components[name], name).toBeDefined();
    }
    expect(Object.keys(components).sort()).toEqual(Object.keys(HEADERS).sort());
  });
});
