/**
 * @module The handler on node:http without fetch objects where none is needed. A request with no
 * body or a POST framed by Content-Length, whose target and Host @hono/node-server would take as they
 * are, is handed to the handler as a light stand-in for `Request` (method, URL, headers and body read
 * from the IncomingMessage), and the answer it gets back as status, headers and bytes (a prepared
 * document, a problem, an MCP answer replayed) is written with node:http's own calls: no undici
 * `Request`, `Headers` or `Response` is made for it, and a process that sees only such requests never
 * loads undici. Any other request, and an answer that is a `Response` (the MCP SDK's own), goes
 * through @hono/node-server's adapter, loaded when first needed. Either way the handler's one
 * `answer` flow decides what is sent; only the way it is written differs, and the bytes are the
 * adapter's.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { Answer, type Answered } from '../http/answer.ts';
import type { RequestInfo } from '../handler.ts';
import type { Maybe } from '../util/maybe.ts';

export type Answerer = (request: Request, info: RequestInfo) => Maybe<Answered>;
/** The fetch face for what the light path does not take, as @hono/node-server calls it. */
export type FetchFace = (request: Request, incoming: IncomingMessage) => Response | Promise<Response>;
/** Settles once the answer is written (or handed to the adapter, which writes it). */
export type Listener = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

// @hono/node-server's own tests (its url.ts) for a target and a Host it uses as they are; anything
// else it normalises through URL, so it goes to the adapter and gets the very same URL.
const PLAIN_TARGET = /^\/[!#$&-;=?-[\]_a-z~]*$/;
const DOT_SEGMENT = /\/\.\.?(?:[/?#]|$)/;
const PLAIN_HOST = /^[a-z0-9._-]+(?::(?:[1-5]\d{3,4}|[6-9]\d{3}))?$/;

/** The URL the adapter would give the request, when it would take the target as it is. */
function plainUrl(req: IncomingMessage): string | undefined {
  const { url = '', headers } = req;
  const host = headers.host;
  if (!host || !PLAIN_HOST.test(host) || !PLAIN_TARGET.test(url) || DOT_SEGMENT.test(url)) return undefined;
  return `${(req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http'}://${host}${url}`;
}

/** RFC 9112 section 6.3: a request has a body only with Content-Length or Transfer-Encoding (GET and HEAD never do here). */
const bodiless = (req: IncomingMessage) =>
  req.method === 'GET' ||
  req.method === 'HEAD' ||
  (req.method === 'OPTIONS' && req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined);
/** A POST whose body node:http holds to its Content-Length (a chunked one goes to the adapter). */
const lengthFramed = (req: IncomingMessage) => req.method === 'POST' && req.headers['transfer-encoding'] === undefined;

export function nodeAnswers(answer: Answerer, fetch: FetchFace): Listener {
  // An answer already made for a request on the light path, handed to the adapter only to be written.
  const made = new WeakMap<IncomingMessage, Response>();
  // Loaded by the first request that may need it: its `Response` replaces the global one, so an
  // answer the handler makes as a `Response` (the MCP SDK's) is one the adapter writes as it always has.
  let adapter: Listener | undefined;
  const loadAdapter = async (): Promise<Listener> => {
    const { getRequestListener } = await import('@hono/node-server');
    adapter = getRequestListener((request, env) => {
      const incoming = env.incoming as IncomingMessage;
      return made.get(incoming) ?? fetch(request, incoming);
    });
    return adapter;
  };
  let loading: Promise<Listener> | undefined;
  const viaAdapter: Listener = (req, res) => (adapter ? adapter(req, res) : (loading ??= loadAdapter()).then((ready) => ready(req, res)));

  const light = async (req: IncomingMessage, res: ServerResponse, url: string): Promise<void> => {
    let answered: Answered;
    try {
      const given = answer(new LightRequest(req, url) as unknown as Request, { clientAddress: req.socket.remoteAddress });
      answered = given instanceof Promise ? await given : given;
    } catch {
      // The handler answers its own failures with a problem; this is only what escapes it.
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain; charset=UTF-8' });
      res.end();
      return;
    }
    if (!(answered instanceof Answer)) {
      made.set(req, answered);
      return viaAdapter(req, res);
    }
    write(res, answered);
  };

  return (req, res) => {
    const url = !req.readableDidRead && req.httpVersionMajor === 1 && (bodiless(req) || lengthFramed(req)) ? plainUrl(req) : undefined;
    if (!url) return viaAdapter(req, res);
    // A POST may be answered by the SDK's `Response`: the adapter is loaded first.
    if (req.method === 'POST' && !adapter) return (loading ??= loadAdapter()).then(() => light(req, res, url));
    return light(req, res, url);
  };
}

/**
 * An answer written as the adapter writes the `Response` made of it. A prepared answer carries its
 * Content-Length; one that does not (a replayed MCP answer) gets node:http's own, after its other
 * headers, as the adapter has node:http set it for a record; a `Headers` is written in lower case
 * with the adapter's `Content-Length` after it.
 */
function write(res: ServerResponse, { status, headers, body }: Answer): void {
  // Not `instanceof Headers`: reading that global loads undici. A plain record has no iterator.
  if (Symbol.iterator in headers) {
    const record = outgoing(headers as Headers);
    if (body && record['content-length'] === undefined)
      record['Content-Length'] = String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);
    res.writeHead(status, record);
  } else if (body && headers['Content-Length'] === undefined) {
    res.statusCode = status;
    for (const name in headers) res.setHeader(name, headers[name]!);
  } else res.writeHead(status, headers);
  res.end(body ?? undefined);
}

/** A `Headers` as the adapter writes it: names in lower case. */
function outgoing(headers: Headers): Record<string, string> {
  const record: Record<string, string> = {};
  headers.forEach((value, name) => {
    record[name] = value;
  });
  return record;
}

/** Fetch's header-value normalisation: leading and trailing HTTP whitespace (tab, LF, CR, space) removed. */
const httpTrim = (value: string) => (/^[\t\n\r ]|[\t\n\r ]$/.test(value) ? value.replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, '') : value);

/** What the handler reads of a request: its method, URL, headers and a POST's body. */
class LightRequest {
  readonly method: string;
  readonly headers: LightHeaders;
  #signal: AbortSignal | undefined;
  #stream: ReadableStream<Uint8Array> | undefined;

  constructor(
    private readonly incoming: IncomingMessage,
    readonly url: string,
  ) {
    this.method = incoming.method!;
    this.headers = new LightHeaders(incoming.rawHeaders);
  }

  /** A POST's body as a stream (the handler reads a body of unknown or large length so, and what a refusal leaves). */
  get body(): ReadableStream<Uint8Array> | null {
    if (this.method !== 'POST') return null;
    this.#stream ??= Readable.toWeb(this.incoming) as unknown as ReadableStream<Uint8Array>;
    return this.#stream;
  }

  get bodyUsed(): boolean {
    return this.incoming.readableDidRead;
  }

  /** The whole body, which node:http holds to its Content-Length; rejected when the client goes away first. */
  arrayBuffer(): Promise<ArrayBuffer> {
    const incoming = this.incoming;
    if (this.#stream || incoming.readableDidRead) return Promise.reject(new TypeError('The body was already read'));
    if (incoming.destroyed) return Promise.reject(new TypeError('The client closed the connection'));
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let length = 0;
      incoming.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        length += chunk.byteLength;
      });
      // One copy into a buffer of the body's own length (not Buffer.concat's pooled one, sliced again).
      incoming.once('end', () => {
        const whole = new Uint8Array(length);
        for (let i = 0, at = 0; i < chunks.length; at += chunks[i]!.byteLength, i++) whole.set(chunks[i]!, at);
        resolve(whole.buffer);
      });
      incoming.once('error', reject);
      incoming.once('close', () => incoming.complete || reject(new TypeError('The client closed the connection')));
    });
  }

  /** Aborted when the client goes away before the answer is sent. */
  get signal(): AbortSignal {
    if (!this.#signal) {
      const controller = new AbortController();
      this.incoming.once('close', () => this.incoming.complete || controller.abort());
      this.#signal = controller.signal;
    }
    return this.#signal;
  }
}

