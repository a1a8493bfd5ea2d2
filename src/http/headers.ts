/**
 * @module The service's response headers, each declared once: what it means (the OpenAPI
 * description, whether cross-origin scripts may read it), which answers carry it, and its value
 * where that is fixed for a path. The header set of each path is built here once at start-up; the
 * OpenAPI document lists the same names. The per-request values (rate-limit state, Retry-After) are
 * set by the rate limit, the representation's own (Content-Type, ETag, Content-Length, Vary) by http.ts.
 */
import type { DeprecationNotice } from '../contract/deprecation.ts';
import { contentUsage } from '../discovery/robots.ts';
import { DOCS_CSP } from '../docs/page.ts';
import { allowOf, isV1Path, LINK_TARGETS, OPENAPI_PATH, type LinkTarget, type Route } from '../route.ts';
import type { ProblemCode } from '../contract/schemas.ts';

/** Header fields as a plain record: the cheapest shape to copy and hand to `new Response` on most runtimes. */
export type HeaderRecord = Record<string, string>;

export const NO_STORE = 'no-store';
/** How long a public answer may be reused: the documents' Cache-Control and the MCP results' cache hints. */
export const PUBLIC_MAX_AGE_SECONDS = 60;
export const PUBLIC_CACHE = `public, max-age=${PUBLIC_MAX_AGE_SECONDS}`;
const PREFLIGHT_MAX_AGE_SECONDS = 86_400;

interface HeaderSpec {
  description: string;
  schema?: Record<string, unknown>;
  /** Readable by cross-origin scripts (Fetch standard: listed in Access-Control-Expose-Headers). */
  exposed: boolean;
}

const integer = (minimum?: number) => ({ type: 'integer', ...(minimum === undefined ? {} : { minimum }) });

export const HEADERS = {
  'RateLimit-Policy': {
    exposed: true,
    description:
      'The quota policy the request counted under: `"default";q=<quota>;w=<window seconds>`, or the policy an operator ' +
      "configured for the client's network, by its name (IETF RateLimit fields, structured-field List).",
  },
  RateLimit: { exposed: true, description: 'Remaining quota of that policy: `"<policy>";r=<remaining>;t=<seconds until reset>`.' },
  'X-RateLimit-Limit': { exposed: true, description: 'The quota per window of that policy.', schema: integer(1) },
  'X-RateLimit-Remaining': { exposed: true, description: 'Requests remaining in this window.', schema: integer(0) },
  'X-RateLimit-Reset': { exposed: true, description: 'When the window resets, Unix epoch seconds.', schema: integer() },
  'Retry-After': { exposed: true, description: 'Seconds to wait before trying again.', schema: integer(0) },
  ETag: { exposed: true, description: 'Strong entity tag of the representation.' },
  Link: {
    exposed: true,
    description:
      '`<{base}/openapi.json>; rel="service-desc"` on every answer; under /api/v1 the successor version while v1 is ' +
      'deprecated; `rel="api-catalog"` (RFC 9727) on /api/v1, the catalog itself and the root; on the root also ' +
      '`rel="service-doc"` (the docs page, while served), `rel="describedby"` (the MCP server card and the product as ' +
      'JSON-LD) and `rel="alternate"` (its Markdown), each with its `type`.',
  },
  Deprecation: {
    exposed: true,
    description: 'RFC 9745: `@<unix seconds>` when v1 was deprecated; present only while a deprecation is configured.',
  },
  Sunset: {
    exposed: true,
    description: 'RFC 8594: HTTP-date after which v1 may stop answering; present only while a deprecation is configured.',
  },
  'Content-Usage': {
    exposed: false,
    description:
      'On every document: the IETF AI-preferences (draft-ietf-aipref-attach) robots.txt gives, from CONTENT_SIGNAL: ' +
      '`search=y` while the signal says search=yes, `train-ai=n` when it says ai-train=no. Absent when the signal names neither.',
  },
  Location: {
    exposed: false,
    description: 'On a redirect: where the representation asked for is (a browser opening `/` is sent to the docs page).',
  },
  'Cache-Control': { exposed: false, description: 'Caching policy of the response; `no-store` on every error.' },
  'Content-Security-Policy': {
    exposed: false,
    description: "On the docs page: only this origin's scripts, styles and fetches, images also as `data:`, no framing, no `<base>`.",
  },
  'Referrer-Policy': { exposed: false, description: 'On the docs page: `no-referrer`.' },
  Vary: { exposed: false, description: 'Request headers that select the representation.' },
  Allow: { exposed: false, description: 'The methods the path accepts (RFC 9110 section 10.2.1).' },
  'X-Content-Type-Options': { exposed: false, description: 'Always `nosniff`.' },
  'Access-Control-Allow-Origin': { exposed: false, description: 'Always `*`; credentials are never allowed.' },
  'Access-Control-Expose-Headers': { exposed: false, description: 'The headers above that cross-origin scripts may read.' },
  'Access-Control-Allow-Methods': { exposed: false, description: 'On a CORS preflight: the methods the path accepts.' },
  'Access-Control-Allow-Headers': { exposed: false, description: 'On a CORS preflight: the request headers the browser asked for.' },
  'Access-Control-Max-Age': {
    exposed: false,
    description: 'On a CORS preflight: how long the browser may reuse the answer.',
    schema: integer(0),
  },
} satisfies Record<string, HeaderSpec>;

