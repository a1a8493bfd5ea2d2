/**
 * @module Web Bot Auth (draft-ietf-webbotauth-httpsig-protocol): which agent signed a request, if its
 * HTTP Message Signature (RFC 9421) verifies. The signature must carry `tag="web-bot-auth"`,
 * `created` and `expires` around now (a small skew allowed), a `keyid` (an RFC 7638 JWK thumbprint),
 * Ed25519 (WebCrypto), and cover `@authority` (the configured base URL's, never `Host`) and the
 * `Signature-Agent` member naming the agent's origin (`"signature-agent";key="sig1"` for the dictionary
 * form, `"signature-agent"` for the older bare string). Only the origins the caller names are
 * considered, and a key is looked up only once everything else holds. The structured fields are read
 * with `structured-headers` (RFC 9651).
 */
import {
  type BareItem,
  type InnerList,
  type Item,
  type Parameters,
  parseDictionary,
  parseItem,
  serializeInnerList,
  serializeItem,
} from 'structured-headers';
import { originOf } from './origin.ts';

const WEB_BOT_AUTH_TAG = 'web-bot-auth';
/** Seconds a signer's clock may be ahead of or behind ours. */
export const CLOCK_SKEW_SECONDS = 60;
/** At most this many signatures of one request are tried: a request cannot make us verify without end. */
const SIGNATURES_TRIED = 4;

/** The key of `keyid` in `origin`'s directory, or undefined. */
export type KeyLookup = (origin: string, keyid: string) => Promise<CryptoKey | undefined>;

export interface WebBotAuthOptions {
  /** `{base}`'s authority (`api.example.com`, with a port only when not the default): what `@authority` must be. */
  authority: string;
  /** The agents' origins a policy names (`https://chatgpt.com`): no other is ever looked up. */
  origins: ReadonlySet<string>;
  keyOf: KeyLookup;
  /** Epoch seconds now (tests pass their own clock). */
  now?: () => number;
}

/** What RFC 9421 derives a component's value from. */
export interface SignedMessage {
  method: string;
  url: string;
  headers: Headers;
  /** `@authority`: the configured one, never the request's `Host`. */
  authority: string;
}

/**
 * Checks a request's Web Bot Auth signature: undefined at once for a request without `Signature` and
 * `Signature-Input` (no other work), else the verified agent's origin, or undefined for any failure.
 */
export function webBotAuth({
  authority,
  origins,
  keyOf,
  now = () => Date.now() / 1000,
}: WebBotAuthOptions): (request: Request) => Promise<string | undefined> | undefined {
  return (request) => {
    const signatures = request.headers.get('signature');
    const inputs = request.headers.get('signature-input');
    if (signatures === null || inputs === null) return undefined;
    const message = { method: request.method, url: request.url, headers: request.headers, authority };
    return verifiedAgent(message, signatures, inputs, origins, keyOf, now()).catch(() => undefined);
  };
}

async function verifiedAgent(
  message: SignedMessage,
  signatureField: string,
  inputField: string,
  origins: ReadonlySet<string>,
  keyOf: KeyLookup,
  now: number,
): Promise<string | undefined> {
  const signatures = parseDictionary(signatureField);
  let tried = 0;
  for (const [label, input] of parseDictionary(inputField)) {
    const candidate = webBotAuthCandidate(message, input, origins, now);
    const signature = signatures.get(label);
    if (!candidate || !signature || !(signature[0] instanceof ArrayBuffer)) continue;
    if (++tried > SIGNATURES_TRIED) return undefined;
    const key = await keyOf(candidate.origin, candidate.keyid);
    if (key && (await verifySignature(message, input as InnerList, signature[0], key))) return candidate.origin;
  }
  return undefined;
}

