/**
 * Helpers for the MCP tests: raw requests framed as each protocol era frames them, an Ajv
 * (independent of valibot) for the tools' JSON Schemas, and the contract's expectations.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { expect } from 'vitest';

export const TOOL_NAMES = ['get_product_overview', 'list_public_resources', 'list_start_options', 'search', 'fetch'] as const;
export const PROMPT_NAMES = ['explain_product', 'plan_safe_start'] as const;
export const MODERN = '2026-07-28';
export const LEGACY_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26'];
export const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

/** A fresh Ajv for JSON Schema 2020-12 with formats (uri, date, ...). */
export function newAjv() {
  const ajv = new Ajv2020({ allErrors: true });
  const addFormats = (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule;
  addFormats(ajv);
  return ajv;
}

/**
 * A property name that could carry a credential (the contract: no tool takes a credential, a gallery
 * token, a password, a session or a client identifier). Compared on the lower-cased name with
 * separators removed, so `client_id`, `clientId` and `Client-ID` all match.
 */
const CREDENTIAL =
  /token|passw|passphrase|secret|session|key|auth|credential|cookie|bearer|signature|jwt|clientid|^sig$|^code$|^pin$|^otp$/;
export function looksLikeCredential(name: string): boolean {
  return CREDENTIAL.test(name.toLowerCase().replace(/[^a-z0-9]/g, ''));
}

/** Every property name declared anywhere in a JSON Schema (nested objects, items, $defs, combinators). */
export function propertyNames(schema: unknown): string[] {
  const names: string[] = [];
  const walk = (node: unknown) => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if ((key === 'properties' || key === 'patternProperties') && value && typeof value === 'object') {
        names.push(...Object.keys(value));
      }
      if (key === 'required' && Array.isArray(value)) names.push(...value.filter((v): v is string => typeof v === 'string'));
      walk(value);
    }
  };
  walk(schema);
  return [...new Set(names)];
}

// ---------------------------------------------------------------------------------------------
// Raw requests. The 2026-07-28 framing is the one @modelcontextprotocol/client 2.4 sends (captured
// with a custom fetch): Mcp-Method / Mcp-Name / MCP-Protocol-Version headers and the `_meta`
// envelope in every request's params. The 2025 framing is a plain JSON-RPC message (stateless, so
// a tools/call needs no initialize first) with MCP-Protocol-Version after initialize.

export type Era = 'legacy' | 'modern';
export const ERAS: Era[] = ['legacy', 'modern'];

export const CLIENT_INFO = { name: 'raw-test', version: '1.0.0' };

export function envelope(version = MODERN) {
  return {
    'io.modelcontextprotocol/protocolVersion': version,
    'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
    'io.modelcontextprotocol/clientCapabilities': {},
  };
}

let nextId = 1;

/** One JSON-RPC request, framed for the era, as headers and a body string. */
export function frame(
  era: Era,
  method: string,
  params: Record<string, unknown> = {},
  { version, id = nextId++ }: { version?: string; id?: number | string } = {},
): { headers: Record<string, string>; body: string } {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  if (era === 'modern') {
    const v = version ?? MODERN;
    headers['mcp-protocol-version'] = v;
    headers['mcp-method'] = method;
    // SEP-2243: Mcp-Name mirrors params.name (tools/call, prompts/get) or params.uri (resources/read).
    const name = method === 'resources/read' ? params.uri : method === 'tools/call' || method === 'prompts/get' ? params.name : undefined;
    if (typeof name === 'string') headers['mcp-name'] = name;
    return { headers, body: JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: envelope(v) } }) };
  }
  if (method !== 'initialize') headers['mcp-protocol-version'] = version ?? LEGACY_VERSIONS[0]!;
  return { headers, body: JSON.stringify({ jsonrpc: '2.0', id, method, params }) };
}

export function initializeBody(protocolVersion: string, id: number | string = nextId++) {
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: { protocolVersion, capabilities: {}, clientInfo: CLIENT_INFO },
  });
}

export interface RawAnswer {
  status: number;
  headers: Headers;
  text: string;
  json: any;
}

