/**
 * The fields every answer must carry, read from real answers of the handler (REST probes, a
 * preflight, errors and an MCP exchange): each check passes on them as they are, and fails, naming
 * the field and how many answers lack it, when one answer is changed. The deprecation fields while
 * announced, and never otherwise.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { HandlerOptions } from '../../src/handler.ts';
import { EXPOSED_HEADERS as EXPOSED } from '../../src/http/headers.ts';
import { deprecationCheck, headerChecks } from '../../src/verify/headers.ts';
import type { Check } from '../../src/verify/report.ts';
import type { Answer } from '../../src/verify/session.ts';
import { BASE, closeHandlers } from '../support/handler.ts';
import { frame } from '../support/mcp.ts';
import { changed, sessionOf } from '../support/verify.ts';

afterAll(closeHandlers);

/** GET, HEAD and OPTIONS probes, a 404, a 405 and an MCP exchange, as one run records them. */
async function answersOf(options: Partial<HandlerOptions> = {}): Promise<Answer[]> {
  const session = await sessionOf({}, options);
  for (const path of ['/api/v1', '/api/v1/health', '/openapi.json', '/api/v1/nope', '/mcp']) await session.request(path);
  await session.request('/api/v1', { method: 'HEAD' });
  await session.request('/api/v1/product', {
    method: 'OPTIONS',
    headers: { origin: 'https://example.org', 'access-control-request-method': 'GET' },
  });
  await session.fetch(`${BASE}/mcp`, { method: 'POST', ...frame('legacy', 'tools/list') });
  return session.answers;
}

/** The answers with the one to `method path` changed. */
const changing = (answers: Answer[], at: string, fields: Record<string, string | undefined>) =>
  answers.map((answer) => (`${answer.method} ${answer.path}` === at ? changed(answer, fields) : answer));

const check = (checks: Check[], id: string) => checks.find((c) => c.id === id)!;

describe('headerChecks', () => {
  it("passes every check on the service's answers, the MCP exchange's included", async () => {
    const answers = await answersOf();
    expect(answers.filter((a) => a.mcp).map((a) => `${a.method} ${a.path} ${a.status}`)).toEqual(['POST /mcp 200']);
    const checks = headerChecks(answers, BASE);
    expect(checks.map((c) => [c.id, c.ok])).toEqual(
      ['headers.nosniff', 'headers.link', 'headers.cors', 'headers.rate-limit', 'headers.etag', 'headers.cache-control'].map((id) => [
        id,
        true,
      ]),
    );
    expect(check(checks, 'headers.nosniff').got).toBe(`on all ${answers.length} answers`);
  });

  it('names each distinct problem once, with how many answers have it and the first', async () => {
    const answers = await answersOf();
    const broken = changing(changing(answers, 'GET /api/v1/health', { 'x-content-type-options': undefined }), 'GET /openapi.json', {
      'x-content-type-options': undefined,
    });
    const n = answers.length;
    expect(check(headerChecks(broken, BASE), 'headers.nosniff').got).toBe(
      `X-Content-Type-Options missing on 2 of ${n} answers (first: GET /api/v1/health)`,
    );
    const two = changing(broken, 'GET /api/v1', { 'x-content-type-options': 'sniff' });
    expect(check(headerChecks(two, BASE), 'headers.nosniff').got).toBe(
      `X-Content-Type-Options sniff on 1 of ${n} answers (first: GET /api/v1); X-Content-Type-Options missing on 2 of ${n} answers (first: GET /api/v1/health)`,
    );
  });

  it('fails Link without the service-desc of the served {base}, or missing', async () => {
    const answers = await answersOf();
    expect(check(headerChecks(answers, 'https://other.example'), 'headers.link')).toMatchObject({
      ok: false,
      expected: 'Link: <https://other.example/openapi.json>; rel="service-desc" on every answer',
    });
    expect(check(headerChecks(changing(answers, 'GET /mcp', { link: undefined }), BASE), 'headers.link').got).toBe(
      `Link missing on 1 of ${answers.length} answers (first: GET /mcp)`,
    );
  });

  it.each([
    ['GET /api/v1', { 'access-control-allow-origin': 'https://example.org' }, 'Access-Control-Allow-Origin https://example.org'],
    ['GET /api/v1', { 'access-control-allow-credentials': 'true' }, 'Access-Control-Allow-Credentials present'],
    [
      'POST /mcp',
      { 'access-control-expose-headers': EXPOSED.filter((name) => name !== 'ETag').join(', ') },
      'Access-Control-Expose-Headers lacks ETag',
    ],
    ['OPTIONS /api/v1/product', { 'access-control-allow-methods': 'POST' }, 'Access-Control-Allow-Methods POST on the preflight'],
  ])('fails CORS when %s has %o', async (at, fields, problem) => {
    const answers = await answersOf();
    expect(check(headerChecks(changing(answers, at, fields), BASE), 'headers.cors')).toMatchObject({
      ok: false,
      got: `${problem} on 1 of ${answers.length} answers (first: ${at})`,
    });
  });

  it('fails rate-limit fields that are missing, or that disagree, with a hint for each', async () => {
    const answers = await answersOf();
    const missing = check(headerChecks(changing(answers, 'GET /api/v1', { ratelimit: undefined }), BASE), 'headers.rate-limit');
    expect(missing).toMatchObject({ ok: false, got: `RateLimit missing on 1 of ${answers.length} answers (first: GET /api/v1)` });
    expect(missing.hint).toMatch(/^the proxy in front drops them/);
    const incoherent = check(headerChecks(changing(answers, 'GET /api/v1', { 'x-ratelimit-remaining': '7' }), BASE), 'headers.rate-limit');
    expect(incoherent.got).toMatch(/^X-RateLimit-Remaining 7 is not RateLimit r=\d+ on 1 of \d+ answers/);
    expect(incoherent.hint).toMatch(/^the fields disagree/);
  });

  it('asks for an ETag on REST GET 200s alone', async () => {
    const answers = await answersOf();
    const elsewhere = changing(
      changing(changing(answers, 'POST /mcp', { etag: undefined }), 'HEAD /api/v1', { etag: undefined }),
      'GET /api/v1/nope',
      { etag: undefined },
    );
    expect(check(headerChecks(elsewhere, BASE), 'headers.etag').ok).toBe(true);
    expect(check(headerChecks(changing(answers, 'GET /api/v1', { etag: undefined }), BASE), 'headers.etag').got).toBe(
      'ETag missing on 1 of 3 answers (first: GET /api/v1)',
    );
  });

  it('asks for no-store on errors and health, not on cacheable answers', async () => {
    const answers = await answersOf();
    expect(
      check(headerChecks(changing(answers, 'GET /api/v1', { 'cache-control': 'public, max-age=600' }), BASE), 'headers.cache-control').ok,
    ).toBe(true);
    for (const at of ['GET /api/v1/nope', 'GET /mcp', 'GET /api/v1/health']) {
      const got = check(headerChecks(changing(answers, at, { 'cache-control': 'public, max-age=600' }), BASE), 'headers.cache-control').got;
      expect(got).toMatch(new RegExp(`^Cache-Control public, max-age=600 on 1 of \\d+ answers \\(first: ${at}\\)$`));
    }
  });
});

