/**
 * The front door, end to end against the real Bun, Deno, Node and Workers entries: the docs page
 * and its files over HTTP (headers, HEAD, ETag/304, 404 under /docs/), the host's root with its
 * links resolved against the running service (RFC 8288, read by http-link-header), robots.txt read
 * by robots-parser, the server card's well-known alias, the facts as Markdown (llms-full.txt and the
 * product by Accept), the new paths counted against the rate limit, and, from a second service with
 * DOCS_PAGE=off and a CONTENT_SIGNAL of its own, every link to the docs page gone. The agent-readiness
 * documents: the root as Markdown and a browser's redirect, the sitemap, the product as JSON-LD, the
 * Agent Skill at both paths with its digest, Content-Usage, and security.txt (set on the second service).
 */
import { CONTRACT_AI_AGENTS } from '../support/cases.ts';
import { createHash } from 'node:crypto';
import { parse as parseYaml } from 'yaml';
import LinkHeader from 'http-link-header';
import robotsParser from 'robots-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCS_ASSETS } from '../../src/docs/assets.ts';
import {
  ENTITY_TAG,
  expectCacheControl,
  expectEveryResponseHeaders,
  expectHeadMatchesGet,
  expectMediaType,
  expectProblem,
  inOneWindow,
  openApiValidator,
  rateLimit,
  send,
  sendRaw,
  strings,
  tokens,
  type Reply,
} from '../support/e2e.ts';
import { CONTRACT_DOCS_CSP } from '../support/cases.ts';
import { ENTRIES, startEntry, type RunningEntry } from '../support/entries.ts';
import { everyText, expectStartOptions } from '../support/facts-markdown.ts';
import { sampleFacts } from '../support/handler.ts';

const QUOTA = 1_000_000;
const FACTS = sampleFacts();
const PUBLIC_CACHE = 'public, max-age=60';
const IMMUTABLE = 'public, max-age=31536000, immutable';
const DEFAULT_SIGNAL = 'search=yes, ai-input=yes';
/** CONTENT_SIGNAL of the second service, written as config normalises it. */
const CUSTOM_SIGNAL = 'search=yes, ai-input=no, ai-train=no';

function cspDirectives(header: string | undefined): Record<string, string[]> {
  expect(header, 'Content-Security-Policy').toBeDefined();
  const directives: Record<string, string[]> = {};
  for (const directive of header!
    .split(';')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const [name, ...values] = directive.split(/\s+/);
    expect(directives, `${name} given once`).not.toHaveProperty(name!.toLowerCase());
    directives[name!.toLowerCase()] = values;
  }
  return directives;
}

/** The media type of a Content-Type, without parameters. */
const mediaTypeOf = (headers: Record<string, string>) => headers['content-type']?.split(';')[0]?.trim().toLowerCase();

/** What the root's body links to, by member, with the media type each answers (the MCP endpoint answers a POST). */
const ROOT_LINKS: Record<string, string> = {
  api: 'application/json',
  docs: 'text/html',
  openapi: 'application/json',
  mcp: 'application/json',
  apiCatalog: 'application/linkset+json',
  llmsTxt: 'text/markdown',
  llmsFullTxt: 'text/markdown',
  mcpServerCard: 'application/mcp-server-card+json',
  product: 'application/json',
  sitemap: 'application/xml',
  skill: 'text/markdown',
  aiCatalog: 'application/json',
};
const SECURITY_CONTACT = 'mailto:security@example.com';

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'e2e', version: '1.0.0' } },
});

/** Accept values and the representation of the product each gets (RFC 9110 section 12.5.1; JSON wins ties). */
const NEGOTIATION: [accept: string | undefined, type: string][] = [
  [undefined, 'application/json'],
  ['*/*', 'application/json'],
  ['application/json', 'application/json'],
  ['text/markdown', 'text/markdown'],
  ['text/plain', 'text/plain'],
  ['text/markdown, application/json', 'application/json'],
  ['application/json, text/markdown', 'application/json'],
  ['text/plain, application/json', 'application/json'],
  ['text/markdown;q=0.8, application/json;q=0.8', 'application/json'],
  ['text/markdown, text/plain, application/json', 'application/json'],
  ['text/markdown, */*;q=0.1', 'text/markdown'],
  ['application/json;q=0.5, text/markdown', 'text/markdown'],
  ['text/plain, application/json;q=0.9', 'text/plain'],
];