export type HeaderName = keyof typeof HEADERS;

/** The fields cross-origin scripts may read (Access-Control-Expose-Headers); `verify` expects the same. */
export const EXPOSED_HEADERS: readonly HeaderName[] = (Object.entries(HEADERS) as [HeaderName, HeaderSpec][])
  .filter(([, spec]) => spec.exposed)
  .map(([name]) => name);
const EXPOSED = EXPOSED_HEADERS.join(', ');

/** What an answer is, as far as the service's headers go. */
export type AnswerKind = 'document' | 'notModified' | 'redirect' | 'problem' | 'preflight' | 'mcp' | 'mcpError';

/** The rate-limit fields: every answer carries them (the policy and quota fixed, the rest per request). */
export const RATE_LIMIT_HEADERS: readonly HeaderName[] = [
  'RateLimit-Policy',
  'RateLimit',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
];
const EVERY_ANSWER: HeaderName[] = [
  ...RATE_LIMIT_HEADERS,
  'Link',
  'X-Content-Type-Options',
  'Access-Control-Allow-Origin',
  'Access-Control-Expose-Headers',
];

/**
 * The headers an answer of `kind` on `path` (served by `route`) carries: the OpenAPI document lists
 * these, and `pathHeaders` fills the fixed ones.
 */
export function carriedHeaders(path: string, kind: AnswerKind, code?: ProblemCode, route?: Route): HeaderName[] {
  const names = [...EVERY_ANSWER];
  if (isV1Path(path)) names.push('Deprecation', 'Sunset');
  if (kind === 'document' || kind === 'notModified') names.push('ETag', 'Cache-Control', 'Vary', 'Content-Usage');
  if (kind === 'redirect') names.push('Location', 'Cache-Control', 'Vary');
  // A page for people is held to its own policy: no other origin, no referrer sent on.
  if (route?.mediaType === 'text/html' && (kind === 'document' || kind === 'notModified'))
    names.push('Content-Security-Policy', 'Referrer-Policy');
  // Every answer with status 400 or more, the MCP's JSON-RPC errors included, is never stored.
  if (kind === 'problem' || kind === 'mcpError' || kind === 'preflight') names.push('Cache-Control');
  if (kind === 'preflight' || code === 'method_not_allowed') names.push('Allow');
  // The Fetch standard's CORS protocol; the request headers the browser asks for are allowed per request (cors.ts).
  if (kind === 'preflight') names.push('Access-Control-Allow-Methods', 'Access-Control-Allow-Headers', 'Access-Control-Max-Age', 'Vary');
  if (code === 'rate_limited' || code === 'service_unavailable') names.push('Retry-After');
  return names;
}

/** What the fixed values depend on: the service's settings and the path. */
export interface HeaderSettings {
  base: string;
  /** Whether the docs page is served: links to it depend on it. */
  docsPage: boolean;
  deprecation?: DeprecationNotice;
  /** The rate-limit fields that are the same on every answer (the policy and the quota). */
  rateLimitPolicy: HeaderRecord;
  /** CONTENT_SIGNAL, from which the documents' Content-Usage comes. */
  contentSignal: string;
}

