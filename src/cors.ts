/**
 * @module CORS for a public, credential-free API (Fetch standard, CORS protocol): who may call the
 * MCP endpoint from a browser, and the answer to a preflight. Every answer's own CORS headers
 * (`*`, never credentials, the exposed list) are in headers.ts.
 */
import { mergeHeaders, type HeaderRecord } from './headers.ts';

/** Requests without Origin (not from a browser) are always allowed; `*` admits any origin. */
export function originAllowed(origin: string | null, allowedOrigins: readonly string[]): boolean {
  return origin === null || allowedOrigins.includes('*') || allowedOrigins.includes(origin);
}

/** The 204 answer to a preflight: the path's preflight headers, with the request headers the browser asked for allowed. */
export function preflight(request: Request, headers: HeaderRecord, limits: HeaderRecord): Response {
  const answer = mergeHeaders(headers, limits);
  const requested = request.headers.get('access-control-request-headers');
  if (requested) answer['Access-Control-Allow-Headers'] = requested;
  return new Response(null, { status: 204, headers: answer });
}
