/**
 * Differential test of the replay cache: for every method, tool, prompt, argument shape and
 * protocol revision, the answer replayed with a new id equals, byte for byte, what the SDK itself
 * answers to the same request with that id, cache hints included; and so for the messages of a batch.
 */
import { describe, expect, it } from 'vitest';
import { toResponse } from '../../src/http/answer.ts';
import { createMcpHttpEndpoint, type McpHttpEndpoint } from '../../src/mcp/endpoint.ts';
import { MAX_REPLAY_ENTRIES } from '../../src/mcp/replay.ts';
import { describeResources } from '../../src/mcp/resources.ts';
import { createMcpEndpoint, type McpEndpoint } from '../../src/mcp/server.ts';
import { BASE, MCP_HEADERS, sampleFacts } from '../support/handler.ts';
import { envelope, frame, initializeBody, LEGACY_VERSIONS, MODERN, PROMPT_NAMES, TOOL_NAMES } from '../support/mcp.ts';
import { createTelemetry } from '../../src/telemetry/index.ts';

/** The observations the handler hands the endpoint with telemetry off. */
const telemetry = await createTelemetry({}, { storeKind: 'memory', reviewedOn: () => '2026-01-01', accessLog: false });

const INFO = { name: 'test', version: '1.0.0' };
const RESOURCES = describeResources(BASE, sampleFacts(), (path) => new TextEncoder().encode(`the body served at ${path}`));
const sdkEndpoint = () => createMcpEndpoint(sampleFacts(), INFO, RESOURCES, BASE);
const GATE = { allowedOrigins: ['https://api.example.com'], maxBodyBytes: 64 * 1024 };

function counted(endpoint: McpEndpoint) {
  const calls = { count: 0 };
  const wrapped: McpEndpoint = (request, body) => (calls.count++, endpoint(request, body));
  return { calls, wrapped };
}

/** The HTTP endpoint over `sdk`, with a replay cache of its own. */
const endpoint = (sdk: McpEndpoint) => createMcpHttpEndpoint(sampleFacts(), INFO, RESOURCES, GATE, BASE, async () => sdk);

// The reference: the SDK's own answers, given the service's headers the same way, never replayed
// (each request meets an empty cache).
const reference = sdkEndpoint();
const sdk: McpHttpEndpoint = (request, headers, limits, observed) => endpoint(reference)(request, headers, limits, observed);
const inner = counted(sdkEndpoint());
const replaying = endpoint(inner.wrapped);

interface Answer {
  status: number;
  headers: [string, string][];
  text: string;
}

async function post(
  served: McpHttpEndpoint,
  headers: Record<string, string>,
  body: string,
  limits: Record<string, string> = {},
): Promise<Response> {
  const request = new Request('https://api.example.com/mcp', { method: 'POST', headers, body });
  const response = await served(request, MCP_HEADERS, limits, telemetry.observe(request));
  if ('refused' in response) throw new Error(`refused: ${response.refused}`);
  return toResponse(response);
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

/** Each tool's own arguments, valid and not, besides the shapes every tool is called with. */
const TOOL_ARGUMENTS: Record<string, [string, Record<string, unknown>][]> = {
  search: [
    ['a query that matches', { query: 'free trial' }],
    ['a query that matches nothing', { query: 'zzzz' }],
    ['an empty query', { query: '' }],
    ['a query over 200 characters', { query: 'x'.repeat(201) }],
  ],
  fetch: [
    ['the overview', { id: 'overview' }],
    ['a start option', { id: 'start:start-free-trial' }],
    ['an unknown id', { id: 'resource:nope' }],
    ['a number', { id: 7 }],
  ],
};

const PROMPT_ARGUMENTS: [string, Record<string, unknown> | undefined][] = [
  ['no arguments member', undefined],
  ['empty arguments', {}],
  ['a goal', { goal: 'deliver a wedding' }],
  ['a goal over 200 characters', { goal: 'x'.repeat(201) }],
  ['an unknown argument', { colour: 'blue' }],
];

/** The list results, and server/discover, that revision 2026-07-28 makes cacheable (resources/read is too). */
const CACHEABLE_LISTS = ['server/discover', 'tools/list', 'resources/list', 'resources/templates/list', 'prompts/list'];

type Case = [label: string, headers: Record<string, string>, body: string];

function casesFor(version: string): Case[] {
  const era = version === MODERN ? 'modern' : 'legacy';
  const framed = (method: string, params: Record<string, unknown> = {}) => {
    const { headers, body } = frame(era, method, params, { version, id: 1 });
    return [headers, body] as const;
  };
  const cases: Case[] = [];
  for (const tool of [...TOOL_NAMES, 'no_such_tool']) {
    for (const [shape, args] of [...ARGUMENT_SHAPES, ...(TOOL_ARGUMENTS[tool] ?? [])]) {
      cases.push([
        `tools/call ${tool} with ${shape}`,
        ...framed('tools/call', args === undefined ? { name: tool } : { name: tool, arguments: args }),
      ]);
    }
  }
  for (const prompt of [...PROMPT_NAMES, 'no_such_prompt']) {
    for (const [shape, args] of PROMPT_ARGUMENTS) {
      cases.push([
        `prompts/get ${prompt} with ${shape}`,
        ...framed('prompts/get', args === undefined ? { name: prompt } : { name: prompt, arguments: args }),
      ]);
    }
  }
  for (const method of [...CACHEABLE_LISTS, 'ping', 'no/such/method']) {
    cases.push([method, ...framed(method)]);
  }
  cases.push(['resources/read', ...framed('resources/read', { uri: 'https://api.example.com/api/v1/product' })]);
  cases.push(['resources/read of an unknown URI', ...framed('resources/read', { uri: 'https://api.example.com/nope' })]);
  const [headers] = framed('initialize');
  const initialize =
    era === 'modern'
      ? JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'x', version: '1' }, _meta: envelope(version) },
        })
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

  // SEP-2549: the replayed bytes carry the same cache hints as the SDK's, on that revision only.
  it.each([...CACHEABLE_LISTS, 'resources/read'])('%s: a replayed result keeps its cache hints', async (method) => {
    const params = method === 'resources/read' ? { uri: 'https://api.example.com/llms.txt' } : {};
    const { headers, body } = frame(version === MODERN ? 'modern' : 'legacy', method, params, { version, id: 1 });
    await ask(replaying, headers, body);
    const before = inner.calls.count;
    const replayed = JSON.parse((await ask(replaying, headers, withId(body, 'again'))).text);
    if (version === MODERN) {
      expect(inner.calls.count - before, 'replayed').toBe(0);
      expect(replayed.result).toMatchObject({ cacheScope: 'public', ttlMs: 60_000 });
    } else if (replayed.result) {
      expect(replayed.result.ttlMs, 'no cache hint before 2026-07-28').toBeUndefined();
    }
  });
});

