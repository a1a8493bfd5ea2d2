/**
 * The REST probes, each against the real handler: they pass on the service as it is, and each
 * fails, with its likely cause, when a front changes what the contract fixes (status, media type,
 * body, HEAD's fields, 304, problems, Allow, the preflight).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTargets, loadContract, nonGetPaths, type Contract, type Target } from '../../src/verify/document.ts';
import {
  checkConditional,
  checkGet,
  checkHead,
  checkNotFound,
  checkPreflight,
  checkWrongMethod,
  type Probing,
} from '../../src/verify/http.ts';
import type { HandlerOptions } from '../../src/handler.ts';
import { BASE, closeHandlers, makeHandler, send } from '../support/handler.ts';
import { editJson, fields, sessionOf, withHeaders, type Change } from '../support/verify.ts';

let document: any;
let contract: Contract;
let targets: Target[];

beforeAll(async () => {
  document = await (await send(await makeHandler(), '/openapi.json')).json();
  contract = await loadContract(document);
  targets = getTargets(document).targets;
});
afterAll(closeHandlers);

async function probingOf(
  change: Change = {},
  { options = {}, servedBase = BASE }: { options?: Partial<HandlerOptions>; servedBase?: string } = {},
): Promise<Probing> {
  return { session: await sessionOf(change, options), contract, servedBase, gets: new Map() };
}

const target = (path: string) => targets.find((t) => t.path === path)!;

/** A front that replaces the answer to `path` (to `method` only, when given). */
const at = (path: string, replace: (answer: Response, request: Request) => Response | Promise<Response>, method?: string): Change => ({
  answer: (answer, request) =>
    new URL(request.url).pathname === path && (!method || request.method === method) ? replace(answer, request) : answer,
});

/** Another answer with the service's fields, Content-Length dropped. */
const other = (answer: Response, status: number, body: string | null, changes: Record<string, string | undefined> = {}) =>
  new Response(body, { status, headers: fields(answer.headers, { 'content-length': undefined, ...changes }) });

describe('checkGet', () => {
  it('passes every documented path as the service serves it, and keeps each answer for the later checks', async () => {
    const probing = await probingOf();
    const checks = await Promise.all(targets.map((t) => checkGet(probing, t)));
    expect(checks.filter((check) => !check.ok)).toEqual([]);
    expect(checks.map((check) => check.id)).toEqual(targets.map((t) => `get:${t.path}`));
    expect([...probing.gets.keys()].sort()).toEqual(targets.map((t) => t.path).sort());
    expect(probing.session.count).toBe(targets.length);
  });

  it('reads an answer already received instead of asking again', async () => {
    const probing = await probingOf();
    const first = await probing.session.request('/openapi.json');
    expect((await checkGet(probing, target('/openapi.json'), first)).ok).toBe(true);
    expect(probing.session.count).toBe(1);
  });

  it('fails a path the deployment does not serve, naming the path to forward', async () => {
    const check = await checkGet(await probingOf({}, { options: { docsPage: false } }), target('/docs'));
    expect(check).toMatchObject({ id: 'get:/docs', ok: false, got: '404 application/problem+json' });
    expect(check.hint).toMatch(/^\/docs does not reach the service/);
  });

  it.each([
    [301, { location: 'https://www.example.com/api/v1' }, 'it redirects to https://www.example.com/api/v1'],
    [502, {}, 'the service or something in front of it failed'],
    [403, {}, 'something in front answers instead of the service'],
  ])('fails a %i with its likely cause', async (status, fields, hint) => {
    const check = await checkGet(await probingOf(at('/api/v1', (a) => other(a, status, null, fields))), target('/api/v1'));
    expect(check.ok).toBe(false);
    expect(check.hint).toContain(hint);
  });

  it('fails a Content-Type or charset the document does not give; takes application/openapi+json for the OpenAPI document alone', async () => {
    const retyped = (path: string, type: string) => at(path, (a) => withHeaders(a, { 'content-type': type }));
    expect(await checkGet(await probingOf(retyped('/llms.txt', 'text/plain')), target('/llms.txt'))).toMatchObject({
      ok: false,
      got: '200 text/plain',
    });
    expect((await checkGet(await probingOf(retyped('/api/v1', 'application/json; charset=iso-8859-1')), target('/api/v1'))).ok).toBe(false);
    expect((await checkGet(await probingOf(retyped('/openapi.json', 'application/openapi+json')), target('/openapi.json'))).ok).toBe(true);
    expect((await checkGet(await probingOf(retyped('/api/v1', 'application/openapi+json')), target('/api/v1'))).ok).toBe(false);
  });

  it('fails a body that breaks the served schema, or is not JSON', async () => {
    const edited = await checkGet(await probingOf({ answer: editJson('/api/v1', (body) => (body.apiVersion = 'v2')) }), target('/api/v1'));
    expect(edited).toMatchObject({ ok: false, got: '200 application/json, /apiVersion must be equal to constant' });
    expect(edited.hint).toContain('another release answers behind this URL');
    const garbled = await checkGet(await probingOf(at('/api/v1', (a) => other(a, 200, '{"name":'))), target('/api/v1'));
    expect(garbled).toMatchObject({ ok: false, got: '200 application/json, the body is not JSON' });
  });
});