/**
 * The request's headers read from node:http's raw list as `Headers` would give them: a name's
 * values joined with `, ` (a cookie's with `; `, as the adapter does), surrounding whitespace trimmed.
 */
class LightHeaders {
  /** The names in lower case, made on first need: the handler reads several headers a request. */
  #lower: string[] | undefined;

  constructor(private readonly raw: string[]) {}

  #names(): string[] {
    if (this.#lower) return this.#lower;
    const lower: string[] = [];
    for (let i = 0; i < this.raw.length; i += 2) lower.push(this.raw[i]!.toLowerCase());
    this.#lower = lower;
    return lower;
  }

  get(name: string): string | null {
    const lower = name.toLowerCase();
    const names = this.#names();
    let value: string | null = null;
    for (let i = 0; i < names.length; i++) {
      if (names[i] !== lower) continue;
      const one = httpTrim(this.raw[2 * i + 1]!);
      value = value === null ? one : `${value}${lower === 'cookie' ? '; ' : ', '}${one}`;
    }
    return value;
  }

  has(name: string): boolean {
    return this.get(name) !== null;
  }

  /** Every name once, in lower case and sorted, as `Headers` iterates. */
  keys(): IterableIterator<string> {
    return [...new Set(this.#names())].sort()[Symbol.iterator]();
  }

  *entries(): IterableIterator<[string, string]> {
    for (const name of this.keys()) yield [name, this.get(name)!];
  }

  values() {
    return Array.from(this.entries(), ([, value]) => value)[Symbol.iterator]();
  }

  forEach(callback: (value: string, name: string, headers: this) => void): void {
    for (const [name, value] of this.entries()) callback(value, name, this);
  }

  [Symbol.iterator]() {
    return this.entries();
  }
}
