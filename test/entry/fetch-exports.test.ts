/**
 * The Vercel and Netlify exports, loaded as their platforms load them (configuration from the
 * environment), fed malformed requests: bodies whose Content-Length lies, bodies cut off or never
 * ending, JSON nested 5,000 deep, any method, and thousands of fuzzed requests. Never a throw, a
 * plain-text answer or a 500; every answer with the headers the contract lists.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { BODY_DEADLINE_MS } from '../../src/http/body.ts';
import { ERAS, expectJsonRpcAnswer, frame, nestedRequests } from '../support/mcp.ts';

const BASE = 'https://api.example.test';
type Export = (request: Request) => Promise<Response>;
const exports: Record<'vercel' | 'netlify', Export> = {} as never;

beforeAll(async () => {
  vi.stubEnv('PUBLIC_BASE_URL', BASE);
  vi.stubEnv('RATE_LIMIT_QUOTA', '1000000');
  const vercel = (await import('../../src/entry/vercel.ts')).default;
  const netlify = (await import('../../src/entry/netlify.ts')).default;
  exports.vercel = (request) => vercel.fetch(request);
  // Called without its context, as another function (or a test) may call it.
  exports.netlify = (request) => netlify(request);
  vi.unstubAllEnvs();
});

const encoder = new TextEncoder();
type End = 'close' | 'error' | 'open';
/** A body arriving in `chunks`, then closed, cut off by the client, or never ending. */
function stream(chunks: string[], end: End = 'close') {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      if (end === 'close') controller.close();
      if (end === 'error') controller.error(new Error('the client went away'));
    },
  });
}

const post = (path: string, headers: Record<string, string>, body?: BodyInit | null, method = 'POST') =>
  new Request(`${BASE}${path}`, { method, headers, body, duplex: 'half' } as RequestInit);

async function expectContractAnswer(response: Response, label: string) {
  const text = await response.text();
  expect(response.status, `${label}: ${text}`).toBeLessThan(500);
  expect(response.headers.get('x-content-type-options'), label).toBe('nosniff');
  expect(response.headers.get('link'), label).toMatch(/rel="service-desc"/);
  expect(response.headers.get('x-ratelimit-limit'), label).toBeDefined();
  if (response.status >= 400) {
    expect(response.headers.get('cache-control'), label).toBe('no-store');
    expect(response.headers.get('content-type'), label).toMatch(/^application\/(problem\+)?json/);
  }
  return text;
}

const MCP = frame('legacy', 'tools/list');

describe.each(['vercel', 'netlify'] as const)('the %s export', (name) => {
  const serve = (request: Request) => exports[name](request);

  it('refuses a body over the limit with 413 whatever Content-Length says, naming the limit', async () => {
    for (const declared of ['10', '-1', '', 'abc', undefined]) {
      const headers = { ...MCP.headers, ...(declared === undefined ? {} : { 'content-length': declared }) };
      const response = await serve(post('/mcp', headers, stream(['x'.repeat(1024 * 1024), 'x'.repeat(1024 * 1024)])));
      const text = await expectContractAnswer(response, String(declared));
      expect(response.status, String(declared)).toBe(413);
      expect(JSON.parse(text).detail).toBe('The body is larger than 65536 bytes.');
    }
  });

  it('serves a small body whatever Content-Length says', async () => {
    for (const declared of ['abc', '10', '-1', '']) {
      const response = await serve(post('/mcp', { ...MCP.headers, 'content-length': declared }, MCP.body));
      const text = await expectContractAnswer(response, declared);
      expect(response.status, declared).toBe(200);
      expect(JSON.parse(text).result.tools).toBeDefined();
    }
  });

  it('answers a body the client cut off with the 400 bad_request problem, logging no failure', async () => {
    const errors = vi.spyOn(console, 'error');
    const response = await serve(post('/mcp', MCP.headers, stream(['{"jsonrpc":'], 'error')));
    const text = await expectContractAnswer(response, 'cut off');
    expect(response.status).toBe(400);
    expect(JSON.parse(text)).toMatchObject({ code: 'bad_request' });
    // The rest of the body is unread: the connection carries no further request (RFC 9112 section 9.6).
    expect(response.headers.get('connection')).toBe('close');
    expect(errors).not.toHaveBeenCalled();
    errors.mockRestore();
  });

  it.each(ERAS)('gives JSON nested 5,000 deep a JSON-RPC answer (%s framing)', async (era) => {
    for (const { id, headers, body } of nestedRequests(era)) {
      const response = await serve(post('/mcp', headers, body));
      expectJsonRpcAnswer(response.status, response.headers.get('content-type'), await response.text(), id);
    }
  });
});