/** HEAD of `path` after its GET, through the front. */
async function head(path: string, change: Change = {}) {
  const probing = await probingOf(change);
  await checkGet(probing, target(path));
  return checkHead(probing, path);
}

describe('checkHead', () => {
  it('passes on every documented path: the status, fields and Content-Length of GET (RFC 9110 section 9.3.2)', async () => {
    const probing = await probingOf();
    for (const t of targets) await checkGet(probing, t);
    const checks = await Promise.all(targets.map((t) => checkHead(probing, t.path)));
    expect(checks.filter((check) => !check.ok)).toEqual([]);
    expect(checks[0]!.got).toMatch(/^200, same headers, Content-Length \d+$/);
  });

  it('takes a HEAD without Content-Length', async () => {
    expect(
      await head(
        '/api/v1',
        at('/api/v1', (a) => withHeaders(a, { 'content-length': undefined }), 'HEAD'),
      ),
    ).toMatchObject({ ok: true, got: '200, same headers, no Content-Length' });
  });

  it("fails a HEAD whose Content-Length is not the length of GET's body, measured when GET gave none", async () => {
    const bytes = (await (await send(await makeHandler(), '/api/v1')).arrayBuffer()).byteLength;
    const zero = at('/api/v1', (a) => withHeaders(a, { 'content-length': '0' }), 'HEAD');
    expect((await head('/api/v1', zero)).got).toBe(`Content-Length 0 where GET's body is ${bytes} bytes`);
    const unmeasured: Change = { answer: async (a, r) => (r.method === 'GET' ? other(a, a.status, await a.text()) : zero.answer!(a, r)) };
    expect((await head('/api/v1', unmeasured)).got).toBe(`Content-Length 0 where GET's body is ${bytes} bytes`);
  });

  it('fails a HEAD answered with another status or without a field GET has', async () => {
    expect(
      (
        await head(
          '/api/v1',
          at('/api/v1', (a) => withHeaders(a, { etag: undefined }), 'HEAD'),
        )
      ).got,
    ).toMatch(/^etag: \(none\) where GET has "[^"]+"$/);
    expect(
      (
        await head(
          '/api/v1',
          at('/api/v1', (a) => other(a, 404, null), 'HEAD'),
        )
      ).got,
    ).toBe('status 404');
  });
});

/** If-None-Match of `path` after its GET, through the front. */
async function conditional(path: string, change: Change = {}) {
  const probing = await probingOf(change);
  await checkGet(probing, target(path));
  return checkConditional(probing, path);
}

describe('checkConditional', () => {
  it('passes a 304 with the same ETag and no body (RFC 9110 section 13.1.2)', async () => {
    for (const path of ['/api/v1', '/api/v1/product', '/openapi.json', '/llms.txt'])
      expect(await conditional(path), path).toMatchObject({ id: `etag:${path}`, ok: true });
  });

  it('fails when a front drops If-None-Match, or changes the ETag', async () => {
    const dropped = await conditional('/api/v1', {
      request: (r) => {
        const headers = new Headers(r.headers);
        headers.delete('if-none-match');
        return new Request(r, { headers });
      },
    });
    expect(dropped).toMatchObject({ ok: false, got: '200 application/json' });
    const changed = await conditional('/api/v1', { answer: (a) => (a.status === 304 ? withHeaders(a, { etag: '"other"' }) : a) });
    expect(changed).toMatchObject({ ok: false, got: '304, ETag "other"' });
  });
});

const UNKNOWN = ['/api/v1/this-path-does-not-exist', '/docs/this-asset-does-not-exist'];

