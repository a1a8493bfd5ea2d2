/** @module Reading header fields: RFC 8288 Link values, comma-separated token lists and media types. */

export interface Link {
  uri: string;
  /** Parameter names lower-cased; quoted values unescaped. */
  params: Record<string, string>;
}

const TOKEN = '[A-Za-z0-9!#$&+.^_`|~-]+';
const PARAM = `;\\s*(${TOKEN})(?:\\s*=\\s*(?:"((?:[^"\\\\]|\\\\.)*)"|([^\\s;,"]+)))?\\s*`;
const LINK = new RegExp(`\\s*<([^>]*)>\\s*((?:${PARAM})*)(?:,|$)`, 'y');

/** RFC 8288 section 3: `<uri>; name="value"; ...`, comma-separated. Unparsable text ends the list. */
export function parseLinks(field: string | null): Link[] {
  if (!field) return [];
  const links: Link[] = [];
  LINK.lastIndex = 0;
  while (LINK.lastIndex < field.length) {
    const match = LINK.exec(field);
    if (!match) break;
    const params: Record<string, string> = {};
    for (const [, name, quoted, bare] of match[2]!.matchAll(new RegExp(PARAM, 'g'))) {
      params[name!.toLowerCase()] = (quoted ?? bare ?? '').replace(/\\(.)/g, '$1');
    }
    links.push({ uri: match[1]!, params });
  }
  return links;
}

/** The targets of the links whose `rel` (a space-separated list) holds `rel`. */
export function linkTargets(field: string | null, rel: string): string[] {
  return parseLinks(field)
    .filter((link) => (link.params.rel ?? '').toLowerCase().split(/\s+/).includes(rel))
    .map((link) => link.uri);
}

/** A comma-separated list of tokens (Allow, Access-Control-*), lower-cased. */
export function tokens(field: string | null): string[] {
  return (field ?? '')
    .split(',')
    .map((item) => item.trim().toLowerCase())
    .filter(Boolean);
}

/** `type/subtype` of a Content-Type, lower-cased, and its charset when one is given. */
export function mediaType(field: string | null): { type: string; charset?: string; params: string } {
  const [type = '', ...params] = (field ?? '').split(';').map((part) => part.trim());
  const charset = params
    .find((param) => /^charset=/i.test(param))
    ?.slice('charset='.length)
    .replace(/"/g, '')
    .toLowerCase();
  return { type: type.toLowerCase(), ...(charset ? { charset } : {}), params: params.join('; ') };
}

/** A short description of an answer for a `got` text: `404 text/html`. */
export function describe(answer: { status: number; headers: Headers }): string {
  const type = mediaType(answer.headers.get('content-type')).type;
  return type ? `${answer.status} ${type}` : String(answer.status);
}
