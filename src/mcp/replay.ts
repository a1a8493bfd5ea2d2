/**
 * @module Replays the SDK's own answers. The tools are read-only and answer from facts fixed for
 * the life of an endpoint, so a JSON-RPC request's answer depends only on what the SDK reads of it:
 * the protocol headers and the message without its `id`. The first such request goes to the SDK;
 * when its answer is a JSON-RPC result (never an error: those may depend on transport details),
 * the status, headers and bytes are kept, and later requests get the same bytes with their own `id`
 * (JSON-RPC 2.0 section 5: the response carries the request's id). Bounded: the oldest entry goes first.
 * Every answer leaves here with the service's own headers (rate limit, CORS...): a replayed one
 * built with them in one go, the SDK's with them added.
 */
import { mergeHeaders, type HeaderRecord } from '../headers.ts';
import type { McpEndpoint } from './server.ts';

/** The endpoint as the gate calls it: `answerHeaders` are the headers the service adds to every answer. */
export type ServedEndpoint = (request: Request, parsedBody: unknown, answerHeaders: HeaderRecord) => Promise<Response>;

/** The request headers the SDK reads to decide an answer (after the gate normalised Accept). */
const KEY_HEADERS = ['mcp-protocol-version', 'mcp-method', 'mcp-name', 'accept', 'content-type'];
/** Headers that make the answer depend on who asks or on a session: such requests always reach the SDK. */
const BYPASS_HEADERS = ['authorization', 'mcp-session-id', 'last-event-id'];
/** Stands for the id while the recorded answer is split around it. */
const ID_MARK = `replay-id-${crypto.randomUUID()}`;

interface Recorded {
  status: number;
  headers: HeaderRecord;
  /** The body around the id: `before + JSON.stringify(id) + after`. */
  before: string;
  after: string;
}

type JsonRpcRequest = { jsonrpc: unknown; id: string | number; method: string };

function isReplayable(body: unknown): body is JsonRpcRequest {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return false;
  const { id, method } = body as Record<string, unknown>;
  return (typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id))) && typeof method === 'string';
}

function keyOf(request: Request, body: JsonRpcRequest): string | undefined {
  const headers = request.headers;
  let key = '';
  for (const name of BYPASS_HEADERS) if (headers.has(name)) return undefined;
  for (const name of headers.keys()) if (name.startsWith('mcp-param-')) return undefined;
  for (const name of KEY_HEADERS) key += `${headers.get(name) ?? '\u0000'}\n`;
  return key + JSON.stringify({ ...body, id: null });
}

/** Splits the SDK's answer around the request's id, or says it cannot be replayed. */
async function record(response: Response, id: string | number): Promise<{ recorded?: Recorded; text: string }> {
  const text = await response.text();
  let parsed: { jsonrpc?: unknown; id?: unknown; result?: unknown; error?: unknown };
  try {
    parsed = JSON.parse(text);
  } catch {
    return { text };
  }
  if (response.status !== 200 || parsed.id !== id || parsed.result === undefined || parsed.error !== undefined) return { text };
  const parts = JSON.stringify({ ...parsed, id: ID_MARK }).split(JSON.stringify(ID_MARK));
  if (parts.length !== 2) return { text };
  const [before, after] = parts as [string, string];
  // Only when the SDK's bytes are exactly the parsed message serialised again (key order, spacing).
  if (before + JSON.stringify(id) + after !== text) return { text };
  // The length changes with the id's; the server sets it from the body.
  const headers = Object.fromEntries([...response.headers].filter(([name]) => name !== 'content-length'));
  return { recorded: { status: response.status, headers, before, after }, text };
}

/** Adds the service's headers to an answer of the SDK; an error answer is never stored by a cache. */
function withHeaders(response: Response, answerHeaders: HeaderRecord): Response {
  for (const name in answerHeaders) response.headers.set(name, answerHeaders[name]!);
  if (response.status >= 400) response.headers.set('Cache-Control', 'no-store');
  return response;
}

/** `maxEntries: 0` keeps nothing: every request reaches the SDK, with the same headers added. */
export function withReplay(endpoint: McpEndpoint, { maxEntries = 256 }: { maxEntries?: number } = {}): ServedEndpoint {
  const answers = new Map<string, Recorded>();
  return async (request, parsedBody, answerHeaders) => {
    const key = isReplayable(parsedBody) ? keyOf(request, parsedBody) : undefined;
    if (key === undefined) return withHeaders(await endpoint(request, parsedBody), answerHeaders);
    const id = (parsedBody as JsonRpcRequest).id;
    const known = answers.get(key);
    if (known) {
      return new Response(known.before + JSON.stringify(id) + known.after, { status: known.status, headers: mergeHeaders(known.headers, answerHeaders) });
    }

    const response = await endpoint(request, parsedBody);
    if (!/^application\/json\b/.test(response.headers.get('content-type') ?? '')) return withHeaders(response, answerHeaders);
    const { recorded, text } = await record(response, id);
    if (recorded && maxEntries > 0) {
      if (answers.size >= maxEntries) answers.delete(answers.keys().next().value!);
      answers.set(key, recorded);
    }
    return withHeaders(new Response(text, { status: response.status, statusText: response.statusText, headers: response.headers }), answerHeaders);
  };
}
