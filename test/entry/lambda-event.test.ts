/**
 * The Lambda handler over the real handler and Hono's adapter, fed the documented events, the
 * malformed ones seen in practice, and thousands of fuzzed ones: never a throw, a plain-text answer
 * or a 500, every answer with the headers the contract lists.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { checkEvent, createLambdaHandler, type LambdaResult } from '../../src/entry/lambda-event.ts';
import type { Handler } from '../../src/handler.ts';
import { closeHandlers, makeHandler } from '../support/handler.ts';
import { frame } from '../support/mcp.ts';

const SHAPES = ['api-gateway-v2', 'function-url', 'api-gateway-v1', 'alb'] as const;
type Shape = (typeof SHAPES)[number];
const fixture = (shape: Shape) => JSON.parse(readFileSync(new URL(`../fixtures/lambda/${shape}.json`, import.meta.url), 'utf8'));
const CONTEXT = { awsRequestId: 'test', getRemainingTimeInMillis: () => 10_000 };

/** The documented event of `shape` for `method path`, with `headers` and a plain body. */
function eventOf(shape: Shape, method: string, path: string, headers: Record<string, string> = {}, body?: string) {
  const event = fixture(shape);
  Object.assign(event, { body: body ?? null, isBase64Encoded: false });
  if (shape === 'api-gateway-v2' || shape === 'function-url') {
    Object.assign(event, { rawPath: path, rawQueryString: '', cookies: undefined, headers });
    Object.assign(event.requestContext.http, { method, path });
  } else if (shape === 'api-gateway-v1') {
    Object.assign(event, { path, httpMethod: method, headers, queryStringParameters: null, multiValueQueryStringParameters: null });
    event.multiValueHeaders = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, [value]]));
  } else {
    Object.assign(event, { path, httpMethod: method, queryStringParameters: {}, headers: { ...event.headers, ...headers } });
  }
  return event;
}

function headersOf(result: LambdaResult): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(result.headers ?? {})) headers[name.toLowerCase()] = String(value);
  for (const [name, values] of Object.entries(result.multiValueHeaders ?? {})) headers[name.toLowerCase()] = [values].flat().join(', ');
  return headers;
}

/** What every answer must be: no 5xx, never plain text, the headers the contract lists; a problem from 400 up but MCP's JSON-RPC errors. */
function expectContractAnswer(result: LambdaResult, label: string) {
  const headers = headersOf(result);
  expect(result.statusCode, `${label}: ${result.body}`).toBeLessThan(500);
  expect(headers['x-content-type-options'], label).toBe('nosniff');
  expect(headers.link, label).toMatch(/rel="service-desc"/);
  expect(headers['x-ratelimit-limit'], label).toBeDefined();
  if (result.statusCode >= 400) {
    expect(headers['cache-control'], label).toBe('no-store');
    expect(headers['content-type'], label).toMatch(/^application\/(problem\+)?json/);
  }
}

let handler: Handler;
let lambda: ReturnType<typeof createLambdaHandler>;
const failures: unknown[] = [];
beforeAll(async () => {
  handler = await makeHandler({
    logger: (entry) => {
      if (entry.level === 'error') failures.push(entry);
    },
  });
  lambda = createLambdaHandler(handler);
});
afterAll(closeHandlers);

const invoke = (event: unknown) => lambda(event, CONTEXT);
const problemOf = (result: LambdaResult) =>
  JSON.parse(result.isBase64Encoded ? Buffer.from(result.body, 'base64').toString() : result.body);

