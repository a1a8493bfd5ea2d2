/**
 * @module What the handler answers before any runtime's response object exists: a status, the
 * headers and the bytes, put together from what was prepared once (prepared.ts). The fetch face
 * turns it into a `Response`; the Node face writes it with node:http's own `writeHead` and `end`
 * (startup/node-answers.ts), so Node builds no fetch `Response` for it.
 */
import type { HeaderRecord } from './headers.ts';

export class Answer {
  constructor(
    readonly status: number,
    /** A record, or a `Headers` copied from a template (Bun, see `headerBuilder`). */
    public headers: HeaderRecord | Headers,
    /** Null for a HEAD, a 304 or a 204. */
    readonly body: Uint8Array<ArrayBuffer> | null,
  ) {}

  /** Sets one header as `Response.headers.set` would (its names then lower-cased, as a `Headers` keeps them). */
  set(name: string, value: string): void {
    if (!(this.headers instanceof Headers)) this.headers = new Headers(this.headers);
    this.headers.set(name, value);
  }
}

/** What `answer` gives: a prepared answer, or a `Response` made for this request alone (the MCP endpoint's). */
export type Answered = Answer | Response;

export const toResponse = (answered: Answered): Response =>
  answered instanceof Answer ? new Response(answered.body, { status: answered.status, headers: answered.headers }) : answered;
