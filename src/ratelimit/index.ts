/**
 * @module The rate limit as the handler sees it: the counter store chosen from the options, who a
 * request counts against and under which policy (`default`, the policy naming the agent whose Web Bot
 * Auth signature verified, or the first per-network policy whose networks hold the client's address),
 * and each request's verdict: the header fields its answer carries and, over quota or failing closed,
 * its refusal.
 */
import { withDefaults } from '../util/defaults.ts';
import type { HeaderRecord } from '../http/headers.ts';
import type { Logger } from '../util/log.ts';
import { importOptional } from '../util/optional.ts';
import { exceededMembers, type ProblemMembers } from '../contract/problems.ts';
import { addressKey, clientAddress, type ClientTrust, type Connection } from './client.ts';
import { policyFields, stateFields } from './fields.ts';
import { FAIL_OPEN_SHARE_RULE, FAIL_RULE, isFail, isFailOpenShare, Limiter, type Quota, type RateLimitState } from './limiter.ts';
import { invalidConfiguration, settingLine } from '../util/startup-error.ts';
import { MemoryStore } from './stores/memory.ts';
import { agentPolicies, checkPolicies, policyMatcher, type PolicyInput } from './policies.ts';
import { sharedStoreOf, type SharedStore, type SharedStoreOptions, type StoreNames } from './stores/choice.ts';
import type { CounterStore } from './store.ts';
import { andThen } from '../util/maybe.ts';

export interface RateLimitOptions extends SharedStoreOptions {
  /** Requests per window per client. */
  quota: number;
  windowSeconds: number;
  /** When the shared store is unreachable: keep answering and count in memory (`open`), or answer 503 (`closed`). */
  fail: 'open' | 'closed';
  /**
   * Failing open, the fraction of each quota one instance admits while the store is down
   * (RATE_LIMIT_FAIL_OPEN_SHARE, default 1): N instances admit at most N x share x quota between them.
   */
  failOpenShare: number;
  /** IPv6 clients count per network of this many leading bits (IPv4 ones per address). */
  ipv6PrefixBits: number;
  /**
   * Networks and agents with a quota of their own (RATE_LIMIT_POLICIES): a client whose address one
   * lists, or whose Web Bot Auth signature verifies for an agent one names, is counted under the first
   * such policy alone, and its answers name that policy.
   */
  policies?: PolicyInput[];
  /** A counter store of the app's own, used instead of memory or a shared store. Without it or a shared store, counters live in memory. */
  store?: CounterStore;
}

export const RATE_LIMIT_DEFAULTS: RateLimitOptions = { quota: 120, windowSeconds: 60, fail: 'open', failOpenShare: 1, ipv6PrefixBits: 56 };

export type Refusal = {
  code: 'rate_limited' | 'service_unavailable';
  members?: ProblemMembers;
  /** The policy refused under. */
  policy: string;
  /** Over quota: the seconds until the window resets (Retry-After). */
  retryAfter?: number;
};

export interface Verdict {
  /** The rate-limit fields that change per request (and Retry-After with a refusal). */
  headers: HeaderRecord;
  refusal?: Refusal;
}

export interface RateLimit {
  /** The fields the `default` policy's answers carry unchanged: the policy and its quota. */
  readonly policyFields: HeaderRecord;
  readonly storeKind: CounterStore['kind'];
  readonly redisMode: CounterStore['redisMode'];
  /**
   * The origin of the agent whose Web Bot Auth signature on the request verifies, for a policy naming
   * agents; undefined at once, with no work, when no policy names one or the request is not signed.
   */
  agentOf(request: Request): Promise<string | undefined> | undefined;
  /** Who a request counts against, and under which policy unless `default` (`agents:160.79.104.9`, `chatgpt:https://chatgpt.com`). */
  keyOf(request: Request, connection: Connection, agent?: string): string;
  /**
   * Counts the request (or, not `counted`, only reads its client's count) under the verified `agent`'s
   * policy or its address's; answers at once with the memory store.
   */
  check(request: Request, connection: Connection, counted: boolean, agent?: string): Verdict | Promise<Verdict>;
  /** Why the store is unreachable, while it is. */
  failure(): string | undefined;
  close(): Promise<void>;
}

/** The shared store chosen, if any; each client is loaded only by a service that uses it, and installed only by one that does. */
async function openShared(shared: SharedStore | undefined): Promise<CounterStore | undefined> {
  // Each store's refusals name the setting as its way in calls it (`shared.setting`).
  if (shared?.kind === 'redis') return (await loadRedis(shared.setting)).createRedisStore(shared.target);
  if (shared?.kind === 'dynamodb')
    return (await import('./stores/dynamodb.ts')).createDynamoDbStore(shared.table, { setting: shared.setting });
  if (shared?.kind === 'deno-kv') return (await import('./stores/deno-kv.ts')).createDenoKvStore(shared.path, { setting: shared.setting });
  if (shared?.kind === 'redis-rest') return (await import('./stores/redis-rest.ts')).createRedisRestStore(shared.target);
  return undefined;
}

/**
 * The options with the shared store they name opened, as their own `store`: a service opens it before
 * it listens, so that a store it cannot use (a table that does not exist, Deno KV outside Deno)
 * refuses start-up before any port is taken. Options that name no shared store come back as given.
 */
export async function withStoreOpened(
  given: Partial<RateLimitOptions> | undefined,
  /** What the options' way in calls each store setting (the environment's variables for the entries). */
  names?: StoreNames,
): Promise<Partial<RateLimitOptions> | undefined> {
  const options = withDefaults(RATE_LIMIT_DEFAULTS, given);
  const store = options.store ? undefined : await openShared(sharedStoreOf(options, names));
  if (!store) return given;
  const { redisUrl, redisClusterUrls, redisSentinel, dynamoDbTable, denoKv, redisRest, ...rest } = options;
  return { ...rest, store };
}

