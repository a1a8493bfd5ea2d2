/**
 * @module The HTTP rules in front of the MCP SDK: Origin allowlist, lenient Accept, JSON-only
 * bodies of bounded size. What passes is handed to the SDK with its body already parsed; a batch
 * message by message where its revision has batches (./batch.ts).
 */
import { isJsonContentType } from '@modelcontextprotocol/server';
import { originAllowed } from '../cors.ts';
import { admitsJson } from '../negotiation.ts';
import type { ProblemCode } from '../schemas.ts';
import type { HeaderRecord } from '../headers.ts';
import { serveBatch } from './batch.ts';
import type { ServedEndpoint } from './replay.ts';

export interface McpGateOptions {
  /** Allowed browser origins; `*` admits any. Requests without Origin are always served. */
  allowedOrigins: string[];
  maxBodyBytes: number;
}

export type McpOutcome = { refused: ProblemCode } | { response: Response };

/**
 * How much of a refused body is read and dropped before the 413 goes out. Answering while the
 * client still sends made Bun reset the connection (EPIPE at the client, no 413 read); past this
 * the client is sending far more than any MCP message, and the connection may drop.
 */
const DISCARD_BYTES = 4 * 1024 * 1024;
const DISCARD_MS = 5_000;

/** Reads and drops what is left of `body`, up to DISCARD_BYTES and DISCARD_MS. */
async function discard(body: ReadableStream<Uint8Array>, alreadyRead = 0): Promise<void> {
  const reader = body.getReader();
  const timer = setTimeout(() => reader.cancel().catch(() => {}), DISCARD_MS);
  try {
    for (let size = alreadyRead; size <= DISCARD_BYTES; ) {
      const { done, value } = await reader.read();
      if (done) return;
      size += value.byteLength;
    }
    await reader.cancel();
  } catch {
    // The client went away or the time ran out: answer anyway.
  } finally {
    clearTimeout(timer);
  }
}

/** Reads at most `limit` bytes; a longer body is refused without being buffered whole. */
async function readBounded(request: Request, limit: number): Promise<string | undefined> {
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) <= limit) {
    // The server enforces a declared length; reading it whole avoids a stream on Node's adapter.
    return request.text();
  }
  if (!request.body) return '';
  if (declared !== null) {
    if (Number(declared) <= DISCARD_BYTES) await discard(request.body);
    return undefined;
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      reader.releaseLock();
      await discard(request.body, size);
      return undefined;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

/**
 * A refusal, once what arrives of the body has been read (bounded): workerd closes a keep-alive
 * connection whose request body was left unread, and a client already sending its next request
 * on it gets a reset.
 */
async function refuse(request: Request, refused: ProblemCode): Promise<McpOutcome> {
  if (request.body) await discard(request.body);
  return { refused };
}

/** The Accept the SDK's 2025 transport insists on; the answer is JSON either way. */
const SDK_ACCEPT = 'application/json, text/event-stream';

/** `answerHeaders` are the headers the service adds to the SDK's answer (a refusal is answered by the caller). */
export function createMcpGate(endpoint: ServedEndpoint, { allowedOrigins, maxBodyBytes }: McpGateOptions) {
  return async function serveMcp(request: Request, answerHeaders: HeaderRecord = {}): Promise<McpOutcome> {
    if (!originAllowed(request.headers.get('origin'), allowedOrigins)) return refuse(request, 'origin_not_allowed');
    if (!admitsJson(request.headers.get('accept'))) return refuse(request, 'not_acceptable');
    if (!isJsonContentType(request.headers.get('content-type'))) return refuse(request, 'unsupported_media_type');
    const text = await readBounded(request, maxBodyBytes);
    if (text === undefined) return { refused: 'payload_too_large' };

    let parsedBody: unknown;
    try {
      parsedBody = JSON.parse(text);
    } catch {
      parsedBody = undefined; // the SDK answers malformed JSON with a JSON-RPC parse error
    }
    // The SDK reads the parsed body, so the request is rebuilt only to relax Accept or to carry
    // a body the SDK must parse (and reject) itself.
    let forwarded = request;
    if (parsedBody === undefined || request.headers.get('accept') !== SDK_ACCEPT) {
      const headers = new Headers(request.headers);
      headers.set('accept', SDK_ACCEPT);
      headers.delete('content-length');
      const body = parsedBody === undefined ? text : undefined;
      forwarded = new Request(request.url, { method: 'POST', headers, body, signal: request.signal });
    }
    if (Array.isArray(parsedBody)) {
      const response = await serveBatch(forwarded, parsedBody, (message) => endpoint(forwarded, message, {}));
      for (const name in answerHeaders) response.headers.set(name, answerHeaders[name]!);
      if (response.status >= 400) response.headers.set('Cache-Control', 'no-store');
      return { response };
    }
    return { response: await endpoint(forwarded, parsedBody, answerHeaders) };
  };
}
