/**
 * @module Redis counters reached over HTTP (Upstash's REST protocol: `POST /` with a JSON command
 * array and `Authorization: Bearer`), on `fetch` alone, so it runs wherever the handler does
 * (Workers, Vercel, Netlify, Lambda, Deno Deploy) and keeps no socket across a frozen instance.
 * It runs the Redis store's script (`EVALSHA`, then `EVAL` when the server answers `NOSCRIPT`), so
 * the count is exact across instances, and it batches as that store does: one call goes out at once,
 * the increments that arrive while it is answered go out together as the next one.
 *
 * There is no connection to wait for: the first request counts in Redis like any other. A failed or
 * late call (past `commandTimeoutMs`) rejects; the limiter then marks the store down, skips it and
 * probes it back (ratelimit/outage.ts), as for every store.
 */
import { invalidConfiguration } from '../../util/startup-error.ts';
import { within } from '../../util/deadline.ts';
import { countTogether, INCREMENT_WINDOWS_SCRIPT } from './redis-script.ts';
import { StoreError, type CounterStore, type StoreOptions } from '../store.ts';
import type { RedisRestTarget } from './choice.ts';

/** Where the counters live, and the names a refusal gives the two settings (the variables read, or the options). */
/** An error the server answered (`{"error": "..."}`): a command Redis refused, or a request the REST server did. */
class ErrorAnswer extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

interface Pending {
  key: string;
  ttlMs: number;
  resolve(count: number): void;
  reject(error: unknown): void;
}

const DEFAULT_NAMES = { url: 'rateLimit.redisRest.url', token: 'rateLimit.redisRest.token' };

/**
 * The store, once one call at start-up has shown the URL answers as a Redis REST server and takes the
 * token: a refused token, or a URL that answers as something else, is a StartupError naming the
 * setting. An unreachable server does not stop start-up (the failure policy applies until it answers).
 */
export async function createRedisRestStore(
  target: RedisRestTarget,
  { commandTimeoutMs = 1000, keyPrefix = 'ratelimit', maxPendingCommands = 10_000 }: StoreOptions = {},
): Promise<CounterStore> {
  const names = target.names ?? DEFAULT_NAMES;
  const endpoint = `${target.url.replace(/\/+$/, '')}/`;
  const headers = { authorization: `Bearer ${target.token}`, 'content-type': 'application/json' };
  const sha = await sha1(INCREMENT_WINDOWS_SCRIPT);

  /** One command, its `result`, bounded by the deadline (the request is aborted after it). */
  async function call(command: (string | number)[]): Promise<unknown> {
    const abort = new AbortController();
    const answer = (async () => {
      const response = await fetch(endpoint, { method: 'POST', headers, body: JSON.stringify(command), signal: abort.signal });
      const text = await response.text();
      let body: { result?: unknown; error?: unknown } | undefined;
      try {
        body = JSON.parse(text);
      } catch {}
      if (body && typeof body === 'object' && 'error' in body) throw new ErrorAnswer(String(body.error), response.status);
      if (!response.ok || !body || typeof body !== 'object' || !('result' in body)) {
        throw new ErrorAnswer(`HTTP ${response.status}`, response.status);
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
  const increment = (batch: Pending[]): Promise<number[]> =>
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

  // One call at a time waits for the server; what arrives meanwhile waits for it (bounded by the
  // deadline) and goes out as the next call.
  let waiting: Pending[] = [];
  let sending = false;
  function send(): void {
    if (sending || waiting.length === 0) return;
    const batch = waiting;
    waiting = [];
    sending = true;
    void bounded(() => increment(batch))
      .then(
        (counts) => {
          for (const [i, pending] of batch.entries()) pending.resolve(counts[i]!);
        },
        (error: unknown) => {
          for (const pending of batch) pending.reject(error);
        },
      )
      .then(() => {
        sending = false;
        send();
      });
  }

  const keyOf = (key: string, windowStart: number) => `${keyPrefix}:${windowStart}:${key}`;

  return {
    kind: 'redis',
    redisMode: 'rest',
    increment(key, windowStart, windowMs) {
      if (waiting.length >= maxPendingCommands) return Promise.reject(new StoreError('too many increments waiting for Redis over HTTP'));
      return new Promise<number>((resolve, reject) => {
        // The key expires a little after its window so late requests of the window still find it.
        waiting.push({ key: keyOf(key, windowStart), ttlMs: windowMs + 1000, resolve, reject });
        // Increments of the same tick join the first one's call.
        if (waiting.length === 1) queueMicrotask(send);
      });
    },
    current: (key, windowStart) => bounded(async () => Number((await call(['GET', keyOf(key, windowStart)])) ?? 0)),
    async close() {
      closed = true;
    },
  };
}

/** One PING: a refused token or a URL that is no Redis REST server stops start-up; no answer at all does not. */
async function checkAtStart(call: (command: string[]) => Promise<unknown>, names: { url: string; token: string }, url: string) {
  try {
    await call(['PING']);
  } catch (error) {
    if (!(error instanceof ErrorAnswer) || error.status >= 500) return;
    if (error.status === 401 || error.status === 403) {
      throw invalidConfiguration(
        `${names.token}: the Redis REST server at ${new URL(url).origin} refused the token (HTTP ${error.status}): ` +
          `set it to the database's REST token (the read-write one, not the read-only one), or unset ${names.url}.`,
      );
    }
    throw invalidConfiguration(
      `${names.url}: ${new URL(url).origin} did not answer as a Redis REST server (POST / with ["PING"] got ${error.message}): ` +
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

async function sha1(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-1', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}