describe('a body that never ends', () => {
  it(
    'is answered with the 400 bad_request problem at the deadline',
    async () => {
      const started = performance.now();
      const response = await exports.vercel(post('/mcp', MCP.headers, stream(['{"jsonrpc":'], 'open')));
      const text = await expectContractAnswer(response, 'never ends');
      expect(response.status).toBe(400);
      expect(JSON.parse(text).detail).toMatch(/did not arrive within/);
      expect(response.headers.get('connection')).toBe('close');
      expect(performance.now() - started).toBeLessThan(BODY_DEADLINE_MS + 2_000);
    },
    BODY_DEADLINE_MS + 5_000,
  );
});

const REQUEST = fc.record({
  method: fc.oneof(
    { weight: 3, arbitrary: fc.constant('POST') },
    { weight: 2, arbitrary: fc.constantFrom('GET', 'HEAD', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'FOO') },
  ),
  path: fc.oneof(
    { weight: 3, arbitrary: fc.constant('/mcp') },
    {
      weight: 2,
      arbitrary: fc.constantFrom('/', '/api/v1', '/api/v1/product', '/api/v1/health', '/nowhere', '/problems/bad_request', '/docs/x.js'),
    },
    { weight: 1, arbitrary: fc.webPath() },
  ),
  contentType: fc.constantFrom(undefined, 'application/json', 'text/plain', 'application/json; charset=utf-8', ''),
  accept: fc.constantFrom(undefined, '*/*', 'text/html', 'application/json, text/event-stream'),
  origin: fc.constantFrom(undefined, 'https://evil.example', BASE),
  declared: fc.constantFrom(undefined, '0', '10', '-1', '', 'abc', '99999999'),
  body: fc.oneof(
    fc.constant<undefined>(undefined),
    fc.constant(MCP.body),
    fc.json({ maxDepth: 3 }),
    fc.string({ maxLength: 200 }),
    fc.constantFrom('nested', 'large', 'cut off'),
  ),
});

describe('fuzzed requests', () => {
  it.each(['vercel', 'netlify'] as const)('to the %s export never throw, answer plain text or a 500', async (name) => {
    const outcomes = new Map<string, number>();
    let requests = 0;
    await fc.assert(
      fc.asyncProperty(REQUEST, async ({ method, path, contentType, accept, origin, declared, body }) => {
        const headers: Record<string, string> = {};
        if (contentType !== undefined) headers['content-type'] = contentType;
        if (accept !== undefined) headers.accept = accept;
        if (origin !== undefined) headers.origin = origin;
        if (declared !== undefined) headers['content-length'] = declared;
        let sent: BodyInit | undefined;
        if (body === 'nested') sent = nestedRequests('legacy')[0]!.body;
        else if (body === 'large') sent = stream(['x'.repeat(70_000)]);
        else if (body === 'cut off') sent = stream(['{"a":'], 'error');
        else sent = body;
        const withBody = method !== 'GET' && method !== 'HEAD' && sent !== undefined;
        requests++;
        const response = await exports[name](post(path, headers, withBody ? sent : undefined, method));
        await expectContractAnswer(response, `${method} ${path} ${JSON.stringify(headers)} ${String(body).slice(0, 80)}`);
        const key = String(response.status);
        outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
      }),
      { numRuns: 1_500 },
    );
    console.log(`${requests} fuzzed requests to the ${name} export:`, Object.fromEntries([...outcomes].sort()));
  });
});
