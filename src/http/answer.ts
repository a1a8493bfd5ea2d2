/**
 * @module What the handler answers before any runtime's response object exists: a status, the
 * headers and the bytes, put together from what was prepared once (prepared.ts). The fetch face
 * turns it into a `Response`; the Node face writes it with node:http's own `writeHead` and `end`
 * (startup/node-answers.ts), so Node builds no fetch `Response` for it.
 */
import type { HeaderRecord } from './headers.ts';

/**
 * Deno's answers of one header set, each made once per status and body and cloned for every
 * request. A clone copies the header list as it is, where a `Response` made from a record checks and
 * lower-cases every header again: a bare Deno server sending the contract's fifteen headers used
 * about 40 % more CPU a request from a record (docs/performance.md). The clone sends the same bytes.
 */
export class ResponseTemplate {
  readonly #made: { status: number; body: Answer['body']; response: Response }[] = [];

  constructor(readonly fixed: HeaderRecord) {}

  clone(status: number, body: Answer['body']): Response {
    for (const made of this.#made) if (made.status === status && made.body === body) return made.response.clone();
    const response = new Response(body, { status, headers: this.fixed });
    this.#made.push({ status, body, response });
    return response.clone();
  }
}

/**
 * The headers of an answer as Bun and Deno send them fastest: the fixed ones made once, and this
 * request's own. On Bun a `Headers`, which a `Response` made from it copies once, this request's own
 * then set on the response's headers (a `Headers` copied first and handed to `Response` would be
 * copied twice); on Deno a `ResponseTemplate`, cloned, with this request's own set on the clone.
 */
export class TemplateHeaders {
  constructor(
    readonly template: Headers | ResponseTemplate,
    readonly extra: HeaderRecord,
  ) {}
}

export class Answer {
  #headers: HeaderRecord | Headers;
  /** Set while the headers are a template and this request's own (`#headers`), until they are read whole. */
  #template: Headers | ResponseTemplate | undefined;

  constructor(
    readonly status: number,
    /** A record (Node, Workers), or a template with this request's own headers (Bun and Deno, see `headerBuilder`). */
    headers: HeaderRecord | Headers | TemplateHeaders,
    /**
     * Null for a HEAD, a 304 or a 204; text where the bytes are made for this request (a replayed MCP
     * answer), which the runtime encodes as it writes.
     */
    readonly body: Uint8Array<ArrayBuffer> | string | null,
  ) {
    if (headers instanceof TemplateHeaders) {
      this.#template = headers.template;
      this.#headers = headers.extra;
    } else this.#headers = headers;
  }

  /** Every header of the answer (a template is copied with this request's own set on it, once). */
  get headers(): HeaderRecord | Headers {
    const template = this.#template;
    if (template) {
      const headers = new Headers(template instanceof ResponseTemplate ? template.fixed : template);
      const own = this.#headers as HeaderRecord;
      for (const name in own) headers.set(name, own[name]!);
      this.#headers = headers;
      this.#template = undefined;
    }
    return this.#headers;
  }

  /** Sets one header as `Response.headers.set` would (its names then lower-cased, as a `Headers` keeps them). */
  set(name: string, value: string): void {
    if (this.#template) {
      this.#headers = { ...(this.#headers as HeaderRecord), [name]: value };
      return;
    }
    if (!(this.#headers instanceof Headers)) this.#headers = new Headers(this.#headers);
    this.#headers.set(name, value);
  }

  /** The fetch `Response`: from a template, the response copies it (or is its clone) and this request's headers are set on its own. */
  toResponse(): Response {
    const template = this.#template;
    if (!template) return new Response(this.body, { status: this.status, headers: this.#headers });
    const response =
      template instanceof ResponseTemplate
        ? template.clone(this.status, this.body)
        : new Response(this.body, { status: this.status, headers: template });
    const own = this.#headers as HeaderRecord;
    for (const name in own) response.headers.set(name, own[name]!);
    return response;
  }
}

/** What `answer` gives: a prepared answer, or a `Response` made for this request alone (the MCP endpoint's). */
export type Answered = Answer | Response;

export const toResponse = (answered: Answered): Response => (answered instanceof Answer ? answered.toResponse() : answered);
