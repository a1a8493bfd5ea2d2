/**
 * @module The HTTP rules in front of the MCP SDK: the Origin allowlist, a lenient Accept, JSON-only
 * bodies of bounded size, and the request rebuilt as the SDK takes it. Every refusal of the MCP
 * endpoint at the HTTP level is declared and produced here (the body read by src/http/body.ts); the OpenAPI document lists the same.
 */
import { originAllowed } from '../http/cors.ts';
import { admitsJson, isJsonMediaType } from '../http/negotiation.ts';
import type { ProblemCode } from '../contract/schemas.ts';
import { readBody } from '../http/body.ts';

export interface McpOptions {
  /** Browser origins allowed to call the endpoint; `*` admits any. Requests without Origin are always served. */
  allowedOrigins: string[];
  /** The largest request body accepted. */
  maxBodyBytes: number;
  /** Over quota: the 429 problem (`http`, the default) or HTTP 200 with a JSON-RPC answer per request (`jsonrpc`, see over-quota.ts). */
  rateLimitAnswer?: 'http' | 'jsonrpc';
}

export const MCP_DEFAULTS = { maxBodyBytes: 65_536 };

/** The problems /mcp answers before the SDK sees a request (the rate limit's aside). */
export const MCP_REFUSALS = [
  'bad_request',
  'origin_not_allowed',
  'not_acceptable',
  'payload_too_large',
  'unsupported_media_type',
] as const satisfies readonly ProblemCode[];
export type McpRefusal = (typeof MCP_REFUSALS)[number];

/** A browser's request, its CORS preflight included, from an origin not allowed. */
export function originRefusal(request: Request, allowedOrigins: readonly string[]): 'origin_not_allowed' | undefined {
  return originAllowed(request.headers.get('origin'), allowedOrigins) ? undefined : 'origin_not_allowed';
}

/** The refusal a request earns by its headers alone, before its body is read. */
export function refusalOf(request: Request, allowedOrigins: readonly string[]): McpRefusal | undefined {
  const refused = originRefusal(request, allowedOrigins);
  if (refused) return refused;
  if (!admitsJson(request.headers.get('accept'))) return 'not_acceptable';
  if (!isJsonMediaType(request.headers.get('content-type'))) return 'unsupported_media_type';
  return undefined;
}

/** A request past the rules: its body parsed (undefined when it is not JSON) and as it came. */
export interface Vetted {
  body: unknown;
  text: string;
}

/** A refusal, with a `detail` of its own where the fixed one does not say enough. */
export interface Refused {
  refused: McpRefusal;
  detail?: string;
  /** The body was not read to its end: the answer closes the connection (see src/http/body.ts). */
  close?: true;
}

/** The 413's detail: the limit itself, as the OpenAPI document states it. */
export const tooLargeDetail = (maxBodyBytes: number) => `The body is larger than ${maxBodyBytes} bytes.`;

/** Applies every rule to one POST: the request as the SDK takes it, or the refusal it earns. */
export async function vet(
  request: Request,
  { allowedOrigins, maxBodyBytes }: Pick<McpOptions, 'allowedOrigins' | 'maxBodyBytes'>,
): Promise<Vetted | Refused> {
  const refused = refusalOf(request, allowedOrigins);
  if (refused) return { refused };
  const read = await readBody(request, maxBodyBytes);
  if ('refused' in read)
    return read.refused === 'payload_too_large' ? { refused: read.refused, detail: tooLargeDetail(maxBodyBytes) } : read;
  const text = new TextDecoder().decode(read.bytes);
  return { body: parseBody(text), text };
}

/** The Accept the SDK's 2025 transport insists on; the answer is JSON either way. */
const SDK_ACCEPT = 'application/json, text/event-stream';

/** The body as JSON, or undefined when it is not (the SDK answers that with a JSON-RPC parse error). */
export function parseBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The request as the SDK takes it, made only when the SDK is to answer. The SDK reads the parsed body,
 * so a `Request` is rebuilt only to relax Accept, to carry a body the SDK must parse (and reject)
 * itself, or from the Node server's stand-in for one (startup/node-answers.ts).
 */
export function forSdk(request: Request, text: string, parsedBody: unknown): Request {
  if (parsedBody !== undefined && request.headers.get('accept') === SDK_ACCEPT && request instanceof Request) return request;
  const headers = new Headers(request.headers);
  headers.set('accept', SDK_ACCEPT);
  headers.delete('content-length');
  const body = parsedBody === undefined ? text : undefined;
  return new Request(request.url, { method: 'POST', headers, body, signal: request.signal });
}
