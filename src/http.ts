/**
 * @module Representations built once at start-up, and the per-response rules that serve them:
 * strong ETags, gzip coding, conditional GET (304) and HEAD.
 */
import { mergeHeaders, type HeaderRecord } from './headers.ts';
import { acceptsGzip } from './negotiation.ts';
import { headerBuilder, type HeaderBuilder } from './response-headers.ts';

const encoder = new TextEncoder();
const GZIP_THRESHOLD_BYTES = 1024;

export function jsonBytes(value: unknown): Uint8Array<ArrayBuffer> {
  return encoder.encode(JSON.stringify(value));
}

async function strongEtag(body: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', body));
  return `"${btoa(String.fromCharCode(...digest.subarray(0, 18))).replace(/\+/g, '-').replace(/\//g, '_')}"`;
}

async function gzip(body: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  const stream = new Blob([body]).stream().pipeThrough(new CompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** A body with every fixed header of its answers merged in at start-up. */
export interface PreparedRepresentation {
  status: number;
  identity: PreparedVariant;
  /** The same representation gzip-coded, when it is large enough to be worth it. */
  gzip?: PreparedVariant;
}

interface PreparedVariant {
  body: Uint8Array<ArrayBuffer>;
  etag: string;
  /** Every header of a 200 answer but the per-request ones. */
  headers: HeaderRecord;
  /** `headers` with the per-request fields added, for a 200 and for a 304. */
  build: HeaderBuilder;
  buildNotModified: HeaderBuilder;
}

/** RFC 9110 section 15.4.5: a 304 carries the headers a 200 would have, minus the content ones. */
const NOT_FOR_304 = new Set(['Content-Type', 'Content-Length', 'Content-Encoding']);

async function variant(body: Uint8Array<ArrayBuffer>, headers: HeaderRecord): Promise<PreparedVariant> {
  const etag = await strongEtag(body);
  // RFC 9110 section 9.3.2: HEAD carries the headers GET would, so Content-Length is the GET body's length.
  const full = mergeHeaders(headers, { ETag: etag, 'Content-Length': String(body.byteLength) });
  const notModifiedHeaders: HeaderRecord = {};
  for (const name in full) if (!NOT_FOR_304.has(name)) notModifiedHeaders[name] = full[name]!;
  return { body, etag, headers: full, build: headerBuilder(full), buildNotModified: headerBuilder(notModifiedHeaders) };
}

/**
 * Serialises, hashes and (when large) compresses `value` once. `fixed` are the headers every answer
 * of its path carries (CORS, Link, deprecation...).
 */
export async function prepare(
  value: unknown,
  { contentType = 'application/json; charset=utf-8', cacheControl, fixed }: { contentType?: string; cacheControl: string; fixed: HeaderRecord },
): Promise<PreparedRepresentation> {
  const body = typeof value === 'string' ? encoder.encode(value) : jsonBytes(value);
  const headers = mergeHeaders(fixed, { 'Content-Type': contentType, 'Cache-Control': cacheControl });
  if (body.byteLength < GZIP_THRESHOLD_BYTES) return { status: 200, identity: await variant(body, headers) };
  headers.Vary = 'Accept-Encoding';
  // RFC 9110 section 8.8.3: each content coding is a different representation with its own strong ETag.
  const [identity, coded] = await Promise.all([
    variant(body, headers),
    gzip(body).then((bytes) => variant(bytes, mergeHeaders(headers, { 'Content-Encoding': 'gzip' }))),
  ]);
  return { status: 200, identity, gzip: coded };
}

/** RFC 9110 section 13.1.2: If-None-Match uses the weak comparison; `*` matches any current representation. */
function matchesIfNoneMatch(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  const opaque = etag.replace(/^W\//, '');
  return ifNoneMatch.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === opaque);
}

/** Chooses the coding, answers a conditional GET with 304 and a HEAD with no body; `extra` varies per request. */
export function respond(request: Request, rep: PreparedRepresentation, extra: HeaderRecord): Response {
  const chosen = rep.gzip && acceptsGzip(request.headers.get('accept-encoding')) ? rep.gzip : rep.identity;
  if (matchesIfNoneMatch(request.headers.get('if-none-match'), chosen.etag)) {
    return new Response(null, { status: 304, headers: chosen.buildNotModified(extra) });
  }
  return new Response(request.method === 'HEAD' ? null : chosen.body, { status: rep.status, headers: chosen.build(extra) });
}
