/**
 * @module Answers prepared once at start-up, and the per-response rules that serve them: the
 * representation's own headers (Content-Type, Content-Length, strong ETag, gzip coding and Vary),
 * conditional GET (304) and HEAD.
 */
import { Answer, ResponseTemplate, TemplateHeaders } from './answer.ts';
import { mergeHeaders, type HeaderRecord } from './headers.ts';
import { once } from '../util/once.ts';
import { acceptsGzip, mediaTypeChooser } from './negotiation.ts';

const encoder = new TextEncoder();
const GZIP_THRESHOLD_BYTES = 1024;

function jsonBytes(value: unknown): Uint8Array<ArrayBuffer> {
  return encoder.encode(JSON.stringify(value));
}

/**
 * How much of a refused request's body is read and dropped before the refusal goes out. Answering
 * while the client still sends made Bun reset the connection (EPIPE at the client, no answer read),
 * and workerd closes a kept-alive connection whose request body was left unread, resetting the
 * client's next request on it. Past this the client sends far more than any request here takes.
 */
const DISCARD_BYTES = 4 * 1024 * 1024;
const DISCARD_MS = 5_000;

/** Reads and drops what is left of `body`, up to DISCARD_BYTES and DISCARD_MS. */
export async function discard(body: ReadableStream<Uint8Array>, alreadyRead = 0): Promise<void> {
  const reader = body.getReader();
  const timer = setTimeout(() => reader.cancel().catch(() => {}), DISCARD_MS);
  try {
    for (let size = alreadyRead; size <= DISCARD_BYTES; ) {
      const { done, value } = await reader.read();
      if (done) return;
      size += value.byteLength;
    }
    await reader.cancel();
  } catch {
    // The client went away or the time ran out: answer anyway.
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A request body nothing has read yet (a refusal reads it before answering, see DISCARD_BYTES).
 * GET and HEAD carry none; asking them costs a Request built in full on Node's adapter.
 */
export const unreadBody = (request: Request): ReadableStream<Uint8Array> | undefined =>
  request.method === 'GET' || request.method === 'HEAD' || !request.body || request.bodyUsed ? undefined : request.body;

/** The path of a request URL, which the Request constructor has already normalised, without a URL object. */
export function pathOf(url: string): string {
  const start = url.indexOf('/', url.indexOf('//') + 2);
  if (start < 0) return '/';
  const query = url.indexOf('?', start);
  const fragment = url.indexOf('#', start);
  const end = query < 0 ? fragment : fragment < 0 ? query : Math.min(query, fragment);
  return end < 0 ? url.slice(start) : url.slice(start, end);
}

/**
 * How a response's headers are put together from a part fixed at start-up and the few per-request
 * values: `record` merges plain records, `template` copies a `Headers` object made once, `clone`
 * clones a `Response` made once (answer.ts).
 */
export type HeaderAssembly = 'record' | 'template' | 'clone';

/**
 * The fastest way each runtime sends the same bytes (docs/performance.md: the bare-server baseline
 * "built the fastest way for the runtime"): Bun from a `Headers` made once (about 20 % faster than a
 * record), Deno by cloning a `Response` made once (about 40 % more requests a second than from a
 * record), Node (which writes records itself) and Workers from a record.
 */
const ASSEMBLY: HeaderAssembly = 'Bun' in globalThis ? 'template' : 'Deno' in globalThis ? 'clone' : 'record';

/** Returns the headers of one response: the fixed ones with `extra` added or overriding. */
export type HeaderBuilder = (extra: HeaderRecord) => HeaderRecord | TemplateHeaders;

export function headerBuilder(fixed: HeaderRecord, assembly = ASSEMBLY): HeaderBuilder {
  if (assembly === 'record') return (extra) => mergeHeaders(fixed, extra);
  const template = assembly === 'clone' ? new ResponseTemplate(fixed) : new Headers(fixed);
  return (extra) => new TemplateHeaders(template, extra);
}

/** An answer whose status, body and headers but the per-request ones are fixed. */
export interface Prepared {
  status: number;
  identity: Variant;
  /**
   * The same representation gzip-coded, when it is large enough to be worth it: coded for the first
   * request that accepts it (the first CompressionStream costs several ms of a cold start on Node),
   * then the same variant itself.
   */
  gzip?: () => Variant | Promise<Variant>;
  /** For a document with other representations: the one to send for the request's Accept (the others are prepared on their first request). */
  choose?: (accept: string | null) => Prepared | Promise<Prepared>;
}

interface Variant {
  body: Uint8Array<ArrayBuffer>;
  /** Set on a document (a 200 to GET), which then answers conditional requests. */
  etag?: string;
  /** Every header of the answer but the per-request ones. */
  headers: HeaderRecord;
  build: HeaderBuilder;
  /** RFC 9110 section 15.4.5: a 304 carries the headers a 200 would have, minus the content ones. */
  buildNotModified?: HeaderBuilder;
}

const NOT_FOR_304 = new Set(['Content-Type', 'Content-Length', 'Content-Encoding']);

/**
 * RFC 9110 section 8.8.3: a strong ETag is unique across the resource's representations, so the same
 * bytes in another media type (the product's Markdown as text/plain) get another tag.
 */
async function strongEtag(body: Uint8Array<ArrayBuffer>, contentType = ''): Promise<string> {
  const type = encoder.encode(`${contentType}\n`);
  const typed = new Uint8Array(type.byteLength + body.byteLength);
  typed.set(type);
  typed.set(body, type.byteLength);
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', typed));
  return `"${btoa(String.fromCharCode(...digest.subarray(0, 18)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')}"`;
}

async function gzip(body: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  const stream = new Blob([body]).stream().pipeThrough(new CompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** Bytes (a docs page file) are served as they are, text as UTF-8, anything else as JSON. */
const bytesOf = (value: unknown): Uint8Array<ArrayBuffer> =>
  value instanceof Uint8Array ? (value as Uint8Array<ArrayBuffer>) : typeof value === 'string' ? encoder.encode(value) : jsonBytes(value);

// RFC 9110 section 9.3.2: HEAD carries the headers GET would, so Content-Length is the GET body's length.
const withLength = (headers: HeaderRecord, body: Uint8Array) => mergeHeaders(headers, { 'Content-Length': String(body.byteLength) });

async function documentVariant(body: Uint8Array<ArrayBuffer>, headers: HeaderRecord): Promise<Variant> {
  const etag = await strongEtag(body, headers['Content-Type']);
  const full = mergeHeaders(withLength(headers, body), { ETag: etag });
  const notModified: HeaderRecord = {};
  for (const name in full) if (!NOT_FOR_304.has(name)) notModified[name] = full[name]!;
  return { body, etag, headers: full, build: headerBuilder(full), buildNotModified: headerBuilder(notModified) };
}

/**
 * A document's 200: serialised, hashed and (when large) compressed once. `headers` are the fixed
 * headers of its path; `contentType` its media type.
 */
export async function prepareDocument(
  value: unknown,
  { contentType, headers }: { contentType: string; headers: HeaderRecord },
): Promise<Prepared> {
  const body = bytesOf(value);
  const typed = mergeHeaders(headers, { 'Content-Type': contentType });
  if (body.byteLength < GZIP_THRESHOLD_BYTES) return { status: 200, identity: await documentVariant(body, typed) };
  typed.Vary = typed.Vary ? `${typed.Vary}, Accept-Encoding` : 'Accept-Encoding';
  // RFC 9110 section 8.8.3: each content coding is a different representation with its own strong ETag.
  const coded = once(async () => documentVariant(await gzip(body), mergeHeaders(typed, { 'Content-Encoding': 'gzip' })));
  return { status: 200, identity: await documentVariant(body, typed), gzip: coded };
}

/** An answer that is neither compressed nor conditional (a problem): its body and headers made once. */
export function prepareFixed(
  status: number,
  value: unknown,
  { contentType, headers }: { contentType: string; headers: HeaderRecord },
): Prepared {
  const body = bytesOf(value);
  const full = withLength(mergeHeaders(headers, { 'Content-Type': contentType }), body);
  return { status, identity: { body, headers: full, build: headerBuilder(full) } };
}

/** RFC 9110 section 13.1.2: If-None-Match uses the weak comparison; `*` matches any current representation. */
function matchesIfNoneMatch(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  const opaque = etag.replace(/^W\//, '');
  return ifNoneMatch.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === opaque);
}

/**
 * A document offered in several media types (RFC 9110 section 12.5.1): `preferred`, the default (of
 * media type `type`), and how to prepare each of the `others` by media type; each keeps its own ETag.
 */
export function negotiated(type: string, preferred: Prepared, others: Map<string, () => Prepared | Promise<Prepared>>): Prepared {
  const choose = mediaTypeChooser([type, ...others.keys()]);
  return {
    ...preferred,
    choose: (accept) => {
      const chosen = choose(accept);
      return chosen === type ? preferred : others.get(chosen)!();
    },
  };
}

/** Chooses the representation and the coding, answers a conditional GET with 304 and a HEAD with no body; `extra` varies per request. */
export function respond(request: Request, prepared: Prepared, extra: HeaderRecord): Answer | Promise<Answer> {
  if (prepared.choose) {
    const chosen = prepared.choose(request.headers.get('accept'));
    if (chosen instanceof Promise) return chosen.then((ready) => respond(request, ready, extra));
    prepared = chosen;
  }
  if (!prepared.gzip || !acceptsGzip(request.headers.get('accept-encoding')))
    return send(request, prepared.status, prepared.identity, extra);
  const coded = prepared.gzip();
  return coded instanceof Promise
    ? coded.then((variant) => send(request, prepared.status, variant, extra))
    : send(request, prepared.status, coded, extra);
}

function send(request: Request, status: number, chosen: Variant, extra: HeaderRecord): Answer {
  if (chosen.etag && matchesIfNoneMatch(request.headers.get('if-none-match'), chosen.etag)) {
    return new Answer(304, chosen.buildNotModified!(extra), null);
  }
  return new Answer(status, chosen.build(extra), request.method === 'HEAD' ? null : chosen.body);
}
