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

/** Clients send the same few values of a header again and again: decide each once (a bounded memory). */
function remembered<T>(decide: (header: string) => T): (header: string) => T {
  const known = new Map<string, T>();
  return (header) => {
    let answer = known.get(header);
    if (answer === undefined) {
      if (known.size >= 256) known.clear();
      known.set(header, (answer = decide(header)));
    }
    return answer;
  };
}

const gzipAcceptable = remembered((acceptEncoding) => {
  const listed = preferences(acceptEncoding);
  const chosen = listed.find((item) => item.token === 'gzip') ?? listed.find((item) => item.token === '*');
  return chosen !== undefined && chosen.q > 0;
});

/** RFC 9110 section 12.5.3: whether gzip is acceptable; a coding named explicitly takes precedence over `*`. */
export function acceptsGzip(acceptEncoding: string | null): boolean {
  return acceptEncoding ? gzipAcceptable(acceptEncoding) : false;
}

const JSON_RANGES = new Set(['*/*', 'application/*', 'application/json']);

const jsonAdmitted = remembered((accept) => preferences(accept).some((item) => JSON_RANGES.has(item.token) && item.q > 0));

/** RFC 9110 section 12.5.1: an absent Accept admits anything; otherwise some JSON-admitting range with q > 0. */
export function admitsJson(accept: string | null): boolean {
  return accept ? jsonAdmitted(accept) : true;
}

/** RFC 9110 section 8.3.1: a Content-Type whose media type, parameters aside, is application/json. */
export function isJsonMediaType(contentType: string | null): boolean {
  if (contentType === null) return false;
  const semicolon = contentType.indexOf(';');
  return (semicolon < 0 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase() === 'application/json';
}

/**
 * RFC 9110 section 12.5.1: the q-value an Accept list gives `type`, from the most specific range that
 * matches it (the type itself, then its `type/*` range, then the any-type range); 0 when none does.
 */
function qualityOf(listed: Preference[], type: string): number {
  const anySubtype = `${type.slice(0, type.indexOf('/'))}/*`;
  let specificity = -1;
  let q = 0;
  for (const item of listed) {
    const matched = item.token === type ? 2 : item.token === anySubtype ? 1 : item.token === '*/*' ? 0 : -1;
    if (matched > specificity) [specificity, q] = [matched, item.q];
  }
  return q;
}

/**
 * A chooser among `offered` media types: the one the Accept header gives the highest q-value; on a
 * tie the one listed first, which is also the answer without an Accept header or when none is acceptable.
 */
export function mediaTypeChooser<T extends string>(offered: readonly [T, ...T[]]): (accept: string | null) => T {
  const choose = remembered((accept) => {
    const listed = preferences(accept);
    let chosen = offered[0];
    let best = 0;
    for (const type of offered) {
      const q = qualityOf(listed, type);
      if (q > best) [chosen, best] = [type, q];
    }
    return chosen;
  });
  return (accept) => (accept ? choose(accept) : offered[0]);
}
