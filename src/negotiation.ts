/** @module Proactive negotiation (RFC 9110 section 12): the Accept and Accept-Encoding lists, one parser. */

interface Preference {
  /** The media range or content coding, lower-cased. */
  token: string;
  /** The q-value; 0 means "not acceptable" (RFC 9110 section 12.4.2). */
  q: number;
}

function preferences(header: string): Preference[] {
  return header.split(',').map((part) => {
    const [token = '', ...params] = part.split(';').map((item) => item.trim().toLowerCase());
    const q = params.find((param) => param.startsWith('q='));
    return { token, q: q === undefined ? 1 : Number(q.slice(2)) || 0 };
  });
}

/** RFC 9110 section 12.5.3: whether gzip is acceptable; a coding named explicitly takes precedence over `*`. */
export function acceptsGzip(acceptEncoding: string | null): boolean {
  if (!acceptEncoding) return false;
  const listed = preferences(acceptEncoding);
  const chosen = listed.find((item) => item.token === 'gzip') ?? listed.find((item) => item.token === '*');
  return chosen !== undefined && chosen.q > 0;
}

const JSON_RANGES = new Set(['*/*', 'application/*', 'application/json']);

/** RFC 9110 section 12.5.1: an absent Accept admits anything; otherwise some JSON-admitting range with q > 0. */
export function admitsJson(accept: string | null): boolean {
  if (!accept) return true;
  return preferences(accept).some((item) => JSON_RANGES.has(item.token) && item.q > 0);
}