describe('checkNotFound', () => {
  it("passes the service's 404 problems, asked for as a browser asks", async () => {
    const seen: string[] = [];
    const probing = await probingOf({ request: (r) => (seen.push(r.headers.get('accept')!), r) });
    expect(await checkNotFound(probing, UNKNOWN)).toMatchObject({ id: 'not-found', ok: true, got: '404 problems' });
    expect(seen).toEqual(UNKNOWN.map(() => 'text/html,application/xhtml+xml,*/*;q=0.8'));
  });

  it('fails an HTML page in place of the problem, saying what serves it', async () => {
    const html: Change = { answer: (a) => (a.status === 404 ? other(a, 404, '<h1>Not found</h1>', { 'content-type': 'text/html' }) : a) };
    const check = await checkNotFound(await probingOf(html), UNKNOWN);
    expect(check).toMatchObject({
      ok: false,
      got: 'GET /api/v1/this-path-does-not-exist: 404 text/html; GET /docs/this-asset-does-not-exist: 404 text/html',
    });
    expect(check.hint).toContain("replaces the service's 404 with an HTML page");
  });

  it('fails a catch-all, a problem that breaks the schema, and a problem type under another {base}', async () => {
    const catchAll = await checkNotFound(
      await probingOf(at(UNKNOWN[0]!, (a) => other(a, 200, 'hello', { 'content-type': 'text/plain' }))),
      UNKNOWN,
    );
    expect(catchAll).toMatchObject({ ok: false, got: `GET ${UNKNOWN[0]}: 200 text/plain` });
    expect(catchAll.hint).toContain('forward every path');
    const untitled = at(UNKNOWN[0]!, async (a) => other(a, 404, JSON.stringify({ ...(await a.json()), title: undefined })));
    expect((await checkNotFound(await probingOf(untitled), UNKNOWN)).got).toBe(`GET ${UNKNOWN[0]}: / must have required property 'title'`);
    const elsewhere = await checkNotFound(await probingOf({}, { servedBase: 'https://other.example' }), UNKNOWN.slice(0, 1));
    expect(elsewhere.got).toBe(`GET ${UNKNOWN[0]}: type ${BASE}/problems/api_route_not_found, not {base}/problems/api_route_not_found`);
  });
});

describe('checkWrongMethod', () => {
  it('passes the 405 problem with Allow for each path that takes no GET', async () => {
    expect(await checkWrongMethod(await probingOf(), nonGetPaths(document))).toMatchObject({ id: 'method-not-allowed', ok: true });
  });

  it('fails a 405 without Allow, or another answer', async () => {
    const allowless = await checkWrongMethod(
      await probingOf({ answer: (a) => withHeaders(a, { allow: undefined }) }),
      nonGetPaths(document),
    );
    expect(allowless).toMatchObject({ ok: false, got: 'GET /mcp: Allow (none) lacks POST' });
    const code = await checkWrongMethod(
      await probingOf(at('/mcp', async (a) => other(a, 405, JSON.stringify({ ...(await a.json()), code: 'api_route_not_found' })))),
      nonGetPaths(document),
    );
    expect(code.got).toBe('GET /mcp: code api_route_not_found, status 405');
  });
});

describe('checkPreflight', () => {
  it("passes the service's 204 with Allow, sent as a browser's preflight", async () => {
    const seen: string[] = [];
    const probing = await probingOf({
      request: (r) => (seen.push(`${r.method} ${r.headers.get('origin')} ${r.headers.get('access-control-request-method')}`), r),
    });
    expect(await checkPreflight(probing, '/api/v1/product')).toMatchObject({
      id: 'options',
      ok: true,
      got: '204, Allow: GET, HEAD, OPTIONS',
    });
    expect(seen).toEqual(['OPTIONS https://example.org GET']);
  });

  it('fails a preflight answered 200, or with an Allow that lacks HEAD', async () => {
    const ok200 = at('/api/v1/product', (a) => other(a, 200, null, { allow: undefined }), 'OPTIONS');
    expect(await checkPreflight(await probingOf(ok200), '/api/v1/product')).toMatchObject({ ok: false, got: '200, Allow: (none)' });
    const headless = at('/api/v1/product', (a) => withHeaders(a, { allow: 'GET, OPTIONS' }), 'OPTIONS');
    expect(await checkPreflight(await probingOf(headless), '/api/v1/product')).toMatchObject({
      ok: false,
      got: '204, Allow: GET, OPTIONS',
    });
  });
});