interface Place extends HeaderSettings {
  path: string;
  route?: Route;
  kind: AnswerKind;
}

const FIXED: Partial<Record<HeaderName, (at: Place) => string | undefined>> = {
  'RateLimit-Policy': (at) => at.rateLimitPolicy['RateLimit-Policy'],
  'X-RateLimit-Limit': (at) => at.rateLimitPolicy['X-RateLimit-Limit'],
  Link: linkOf,
  'X-Content-Type-Options': () => 'nosniff',
  'Access-Control-Allow-Origin': () => '*',
  'Access-Control-Expose-Headers': () => EXPOSED,
  Deprecation: (at) => at.deprecation?.headers.Deprecation,
  Sunset: (at) => at.deprecation?.headers.Sunset,
  'Cache-Control': (at) =>
    at.kind === 'document' || at.kind === 'notModified' || at.kind === 'redirect' ? at.route?.cacheControl : NO_STORE,
  'Content-Usage': (at) => contentUsage(at.contentSignal) || undefined,
  Allow: (at) => (at.route ? allowOf(at.route) : undefined),
  'Content-Security-Policy': () => DOCS_CSP,
  'Referrer-Policy': () => 'no-referrer',
  'Access-Control-Allow-Methods': (at) => (at.route ? allowOf(at.route) : undefined),
  'Access-Control-Max-Age': () => String(PREFLIGHT_MAX_AGE_SECONDS),
  // RFC 9110 section 12.5.5: a document chosen by Accept varies by it; http.ts adds Accept-Encoding to a coded one.
  Vary: (at) =>
    at.kind === 'preflight' ? 'Access-Control-Request-Headers' : at.route?.alternates || at.route?.redirects ? 'Accept' : undefined,
};

function linkOf({ base, path, route, deprecation, docsPage }: Place): string {
  const links = [`<${base}${OPENAPI_PATH}>; rel="service-desc"`];
  if (deprecation && isV1Path(path)) links.push(deprecation.successorLink);
  for (const relation of route?.links ?? []) {
    const target: LinkTarget = LINK_TARGETS[relation];
    if (!target.docsPage || docsPage) links.push(`<${base}${target.path}>; rel="${target.rel ?? relation}"; type="${target.type}"`);
  }
  return links.join(', ');
}

function fixedHeaders(at: Place, code?: ProblemCode): HeaderRecord {
  const record: HeaderRecord = {};
  for (const name of carriedHeaders(at.path, at.kind, code, at.route)) {
    const value = FIXED[name]?.(at);
    if (value !== undefined) record[name] = value;
  }
  return record;
}

/** The fixed headers of every kind of answer on one exact path (`route` undefined: a path the service does not serve). */
export interface PathHeaders {
  document: HeaderRecord;
  /** A redirect's (its Location is added per target). */
  redirect: HeaderRecord;
  problem(code: ProblemCode): HeaderRecord;
  preflight: HeaderRecord;
  /** An MCP answer's, added to the SDK's own: `mcpError` for a status of 400 or more. */
  mcp: HeaderRecord;
  mcpError: HeaderRecord;
}

export function pathHeaders(settings: HeaderSettings, path: string, route?: Route): PathHeaders {
  const at = (kind: AnswerKind): Place => ({ ...settings, path, route, kind });
  return {
    document: fixedHeaders(at('document')),
    redirect: fixedHeaders(at('redirect')),
    problem: (code) => fixedHeaders(at('problem'), code),
    preflight: fixedHeaders(at('preflight')),
    mcp: fixedHeaders(at('mcp')),
    mcpError: fixedHeaders(at('mcpError')),
  };
}

/** OpenAPI `components.headers`. */
export function headerComponents(): Record<string, { description: string; schema: Record<string, unknown> }> {
  return Object.fromEntries(
    (Object.entries(HEADERS) as [HeaderName, HeaderSpec][]).map(([name, { description, schema = { type: 'string' } }]) => [
      name,
      { description, schema },
    ]),
  );
}

/**
 * Copies header records into a new one, a later part's value replacing an earlier one's in its place:
 * `Object.assign` onto an empty record, cheaper on Node 20 than a for-in copy (see Performance).
 */
export function mergeHeaders(...parts: HeaderRecord[]): HeaderRecord {
  return Object.assign({}, ...parts);
}
