/**
 * @module The key directories of signing agents (draft-meunier-http-message-signatures-directory):
 * `<origin>/.well-known/http-message-signatures-directory`, a JWK Set served as
 * `application/http-message-signatures-directory+json`, its Ed25519 keys found by their RFC 7638
 * thumbprint. Fetched only for the origins a policy names, without following redirects, with a
 * deadline and a bounded body; kept as its `Cache-Control: max-age` says, within bounds; a failed fetch
 * is retried no sooner than a bound, and the keys already known keep serving for a bounded time.
 * A failure never throws: the key is simply not found.
 */
import type { Logger } from '../util/log.ts';
import type { KeyLookup } from './web-bot-auth.ts';
import { boundedText } from '../util/bounded.ts';
import { within } from '../util/deadline.ts';

const DIRECTORY_PATH = '/.well-known/http-message-signatures-directory';
const DIRECTORY_MEDIA_TYPE = 'application/http-message-signatures-directory+json';

/** Bounds on what one directory costs: time to fetch, bytes, keys, and how long it is kept. */
export const DIRECTORY_LIMITS = {
  fetchTimeoutMs: 2_000,
  maxBytes: 64 * 1024,
  maxKeys: 32,
  /** Kept at least this long, whatever `max-age` says (`no-store` and `max-age=0` included): an origin is asked once a minute at most. */
  minFreshSeconds: 60,
  /** ...and at most this long: a key the agent withdrew stops counting within a day. */
  maxFreshSeconds: 86_400,
  /** Without `max-age`. */
  defaultFreshSeconds: 3_600,
  /** After a failed fetch, the next is tried no sooner than this. */
  retrySeconds: 30,
  /** Keys already known keep serving this long past their freshness while the origin fails. */
  staleSeconds: 3_600,
} as const;

interface Entry {
  keys?: Map<string, CryptoKey>;
  freshUntil: number;
  usableUntil: number;
  retryAt: number;
  /** The refresh under way, and when it began. */
  pending?: { done: Promise<void>; since: number };
  failing: boolean;
}

export interface DirectoryOptions {
  logger: Logger;
  /** Epoch seconds now (tests pass their own clock). */
  now?: () => number;
}

/** Looks keys up by thumbprint in the directory of an origin, fetching and caching it as needed. */
export function keyDirectory({ logger, now = () => Date.now() / 1000 }: DirectoryOptions): KeyLookup {
  const entries = new Map<string, Entry>();

  async function refresh(origin: string, entry: Entry): Promise<void> {
    const started = now();
    try {
      const keys = await fetchDirectory(origin);
      const fresh = freshSeconds(keys.cacheControl);
      Object.assign(entry, {
        keys: keys.keys,
        freshUntil: started + fresh,
        usableUntil: started + fresh + DIRECTORY_LIMITS.staleSeconds,
        retryAt: started + fresh,
      });
      if (entry.failing) logger({ level: 'info', event: 'agent_directory_regained', origin, keys: keys.keys.size });
      entry.failing = false;
    } catch (error) {
      entry.retryAt = started + DIRECTORY_LIMITS.retrySeconds;
      // Logged once per failing spell, as the rate-limit store's loss is.
      if (!entry.failing) {
        logger({ level: 'warn', event: 'agent_directory_unavailable', origin, reason: (error as Error).message });
      }
      entry.failing = true;
    }
  }

  return async function keyOf(origin: string, keyid: string): Promise<CryptoKey | undefined> {
    let entry = entries.get(origin);
    if (!entry) entries.set(origin, (entry = { freshUntil: 0, usableUntil: 0, retryAt: 0, failing: false }));
    const at = now();
    // A refresh past its deadline is given up: on Workers, one started by a request that has since been
    // answered may never settle.
    if (entry.pending && at - entry.pending.since > PENDING_SECONDS) entry.pending = undefined;
    if (at >= entry.freshUntil && at >= entry.retryAt && !entry.pending) {
      const pending = refresh(origin, entry).finally(() => {
        if (entry.pending?.done === pending) entry.pending = undefined;
      });
      entry.pending = { done: pending, since: at };
    }
    // Stale keys answer while the refresh is under way; with none usable, the request waits for it, never past its deadline.
    if (!(entry.keys && at < entry.usableUntil) && entry.pending) await within(PENDING_SECONDS * 1000, entry.pending.done).catch(() => {});
    return entry.keys && now() < entry.usableUntil ? entry.keys.get(keyid) : undefined;
  };
}