describe('a batch (revision 2025-03-26 only)', () => {
  const messages = [
    JSON.parse(frame('legacy', 'tools/list', {}, { id: 1 }).body),
    JSON.parse(frame('legacy', 'tools/call', { name: 'search', arguments: { query: 'docs' } }, { id: 'two' }).body),
    JSON.parse(frame('legacy', 'prompts/get', { name: 'explain_product' }, { id: 3 }).body),
    { jsonrpc: '2.0', method: 'notifications/initialized' },
  ];
  const headers = frame('legacy', 'tools/list', {}, { version: '2025-03-26' }).headers;

  it('answers with the same bytes as the SDK, its messages replayed once known', async () => {
    const body = JSON.stringify(messages);
    const first = await ask(replaying, headers, body);
    expect(first).toEqual(await ask(sdk, headers, body));
    expect(JSON.parse(first.text).map((answer: { id: unknown }) => answer.id)).toEqual([1, 'two', 3]);
    const before = inner.calls.count;
    expect(await ask(replaying, headers, body)).toEqual(await ask(sdk, headers, body));
    // Only the notification reaches the SDK again.
    expect(inner.calls.count - before).toBe(1);
  });
});

describe('what is never replayed', () => {
  const { headers, body } = frame('legacy', 'tools/list', {}, { id: 1 });

  it.each([
    ['a notification (no id)', headers, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })],
    ['malformed JSON', headers, '{"jsonrpc":'],
    ['a request with Authorization', { ...headers, authorization: 'Bearer x' }, body],
  ])('%s goes to the SDK every time', async (_label, h, b) => {
    const before = inner.calls.count;
    for (let i = 0; i < 2; i++) expect(await ask(replaying, h, b)).toEqual(await ask(sdk, h, b));
    expect(inner.calls.count - before).toBe(2);
  });

  it('keeps at most MAX_REPLAY_ENTRIES answers, dropping the oldest', async () => {
    const small = counted(sdkEndpoint());
    const gate = endpoint(small.wrapped);
    const search = (query: number) => frame('legacy', 'tools/call', { name: 'search', arguments: { query: `q${query}` } }, { id: 1 });
    for (let query = 0; query < MAX_REPLAY_ENTRIES; query++) await ask(gate, search(query).headers, search(query).body);
    await ask(gate, search(0).headers, search(0).body);
    expect(small.calls.count).toBe(MAX_REPLAY_ENTRIES);
    await ask(gate, search(MAX_REPLAY_ENTRIES).headers, search(MAX_REPLAY_ENTRIES).body);
    // The newest entry pushed out the oldest (q0 was replayed, not refreshed): it reaches the SDK again, q2 (still kept) does not.
    await ask(gate, search(0).headers, search(0).body);
    expect(small.calls.count).toBe(MAX_REPLAY_ENTRIES + 2);
    await ask(gate, search(2).headers, search(2).body);
    expect(small.calls.count).toBe(MAX_REPLAY_ENTRIES + 2);
  });

  it('gives every answer, replayed or not, the service headers, and errors no-store', async () => {
    const gate = endpoint(sdkEndpoint());
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
