/** @module An agent's origin as a Signature-Agent or a policy names it: kept apart from the verifier, so reading policies loads no signature code. */

/** The origin `https://host[:port]` a URI names, when it names nothing more (no path, query or user). */
export function originOf(uri: string): string | undefined {
  if (!URL.canParse(uri)) return undefined;
  const url = new URL(uri);
  if (url.username || url.password || url.search || url.hash || url.pathname !== '/') return undefined;
  return url.protocol === 'https:' || url.protocol === 'http:' ? url.origin : undefined;
}