/** POSTs to /mcp and checks what every MCP answer must satisfy: never a session id, never a 5xx. */
export async function post(
  base: string,
  init: { headers?: Record<string, string>; body?: BodyInit; method?: string; duplex?: 'half' },
): Promise<RawAnswer> {
  const response = await fetch(`${base}/mcp`, { method: 'POST', ...init } as RequestInit);
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  expect(response.headers.get('mcp-session-id'), 'no Mcp-Session-Id is ever minted').toBeNull();
  expect(response.status, `no 5xx: ${text}`).toBeLessThan(500);
  return { status: response.status, headers: response.headers, text, json };
}

export async function call(
  base: string,
  era: Era,
  method: string,
  params: Record<string, unknown> = {},
  options: { version?: string } = {},
) {
  return post(base, frame(era, method, params, options));
}

/** A JSON (not SSE) answer. */
export function expectJson(answer: RawAnswer) {
  expect(answer.headers.get('content-type') ?? '').toMatch(/^application\/json\b/);
  expect(answer.json, answer.text).toBeDefined();
}

/** A JSON-RPC error response with this code (and no result). */
export function expectJsonRpcError(answer: RawAnswer, code: number) {
  expectJson(answer);
  expect(answer.json).toMatchObject({ jsonrpc: '2.0', error: { code } });
  expect(typeof answer.json.error.message).toBe('string');
  expect(answer.json).not.toHaveProperty('result');
  // Contract, "HTTP behaviour": every answer of status 400 or more carries no-store, the SDK's included.
  if (answer.status >= 400) expect(answer.headers.get('cache-control'), `${answer.status} JSON-RPC error`).toBe('no-store');
}

/** The contract's RFC 9457 problem for this code and status. */
export function expectProblem(answer: RawAnswer, base: string, code: string, status: number) {
  expect(answer.status, answer.text).toBe(status);
  expect(answer.headers.get('content-type') ?? '').toMatch(/^application\/problem\+json\b/);
  expect(answer.headers.get('cache-control')).toBe('no-store');
  expect(answer.json).toMatchObject({ type: `${base}/problems/${code}`, status, code });
  for (const member of ['title', 'detail', 'resolution']) expect(answer.json[member], member).toMatch(/\S/);
}

/** After a bad request, the endpoint still answers a good one in both eras. */
export async function expectStillServing(base: string) {
  for (const era of ERAS) {
    const answer = await call(base, era, 'tools/call', { name: 'list_start_options', arguments: {} });
    expect(answer.status, `${era}: ${answer.text}`).toBe(200);
    expect(answer.json.result.isError ?? false).toBe(false);
    expect(answer.json.result.structuredContent.startOptions.length).toBeGreaterThan(0);
  }
}

/** An array nested `depth` levels deep, as JSON text (JSON.stringify of such a value overflows Node's stack). */
export const nestedArrayText = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

/**
 * Requests any client may send whose params hold an array nested 5,000 levels deep (about 10 KB):
 * in `params._meta`, and in a tool's arguments. Each must get a JSON-RPC answer, never a 500.
 */
export function nestedRequests(era: Era, depth = 5_000): { name: string; id: number; headers: Record<string, string>; body: string }[] {
  const nested = nestedArrayText(depth);
  const list = frame(era, 'tools/list');
  const meta = list.body.includes('"_meta":{')
    ? list.body.replace('"_meta":{', `"_meta":{"nested":${nested},`)
    : list.body.replace('"params":{}', `"params":{"_meta":{"nested":${nested}}}`);
  const call = frame(era, 'tools/call', { name: 'search', arguments: { query: '\u0000' } });
  return [
    { name: 'tools/list, nested in _meta', id: JSON.parse(list.body).id, headers: list.headers, body: meta },
    {
      name: 'tools/call, nested in arguments',
      id: JSON.parse(call.body).id,
      headers: call.headers,
      body: call.body.replace('"\\u0000"', nested),
    },
  ];
}

/** A JSON-RPC answer to request `id` (a result or an error), as a nested request must get. */
export function expectJsonRpcAnswer(status: number, contentType: string | null, text: string, id: number) {
  expect(status, text).toBeLessThan(500);
  expect(contentType ?? '').toMatch(/^application\/json\b/);
  const answer = JSON.parse(text);
  expect(answer.jsonrpc).toBe('2.0');
  expect(answer.result ?? answer.error).toBeDefined();
  if (answer.result) expect(answer.id).toBe(id);
}