describe.each(ENTRIES)('%s entry: the front door', (runtime) => {
  let server: RunningEntry;
  let off: RunningEntry;
  let base: string;
  let offBase: string;
  let document: any;
  let validate: ReturnType<typeof openApiValidator>;
  /** Every answer of this file, for the checks that hold for all of them (no cookie). */
  const seen: Reply[] = [];
  const get = async (url: string, headers: Record<string, string> = {}, method = 'GET', body?: string) => {
    const reply = await send(url, { method, headers, body });
    seen.push(reply);
    return reply;
  };
  const raw = async (at: string, method: string, path: string, headers: Record<string, string> = {}) => {
    const reply = await sendRaw(at, method, path, headers);
    seen.push(reply);
    return reply;
  };

  /** An MCP request to `url`: the root and robots.txt link the endpoint, which answers a POST. */
  const postMcp = (url: string) =>
    get(url, { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' }, 'POST', INITIALIZE);

  beforeAll(async () => {
    [server, off] = await Promise.all([
      startEntry(runtime, { RATE_LIMIT_QUOTA: String(QUOTA) }),
      startEntry(runtime, { RATE_LIMIT_QUOTA: String(QUOTA), DOCS_PAGE: 'off', CONTENT_SIGNAL: CUSTOM_SIGNAL, SECURITY_CONTACT }),
    ]);
    base = server.url;
    offBase = off.url;
    document = (await get(`${base}/openapi.json`)).json();
    validate = openApiValidator(document);
  }, 90_000);
  afterAll(async () => {
    const codes = await Promise.all([server?.stop(), off?.stop()]);
    expect(codes).toEqual([0, 0]);
  });

  describe('the docs page over HTTP', () => {
    let page: Reply;
    /** The page's stylesheets and scripts, resolved against its URL. */
    let assets: URL[];
    beforeAll(async () => {
      page = await get(`${base}/docs`);
      const references = [...page.text().matchAll(/<(?:link|script)\b[^>]*\b(?:href|src)="([^"]+)"/g)].map((match) => match[1]!);
      assets = references.filter((reference) => !reference.startsWith('data:')).map((reference) => new URL(reference, `${base}/docs`));
    });

    it('GET /docs answers the HTML page with the contract CSP, Referrer-Policy and nosniff', () => {
      expect(page.status).toBe(200);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(cspDirectives(page.headers['content-security-policy'])).toEqual(CONTRACT_DOCS_CSP);
      expect(page.headers['referrer-policy']).toBe('no-referrer');
      expect(page.headers['x-content-type-options']).toBe('nosniff');
      expect(page.headers.etag).toMatch(ENTITY_TAG);
      expectCacheControl(page.headers, PUBLIC_CACHE);
      expectEveryResponseHeaders(page, base, QUOTA);
      expect(page.text()).toMatch(/^<!doctype html>/i);
      // No inline script or style: the CSP admits only files of this origin. The one inline element is the
      // product's JSON-LD, a data block the browser never runs (HTML: a script whose type is not JavaScript's).
      const dataBlocks = /<script type="application\/ld\+json">[^<]*<\/script>/g;
      expect(page.text().match(dataBlocks)).toHaveLength(1);
      expect(page.text().replace(dataBlocks, '')).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>|<style\b|\sstyle=|\son[a-z]+=/i);
    });

    it('loads only fingerprinted files of its own origin, under /docs/', () => {
      expect(assets.length).toBeGreaterThanOrEqual(2);
      for (const url of assets) {
        expect(url.origin, url.href).toBe(base);
        expect(url.pathname).toMatch(/^\/docs\/[a-z-]+\.[0-9a-f]{12}\.(css|js)$/);
      }
      expect(assets.map((url) => url.pathname).sort()).toEqual(DOCS_ASSETS.map((asset) => asset.path).sort());
    });

    it('each file: 200, its type by extension, immutable for a year, named by a hash of its bytes', async () => {
      for (const url of assets) {
        const response = await get(url.href);
        expect(response.status, url.pathname).toBe(200);
        const type = url.pathname.endsWith('.js') ? 'text/javascript; charset=utf-8' : 'text/css; charset=utf-8';
        expect(response.headers['content-type'], url.pathname).toBe(type);
        expect(response.headers['cache-control'], url.pathname).toBe(IMMUTABLE);
        expect(response.headers['x-content-type-options']).toBe('nosniff');
        expect(response.headers.etag).toMatch(ENTITY_TAG);
        expectEveryResponseHeaders(response, base, QUOTA);
        const fingerprint = /\.([0-9a-f]{12})\.(css|js)$/.exec(url.pathname)![1]!;
        expect(createHash('sha256').update(response.body).digest('hex').startsWith(fingerprint), `${url.pathname} names its content`).toBe(
          true,
        );
      }
    });

    it('HEAD and If-None-Match on the page and on each file', async () => {
      for (const path of ['/docs', ...assets.map((url) => url.pathname)]) {
        const full = await get(`${base}${path}`);
        const head = await raw(base, 'HEAD', path);
        expect(head.status, `HEAD ${path}`).toBe(200);
        expectHeadMatchesGet(head, full);
        expect(head.headers.etag).toBe(full.headers.etag);
        expect(head.headers['content-type']).toBe(full.headers['content-type']);
        expect(head.headers['cache-control']).toBe(full.headers['cache-control']);
        if (path === '/docs') expect(head.headers['content-security-policy']).toBe(full.headers['content-security-policy']);
        expectEveryResponseHeaders(head, base, QUOTA);
        for (const method of ['GET', 'HEAD']) {
          const notModified = await raw(base, method, path, { 'If-None-Match': full.headers.etag! });
          expect(notModified.status, `${method} ${path} with its ETag`).toBe(304);
          expect(notModified.body.byteLength).toBe(0);
          expect(notModified.headers.etag).toBe(full.headers.etag);
          expect(notModified.headers['cache-control']).toBe(full.headers['cache-control']);
          expectEveryResponseHeaders(notModified, base, QUOTA);
        }
      }
    });

    it.each(['/docs/', '/docs/x', '/docs/nope.js', '/docs/docs.000000000000.js', '/docs/swagger-ui-bundle.js'])(
      'GET and HEAD %s: the 404 problem, never HTML',
      async (path) => {
        const response = await get(`${base}${path}`);
        expectProblem(response, base, 'api_route_not_found', validate);
        expect(response.headers['content-security-policy']).toBeUndefined();
        expectEveryResponseHeaders(response, base, QUOTA);
        const head = await raw(base, 'HEAD', path);
        expect(head.status).toBe(404);
        expectHeadMatchesGet(head, response);
      },
    );

    it('the OpenAPI document has the page and its files as operations', () => {
      expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/docs', '/docs/{asset}']));
      expect(document.paths['/docs'].get.responses['200'].content).toHaveProperty('text/html');
    });
  });

  describe('/ (the host root)', () => {
    let root: Reply;
    beforeAll(async () => {
      root = await get(`${base}/`);
    });

    it('is JSON with a link for every entry point and nothing else', () => {
      expect(root.status).toBe(200);
      expectMediaType(root.headers, 'application/json');
      validate.response('/', 'get', 200, 'application/json', root.json());
      expect(Object.keys(root.json().links).sort()).toEqual(Object.keys(ROOT_LINKS).sort());
    });

    it('every link of its body answers 200 with its media type on this service', async () => {
      for (const [name, target] of Object.entries<string>(root.json().links)) {
        const url = new URL(target, `${base}/`);
        expect(url.origin, name).toBe(base);
        const response = name === 'mcp' ? await postMcp(url.href) : await get(url.href);
        expect(response.status, `${name} ${url.href}`).toBe(200);
        expect(mediaTypeOf(response.headers), `${name} ${url.href}`).toBe(ROOT_LINKS[name]);
      }
    });

    it('its Link header (RFC 8288) names the catalog, the OpenAPI document, the docs page and the server card, each answering 200 with the type it names', async () => {
      const links = LinkHeader.parse(root.headers.link!);
      expect(links.refs.map((ref) => ref.rel).sort()).toEqual([
        'alternate',
        'api-catalog',
        'describedby',
        'describedby',
        'service-desc',
        'service-doc',
      ]);
      const uri = (rel: string) => new URL(links.rel(rel)[0]!.uri, `${base}/`).href;
      expect(uri('api-catalog')).toBe(`${base}/.well-known/api-catalog`);
      expect(uri('service-desc')).toBe(`${base}/openapi.json`);
      expect(uri('service-doc')).toBe(`${base}/docs`);
      expect([`${base}/mcp/server-card`, `${base}/.well-known/mcp/server-card.json`]).toContain(uri('describedby'));
      expect(links.rel('describedby').map((ref) => ref.type)).toContain('application/ld+json');
      expect(uri('alternate')).toBe(`${base}/`);
      for (const ref of links.refs) {
        // service-desc is the link every answer carries, written as the contract gives it; the root's own name their types.
        if (ref.rel !== 'service-desc') expect(ref.type, `${ref.rel} names the media type of its target`).toBeDefined();
        const response = await get(new URL(ref.uri, `${base}/`).href, { Accept: ref.type ?? 'application/json' });
        expect(response.status, ref.uri).toBe(200);
        expect(mediaTypeOf(response.headers), ref.uri).toBe(ref.type ?? 'application/json');
      }
    });

    it('carries the every-response headers and a Cache-Control of a minute', () => {
      expectEveryResponseHeaders(root, base, QUOTA);
      expectCacheControl(root.headers, PUBLIC_CACHE);
    });
  });

  describe('robots.txt', () => {
    let text: string;
    beforeAll(async () => {
      const response = await get(`${base}/robots.txt`);
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
      text = response.text();
    });

    it.each(['*', 'GPTBot', 'ClaudeBot'])('lets %s fetch the API, /mcp, /docs, llms.txt and the discovery documents', (agent) => {
      const robots = robotsParser(`${base}/robots.txt`, text);
      for (const path of [
        '/',
        '/api/v1',
        '/api/v1/product',
        '/api/v1/health',
        '/openapi.json',
        '/mcp',
        '/docs',
        DOCS_ASSETS[0]!.path,
        '/llms.txt',
        '/llms-full.txt',
        '/.well-known/api-catalog',
        '/.well-known/mcp/server-card.json',
      ]) {
        expect(robots.isAllowed(`${base}${path}`, agent), `${agent} ${path}`).toBe(true);
      }
    });

    it(`carries Content-Signal: ${DEFAULT_SIGNAL} (CONTENT_SIGNAL unset) and Content-Usage: search=y in every group`, () => {
      const groups = text.split('\n').filter((line) => /^user-agent:/i.test(line)).length;
      expect(groups).toBeGreaterThan(CONTRACT_AI_AGENTS.length);
      expect(text.split('\n').filter((line) => /^content-signal:/i.test(line))).toEqual(
        Array(groups).fill(`Content-Signal: ${DEFAULT_SIGNAL}`),
      );
      expect(text.split('\n').filter((line) => /^content-usage:/i.test(line))).toEqual(Array(groups).fill('Content-Usage: search=y'));
    });

    it.each(CONTRACT_AI_AGENTS)('names %s in a group of its own, allowed everything', (agent) => {
      expect(text.split('\n')).toContain(`User-agent: ${agent}`);
      const robots = robotsParser(`${base}/robots.txt`, text);
      for (const path of ['/', '/api/v1/product', '/skill.md', '/sitemap.xml'])
        expect(robots.isAllowed(`${base}${path}`, agent), `${agent} ${path}`).toBe(true);
    });

    it('names the sitemap, which answers', async () => {
      const robots = robotsParser(`${base}/robots.txt`, text);
      expect(robots.getSitemaps()).toEqual([`${base}/sitemap.xml`]);
      expect((await get(`${base}/sitemap.xml`)).status).toBe(200);
    });

    it('every document its comments name is on this service and answers', async () => {
      const named = [...text.matchAll(/^#.*?(https?:\/\/\S+)$/gm)].map((match) => match[1]!);
      expect(named).toEqual(
        expect.arrayContaining([
          `${base}/.well-known/api-catalog`,
          `${base}/openapi.json`,
          `${base}/docs`,
          `${base}/llms.txt`,
          `${base}/mcp`,
        ]),
      );
      for (const url of named) {
        expect(new URL(url).origin).toBe(base);
        const response = new URL(url).pathname === '/mcp' ? await postMcp(url) : await get(url);
        expect(response.status, url).toBe(200);
      }
    });
  });

  describe('the MCP server card at its well-known path', () => {
    it('is /mcp/server-card byte for byte, with the same ETag, type and caching', async () => {
      const card = await get(`${base}/mcp/server-card`);
      const alias = await get(`${base}/.well-known/mcp/server-card.json`);
      expect(alias.status).toBe(200);
      expect(alias.body.equals(card.body), 'the same bytes').toBe(true);
      expect(alias.headers.etag).toBe(card.headers.etag);
      expect(alias.headers['content-type']).toBe('application/mcp-server-card+json');
      expect(alias.headers['content-type']).toBe(card.headers['content-type']);
      expect(alias.headers['cache-control']).toBe(card.headers['cache-control']);
      // The same ETag means a cache that holds one revalidates the other.
      expect((await get(`${base}/.well-known/mcp/server-card.json`, { 'If-None-Match': card.headers.etag! })).status).toBe(304);
    });

    it('names the service as the contract says for an IP-address host', async () => {
      const card = (await get(`${base}/.well-known/mcp/server-card.json`)).json();
      expect(new URL(base).hostname).toBe('127.0.0.1');
      expect(card.name).toBe('localhost/product-discovery');
      expect(card.remotes[0].url).toBe(`${base}/mcp`);
    });
  });

  describe('the facts as Markdown', () => {
    const expectEveryFact = (markdown: string) => {
      for (const text of everyText(FACTS)) expect(markdown, text).toContain(text);
      for (const resource of FACTS.resources) expect(markdown).toContain(`[${resource.title}](${resource.url})`);
      expectStartOptions(markdown, FACTS);
      expect(markdown).toContain(`last reviewed on ${FACTS.product.reviewedOn}`);
    };

    it('llms-full.txt lists every fact: every resource, every start option with its approval rule, the review date', async () => {
      const response = await get(`${base}/llms-full.txt`);
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toBe('text/markdown; charset=utf-8');
      expectEveryFact(response.text());
    });

    it('GET /api/v1/product with Accept: text/markdown lists every fact', async () => {
      const response = await get(`${base}/api/v1/product`, { Accept: 'text/markdown' });
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toBe('text/markdown; charset=utf-8');
      expectEveryFact(response.text());
      validate.response('/api/v1/product', 'get', 200, 'text/markdown', response.text());
    });

    it.each(NEGOTIATION)('Accept: %s gets %s, with Vary: Accept', async (accept, type) => {
      const response = await get(`${base}/api/v1/product`, accept === undefined ? {} : { Accept: accept });
      expect(response.status).toBe(200);
      expect(mediaTypeOf(response.headers)).toBe(type);
      expect(tokens(response.headers.vary)).toContain('accept');
      if (type === 'application/json') expect(response.json()).toEqual(JSON.parse(JSON.stringify(FACTS)));
      expectEveryResponseHeaders(response, base, QUOTA);
    });

    it('each representation has its own ETag, answers If-None-Match with a 304 that varies by Accept, and HEAD as GET', async () => {
      const accepts = { json: 'application/json', markdown: 'text/markdown', plain: 'text/plain' };
      const answers = Object.fromEntries(
        await Promise.all(
          Object.entries(accepts).map(async ([name, accept]) => [name, await get(`${base}/api/v1/product`, { Accept: accept })] as const),
        ),
      );
      expect(answers.plain!.text(), 'text/plain carries the same Markdown').toBe(answers.markdown!.text());
      expect(answers.plain!.headers['content-type']).toBe('text/plain; charset=utf-8');
      const etags = Object.values(answers).map((answer) => answer.headers.etag);
      expect(new Set(etags).size, 'three ETags').toBe(3);
      for (const [name, accept] of Object.entries(accepts)) {
        const etag = answers[name]!.headers.etag!;
        expect(etag).toMatch(ENTITY_TAG);
        for (const method of ['GET', 'HEAD']) {
          const notModified = await raw(base, method, '/api/v1/product', { Accept: accept, 'If-None-Match': etag });
          expect(notModified.status, `${method} ${accept} with its ETag`).toBe(304);
          expect(notModified.headers.etag).toBe(etag);
          expect(tokens(notModified.headers.vary)).toContain('accept');
          expectEveryResponseHeaders(notModified, base, QUOTA);
        }
        const head = await raw(base, 'HEAD', '/api/v1/product', { Accept: accept });
        expect(head.status).toBe(200);
        expect(head.headers['content-type']).toBe(answers[name]!.headers['content-type']);
        expect(head.headers.etag).toBe(etag);
        expect(tokens(head.headers.vary)).toContain('accept');
        expectHeadMatchesGet(head, answers[name]!);
      }
      // Another representation's ETag does not match: the JSON is sent in full.
      const json = await get(`${base}/api/v1/product`, { Accept: 'application/json', 'If-None-Match': answers.markdown!.headers.etag! });
      expect(json.status).toBe(200);
      expect(mediaTypeOf(json.headers)).toBe('application/json');
    });
  });

  it('counts every request to the new paths against the rate limit (200, 304, HEAD, 404, 405)', async () => {
    const asset = DOCS_ASSETS[0]!.path;
    const replies = await inOneWindow(async () => {
      const first = await get(`${base}/docs`);
      return [
        first,
        await get(`${base}/docs`, { 'If-None-Match': first.headers.etag! }),
        await raw(base, 'HEAD', '/docs'),
        await get(`${base}${asset}`),
        await get(`${base}/`),
        await get(`${base}/robots.txt`),
        await get(`${base}/llms-full.txt`),
        await get(`${base}/.well-known/mcp/server-card.json`),
        await get(`${base}/api/v1/product`, { Accept: 'text/markdown' }),
        await get(`${base}/docs/x`),
        await get(`${base}/docs`, {}, 'POST'),
        await raw(base, 'OPTIONS', '/docs', { Origin: 'https://app.example.org', 'Access-Control-Request-Method': 'GET' }),
      ];
    });
    expect(replies.map((reply) => reply.status)).toEqual([200, 304, 200, 200, 200, 200, 200, 200, 200, 404, 405, 204]);
    const remaining = replies.map((reply) => rateLimit(reply.headers, QUOTA).remaining);
    const first = remaining[0]!;
    // One fewer per request, 304, HEAD and refusals included; the preflight is not counted.
    const counted = Array.from({ length: 11 }, (_, i) => first - i);
    expect(remaining).toEqual([...counted, first - 10]);
  });

  describe('DOCS_PAGE=off, with a CONTENT_SIGNAL of its own', () => {
    const offUrl = (path: string) => `${offBase}${path}`;
    /** Whether a text links the docs page: its absolute URL, or the bare path as a link or an OpenAPI path. */
    const linksDocs = (text: string) => text.includes(`${offBase}/docs`) || /["(<\s]\/docs(?=["/)>\s]|$)/m.test(text);

    it.each(['/docs', '/docs/', '/docs/x', ...DOCS_ASSETS.map((asset) => asset.path)])('GET %s is the 404 problem', async (path) => {
      const response = await get(offUrl(path));
      expectProblem(response, offBase, 'api_route_not_found', validate);
      expect(response.headers['content-security-policy']).toBeUndefined();
      expectEveryResponseHeaders(response, offBase, QUOTA);
    });

    it('HEAD, POST and OPTIONS on /docs answer the 404 problem too (not a known path)', async () => {
      const get404 = await get(offUrl('/docs'));
      const head = await raw(offBase, 'HEAD', '/docs');
      expect(head.status).toBe(404);
      expectHeadMatchesGet(head, get404);
      expectProblem(await get(offUrl('/docs'), { 'Content-Type': 'application/json' }, 'POST'), offBase, 'api_route_not_found', validate);
      const preflight = await get(
        offUrl('/docs'),
        { Origin: 'https://app.example.org', 'Access-Control-Request-Method': 'GET' },
        'OPTIONS',
      );
      expectProblem(preflight, offBase, 'api_route_not_found', validate);
    });

    it('no link to /docs remains in /, its Link header, /api/v1, the catalog, llms.txt, llms-full.txt or robots.txt', async () => {
      const root = await get(offUrl('/'));
      expect(root.json().links).not.toHaveProperty('docs');
      expect(Object.keys(root.json().links).sort()).toEqual(
        Object.keys(ROOT_LINKS)
          .filter((name) => name !== 'docs')
          .sort(),
      );
      const links = LinkHeader.parse(root.headers.link!);
      expect(links.rel('service-doc')).toEqual([]);
      expect(links.refs.filter((ref) => new URL(ref.uri, offBase).pathname.startsWith('/docs'))).toEqual([]);
      for (const path of ['/', '/api/v1', '/.well-known/api-catalog', '/llms.txt', '/llms-full.txt', '/robots.txt']) {
        const response = await get(offUrl(path));
        expect(response.status, path).toBe(200);
        expect(linksDocs(response.text()), `${path} links the docs page`).toBe(false);
        expect(linksDocs(response.headers.link ?? ''), `${path}'s Link header`).toBe(false);
      }
      const index = (await get(offUrl('/api/v1'))).json();
      expect(index.links).not.toHaveProperty('docs');
      const catalog = (await get(offUrl('/.well-known/api-catalog'))).json();
      expect(strings(catalog.linkset[0]['service-doc'] ?? [])).not.toContain(`${offBase}/docs`);
    });

    it('the OpenAPI document has no /docs operation and no link to the page', async () => {
      const response = await get(offUrl('/openapi.json'));
      const document = response.json();
      expect(Object.keys(document.paths).filter((path) => path.startsWith('/docs'))).toEqual([]);
      expect(strings(document).filter((text) => text.includes(`${offBase}/docs`))).toEqual([]);
      for (const item of Object.values<Record<string, any>>(document.paths)) {
        for (const operation of Object.values(item)) expect(operation.operationId ?? '').not.toMatch(/^getDocs/);
      }
    });

    it('the same documents link the page on the service where it is on', async () => {
      const root = await get(`${base}/`);
      expect(root.json().links.docs).toBe(`${base}/docs`);
      expect(LinkHeader.parse(root.headers.link!).rel('service-doc')).toHaveLength(1);
      expect((await get(`${base}/api/v1`)).json().links.docs).toBe(`${base}/docs`);
      expect((await get(`${base}/.well-known/api-catalog`)).json().linkset[0]['service-doc'][0].href).toBe(`${base}/docs`);
      for (const path of ['/llms.txt', '/llms-full.txt', '/robots.txt'])
        expect((await get(`${base}${path}`)).text(), path).toContain(`${base}/docs`);
    });

    it(`robots.txt carries Content-Signal: ${CUSTOM_SIGNAL} (CONTENT_SIGNAL) and still lets every crawler fetch the API`, async () => {
      const text = (await get(offUrl('/robots.txt'))).text();
      expect(new Set(text.split('\n').filter((line) => /^content-signal:/i.test(line)))).toEqual(
        new Set([`Content-Signal: ${CUSTOM_SIGNAL}`]),
      );
      expect(new Set(text.split('\n').filter((line) => /^content-usage:/i.test(line)))).toEqual(
        new Set(['Content-Usage: search=y, train-ai=n']),
      );
      expect((await get(offUrl('/llms.txt'))).headers['content-usage']).toBe('search=y, train-ai=n');
      const robots = robotsParser(offUrl('/robots.txt'), text);
      for (const agent of ['*', 'GPTBot', 'ClaudeBot']) {
        for (const path of ['/api/v1', '/api/v1/product', '/mcp', '/llms.txt'])
          expect(robots.isAllowed(offUrl(path), agent), `${agent} ${path}`).toBe(true);
      }
    });
  });

  describe('the agent-readiness documents', () => {
    it('the root answers its Markdown to Accept: text/markdown (and text/plain), JSON to */*, and a browser a 302 to the docs page', async () => {
      const markdown = await get(`${base}/`, { Accept: 'text/markdown' });
      expect(markdown.status).toBe(200);
      expect(markdown.headers['content-type']).toBe('text/markdown; charset=utf-8');
      expect(markdown.text()).toMatch(new RegExp(`^# ${FACTS.product.name} public API\n`));
      expect(markdown.text()).toContain(`(${base}/openapi.json)`);
      expect(tokens(markdown.headers.vary)).toContain('accept');
      const plain = await get(`${base}/`, { Accept: 'text/plain' });
      expect(plain.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(plain.text()).toBe(markdown.text());
      expect(mediaTypeOf((await get(`${base}/`, { Accept: '*/*' })).headers)).toBe('application/json');
      const browser = await get(`${base}/`, { Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' });
      expect(browser.status).toBe(302);
      expect(browser.headers.location).toBe(`${base}/docs`);
      expect(tokens(browser.headers.vary)).toContain('accept');
      expectEveryResponseHeaders(browser, base, QUOTA);
      const offBrowser = await get(`${offBase}/`, { Accept: 'text/html,*/*;q=0.8' });
      expect(offBrowser.status).toBe(200);
      expect(mediaTypeOf(offBrowser.headers)).toBe('application/json');
    });

    it("the sitemap lists the documents with the facts' review date as lastmod, each answering 200", async () => {
      const sitemap = await get(`${base}/sitemap.xml`);
      expect(sitemap.status).toBe(200);
      expect(sitemap.headers['content-type']).toBe('application/xml');
      expect(sitemap.text()).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
      const locs = [...sitemap.text().matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]!);
      const lastmods = [...sitemap.text().matchAll(/<lastmod>([^<]+)<\/lastmod>/g)].map((match) => match[1]!);
      expect(locs).toEqual(expect.arrayContaining([`${base}/`, `${base}/api/v1/product`, `${base}/docs`, `${base}/skill.md`]));
      expect(new Set(lastmods)).toEqual(new Set([FACTS.product.reviewedOn]));
      for (const loc of locs) expect((await get(loc)).status, loc).toBe(200);
    });

    it('the product as schema.org JSON-LD, with its own ETag', async () => {
      const ld = await get(`${base}/api/v1/product`, { Accept: 'application/ld+json' });
      expect(ld.status).toBe(200);
      expect(ld.headers['content-type']).toBe('application/ld+json; charset=utf-8');
      expect(ld.json()).toMatchObject({
        '@context': 'https://schema.org',
        '@type': 'SoftwareApplication',
        name: FACTS.product.name,
        dateModified: FACTS.product.reviewedOn,
      });
      expect(ld.headers.etag).not.toBe((await get(`${base}/api/v1/product`)).headers.etag);
      expect((await raw(base, 'GET', '/api/v1/product', { Accept: 'application/ld+json', 'If-None-Match': ld.headers.etag! })).status).toBe(
        304,
      );
    });

    it('the Agent Skill: the same bytes at /skill.md and its well-known path, YAML front matter, digest in the index', async () => {
      const skill = await get(`${base}/skill.md`);
      const wellKnown = await get(`${base}/.well-known/agent-skills/product-discovery/SKILL.md`);
      expect(skill.headers['content-type']).toBe('text/markdown; charset=utf-8');
      expect(wellKnown.status).toBe(200);
      expect(wellKnown.body.equals(skill.body), 'the same bytes').toBe(true);
      const front = parseYaml(/^---\n([\s\S]*?)\n---\n/.exec(skill.text())![1]!);
      expect(front.name).toBe('product-discovery');
      const index = (await get(`${base}/.well-known/agent-skills/index.json`)).json();
      expect(index.skills[0].url).toBe(`${base}/.well-known/agent-skills/product-discovery/SKILL.md`);
      expect(index.skills[0].digest).toBe(`sha256:${createHash('sha256').update(skill.body).digest('hex')}`);
      expect(index.skills[0].description).toBe(front.description);
    });

    it('every document carries Content-Usage from the content signal', async () => {
      for (const path of ['/', '/api/v1/product', '/llms.txt', '/skill.md', '/sitemap.xml']) {
        expect((await get(`${base}${path}`)).headers['content-usage'], path).toBe('search=y');
      }
    });

    it('security.txt: the RFC 9116 fields where SECURITY_CONTACT is set, the 404 problem where it is not', async () => {
      const text = await get(`${offBase}/.well-known/security.txt`);
      expect(text.status).toBe(200);
      expect(text.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(text.text()).toContain(`Contact: ${SECURITY_CONTACT}\n`);
      expect(text.text()).toContain(`Canonical: ${offBase}/.well-known/security.txt\n`);
      expect(text.text()).toContain('Preferred-Languages: en\n');
      const expires = Date.parse(/^Expires: (.+)$/m.exec(text.text())![1]!);
      expect(expires).toBeGreaterThan(Date.now() + 364 * 86_400_000);
      expectProblem(await get(`${base}/.well-known/security.txt`), base, 'api_route_not_found', validate);
    });
  });

  it('no answer sets a cookie', () => {
    expect(seen.length).toBeGreaterThan(50);
    expect(seen.filter((reply) => 'set-cookie' in reply.headers).map((reply) => reply.headers['set-cookie'])).toEqual([]);
  });
});
