/**
 * `verify()` in process, against the real handler through a fetch that plays the part of a front:
 * it passes on the service as it is, and each break is caught by the check named for it and by
 * nothing else. The budget shrinks the HEAD and If-None-Match checks, never the rest.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDocsAssetBodies } from '../../src/docs/assets.ts';
import { checkFacts } from '../../src/facts/check.ts';
import { verify } from '../../src/verify/index.ts';
import notebook from '../fixtures/notebook-facts.json' with { type: 'json' };
import { BASE, closeHandlers, makeHandler } from '../support/handler.ts';
import { editJson, front, withHeaders } from '../support/verify.ts';

afterAll(closeHandlers);
// The docs assets' 1.9 MB module is imported on the first request for one. On a loaded machine that first
// import, inside the request, outlasted the two seconds the rate-limit check allows between a counted
// request and its answer (the answer has no Date here, so its arrival is its time): imported beforehand.
beforeAll(() => loadDocsAssetBodies(), 60_000);

const failed = (report: Awaited<ReturnType<typeof verify>>) => report.checks.filter((check) => !check.ok).map((check) => check.id);

describe('verify() in process', () => {
  it('passes on the service as it is, sending only reads', async () => {
    const { fetch, sent } = await front();
    const report = await verify(BASE, { fetch });
    expect(failed(report)).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.requests).toBe(sent.length);
    expect(sent.every((line) => /^(GET|HEAD|OPTIONS) /.test(line) || line === 'POST /mcp')).toBe(true);
    // Only HEAD or If-None-Match checks may give way to the budget, never the rest.
    expect(report.notChecked.filter((item) => !/^head:\S+ \(request budget\)$/.test(item))).toEqual([]);
  });

  it('passes on a product other than the sample (research notebooks, no gallery field)', async () => {
    const { fetch } = await front({}, { facts: checkFacts('notebook-facts.json', structuredClone(notebook)) });
    const report = await verify(BASE, { fetch });
    expect(failed(report)).toEqual([]);
    expect(report.ok).toBe(true);
  });

  const BREAKS: [string, Parameters<typeof front>[0], string[]][] = [
    [
      'a HEAD answered with Content-Length: 0',
      { answer: (a, r) => (r.method === 'HEAD' ? withHeaders(a, { 'content-length': '0' }) : a) },
      ['head:'],
    ],
    [
      'a front that drops If-None-Match',
      {
        request: (r) => {
          const h = new Headers(r.headers);
          h.delete('if-none-match');
          return new Request(r, { headers: h });
        },
      },
      ['etag:'],
    ],
    [
      'an index body that no longer matches the schema',
      { answer: editJson('/api/v1', (body) => (body.apiVersion = 'v2')) },
      ['get:/api/v1'],
    ],
    [
      'llms.txt sent as text/plain',
      { answer: (a, r) => (new URL(r.url).pathname === '/llms.txt' ? withHeaders(a, { 'content-type': 'text/plain' }) : a) },
      ['get:/llms.txt', 'discovery.ai-catalog'],
    ],
    ['X-Content-Type-Options dropped', { answer: (a) => withHeaders(a, { 'x-content-type-options': undefined }) }, ['headers.nosniff']],
    ['Link dropped', { answer: (a) => withHeaders(a, { link: undefined }) }, ['headers.link', 'discovery.api-catalog', 'discovery.root']],
    [
      'errors made cacheable',
      { answer: (a) => (a.status >= 400 ? withHeaders(a, { 'cache-control': 'public, max-age=600' }) : a) },
      ['headers.cache-control'],
    ],
    ['ETag stripped', { answer: (a) => withHeaders(a, { etag: undefined }) }, ['headers.etag']],
    [
      'RateLimit r out of step with X-RateLimit-Remaining',
      { answer: (a) => withHeaders(a, { 'x-ratelimit-remaining': '7' }) },
      ['headers.rate-limit'],
    ],
    [
      'a Deprecation field no announcement explains',
      { answer: (a, r) => (new URL(r.url).pathname.startsWith('/api/v1') ? withHeaders(a, { deprecation: '@1' }) : a) },
      ['deprecation'],
    ],
    ['health from another release', { answer: editJson('/api/v1/health', (body) => (body.version = '0.9.0')) }, ['version']],
    ['a 405 without Allow', { answer: (a) => (a.status === 405 ? withHeaders(a, { allow: undefined }) : a) }, ['method-not-allowed']],
    [
      'a preflight answered 200 without Allow',
      {
        answer: (a, r) =>
          r.method === 'OPTIONS' ? new Response(null, { status: 200, headers: withHeaders(a, { allow: undefined }).headers }) : a,
      },
      ['options'],
    ],
  ];

  it.each(BREAKS)('catches %s with that check alone', async (_name, change, ids) => {
    const { fetch } = await front(change);
    const report = await verify(BASE, { fetch });
    const failing = failed(report);
    expect(
      failing.length,
      JSON.stringify(
        report.checks.filter((c) => !c.ok),
        null,
        2,
      ),
    ).toBeGreaterThan(0);
    for (const id of failing)
      expect(
        ids.some((wanted) => (wanted.endsWith(':') ? id.startsWith(wanted) : id === wanted)),
        `${id} failed too`,
      ).toBe(true);
    for (const wanted of ids.filter((id) => !id.endsWith(':'))) expect(failing).toContain(wanted);
    for (const check of report.checks.filter((c) => !c.ok)) expect(check.hint).not.toBe('');
    expect(report.ok).toBe(false);
  });

  it('gives HEAD and If-None-Match what is left of a smaller budget, and says what it left out', async () => {
    const full = await verify(BASE, { fetch: (await front()).fetch });
    const { fetch, sent } = await front();
    const report = await verify(BASE, { fetch, maxRequests: full.requests - 5 });
    expect(failed(report)).toEqual([]);
    expect(sent.length).toBeLessThanOrEqual(full.requests - 5);
    expect(report.checks.some((check) => check.id.startsWith('etag:'))).toBe(true);
    expect(report.notChecked.length).toBeGreaterThan(0);
    expect(report.notChecked.every((item) => /^head:\/\S* \(request budget\)$/.test(item))).toBe(true);
  });

  it('stops when a budget too small for the checks every run makes runs out, and says so', async () => {
    const report = await verify(BASE, { fetch: (await front()).fetch, maxRequests: 10 });
    expect(failed(report)).toEqual(['budget']);
    expect(report.requests).toBe(10);
    expect(report.checks.at(-1)!.hint).toBe('a budget of 10 does not cover the checks every run makes: give it more, up to 60');
  });

  it('stops at the first 429 and says when to retry', async () => {
    const handler = await makeHandler({ rateLimit: { quota: 5, windowSeconds: 60 } });
    const fetch = (async (input: string | URL | Request, init?: RequestInit) =>
      handler(new Request(input, init), { clientAddress: '203.0.113.10' })) as typeof globalThis.fetch;
    const report = await verify(BASE, { fetch });
    expect(failed(report)).toEqual(['rate-limit.quota']);
    expect(report.checks.at(-1)!.hint).toMatch(/retry after \d+ s/);
    expect(report.notChecked).toContain('the rest of the run');
  });

  it('stops at the JSON-RPC answer over quota of a deployment with MCP_RATE_LIMIT_ANSWER=jsonrpc', async () => {
    const rest = await makeHandler();
    // /mcp alone with a quota of 1 and the gateways' answer: the second MCP request is over quota.
    const mcp = await makeHandler({ rateLimit: { quota: 1, windowSeconds: 3600 }, mcp: { rateLimitAnswer: 'jsonrpc' } });
    const fetch = (async (input: string | URL | Request, init?: RequestInit) => {
      const request = new Request(input, init);
      const handler = new URL(request.url).pathname === '/mcp' && request.method === 'POST' ? mcp : rest;
      return handler(request, { clientAddress: '203.0.113.11' });
    }) as typeof globalThis.fetch;
    const report = await verify(BASE, { fetch });
    expect(failed(report)).toEqual(['rate-limit.quota']);
    expect(report.checks.at(-1)!.got).toMatch(/^an over-quota JSON-RPC answer to POST \/mcp after \d+ requests; Retry-After: \d+$/);
    expect(report.notChecked).toContain('the rest of the run');
  });

  it('reports a deployment that does not serve the contract at the URL as one failed check', async () => {
    const fetch = (async () =>
      new Response('<html>hello</html>', { status: 200, headers: { 'content-type': 'text/html' } })) as unknown as typeof globalThis.fetch;
    const report = await verify(BASE, { fetch });
    expect(report.checks.map((check) => [check.id, check.ok])).toEqual([['openapi', false]]);
    expect(report.requests).toBe(1);
  });
});
