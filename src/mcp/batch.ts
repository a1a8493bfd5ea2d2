/**
 * @module JSON-RPC batches, which only MCP revision 2025-03-26 has: 2025-06-18 removed them
 * (its changelog: "Remove support for JSON-RPC batching"). A request without MCP-Protocol-Version
 * is taken as 2025-03-26 (2025-06-18, Transports, "Protocol Version Header"). Under that revision
 * each message of a batch is served on its own and the answers go back as one array, a batch of one
 * included (JSON-RPC 2.0 section 6). Under any other revision a batch is an Invalid Request
 * (-32600, HTTP 400), the error the SDK gives a batch on its 2026-07-28 leg.
 */

import { BATCH_REVISION } from './versions.ts';

/** The SDK's own bound on the messages of one JSON-RPC batch. */
export const MAX_BATCH_MESSAGES = 100;
const INVALID_REQUEST = -32600;
const INTERNAL_ERROR = -32603;

/** Serves one message of the batch as a request of its own would be served. */
export type ServeOne = (message: unknown) => Promise<Response>;

type Id = string | number | null;
interface Message {
  jsonrpc: '2.0';
  id?: Id;
  method?: unknown;
}

const errorOf = (id: Id, code: number, message: string) => ({ jsonrpc: '2.0', id, error: { code, message } });

function json(body: unknown, status: number): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** The revision a request is taken to speak. */
export const revisionOf = (request: Request) => request.headers.get('mcp-protocol-version') ?? BATCH_REVISION;

function isMessage(value: unknown): value is Message {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return false;
  const { jsonrpc, id, method } = value as Record<string, unknown>;
  const validId = id === undefined || id === null || typeof id === 'string' || typeof id === 'number';
  return jsonrpc === '2.0' && validId && (typeof method === 'string' || ('id' in value && ('result' in value || 'error' in value)));
}

/** The answer to one element: a JSON-RPC message, or nothing for a notification or a response. */
async function answerOne(message: unknown, serveOne: ServeOne): Promise<unknown> {
  // JSON-RPC 2.0 section 6: an element that is not a valid message gets its own Invalid Request.
  if (!isMessage(message)) return errorOf(null, INVALID_REQUEST, 'Invalid Request: not a JSON-RPC 2.0 message');
  const id = message.id ?? null;
  // 2025-03-26, Lifecycle: "The initialize request MUST NOT be part of a JSON-RPC batch".
  if (message.method === 'initialize')
    return errorOf(id, INVALID_REQUEST, 'Invalid Request: initialize cannot be part of a batch; send it alone');
  const response = await serveOne(message);
  const text = await response.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return errorOf(id, INTERNAL_ERROR, 'Internal error');
  }
}

/** Answers a batch (a parsed JSON array) under the request's revision. */
export async function serveBatch(request: Request, messages: unknown[], serveOne: ServeOne): Promise<Response> {
  const revision = revisionOf(request);
  if (revision !== BATCH_REVISION) {
    const why = `JSON-RPC batches are not part of MCP revision ${revision} (only ${BATCH_REVISION} has them); send one message per request`;
    return json(errorOf(null, INVALID_REQUEST, `Invalid Request: ${why}`), 400);
  }
  // JSON-RPC 2.0 section 6: an empty array is answered with a single error, not an array.
  if (messages.length === 0) return json(errorOf(null, INVALID_REQUEST, 'Invalid Request: empty batch'), 400);
  if (messages.length > MAX_BATCH_MESSAGES) {
    return json(errorOf(null, INVALID_REQUEST, `Invalid Request: a batch holds at most ${MAX_BATCH_MESSAGES} messages`), 400);
  }
  const answers = (await Promise.all(messages.map((message) => answerOne(message, serveOne)))).filter((answer) => answer !== undefined);
  // Only notifications and responses: nothing to return (2025-03-26, Transports: 202 Accepted, no body).
  if (answers.length === 0) return new Response(null, { status: 202 });
  return json(answers, 200);
}
