/**
 * @module CORS for a public, credential-free API (Fetch standard, CORS protocol): `*` on every
 * response, never credentials, the contract's headers exposed; preflights answered with the path's
 * methods; browser calls to the MCP endpoint only from allowed origins.
 */
import { EXPOSED_HEADERS, type HeaderRecord } from './headers.ts';

export const CORS_HEADERS: HeaderRecord = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': EXPOSED_HEADERS,
};

const PREFLIGHT_MAX_AGE = '86400';

/** Requests without Origin (not from a browser) are always allowed; `*` admits any origin. */
export function originAllowed(origin: string | null, allowedOrigins: string[]): boolean {
  return origin === null || allowedOrigins.includes('*') || allowedOrigins.includes(origin);
}

/** The 204 answer to a preflight of a path that takes the methods in `allow`. */
export function preflight(request: Request, allow: string, headers: HeaderRecord): Response {
  const requested = request.headers.get('access-control-request-headers');
  headers.Allow = allow;
  headers['Access-Control-Allow-Methods'] = allow;
  if (requested) headers['Access-Control-Allow-Headers'] = requested;
  headers['Access-Control-Max-Age'] = PREFLIGHT_MAX_AGE;
  headers.Vary = 'Access-Control-Request-Headers';
  headers['Cache-Control'] = 'no-store';
  return new Response(null, { status: 204, headers });
}
