/**
 * Differential test of the replay cache: for every method, tool, argument shape and protocol
 * revision, the answer replayed with a new id equals, byte for byte, what the SDK itself answers
 * to the same request with that id.
 */
import { describe, expect, it } from 'vitest';
import { createMcpHttpEndpoint, type McpHttpEndpoint } from '../../src/mcp/endpoint.ts';
import { createMcpEndpoint, type McpEndpoint } from '../../src/mcp/server.ts';
import { MCP_HEADERS, sampleFacts } from '../support/handler.ts';
import { envelope, frame, initializeBody, LEGACY_VERSIONS, MODERN, TOOL_NAMES } from '../support/mcp.ts';

const INFO = { name: 'test', version: '1.0.0' };
const GATE = { allowedOrigins: ['https://api.example.com'], maxBodyBytes: 64 * 1024 };

function counted(endpoint: McpEndpoint) {
  const calls = { count: 0 };
  const wrapped: McpEndpoint = (request, body) => (calls.count++, endpoint(request, body));
  return { calls, wrapped };
}

/** The HTTP endpoint over `sdk`, keeping `replayEntries` answers. */
const endpoint = (sdk: McpEndpoint, replayEntries?: number) => createMcpHttpEndpoint(sampleFacts(), INFO, [], { ...GATE, replayEntries }, async () => sdk);

// The reference: the SDK's own answers, given the service's headers the same way, never replayed.
const sdk = endpoint(createMcpEndpoint(sampleFacts(), INFO), 0);
const inner = counted(createMcpEndpoint(sampleFacts(), INFO));
const replaying = endpoint(inner.wrapped);

interface Answer {
  status: number;
  headers: [string, string][];
  text: string;
}

async function post(served: McpHttpEndpoint, headers: Record<string, string>, body: string, limits: Record<string, string> = {}): Promise<Response> {
  const response = await served(new Request('https://api.example.com/mcp', { method: 'POST', headers, body }), MCP_HEADERS, limits);
  if (typeof response === 'string') throw new Error(`refused: ${response}`);
  return response;
}

async function ask(served: McpHttpEndpoint, headers: Record<string, string>, body: string): Promise<Answer> {
  const response = await post(served, headers, body);
  const kept = [...response.headers].filter(([name]) => name !== 'content-length' && name !== 'date');
  return { status: response.status, headers: kept.sort(), text: await response.text() };
}

/** The same request (headers, message) with another id. */
function withId(body: string, id: number | string): string {
  return JSON.stringify({ ...JSON.parse(body), id });
}

const ARGUMENT_SHAPES: [string, Record<string, unknown> | undefined][] = [
  ['no arguments member', undefined],
  ['empty arguments', {}],
  ['a valid kind', { kind: 'docs' }],
  ['an invalid kind', { kind: 42 }],
  ['an unknown argument', { bogus: true }],
  ['a non-object', 'text' as unknown as Record<string, unknown>],
];

type Case = [label: string, headers: Record<string, string>, body: string];

function casesFor(version: string): Case[] {
  const era = version === MODERN ? 'modern' : 'legacy';
  const framed = (method: string, params: Record<string, unknown> = {}) => {
    const { headers, body } = frame(era, method, params, { version, id: 1 });
    return [headers, body] as const;
  };
  const cases: Case[] = [];
  for (const tool of [...TOOL_NAMES, 'no_such_tool']) {
    for (const [shape, args] of ARGUMENT_SHAPES) {
      cases.push([`tools/call ${tool} with ${shape}`, ...framed('tools/call', args === undefined ? { name: tool } : { name: tool, arguments: args })]);
    }
  }
  for (const method of ['tools/list', 'ping', 'resources/list', 'resources/templates/list', 'prompts/list', 'no/such/method']) {
    cases.push([method, ...framed(method)]);
  }
  cases.push(['resources/read', ...framed('resources/read', { uri: 'https://api.example.com/api/v1/product' })]);
  const [headers] = framed('initialize');
  const initialize =
    era === 'modern'
      ? JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'x', version: '1' }, _meta: envelope(version) } })
      : initializeBody(version, 1);
  cases.push(['initialize', headers, initialize]);
  const [listHeaders, list] = framed('tools/list');
  for (const accept of ['*/*', 'application/json']) cases.push([`tools/list with Accept ${accept}`, { ...listHeaders, accept }, list]);
  return cases;
}

describe.each([MODERN, ...LEGACY_VERSIONS])('replayed MCP answers, revision %s', (version) => {
  it.each(casesFor(version))('%s: the same bytes as the SDK for every new id', async (_label, headers, body) => {
    const first = await ask(replaying, headers, withId(body, 1));
    expect(first).toEqual(await ask(sdk, headers, withId(body, 1)));
    const before = inner.calls.count;
    for (const id of [2, 'a-string-id', 12345678901]) {
      expect(await ask(replaying, headers, withId(body, id)), String(id)).toEqual(await ask(sdk, headers, withId(body, id)));
    }
    const result = JSON.parse(first.text).result !== undefined;
    // A result is replayed without asking the SDK again; an error always goes to the SDK.
    expect(inner.calls.count - before).toBe(result ? 0 : 3);
  });
});

describe('what is never replayed', () => {
  const { headers, body } = frame('legacy', 'tools/list', {}, { id: 1 });

  it.each([
    ['a notification (no id)', headers, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })],
    ['a batch', headers, JSON.stringify([JSON.parse(body)])],
    ['malformed JSON', headers, '{"jsonrpc":'],
    ['a request with Authorization', { ...headers, authorization: 'Bearer x' }, body],
  ])('%s goes to the SDK every time', async (_label, h, b) => {
    const before = inner.calls.count;
    for (let i = 0; i < 2; i++) expect(await ask(replaying, h, b)).toEqual(await ask(sdk, h, b));
    expect(inner.calls.count - before).toBe(2);
  });

  it('keeps at most maxEntries answers, dropping the oldest', async () => {
    const small = counted(createMcpEndpoint(sampleFacts(), INFO));
    const gate = endpoint(small.wrapped, 2);
    const ping = frame('legacy', 'ping', {}, { id: 1 });
    const list = frame('legacy', 'tools/list', {}, { id: 1 });
    const call = frame('legacy', 'tools/call', { name: 'list_start_options', arguments: {} }, { id: 1 });
    for (const { headers: h, body: b } of [ping, list, call, list, call]) await ask(gate, h, b);
    expect(small.calls.count).toBe(3);
    await ask(gate, ping.headers, ping.body);
    expect(small.calls.count).toBe(4);
  });

  it('gives every answer, replayed or not, the service headers, and errors no-store', async () => {
    const gate = endpoint(createMcpEndpoint(sampleFacts(), INFO));
    const call = frame('legacy', 'tools/list', {}, { id: 1 });
    for (let i = 0; i < 2; i++) {
      const response = await post(gate, call.headers, call.body, { RateLimit: `"default";r=${i};t=9` });
      expect(response.headers.get('ratelimit'), i === 0 ? 'from the SDK' : 'replayed').toBe(`"default";r=${i};t=9`);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('cache-control')).not.toBe('no-store');
    }
    const response = await post(gate, call.headers, '{"jsonrpc":', { RateLimit: 'x' });
    expect(response.status).toBe(400);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('ratelimit')).toBe('x');
  });
});
