/**
 * @module Per-response HTTP rules: precomputed representations, ETag/304, content coding, HEAD,
 * and the headers every response carries (CORS, nosniff, Link).
 */

export type Headers = Record<string, string>;

/** A precomputed body with its validators, built once at start-up. */
export interface Representation {
  status: number;
  body: Uint8Array<ArrayBuffer>;
  headers: Headers;
  /** The same representation gzip-coded, when it is large enough to be worth it. */
  gzip?: { body: Uint8Array<ArrayBuffer>; headers: Headers };
}

const encoder = new TextEncoder();
const GZIP_THRESHOLD_BYTES = 1024;

export const EXPOSED_HEADERS = [
  'RateLimit-Policy',
  'RateLimit',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'Retry-After',
  'ETag',
  'Link',
  'Deprecation',
  'Sunset',
].join(', ');

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

export async function representation(
  value: unknown,
  { contentType = 'application/json', cacheControl }: { contentType?: string; cacheControl: string },
): Promise<Representation> {
  const body = jsonBytes(value);
  const headers: Headers = {
    'Content-Type': `${contentType}; charset=utf-8`,
    'Cache-Control': cacheControl,
    ETag: await strongEtag(body),
  };
  if (body.byteLength < GZIP_THRESHOLD_BYTES) return { status: 200, body, headers };
  const coded = await gzip(body);
  headers.Vary = 'Accept-Encoding';
  // RFC 9110 section 8.8.3: each content coding is a different representation with its own strong ETag.
  const gzipHeaders = mergeHeaders(headers, { 'Content-Encoding': 'gzip', ETag: await strongEtag(coded) });
  return { status: 200, body, headers, gzip: { body: coded, headers: gzipHeaders } };
}

/**
 * Whether Accept-Encoding admits gzip. RFC 9110 section 12.5.3: q=0 means "not acceptable", and a
 * coding named explicitly takes precedence over `*`.
 */
function acceptsGzip(acceptEncoding: string | null): boolean {
  if (!acceptEncoding) return false;
  let wildcard = false;
  for (const part of acceptEncoding.split(',')) {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((param) => param.trim()).find((param) => param.startsWith('q='));
    const acceptable = q === undefined || Number(q.slice(2)) > 0;
    if (coding === 'gzip') return acceptable;
    if (coding === '*') wildcard = acceptable;
  }
  return wildcard;
}

/** RFC 9110 section 13.1.2: If-None-Match uses the weak comparison; `*` matches any current representation. */
function matchesIfNoneMatch(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  const opaque = etag.replace(/^W\//, '');
  return ifNoneMatch.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === opaque);
}

/** Copies header records into a new one. A for-in copy: object spread costs several times more on Node 20. */
export function mergeHeaders(...parts: Headers[]): Headers {
  const merged: Headers = {};
  for (const part of parts) for (const name in part) merged[name] = part[name]!;
  return merged;
}

/** A representation with every fixed header of its answers merged in at start-up. */
export interface PreparedRepresentation {
  status: number;
  identity: PreparedVariant;
  gzip?: PreparedVariant;
}
interface PreparedVariant {
  body: Uint8Array<ArrayBuffer>;
  etag: string;
  headers: Headers;
  notModifiedHeaders: Headers;
}

/** RFC 9110 section 15.4.5: a 304 carries the headers a 200 would have, minus the content ones. */
const NOT_FOR_304 = new Set(['Content-Type', 'Content-Length', 'Content-Encoding']);

export function prepare(rep: Representation, fixed: Headers): PreparedRepresentation {
  const variant = ({ body, headers }: { body: Uint8Array<ArrayBuffer>; headers: Headers }): PreparedVariant => {
    // RFC 9110 section 9.3.2: HEAD carries the headers GET would, so Content-Length is the GET body's length.
    const full = mergeHeaders(fixed, headers, { 'Content-Length': String(body.byteLength) });
    const notModifiedHeaders: Headers = {};
    for (const name in full) if (!NOT_FOR_304.has(name)) notModifiedHeaders[name] = full[name]!;
    return { body, etag: headers.ETag!, headers: full, notModifiedHeaders };
  };
  return { status: rep.status, identity: variant(rep), gzip: rep.gzip && variant(rep.gzip) };
}

/** Chooses the coding, answers a conditional GET with 304 and a HEAD with no body; `extra` varies per request. */
export function respond(request: Request, rep: PreparedRepresentation, extra: Headers): Response {
  const variant = rep.gzip && acceptsGzip(request.headers.get('accept-encoding')) ? rep.gzip : rep.identity;
  if (matchesIfNoneMatch(request.headers.get('if-none-match'), variant.etag)) {
    return new Response(null, { status: 304, headers: mergeHeaders(variant.notModifiedHeaders, extra) });
  }
  return new Response(request.method === 'HEAD' ? null : variant.body, { status: rep.status, headers: mergeHeaders(variant.headers, extra) });
}
