/**
 * @module The response headers of the contract, each named once: which ones scripts may read
 * (CORS `Access-Control-Expose-Headers`) and how the OpenAPI document describes them.
 */

/** Header fields as a plain record: the cheapest shape to copy and hand to `new Response` on every runtime. */
export type HeaderRecord = Record<string, string>;

interface HeaderSpec {
  description: string;
  schema?: Record<string, unknown>;
  /** Readable by cross-origin scripts (Fetch standard, CORS-safelisted response headers aside). */
  exposed: boolean;
}

const integer = (minimum?: number) => ({ type: 'integer', ...(minimum === undefined ? {} : { minimum }) });

export const HEADERS = {
  'RateLimit-Policy': {
    exposed: true,
    description: 'The `default` quota policy: `"default";q=<quota>;w=<window seconds>` (IETF RateLimit fields, structured-field List).',
  },
  RateLimit: { exposed: true, description: 'Remaining quota: `"default";r=<remaining>;t=<seconds until reset>`.' },
  'X-RateLimit-Limit': { exposed: true, description: 'The quota per window.', schema: integer(1) },
  'X-RateLimit-Remaining': { exposed: true, description: 'Requests remaining in this window.', schema: integer(0) },
  'X-RateLimit-Reset': { exposed: true, description: 'When the window resets, Unix epoch seconds.', schema: integer() },
  'Retry-After': { exposed: true, description: 'Seconds to wait before trying again.', schema: integer(0) },
  ETag: { exposed: true, description: 'Strong entity tag of the representation.' },
  Link: {
    exposed: true,
    description:
      '`<{base}/openapi.json>; rel="service-desc"`, plus the successor version while v1 is deprecated, and ' +
      '`<{base}/.well-known/api-catalog>; rel="api-catalog"` (RFC 9727) on /api/v1 and on the catalog itself.',
  },
  Deprecation: {
    exposed: true,
    description: 'RFC 9745: `@<unix seconds>` when v1 was deprecated; present only while a deprecation is configured.',
  },
  Sunset: {
    exposed: true,
    description: 'RFC 8594: HTTP-date after which v1 may stop answering; present only while a deprecation is configured.',
  },
  'Cache-Control': { exposed: false, description: 'Caching policy of the response.' },
  Vary: { exposed: false, description: 'Request headers that select the representation.' },
  'X-Content-Type-Options': { exposed: false, description: 'Always `nosniff`.' },
  'Access-Control-Allow-Origin': { exposed: false, description: 'Always `*`; credentials are never allowed.' },
} satisfies Record<string, HeaderSpec>;

export type HeaderName = keyof typeof HEADERS;

export const EXPOSED_HEADERS = Object.entries(HEADERS as Record<HeaderName, HeaderSpec>)
  .filter(([, spec]) => spec.exposed)
  .map(([name]) => name)
  .join(', ');

/** The rate-limit fields every response carries. */
export const RATE_LIMIT_HEADERS: HeaderName[] = ['RateLimit-Policy', 'RateLimit', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];

/** OpenAPI `components.headers`. */
export function headerComponents(): Record<string, { description: string; schema: Record<string, unknown> }> {
  return Object.fromEntries(
    Object.entries(HEADERS as Record<HeaderName, HeaderSpec>).map(([name, { description, schema = { type: 'string' } }]) => [
      name,
      { description, schema },
    ]),
  );
}

/** Copies header records into a new one. A for-in copy: object spread costs several times more on Node 20. */
export function mergeHeaders(...parts: HeaderRecord[]): HeaderRecord {
  const merged: HeaderRecord = {};
  for (const part of parts) for (const name in part) merged[name] = part[name]!;
  return merged;
}
