/**
 * @module The HTTP rules in front of the MCP SDK: Origin allowlist, lenient Accept, JSON-only
 * bodies of bounded size. What passes is handed to the SDK with its body already parsed.
 */
import { isJsonContentType } from '@modelcontextprotocol/server';
import { originAllowed } from '../cors.ts';
import { admitsJson } from '../negotiation.ts';
import type { ProblemCode } from '../schemas.ts';
import type { McpEndpoint } from './server.ts';

export interface McpGateOptions {
  /** Allowed browser origins; `*` admits any. Requests without Origin are always served. */
  allowedOrigins: string[];
  maxBodyBytes: number;
}

export type McpOutcome = { refused: ProblemCode } | { response: Response };

/** Reads at most `limit` bytes; a longer body is refused without being buffered whole. */
async function readBounded(request: Request, limit: number): Promise<string | undefined> {
  const declared = request.headers.get('content-length');
  if (declared !== null) {
    // The server enforces a declared length; reading it whole avoids a stream on Node's adapter.
    return Number(declared) > limit ? undefined : request.text();
  }
  if (!request.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of request.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > limit) return undefined;
    chunks.push(chunk);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

/** The Accept the SDK's 2025 transport insists on; the answer is JSON either way. */
const SDK_ACCEPT = 'application/json, text/event-stream';

export function createMcpGate(endpoint: McpEndpoint, { allowedOrigins, maxBodyBytes }: McpGateOptions) {
  return async function serveMcp(request: Request): Promise<McpOutcome> {
    if (!originAllowed(request.headers.get('origin'), allowedOrigins)) return { refused: 'origin_not_allowed' };
    if (!admitsJson(request.headers.get('accept'))) return { refused: 'not_acceptable' };
    if (!isJsonContentType(request.headers.get('content-type'))) return { refused: 'unsupported_media_type' };
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
    return { response: await endpoint(forwarded, parsedBody) };
  };
}
