import { describe, expect, it } from 'vitest';
import { forSdk, MCP_REFUSALS, originRefusal, parseBody, refusalOf, vet, type Vetted } from '../../src/mcp/gate.ts';
import { ROUTES } from '../../src/routes.ts';

const URL_ = 'https://api.example.com/mcp';
const request = (headers: Record<string, string>, body?: BodyInit) =>
  new Request(URL_, { method: 'POST', headers, body, duplex: 'half' } as RequestInit);
const JSON_HEADERS = { 'content-type': 'application/json' };

describe('refusalOf', () => {
  const allowed = ['https://app.example.com'];

  it('serves a request without Origin, with an allowed one, any JSON-admitting Accept and a JSON body', () => {
    for (const headers of [
      JSON_HEADERS,
      { ...JSON_HEADERS, origin: 'https://app.example.com' },
      { ...JSON_HEADERS, accept: '*/*' },
      { ...JSON_HEADERS, accept: 'application/json, text/event-stream' },
      { 'content-type': 'Application/JSON; charset=utf-8' },
    ]) {
      expect(refusalOf(request(headers), allowed), JSON.stringify(headers)).toBeUndefined();
    }
  });

  it('refuses, in this order, a foreign origin, an Accept without JSON and a body that is not JSON', () => {
    expect(refusalOf(request({ origin: 'https://evil.example', accept: 'text/html', 'content-type': 'text/plain' }), allowed)).toBe(
      'origin_not_allowed',
    );
    expect(refusalOf(request({ accept: 'text/html', 'content-type': 'text/plain' }), allowed)).toBe('not_acceptable');
    expect(refusalOf(request({ accept: 'application/json;q=0' }), allowed)).toBe('not_acceptable');
    expect(refusalOf(request({ 'content-type': 'text/plain' }), allowed)).toBe('unsupported_media_type');
    expect(refusalOf(request({ 'content-type': 'application/jsonx' }), allowed)).toBe('unsupported_media_type');
    expect(refusalOf(request({}), allowed)).toBe('unsupported_media_type');
  });
});

describe('parseBody and forSdk', () => {
  it('parses JSON and leaves anything else for the SDK to reject', () => {
    expect(parseBody('{"a":1}')).toEqual({ a: 1 });
    expect(parseBody('{"a":')).toBeUndefined();
  });

  it('passes a request through untouched when the SDK takes it as it is', () => {
    const original = request({ ...JSON_HEADERS, accept: 'application/json, text/event-stream' });
    expect(forSdk(original, '{}', {})).toBe(original);
  });

  it('relaxes Accept to what the SDK insists on, and carries an unparsed body on', async () => {
    const relaxed = forSdk(request({ ...JSON_HEADERS, accept: '*/*' }), '{}', {});
    expect(relaxed.headers.get('accept')).toBe('application/json, text/event-stream');
    const malformed = forSdk(request(JSON_HEADERS), '{"a":', undefined);
    expect(await malformed.text()).toBe('{"a":');
  });

  it("makes a Request of the Node server's stand-in for one, its headers kept", () => {
    const original = request({ ...JSON_HEADERS, accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' });
    const standIn = { method: 'POST', url: original.url, headers: new Map(original.headers), signal: original.signal };
    standIn.headers.get = (name: string) => original.headers.get(name) ?? undefined;
    const made = forSdk(standIn as unknown as Request, '{}', {});
    expect(made).toBeInstanceOf(Request);
    expect(made.url).toBe(original.url);
    expect(made.headers.get('mcp-protocol-version')).toBe('2025-06-18');
    expect(made.headers.get('accept')).toBe('application/json, text/event-stream');
  });
});

describe('vet', () => {
  const rules = { allowedOrigins: ['https://app.example.com'], maxBodyBytes: 16 };

  it("gives every refusal of MCP_REFUSALS, the body limit's included, and nothing else", async () => {
    const cutOff = new ReadableStream({
      start: (controller) => (controller.enqueue(new TextEncoder().encode('{')), controller.error(new Error('gone'))),
    });
    const refusals = await Promise.all([
      vet(request(JSON_HEADERS, cutOff), rules),
      vet(request({ ...JSON_HEADERS, origin: 'https://evil.example' }, '{}'), rules),
      vet(request({ ...JSON_HEADERS, accept: 'text/html' }, '{}'), rules),
      vet(request(JSON_HEADERS, JSON.stringify({ padding: 'x'.repeat(16) })), rules),
      vet(request({ 'content-type': 'text/plain' }, '{}'), rules),
    ]);
    expect(refusals.map((refusal) => 'refused' in refusal && refusal.refused)).toEqual([...MCP_REFUSALS]);
    // The 413 names the limit.
    expect(refusals[3]).toEqual({ refused: 'payload_too_large', detail: 'The body is larger than 16 bytes.' });
    // The route table declares the same refusals for /mcp, so the OpenAPI document lists them.
    expect(ROUTES.find((route) => route.answer === 'mcp')?.refusals).toEqual(MCP_REFUSALS);
  });

  it('passes a request within the rules on, its body parsed and as it came', async () => {
    const vetted = (await vet(request(JSON_HEADERS, '{"a":1}'), rules)) as Vetted;
    expect(vetted.body).toEqual({ a: 1 });
    expect(vetted.text).toBe('{"a":1}');
  });

  it('refuses a preflight only for its origin', () => {
    const preflight = (origin?: string) => new Request(URL_, { method: 'OPTIONS', headers: origin ? { origin } : {} });
    expect(originRefusal(preflight('https://evil.example'), rules.allowedOrigins)).toBe('origin_not_allowed');
    expect(originRefusal(preflight('https://app.example.com'), rules.allowedOrigins)).toBeUndefined();
    expect(originRefusal(preflight(), rules.allowedOrigins)).toBeUndefined();
  });
});