/** Failing closed, the store may be back at once: a retry in a few seconds, not at the window's end. */
const FAIL_CLOSED_RETRY_SECONDS = 2;

/** A policy as counted: its quota, its fixed header fields, how its clients are told apart. */
interface Applied extends Quota {
  fields?: HeaderRecord;
  /** The whole policy shares one count (`key: "network"`). */
  shared: boolean;
}

export async function createRateLimit(
  given: Partial<RateLimitOptions> | undefined,
  trust: ClientTrust,
  logger: Logger,
  /** `{base}`: its authority is the one a Web Bot Auth signature must cover. */
  base?: string,
): Promise<RateLimit> {
  const options = withDefaults(RATE_LIMIT_DEFAULTS, given);
  const { quota, windowSeconds, fail, failOpenShare, ipv6PrefixBits, store: own } = options;
  // The environment's rules (config.ts), in its words, naming the option.
  const refused = [
    ...(isFail(fail) ? [] : [settingLine('rateLimit.fail', fail, FAIL_RULE)]),
    ...(isFailOpenShare(failOpenShare) ? [] : [settingLine('rateLimit.failOpenShare', failOpenShare, FAIL_OPEN_SHARE_RULE)]),
  ];
  if (refused.length > 0) throw invalidConfiguration(...refused);
  // The one-store rule first: an app's own store and a shared one named together are refused.
  const shared = sharedStoreOf(options);
  const store: CounterStore = own ?? (await openShared(shared)) ?? new MemoryStore();
  const limiter = new Limiter({ quota, windowSeconds, fail, failOpenShare, store, logger });

  const applied = (name: string, quota: number, windowSeconds: number, shared = false): Applied => ({
    name,
    quota,
    windowMs: windowSeconds * 1000,
    shared,
  });
  const byDefault = applied('default', quota, windowSeconds);
  // The default policy's fields are in every path's fixed headers; another policy's replace them.
  const policies = checkPolicies(options.policies);
  const perNetwork = new Map(
    policies.map((policy) => [
      policy,
      {
        ...applied(policy.name, policy.quota, policy.windowSeconds, policy.key === 'network'),
        fields: policyFields(policy.name, policy.quota, policy.windowSeconds),
      },
    ]),
  );
  const policyFor = policyMatcher(policies);
  const byAgent = agentPolicies(policies);
  const agentOf = byAgent.size > 0 ? await agentVerifier(new Set(byAgent.keys()), base, logger) : undefined;

  /** The policy a request counts under, and its client's key within it. */
  function placed(request: Request, connection: Connection, agent: string | undefined): { policy: Applied; key: string } {
    const named = agent === undefined ? undefined : byAgent.get(agent);
    if (named) {
      const policy = perNetwork.get(named)!;
      return { policy, key: policy.shared ? 'network' : agent! };
    }
    const client = clientAddress(request, connection, trust);
    const matched = client === undefined ? undefined : policyFor(client);
    const policy = matched ? perNetwork.get(matched)! : byDefault;
    if (policy.shared) return { policy, key: 'network' };
    return { policy, key: client ? addressKey(client, ipv6PrefixBits) : 'unknown' };
  }

  function verdict(state: RateLimitState, counted: boolean, policy: Applied): Verdict {
    // The quota this instance enforces: the policy's, or its share while the store is down (fail open).
    const fields = state.quota === policy.quota ? policy.fields : policyFields(policy.name, state.quota, policy.windowMs / 1000);
    const headers = fields ? { ...fields, ...stateFields(state) } : stateFields(state);
    if (!counted) return { headers };
    if (state.unavailable) {
      headers['Retry-After'] = String(FAIL_CLOSED_RETRY_SECONDS);
      return { headers, refusal: { code: 'service_unavailable', policy: policy.name } };
    }
    if (state.exceeded) {
      headers['Retry-After'] = String(state.resetSeconds);
      const retryAfter = state.resetSeconds;
      return {
        headers,
        refusal: { code: 'rate_limited', members: exceededMembers(policy.name, retryAfter), policy: policy.name, retryAfter },
      };
    }
    return { headers };
  }

  return {
    policyFields: policyFields('default', quota, windowSeconds),
    storeKind: store.kind,
    redisMode: store.redisMode,
    agentOf: (request) => agentOf?.(request),
    keyOf(request, connection, agent) {
      const { policy, key } = placed(request, connection, agent);
      return policy === byDefault ? key : `${policy.name}:${key}`;
    },
    check(request, connection, counted, agent) {
      const { policy, key } = placed(request, connection, agent);
      const state = counted ? limiter.hit(key, Date.now(), policy) : limiter.peek(key, Date.now(), policy);
      return andThen(state, (settled) => verdict(settled, counted, policy));
    },
    failure: () => limiter.failure(),
    close: () => limiter.close(),
  };
}

/** The Web Bot Auth verifier, loaded only by a service whose policies name agents. */
async function agentVerifier(origins: ReadonlySet<string>, base: string | undefined, logger: Logger) {
  if (base === undefined) throw new TypeError('a policy naming agents needs the public base URL, whose authority signatures cover');
  const [{ webBotAuth }, { keyDirectory }] = await Promise.all([import('../agents/web-bot-auth.ts'), import('../agents/directory.ts')]);
  return webBotAuth({ authority: new URL(base).host, origins, keyOf: keyDirectory({ logger }) });
}

const loadRedis = (setting: string) =>
  importOptional(() => import('./stores/redis.ts'), ['@redis/client'], `${setting} (the Redis rate-limit store)`);