describe('deprecationCheck', () => {
  const DEPRECATION = {
    deprecatedAt: new Date('2026-01-01T00:00:00Z'),
    sunsetAt: new Date('2026-06-01T00:00:00Z'),
    successorPath: '/api/v2',
  };

  /** A run's answers from a handler announcing DEPRECATION, what its index announces, and its document. */
  async function announcing() {
    const answers = await answersOf({ deprecation: DEPRECATION });
    const index = JSON.parse(answers.find((a) => a.path === '/api/v1' && a.method === 'GET')!.body);
    const document = JSON.parse(answers.find((a) => a.path === '/openapi.json')!.body);
    return { answers, announced: index.deprecation, document };
  }

  it('passes no fields while none is announced, and fails one sent under /api/v1 anyway', async () => {
    const answers = await answersOf();
    const document = JSON.parse(answers.find((a) => a.path === '/openapi.json')!.body);
    expect(deprecationCheck(answers, undefined, document)).toMatchObject({ id: 'deprecation', ok: true, got: 'none announced, none sent' });
    expect(deprecationCheck(changing(answers, 'GET /openapi.json', { deprecation: '@1' }), undefined, document).ok).toBe(true);
    const stray = deprecationCheck(changing(answers, 'GET /api/v1/nope', { sunset: 'Mon, 01 Jun 2026 00:00:00 GMT' }), undefined, document);
    expect(stray.got).toMatch(/^Deprecation or Sunset without an announcement on 1 of \d+ answers \(first: GET \/api\/v1\/nope\)$/);
  });

  it('passes the fields of an announcement on every /api/v1 answer (RFC 9745, RFC 8594)', async () => {
    const { answers, announced, document } = await announcing();
    const result = deprecationCheck(answers, announced, document);
    expect(result.ok, result.got).toBe(true);
    expect(result.expected).toBe(
      `Deprecation: @1767225600, Sunset: Mon, 01 Jun 2026 00:00:00 GMT and Link rel="successor-version" to ${BASE}/api/v2 on every /api/v1 answer`,
    );
  });

  it('fails an /api/v1 answer without Deprecation, Sunset or the successor Link, and a document that does not mark the GETs deprecated', async () => {
    const { answers, announced, document } = await announcing();
    const got = (at: string, fields: Record<string, string | undefined>) =>
      deprecationCheck(changing(answers, at, fields), announced, document).got;
    expect(got('GET /api/v1', { deprecation: undefined })).toMatch(/^Deprecation missing on 1 of \d+ answers \(first: GET \/api\/v1\)$/);
    expect(got('GET /api/v1/health', { sunset: 'Tue, 01 Dec 2026 00:00:00 GMT' })).toMatch(/^Sunset Tue, 01 Dec 2026 00:00:00 GMT on 1 of/);
    expect(got('HEAD /api/v1', { link: `<${BASE}/openapi.json>; rel="service-desc"` })).toMatch(/^no successor-version Link on 1 of/);
    const plain = JSON.parse((await answersOf()).find((a) => a.path === '/openapi.json')!.body);
    expect(deprecationCheck(answers, announced, plain).got).toBe(
      'GET /api/v1 not deprecated in the OpenAPI document; GET /api/v1/health not deprecated in the OpenAPI document; and 1 more',
    );
  });
});
