/**
 * The verify tests' parts: the real handler in process behind a fetch that plays the part of a
 * front (it may change a request or an answer on the way), a verify session over it, and answers
 * copied with a field or the body changed.
 */
import type { HandlerOptions } from '../../src/handler.ts';
import { Session, type Answer } from '../../src/verify/session.ts';
import { BASE, makeHandler } from './handler.ts';

export interface Change {
  request?: (request: Request) => Request;
  answer?: (answer: Response, request: Request) => Response | Promise<Response>;
}

/** A front before a new handler: `change` may rewrite the request and the answer; everything else passes as it is. */
export async function front(change: Change = {}, options: Partial<HandlerOptions> = {}) {
  const handler = await makeHandler(options);
  const sent: string[] = [];
  const fetch = async (input: string | URL | Request, init?: RequestInit) => {
    const request = (change.request ?? ((r) => r))(new Request(input, init));
    sent.push(`${request.method} ${new URL(request.url).pathname}`);
    const answer = await handler(request, { clientAddress: '203.0.113.9' });
    return change.answer ? change.answer(answer, request) : answer;
  };
  return { fetch: fetch as typeof globalThis.fetch, sent };
}

/** A verify session of {base} (BASE) through a front, with a budget no test reaches unless given. */
export async function sessionOf(change: Change = {}, options: Partial<HandlerOptions> = {}, limit = 1_000): Promise<Session> {
  return new Session(BASE, limit, (await front(change, options)).fetch);
}

/** A copy of the fields with some changed (undefined removes one). */
export function fields(headers: Headers, changes: Record<string, string | undefined>): Headers {
  const copy = new Headers(headers);
  for (const [name, value] of Object.entries(changes)) value === undefined ? copy.delete(name) : copy.set(name, value);
  return copy;
}

/** The answer with some fields changed (undefined removes one). */
export function withHeaders(answer: Response, changes: Record<string, string | undefined>): Response {
  return new Response(answer.body, { status: answer.status, headers: fields(answer.headers, changes) });
}

/** The answer to GET and HEAD of `path` with its JSON body edited (Content-Length dropped on both). */
export function editJson(path: string, edit: (body: any) => void) {
  return async (answer: Response, request: Request) => {
    if (new URL(request.url).pathname !== path || answer.status !== 200) return answer;
    const headers = new Headers(answer.headers);
    headers.delete('content-length');
    if (request.method === 'HEAD') return new Response(null, { status: 200, headers });
    const body = await answer.json();
    edit(body);
    return new Response(JSON.stringify(body), { status: 200, headers });
  };
}

/** A copy of a recorded answer with some fields changed (undefined removes one) and, if given, another body. */
export function changed(answer: Answer, changes: Record<string, string | undefined>, body = answer.body): Answer {
  return { ...answer, headers: fields(answer.headers, changes), body };
}