describe('the Lambda handler with malformed events', () => {
  it.each([null, 'GET /', 42, true, [], undefined])('answers the event %j with the 400 bad_request problem', async (event) => {
    const result = await invoke(event);
    expectContractAnswer(result, String(event));
    expect(result.statusCode).toBe(400);
    expect(problemOf(result)).toMatchObject({ status: 400, code: 'bad_request', detail: expect.stringMatching(/^The event is /) });
  });

  describe.each(SHAPES)('%s', (shape) => {
    it('serves a GET or HEAD with a body as Node does: the body ignored', async () => {
      for (const method of ['GET', 'HEAD']) {
        const result = await invoke(eventOf(shape, method, '/api/v1', { accept: 'application/json' }, 'hello'));
        expectContractAnswer(result, method);
        expect(result.statusCode, result.body).toBe(200);
      }
    });

    it('answers TRACE, CONNECT and TRACK with the 405 problem and Allow on a known path, 404 elsewhere', async () => {
      for (const method of ['TRACE', 'CONNECT', 'TRACK']) {
        const result = await invoke(eventOf(shape, method, '/api/v1/product'));
        expectContractAnswer(result, method);
        expect(result.statusCode).toBe(405);
        expect(headersOf(result).allow).toMatch(/GET/);
        expect((await invoke(eventOf(shape, method, '/nowhere'))).statusCode).toBe(404);
      }
    });

    it.each([
      ['a CR/LF in a header value', { 'x-a': 'a\r\nb' }],
      ['a NUL in a header value', { 'x-a': 'a\u0000b' }],
      ['an invalid header name', { 'bad name': 'x' }],
      ['a lone surrogate in a header value', { 'x-a': '\ud800' }],
    ])('answers %s with the 400 bad_request problem on its path', async (_, headers) => {
      const result = await invoke(eventOf(shape, 'GET', '/api/v1', headers));
      expectContractAnswer(result, shape);
      expect(result.statusCode).toBe(400);
      expect(problemOf(result)).toMatchObject({ code: 'bad_request', detail: expect.stringContaining('header') });
    });

    it('answers a body flagged base64 that is not base64 with the 400 bad_request problem', async () => {
      const { headers, body } = frame('modern', 'tools/list');
      const event = { ...eventOf(shape, 'POST', '/mcp', headers, `${body}!`), isBase64Encoded: true };
      const result = await invoke(event);
      expectContractAnswer(result, shape);
      expect(problemOf(result)).toMatchObject({ status: 400, code: 'bad_request', detail: expect.stringContaining('base64') });
    });

    it('serves an MCP POST whose body came as plain text', async () => {
      const { headers, body } = frame('modern', 'tools/list');
      const result = await invoke(eventOf(shape, 'POST', '/mcp', headers, body));
      expectContractAnswer(result, shape);
      expect(result.statusCode).toBe(200);
    });
  });

  it('answers a multiValueHeaders value that is not a list, and requestContext.http: null, with the 400 problem', async () => {
    const v1 = eventOf('api-gateway-v1', 'GET', '/api/v1');
    v1.multiValueHeaders = { accept: 'application/json' };
    const v2 = eventOf('function-url', 'GET', '/api/v1');
    v2.requestContext.http = null;
    for (const event of [v1, v2]) {
      const result = await invoke(event);
      expectContractAnswer(result, 'shape');
      expect(result.statusCode).toBe(400);
    }
  });

  it('answers an ALB event whose X-Forwarded-For is an object with no prototype with the 400 problem', async () => {
    const event = eventOf('alb', 'GET', '/api/v1');
    event.multiValueHeaders = { 'x-forwarded-for': { __proto__: null } };
    const result = await invoke(event);
    expectContractAnswer(result, 'alb');
    expect(result.statusCode).toBe(400);
  });

  it('serves an event whose sourceIp is not a string, as from an unknown client', async () => {
    const event = eventOf('api-gateway-v2', 'GET', '/api/v1');
    event.requestContext.http.sourceIp = 12345;
    const result = await invoke(event);
    expectContractAnswer(result, 'sourceIp');
    expect(result.statusCode).toBe(200);
  });

  it("hands the documented events to the adapter as they are, but for the host name and a GET's body", () => {
    for (const shape of SHAPES) {
      const { event, malformed } = checkEvent(fixture(shape));
      expect(malformed, shape).toBeUndefined();
      const get = { body: null, isBase64Encoded: false, requestContext: undefined };
      expect({ ...event, ...get }).toEqual({ ...fixture(shape), ...get });
    }
  });
});

