/**
 * @module Redis counters reached over HTTP (Upstash's REST protocol: `POST /` with a JSON command
 * array and `Authorization: Bearer`), on `fetch` (node:http on Node: rest-post.ts), so it runs
 * wherever the handler does (Workers, Vercel, Netlify, Lambda, Deno Deploy) and keeps no socket of
 * its own across a frozen instance.
 * It runs the Redis store's script (`EVALSHA`, then `EVAL` when the server answers `NOSCRIPT`), so
 * the count is exact across instances, and it batches as that store does: one call goes out at once,
 * the increments that arrive while it is answered go out together as the next one.
 *
 * Start-up makes one call, `SCRIPT LOAD`: its answer shows the URL is a Redis REST server that takes
 * the token, and loads the script, so the first count's `EVALSHA` finds it (one round trip before the
 * first answer, one for the first count). The first request counts in Redis like any other. A failed or
 * late call (past `commandTimeoutMs`) rejects; the limiter then marks the store down, skips it and
 * probes it back (ratelimit/outage.ts), as for every store.
 */
import { invalidConfiguration } from '../../util/startup-error.ts';
import { within } from '../../util/deadline.ts';
import { batchedIncrements, countTogether, INCREMENT_WINDOWS_SCRIPT, INCREMENT_WINDOWS_SHA1, type Increment } from './redis-script.ts';
import { StoreError, type CounterStore, type StoreOptions } from '../store.ts';
import type { RedisRestTarget } from './choice.ts';
import { chosenPost, type Post } from './rest-post.ts';

/** An error the server answered (`{"error": "..."}`): a command Redis refused, or a request the REST server did. */
class ErrorAnswer extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

const DEFAULT_NAMES = { url: 'rateLimit.redisRest.url', token: 'rateLimit.redisRest.token' };

/**
 * The store, once one call at start-up has shown the URL answers as a Redis REST server and takes the
 * token: a refused token, or a URL that answers as something else, is a StartupError naming the
 * setting. An unreachable server does not stop start-up (the failure policy applies until it answers).
 * `post` sends each call: the runtime's choice (rest-post.ts) unless given.
 */
export async function createRedisRestStore(
  target: RedisRestTarget,
  {
    commandTimeoutMs = 1000,
    keyPrefix = 'ratelimit',
    maxPendingCommands = 10_000,
    post = chosenPost(),
  }: StoreOptions & { post?: Post } = {},
): Promise<CounterStore> {
  const names = target.names ?? DEFAULT_NAMES;
  const endpoint = `${target.url.replace(/\/+$/, '')}/`;
  const headers = { authorization: `Bearer ${target.token}`, 'content-type': 'application/json' };
  const sha = INCREMENT_WINDOWS_SHA1;

  /** One command, its `result`, bounded by the deadline (the request is aborted after it). */
  async function call(command: (string | number)[]): Promise<unknown> {
    const abort = new AbortController();
    const answer = (async () => {
      const { status, text } = await post(endpoint, JSON.stringify(command), headers, abort.signal);
      let body: { result?: unknown; error?: unknown } | undefined;
      try {
        body = JSON.parse(text);
      } catch {}
      if (body && typeof body === 'object' && 'error' in body) throw new ErrorAnswer(String(body.error), status);
      // Response.ok: a 2xx status.
      if (status < 200 || status > 299 || !body || typeof body !== 'object' || !('result' in body)) {
        throw new ErrorAnswer(`HTTP ${status}`, status);
      }
      return body.result;
    })();
    try {
      return await within(commandTimeoutMs, answer, () => new StoreError(`Redis over HTTP did not answer within ${commandTimeoutMs} ms`));
    } finally {
      abort.abort();
      answer.catch(() => {});
    }
  }

  await checkAtStart(call, names, target.url);

  let closed = false;

  /** Runs `command`, its failure worded for health (never the URL or the token). */
  async function bounded<T>(command: () => Promise<T>): Promise<T> {
    if (closed) throw new StoreError('the store is closed');
    try {
      return await command();
    } catch (cause) {
      throw storeError(cause);
    }
  }

  /** One script call for the batch, each key once with how many requests it counts (countTogether). */
  const script = (batch: Increment[]): Promise<number[]> =>
    countTogether(batch, async (keys) => {
      const args = [String(keys.length), ...keys.map(({ key }) => key), ...keys.flatMap(({ by, ttlMs }) => [String(by), String(ttlMs)])];
      let result: unknown;
      try {
        result = await call(['EVALSHA', sha, ...args]);
      } catch (error) {
        // The script cache is empty (a new or restarted server, SCRIPT FLUSH): send the script itself.
        if (!(error instanceof ErrorAnswer && error.message.includes('NOSCRIPT'))) throw error;
        result = await call(['EVAL', INCREMENT_WINDOWS_SCRIPT, ...args]);
      }
      if (!Array.isArray(result) || result.length !== keys.length || !result.every((n) => Number.isInteger(n))) {
        throw new StoreError('Redis over HTTP answered the script with something else than its counts');
      }
      return result as number[];
    });

  // One call at a time waits for the server; what arrives meanwhile goes out as the next call.
  const { keyOf, increment } = batchedIncrements({
    keyPrefix,
    maxPendingCommands,
    tooMany: 'too many increments waiting for Redis over HTTP',
    count: (batch) => bounded(() => script(batch)),
  });

  return {
    kind: 'redis',
    redisMode: 'rest',
    increment,
    current: (key, windowStart) => bounded(async () => Number((await call(['GET', keyOf(key, windowStart)])) ?? 0)),
    async close() {
      closed = true;
    },
  };
}