/** A signature's agent and key, when its parameters and covered components meet Web Bot Auth's rules. */
function webBotAuthCandidate(
  message: SignedMessage,
  input: Item | InnerList,
  origins: ReadonlySet<string>,
  now: number,
): { origin: string; keyid: string } | undefined {
  if (!Array.isArray(input[0])) return undefined;
  const [components, params] = input as InnerList;
  const created = params.get('created');
  const expires = params.get('expires');
  const keyid = params.get('keyid');
  const alg = params.get('alg');
  if (params.get('tag') !== WEB_BOT_AUTH_TAG || typeof keyid !== 'string') return undefined;
  if (alg !== undefined && alg !== 'ed25519') return undefined;
  if (!Number.isInteger(created) || !Number.isInteger(expires)) return undefined;
  if ((created as number) > now + CLOCK_SKEW_SECONDS || (expires as number) < now - CLOCK_SKEW_SECONDS) return undefined;
  if (!components.some(([name, itemParams]) => name === '@authority' && itemParams.size === 0)) return undefined;
  // The agent is the Signature-Agent member the signature covers; the first one it covers decides.
  for (const [name, itemParams] of components) {
    if (name !== 'signature-agent') continue;
    const value = agentValue(message.headers, itemParams);
    const origin = typeof value === 'string' ? originOf(value) : undefined;
    return origin !== undefined && origins.has(origin) ? { origin, keyid } : undefined;
  }
  return undefined;
}

/** The URI a covered Signature-Agent names: the dictionary member `key`, or the bare string. */
function agentValue(headers: Headers, itemParams: Parameters): BareItem | undefined {
  const field = headers.get('signature-agent');
  const key = itemParams.get('key');
  if (field === null || (itemParams.size > 0 && (itemParams.size !== 1 || typeof key !== 'string'))) return undefined;
  try {
    if (key === undefined) return parseItem(field)[0];
    const member = parseDictionary(field).get(key as string);
    // A member of another type (`type=jwks_uri`, ...) names no directory at the origin.
    if (!member || Array.isArray(member[0]) || (member[1].size > 0 && member[1].get('type') !== 'directory')) return undefined;
    return member[0] as BareItem;
  } catch {
    return undefined;
  }
}

/** Whether `signature` over the message's signature base (RFC 9421 section 2.5) verifies with the Ed25519 `key`. */
export async function verifySignature(message: SignedMessage, input: InnerList, signature: ArrayBuffer, key: CryptoKey): Promise<boolean> {
  const base = signatureBase(message, input);
  if (base === undefined) return false;
  return crypto.subtle.verify({ name: 'Ed25519' }, key, signature, new TextEncoder().encode(base));
}

/**
 * RFC 9421 section 2.5: one line per covered component, then `@signature-params`; undefined when a
 * component is missing, repeated, or one this verifier does not derive (it derives `@method`,
 * `@authority`, `@path`, `@query` and header fields, whole or a dictionary member by `key`).
 */
export function signatureBase(message: SignedMessage, [components, params]: InnerList): string | undefined {
  const lines: string[] = [];
  const seen = new Set<string>();
  for (const [name, itemParams] of components) {
    if (typeof name !== 'string') return undefined;
    const id = serializeItem([name, itemParams]);
    const value = componentValue(message, name, itemParams);
    if (seen.has(id) || value === undefined) return undefined;
    seen.add(id);
    lines.push(`${id}: ${value}`);
  }
  lines.push(`"@signature-params": ${serializeInnerList([components, params])}`);
  return lines.join('\n');
}

function componentValue(message: SignedMessage, name: string, itemParams: Parameters): string | undefined {
  if (name.startsWith('@')) {
    if (itemParams.size > 0) return undefined;
    const url = new URL(message.url);
    if (name === '@authority') return message.authority;
    if (name === '@method') return message.method;
    if (name === '@path') return url.pathname;
    if (name === '@query') return url.search || '?';
    return undefined;
  }
  const field = message.headers.get(name);
  if (field === null) return undefined;
  if (itemParams.size === 0) return field.trim();
  const key = itemParams.get('key');
  if (itemParams.size !== 1 || typeof key !== 'string') return undefined;
  const member = parseDictionary(field).get(key);
  if (!member) return undefined;
  return Array.isArray(member[0]) ? serializeInnerList(member as InnerList) : serializeItem(member as Item);
}
