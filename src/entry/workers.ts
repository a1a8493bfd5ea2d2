/** @module Serves the handler on Cloudflare Workers: facts bundled at deploy, configuration from the bindings. */
import type { DurableObjectNamespace } from '@cloudflare/workers-types/latest/index.ts';
import { env } from 'cloudflare:workers';
import { loadConfig, STORE_VARIABLES } from '../startup/config.ts';
import { StartupError } from '../util/startup-error.ts';
import { checkFacts } from '../facts/check.ts';
import { createHandler, type Handler } from '../handler.ts';
import { baseUrlUnset, WORKERS } from '../startup/platform.ts';
import { sharedStoreOf } from '../ratelimit/stores/choice.ts';
import { createDurableObjectStore, RateLimitCounter } from '../ratelimit/stores/durable-object.ts';
import type { CounterStore } from '../ratelimit/store.ts';
import facts from '../facts/sample-facts.json' with { type: 'json' };

export { RateLimitCounter };

// Checked as the module starts, so a refused facts file or configuration fails the deploy itself.
const strings = Object.entries(env).filter((binding): binding is [string, string] => typeof binding[1] === 'string');
const options = loadConfig(Object.fromEntries(strings));
const product = checkFacts('(bundled with the Worker)', facts);
const chosen = sharedStoreOf(options.rateLimit, STORE_VARIABLES);
// Redis over HTTP needs nothing but fetch, so it works here; the other shared stores do not.
const shared = chosen?.kind === 'redis-rest' ? undefined : chosen?.setting;
if (options.factsFile || shared) {
  throw new StartupError(
    `Invalid configuration:\n  ${options.factsFile ? 'FACTS_FILE' : shared} is not used on Workers: ` +
      'the facts are bundled at deploy and the quota is shared through the RATE_LIMIT_COUNTER Durable Object binding ' +
      '(or Redis over HTTP: RATE_LIMIT_REDIS_REST_URL and _TOKEN); remove it.',
  );
}
// `{base}` is never taken from a request's Host: one forged request would set every later link.
if (!options.publicBaseUrl) throw baseUrlUnset(WORKERS);
const counters = env.RATE_LIMIT_COUNTER as DurableObjectNamespace<RateLimitCounter> | undefined;
const publicBaseUrl = options.publicBaseUrl;

let handler: Promise<Handler> | undefined;

export default {
  async fetch(request: Request): Promise<Response> {
    handler ??= createHandler({
      ...options,
      publicBaseUrl,
      facts: product,
      // Redis over HTTP, when set, holds the quota; otherwise the Durable Object binding does.
      rateLimit: { ...options.rateLimit, store: counters && !options.rateLimit.redisRest ? createDurableObjectStore(counters) : undefined },
    }).catch(refusedStore);
    const response = await (await handler)(clientRequest(request), { clientAddress: request.headers.get('cf-connecting-ip') ?? undefined });
    // The gzip variant is coded already: workerd must send its bytes as they are, not code them again.
    if (!response.headers.has('content-encoding')) return response;
    return new Response(response.body, { status: response.status, headers: response.headers, encodeBody: 'manual' } as ResponseInit);
  },
};

/**
 * Redis over HTTP is checked on the first request (a Worker may not fetch while it loads). A refused
 * token or URL is logged as the one block naming the variable, and the Worker then fails closed:
 * every request gets the 503 problem and health says why, instead of an error page per request.
 */
function refusedStore(error: unknown): Promise<Handler> {
  if (!(error instanceof StartupError)) throw error;
  console.error(error.message);
  const refused = new Error('Redis over HTTP refused the configured token or URL (the log names the variable)');
  const store: CounterStore = {
    kind: 'redis',
    redisMode: 'rest',
    increment: () => Promise.reject(refused),
    current: () => Promise.reject(refused),
    close: async () => {},
  };
  return createHandler({
    ...options,
    publicBaseUrl,
    facts: product,
    rateLimit: { ...options.rateLimit, redisRest: undefined, fail: 'closed', store },
  });
}

/** The edge tells the Worker that every client accepts "br, gzip"; what the client sent is in `cf`. */
function clientRequest(request: Request): Request {
  const sent = (request as { cf?: { clientAcceptEncoding?: string } }).cf?.clientAcceptEncoding;
  if (sent === undefined || sent === request.headers.get('accept-encoding')) return request;
  const headers = new Headers(request.headers);
  if (sent) headers.set('accept-encoding', sent);
  else headers.delete('accept-encoding');
  return new Request(request, { headers });
}
