/**
 * @module Replays the SDK's own answers. The tools are read-only and answer from facts fixed for
 * the life of an endpoint, so a JSON-RPC request's answer depends only on what the SDK reads of it:
 * the protocol headers and the message without its `id`. The first such request goes to the SDK;
 * when its answer is a JSON-RPC result (never an error: those may depend on transport details),
 * the status, headers and bytes are kept, and later requests get the same bytes with their own `id`
 * (JSON-RPC 2.0 section 5: the response carries the request's id). Bounded: the oldest entry goes first.
 */
import { Answer } from '../http/answer.ts';
import { mergeHeaders, type HeaderRecord } from '../http/headers.ts';

/** The request headers the SDK reads to decide an answer (Accept aside: the SDK is always sent the same, see gate.ts's forSdk). */
const KEY_HEADERS = ['mcp-protocol-version', 'mcp-method', 'mcp-name', 'content-type'];
/** Headers that make the answer depend on who asks or on a session: such requests always reach the SDK. */
const BYPASS_HEADERS = ['authorization', 'mcp-session-id', 'last-event-id'];
/**
 * Stands for the id while the recorded answer is split around it; an answer that already holds it
 * splits into more than two parts and is not kept. (A constant: Workers refuse random values at start-up.)
 */
const ID_MARK = '\u0000replay-id\u0000';

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

/** Splits the SDK's answer around the request's id, or says it cannot be replayed. */
function split(response: Response, text: string, id: string | number): Recorded | undefined {
  let parsed: { jsonrpc?: unknown; id?: unknown; result?: unknown; error?: unknown };
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (response.status !== 200 || parsed.id !== id || parsed.result === undefined || parsed.error !== undefined) return undefined;
  const parts = JSON.stringify({ ...parsed, id: ID_MARK }).split(JSON.stringify(ID_MARK));
  if (parts.length !== 2) return undefined;
  const [before, after] = parts as [string, string];
  // Only when the SDK's bytes are exactly the parsed message serialised again (key order, spacing).
  if (before + JSON.stringify(id) + after !== text) return undefined;
  // The length changes with the id's; the server sets it from the body.
  const headers = Object.fromEntries([...response.headers].filter(([name]) => name !== 'content-length'));
  return { status: response.status, headers, before, after };
}

/** How many distinct requests' answers are kept; the oldest goes first. */
export const MAX_REPLAY_ENTRIES = 256;

export class ReplayCache {
  readonly #answers = new Map<string, Recorded>();

  /** What a request's answer depends on, or undefined when it must always reach the SDK. */
  keyOf(request: Request, body: unknown): string | undefined {
    if (!isReplayable(body)) return undefined;
    const headers = request.headers;
    for (const name of BYPASS_HEADERS) if (headers.has(name)) return undefined;
    for (const name of headers.keys()) if (name.startsWith('mcp-param-')) return undefined;
    let key = '';
    for (const name of KEY_HEADERS) key += `${headers.get(name) ?? '\u0000'}\n`;
    try {
      return key + JSON.stringify({ ...body, id: null });
    } catch {
      // Nested deeper than the stack lets JSON.stringify go (about 5,000 levels on Node): not kept.
      return undefined;
    }
  }

  /**
   * The kept answer for `key` with the request's id, carrying `serviceHeaders` besides the SDK's: an
   * `Answer`, which the Node server writes without fetch objects. Its body is text (the runtime
   * encodes it as it writes, with no buffer made here for it) and its length the runtime's to set.
   */
  replay(key: string, body: unknown, serviceHeaders: (status: number) => HeaderRecord): Answer | undefined {
    const known = this.#answers.get(key);
    if (!known) return undefined;
    const text = known.before + JSON.stringify((body as JsonRpcRequest).id) + known.after;
    return new Answer(known.status, mergeHeaders(known.headers, serviceHeaders(known.status)), text);
  }

  /** Keeps the SDK's answer when it can be replayed; returns an equal Response, the body read once. */
  async record(key: string, body: unknown, response: Response): Promise<Response> {
    if (!/^application\/json\b/.test(response.headers.get('content-type') ?? '')) return response;
    const text = await response.text();
    const recorded = split(response, text, (body as JsonRpcRequest).id);
    if (recorded) {
      if (this.#answers.size >= MAX_REPLAY_ENTRIES) this.#answers.delete(this.#answers.keys().next().value!);
      this.#answers.set(key, recorded);
    }
    return new Response(text, { status: response.status, statusText: response.statusText, headers: response.headers });
  }
}
