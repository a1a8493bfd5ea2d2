/**
 * @module CORS for a public, credential-free API (Fetch standard, CORS protocol): who may call the
 * MCP endpoint from a browser (the origin rule, for MCP_ALLOWED_ORIGINS and `mcp.allowedOrigins`
 * alike), and the answer to a preflight. Every answer's own CORS headers (`*`, never credentials,
 * the exposed list) are in headers.ts.
 */
import { Answer } from './answer.ts';
import { mergeHeaders, type HeaderRecord } from './headers.ts';
import { StartupError } from '../util/startup-error.ts';

export const ORIGIN_LIST_USAGE = 'must be a comma-separated list of origins such as https://app.example.com, or *';

/** An entry of the allowed origins, as RFC 6454 serialises an origin (a trailing slash dropped); undefined if it is none. */
export function originEntry(text: string): string | undefined {
  if (text === '*') return text;
  if (!URL.canParse(text)) return undefined;
  const { origin } = new URL(text);
  return origin !== 'null' && origin === text.replace(/\/$/, '') ? origin : undefined;
}

/**
 * The browser origins allowed to call /mcp: those given, each checked and written as an Origin
 * header carries it, or by default only `{base}`'s own. A bad entry is a StartupError naming it.
 */
export function allowedOrigins(given: readonly string[] | undefined, base: string, name = 'mcp.allowedOrigins'): string[] {
  if (given === undefined) return [new URL(base).origin];
  return given.map((text, index) => {
    const entry = originEntry(text);
    if (entry !== undefined) return entry;
    throw new StartupError(`Invalid configuration:\n  ${name}[${index}]=${JSON.stringify(text)}: ${ORIGIN_LIST_USAGE}`);
  });
}

/** Requests without Origin (not from a browser) are always allowed; `*` admits any origin. */
export function originAllowed(origin: string | null, allowed: readonly string[]): boolean {
  return origin === null || allowed.includes('*') || allowed.includes(origin);
}

/** The 204 answer to a preflight: the path's preflight headers, with the request headers the browser asked for allowed. */
export function preflight(request: Request, headers: HeaderRecord, limits: HeaderRecord): Answer {
  const answer = mergeHeaders(headers, limits);
  const requested = request.headers.get('access-control-request-headers');
  if (requested) answer['Access-Control-Allow-Headers'] = requested;
  return new Answer(204, answer, null);
}
