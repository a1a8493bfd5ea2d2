/**
 * @module How Redis over HTTP (redis-rest.ts) sends its one kind of request, a `POST` of a JSON body,
 * chosen once per store: `fetch` everywhere, but node:http on Node. On Node 20 a cold instance's
 * first two calls (start-up's and the first count's) took about 26 ms of CPU by `fetch`, even with
 * undici already loaded by a `Request` (its first connection, llhttp's WebAssembly, web streams for
 * the body), and about 9 ms by node:http. Both send the caller's headers and body
 * (and a `Content-Length`), give the status and the body as text, and reject on a network failure
 * or once `signal` aborts; the caller keeps the deadline and reads the answer (one place for both).
 */

/** The answer to one POST: its status and its body, decoded as UTF-8 as `Response.text()` does. */
export interface PostAnswer {
  status: number;
  text: string;
}

/** One POST; rejects on a network failure, or once `signal` aborts. */
export type Post = (url: string, body: string, headers: Record<string, string>, signal: AbortSignal) => Promise<PostAnswer>;

/** The web-standard one: Workers, Deno, Bun, and Node when asked for. */
export const fetchPost: Post = async (url, body, headers, signal) => {
  const response = await fetch(url, { method: 'POST', headers, body, signal });
  return { status: response.status, text: await response.text() };
};

/** The statuses `fetch` follows (the Fetch standard's redirect statuses). */
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** What both node:http and node:https give for a request. */
type RequestModule = Pick<typeof import('node:http'), 'request'>;

/**
 * node:http (node:https for an https URL, loaded on its first use). A redirect is followed by
 * `fetchPost`, as it was before this transport existed, so an answer never depends on the transport.
 */
export const nodeHttpPost: Post = async (url, body, headers, signal) => {
  const https = url.startsWith('https:');
  const { request } = await (https ? (loadedHttps ??= import('node:https')) : (loadedHttp ??= import('node:http')));
  const answer = await new Promise<PostAnswer & { location?: string }>((resolve, reject) => {
    const sent = request(
      url,
      { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, signal },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        // An answer cut short (the connection lost, the signal aborted) ends in 'error', never 'end'.
        response.on('error', reject);
        response.on('end', () => {
          const text = new TextDecoder().decode(Buffer.concat(chunks));
          resolve({ status: response.statusCode!, text, location: response.headers.location });
        });
      },
    );
    sent.on('error', reject);
    sent.end(body);
  });
  if (REDIRECTS.has(answer.status) && answer.location !== undefined) return fetchPost(url, body, headers, signal);
  return { status: answer.status, text: answer.text };
};

let loadedHttp: Promise<RequestModule> | undefined;
let loadedHttps: Promise<RequestModule> | undefined;

/** node:http on Node itself; `fetch` on every other runtime, including those that offer a `process` too. */
export function chosenPost(): Post {
  const global = globalThis as { Bun?: unknown; Deno?: unknown; navigator?: { userAgent?: string } };
  const onNode =
    typeof process !== 'undefined' &&
    process.release?.name === 'node' &&
    global.Bun === undefined &&
    global.Deno === undefined &&
    global.navigator?.userAgent !== 'Cloudflare-Workers';
  return onNode ? nodeHttpPost : fetchPost;
}
