/**
 * @module The handler on node:http without fetch objects where none is needed. A request with no
 * body, whose target and Host @hono/node-server would take as they are, is handed to the handler as
 * a light stand-in for `Request` (method, URL and headers read from the IncomingMessage), and the
 * prepared answer it gets back (status, headers, bytes) is written with `writeHead` and `end`: no
 * undici `Request`, `Headers` or `Response` is made for it, and a process that sees only such
 * requests never loads undici. Any other request, and an answer that is a `Response` (the MCP
 * endpoint's), goes through @hono/node-server's adapter, loaded when first needed. Either way the
 * handler's one `answer` flow decides what is sent; only the way it is written differs.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Answer, type Answered } from '../http/answer.ts';
import type { RequestInfo } from '../handler.ts';

export type Answerer = (request: Request, info: RequestInfo) => Promise<Answered>;
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

export function nodeAnswers(answer: Answerer, fetch: FetchFace): Listener {
  let adapter: Promise<Listener> | undefined;
  // An answer already made for a request on the light path, handed to the adapter only to be written.
  const made = new WeakMap<IncomingMessage, Response>();
  const viaAdapter: Listener = (req, res) => {
    adapter ??= import('@hono/node-server').then(({ getRequestListener }) =>
      getRequestListener((request, env) => {
        const incoming = env.incoming as IncomingMessage;
        return made.get(incoming) ?? fetch(request, incoming);
      }),
    );
    return adapter.then((listener) => listener(req, res));
  };

  return (req, res) => {
    const url = !req.readableDidRead && req.httpVersionMajor === 1 && bodiless(req) ? plainUrl(req) : undefined;
    if (!url) return viaAdapter(req, res);
    return answer(new LightRequest(req, url) as unknown as Request, { clientAddress: req.socket.remoteAddress }).then(
      (answered) => {
        if (!(answered instanceof Answer)) {
          made.set(req, answered);
          return viaAdapter(req, res);
        }
        // Not `instanceof Headers`: reading that global loads undici. A plain record has no iterator.
        const { headers } = answered;
        res.writeHead(answered.status, Symbol.iterator in headers ? outgoing(headers as Headers) : headers);
        res.end(answered.body ?? undefined);
      },
      // The handler answers its own failures with a problem; this is only what escapes it.
      () => {
        if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain; charset=UTF-8' });
        res.end();
      },
    );
  };
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

/** What the handler reads of a request with no body: its method, URL and headers. */
class LightRequest {
  readonly body = null;
  readonly bodyUsed = false;
  readonly method: string;
  readonly headers: LightHeaders;
  #signal: AbortSignal | undefined;

  constructor(
    private readonly incoming: IncomingMessage,
    readonly url: string,
  ) {
    this.method = incoming.method!;
    this.headers = new LightHeaders(incoming.rawHeaders);
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
  constructor(private readonly raw: string[]) {}

  get(name: string): string | null {
    const lower = name.toLowerCase();
    let value: string | null = null;
    for (let i = 0; i < this.raw.length; i += 2) {
      if (this.raw[i]!.length !== lower.length || this.raw[i]!.toLowerCase() !== lower) continue;
      const one = httpTrim(this.raw[i + 1]!);
      value = value === null ? one : `${value}${lower === 'cookie' ? '; ' : ', '}${one}`;
    }
    return value;
  }

  has(name: string): boolean {
    return this.get(name) !== null;
  }

  /** Every name once, in lower case and sorted, as `Headers` iterates. */
  *entries(): IterableIterator<[string, string]> {
    const names = [...new Set(this.raw.filter((_, i) => i % 2 === 0).map((name) => name.toLowerCase()))].sort();
    for (const name of names) yield [name, this.get(name)!];
  }

  keys() {
    return Array.from(this.entries(), ([name]) => name)[Symbol.iterator]();
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