/** How long a refresh may be waited for: the fetch's own deadline, and a second to read the body. */
const PENDING_SECONDS = DIRECTORY_LIMITS.fetchTimeoutMs / 1000 + 1;

/** `max-age` (or `s-maxage`) within the bounds; the bounds' least for `no-store` and `no-cache`. */
export function freshSeconds(cacheControl: string | null): number {
  const { minFreshSeconds, maxFreshSeconds, defaultFreshSeconds } = DIRECTORY_LIMITS;
  if (cacheControl === null) return defaultFreshSeconds;
  if (/(?:^|,)\s*no-(?:store|cache)\s*(?:,|=|$)/i.test(cacheControl)) return minFreshSeconds;
  const maxAge = /(?:^|,)\s*(?:s-maxage|max-age)\s*=\s*"?(\d+)"?\s*(?:,|$)/i.exec(cacheControl);
  if (!maxAge) return defaultFreshSeconds;
  return Math.min(maxFreshSeconds, Math.max(minFreshSeconds, Number(maxAge[1])));
}

/** The Ed25519 keys of `origin`'s directory by thumbprint, and its Cache-Control; throws with the reason it was refused. */
async function fetchDirectory(origin: string): Promise<{ keys: Map<string, CryptoKey>; cacheControl: string | null }> {
  const response = await fetch(`${origin}${DIRECTORY_PATH}`, {
    headers: { accept: DIRECTORY_MEDIA_TYPE },
    redirect: 'manual',
    signal: AbortSignal.timeout(DIRECTORY_LIMITS.fetchTimeoutMs),
  });
  if (response.status !== 200) {
    await response.body?.cancel();
    throw new Error(`answered ${response.status || 'a redirect'}, not 200 (redirects are not followed)`);
  }
  const mediaType = response.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
  if (mediaType !== DIRECTORY_MEDIA_TYPE) {
    await response.body?.cancel();
    throw new Error(`is ${mediaType ?? 'untyped'}, not ${DIRECTORY_MEDIA_TYPE}`);
  }
  const text = await boundedBody(response, DIRECTORY_LIMITS.maxBytes);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error('is not JSON');
  }
  const listed = (body as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(listed)) throw new Error('has no "keys" list');
  const keys = new Map<string, CryptoKey>();
  for (const jwk of listed.slice(0, DIRECTORY_LIMITS.maxKeys)) {
    const { kty, crv, x } = (jwk ?? {}) as { kty?: unknown; crv?: unknown; x?: unknown };
    // Only Ed25519 keys: others (and malformed ones) are passed over, not fatal.
    if (kty !== 'OKP' || crv !== 'Ed25519' || typeof x !== 'string' || !/^[A-Za-z0-9_-]{43}$/.test(x)) continue;
    const key = await crypto.subtle.importKey('jwk', { kty, crv, x }, { name: 'Ed25519' }, false, ['verify']).catch(() => undefined);
    if (key) keys.set(await jwkThumbprint(x), key);
  }
  return { keys, cacheControl: response.headers.get('cache-control') };
}

/** RFC 7638 section 3: SHA-256 of the required members in lexicographic order, no whitespace, base64url. */
export async function jwkThumbprint(x: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`{"crv":"Ed25519","kty":"OKP","x":"${x}"}`));
  return btoa(String.fromCharCode(...new Uint8Array(digest)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

/** The body as text, refused past `limit` bytes however it is framed. */
async function boundedBody(response: Response, limit: number): Promise<string> {
  if (!response.body) return '';
  const text = await boundedText(response.body, limit, (reader) => reader.cancel());
  if (text === undefined) throw new Error(`is larger than ${limit} bytes`);
  return text;
}