/**
 * One `SCRIPT LOAD` of the counting script (its answer is the script's SHA-1): a refused token or a
 * URL that is no Redis REST server stops start-up; no answer at all does not. Upstash's `/pipeline`
 * could carry a PING too, but the REST emulator does not check the token there, and this one call
 * already proves both.
 */
async function checkAtStart(call: (command: string[]) => Promise<unknown>, names: { url: string; token: string }, url: string) {
  try {
    await call(['SCRIPT', 'LOAD', INCREMENT_WINDOWS_SCRIPT]);
  } catch (error) {
    if (!(error instanceof ErrorAnswer)) return;
    // A read-only token is refused the script (NOPERM), where a PING would have let it through.
    const readOnly = /\bNOPERM\b/.test(error.message);
    if (error.status >= 500 && !readOnly) return;
    if (error.status === 401 || error.status === 403 || readOnly) {
      throw invalidConfiguration(
        `${names.token}: the Redis REST server at ${new URL(url).origin} refused the token (${readOnly ? 'NOPERM' : `HTTP ${error.status}`}): ` +
          `set it to the database's REST token (the read-write one, not the read-only one), or unset ${names.url}.`,
      );
    }
    throw invalidConfiguration(
      `${names.url}: ${new URL(url).origin} did not answer as a Redis REST server (POST / with SCRIPT LOAD got ${error.message}): ` +
        'set it to the REST URL of the database (such as https://eu1-example-12345.upstash.io).',
    );
  }
}

/** Keeps the kind of failure and drops anything that could name the server. */
function storeError(cause: unknown): StoreError {
  if (cause instanceof StoreError) return cause;
  if (cause instanceof ErrorAnswer) {
    if (cause.status === 401 || cause.status === 403) return new StoreError(`Redis over HTTP refused the token (HTTP ${cause.status})`);
    // An error reply names its code first (OOM, READONLY, NOPERM...), after the REST server's own words if any.
    const code = /\b(?:NOSCRIPT|OOM|READONLY|NOPERM|LOADING|BUSY|MISCONF|WRONGTYPE|ERR)\b/.exec(cause.message)?.[0];
    return new StoreError(
      code
        ? `Redis refused the command (${code})`
        : `Redis over HTTP answered ${cause.status >= 400 ? `HTTP ${cause.status}` : 'an error'}`,
    );
  }
  return new StoreError('Redis over HTTP is unreachable');
}