/** Where the fuzzer changes an event: the fields the adapter and the service read, and any other. */
const FIELD = fc.oneof(
  fc.constantFrom(
    'requestContext',
    'http',
    'method',
    'sourceIp',
    'identity',
    'elb',
    'serviceArn',
    'domainName',
    'rawPath',
    'rawQueryString',
    'path',
    'httpMethod',
    'headers',
    'multiValueHeaders',
    'queryStringParameters',
    'multiValueQueryStringParameters',
    'body',
    'isBase64Encoded',
    'cookies',
    'host',
    'content-type',
    'x-forwarded-for',
  ),
  fc.string({ maxLength: 6 }),
);
const VALUE = fc.oneof(
  fc.constantFrom(null, undefined, '', 'GET', 'HEAD', 'POST', 'TRACE', 'CONNECT', 'get', '/mcp', '/api/v1', 'a\r\nb', 'x\u0000', '\ud800'),
  fc.constantFrom('@evil.example/', 'not base64!', 'eyJhIjoxfQ==', 'application/json', '198.51.100.7', 'bad header', true, false, 0, -1),
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 8 }),
  fc.anything({ maxDepth: 2 }),
  fc.array(fc.oneof(fc.string({ maxLength: 8 }), fc.anything({ maxDepth: 1 })), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 6 }), fc.oneof(fc.string({ maxLength: 8 }), fc.anything({ maxDepth: 1 })), { maxKeys: 3 }),
);
const MUTATION = fc.record({ at: fc.array(FIELD, { minLength: 1, maxLength: 3 }), value: VALUE, remove: fc.boolean() });
type Mutation = { at: string[]; value: unknown; remove: boolean };

/** Sets (or removes) the value at a path of fields, making objects on the way. */
function mutate(event: Record<string, unknown>, { at, value, remove }: Mutation) {
  let node = event;
  for (const key of at.slice(0, -1)) {
    const next = node[key];
    node = typeof next === 'object' && next !== null ? (next as Record<string, unknown>) : (node[key] = {});
  }
  if (remove) delete node[at.at(-1)!];
  else node[at.at(-1)!] = value;
}

const EVENT = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.tuple(
      fc.constantFrom(...SHAPES),
      fc.constantFrom('GET', 'HEAD', 'POST', 'DELETE', 'OPTIONS'),
      fc.array(MUTATION, { minLength: 1, maxLength: 5 }),
    ),
  },
  { weight: 1, arbitrary: fc.anything({ maxDepth: 3, withNullPrototype: true }) },
);

describe('fuzzed Lambda events', () => {
  it('never throw, never answer plain text or a 500, and always carry the headers the contract lists', async () => {
    const outcomes = new Map<string, number>();
    let events = 0;
    // Nothing reaches the adapter that it refuses itself (it prints the error with a stack trace).
    const printed = vi.spyOn(console, 'error');
    await fc.assert(
      fc.asyncProperty(EVENT, async (generated) => {
        let event: unknown = generated;
        if (Array.isArray(generated) && generated.length === 3 && SHAPES.includes(generated[0])) {
          const [shape, method, mutations] = generated as [Shape, string, Mutation[]];
          const { headers, body } = frame('modern', 'tools/list');
          event = eventOf(shape, method, method === 'POST' ? '/mcp' : '/api/v1', headers, method === 'POST' ? body : undefined);
          for (const mutation of mutations) mutate(event as Record<string, unknown>, mutation);
        }
        events++;
        const result = await invoke(event);
        expectContractAnswer(result, JSON.stringify(event)?.slice(0, 400) ?? String(event));
        expect(result.body).not.toMatch(/^(Invalid request|Internal Server Error)$/);
        // A HEAD answer carries the problem's headers and no body (RFC 9110 section 9.3.2).
        const code = result.body === '' ? 'head' : (problemOf(result).code ?? 'json-rpc');
        const key = result.statusCode >= 400 ? `${result.statusCode} ${code}` : String(result.statusCode);
        outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
      }),
      { numRuns: 4_000 },
    );
    expect(failures).toEqual([]);
    expect(printed.mock.calls.map(([first]) => String(first))).toEqual([]);
    printed.mockRestore();
    console.log(`${events} fuzzed Lambda events:`, Object.fromEntries([...outcomes].sort()));
  });
});
