/**
 * @module The shared-store choice, made once for every way in (the environment, `createHandler`'s
 * `rateLimit`, the serverless and Workers entries): at most one of Redis (one server, a Cluster or a
 * Sentinel-watched master), Redis over HTTP, a DynamoDB table, Deno KV, or a store of the app's own. Each caller passes
 * the names its user wrote, so a refusal names them.
 */
import * as v from 'valibot';
import { invalidConfiguration, settingLine } from '../../util/startup-error.ts';
import { commaList } from '../../util/comma-list.ts';
import { isHttpUrl } from '../../contract/base-url.ts';

/** Where the Redis-over-HTTP store sends its commands. */
export interface RedisRestTarget {
  /** The REST URL, such as https://eu1-example-12345.upstash.io. */
  url: string;
  /** The bearer token (read-write). */
  token: string;
  /** What a refusal calls the URL and the token; `rateLimit.redisRest.url` and `.token` by default. */
  names?: { url: string; token: string };
}

export type RedisMode = 'standalone' | 'cluster' | 'sentinel';

/** How a Redis store reaches Redis, as health reports it: over TCP in one of the three modes, or over HTTP. */
export type RedisReach = RedisMode | 'rest';

export type RedisTarget =
  | { mode: 'standalone'; url: string }
  | { mode: 'cluster'; urls: string[] }
  | { mode: 'sentinel'; urls: string[]; masterName: string };

/**
 * How an embedding app names the shared store (`HandlerOptions.rateLimit`, the environment's variables
 * read into the same shape): at most one of these, or a store of its own (`store`).
 */
export interface SharedStoreOptions {
  /** One Redis server: `redis://` or `rediss://`. */
  redisUrl?: string;
  /** Redis Cluster: seed node URLs; the client discovers the other nodes. */
  redisClusterUrls?: string[];
  /** Redis with Sentinel: sentinel URLs and the name of the master group they monitor. */
  redisSentinel?: { urls: string[]; masterName: string };
  /** A DynamoDB table (partition key `pk`, a string; TTL attribute `expires`), on AWS Lambda for one. */
  dynamoDbTable?: string;
  /** Deno KV, on Deno only: `on` for the platform's database (Deno Deploy), or the path of a KV file. */
  denoKv?: string;
  /** Redis over HTTP (Upstash's REST protocol): its URL and token. */
  redisRest?: RedisRestTarget;
}

/** The choice as given: Sentinel's pair may be half set (refused), and an app may bring its own store. */
interface StoreChoice extends Omit<SharedStoreOptions, 'redisSentinel'> {
  redisSentinel?: Partial<NonNullable<SharedStoreOptions['redisSentinel']>>;
  store?: unknown;
}

/** What a way in calls each choice, so a refusal names the ones its user wrote. */
export interface StoreNames {
  redisUrl: string;
  redisClusterUrls: string;
  sentinelUrls: string;
  sentinelMaster: string;
  dynamoDbTable: string;
  denoKv: string;
  /** Redis over HTTP (its URL's name); `rateLimit.redisRest.url` unless given. */
  redisRest?: string;
  /** A store of the app's own, where the way in takes one. */
  store?: string;
}

const OPTION_NAMES: StoreNames = {
  redisUrl: 'rateLimit.redisUrl',
  redisClusterUrls: 'rateLimit.redisClusterUrls',
  sentinelUrls: 'rateLimit.redisSentinel.urls',
  sentinelMaster: 'rateLimit.redisSentinel.masterName',
  dynamoDbTable: 'rateLimit.dynamoDbTable',
  denoKv: 'rateLimit.denoKv',
  redisRest: 'rateLimit.redisRest.url',
  store: 'rateLimit.store',
};

/** The shared store chosen, and the setting that chose it as its way in calls it. */
export type SharedStore =
  | { kind: 'redis'; target: RedisTarget; setting: string }
  | { kind: 'dynamodb'; table: string; setting: string }
  | { kind: 'deno-kv'; path: string; setting: string }
  | { kind: 'redis-rest'; target: RedisRestTarget; setting: string };

/**
 * The one shared-store rule: the shared store the choice names, undefined for none (counters in
 * memory, or in the app's own `store`). Two stores at once, or half of Sentinel's pair, is a
 * StartupError naming them as `names` call them.
 */
export function sharedStoreOf(choice: StoreChoice, names: StoreNames = OPTION_NAMES): SharedStore | undefined {
  checkStoreValues(choice, names);
  const { redisUrl, redisClusterUrls, redisSentinel, dynamoDbTable, denoKv, redisRest, store } = choice;
  const restName = names.redisRest ?? OPTION_NAMES.redisRest!;
  const sentinel = redisSentinel && (redisSentinel.urls?.length || redisSentinel.masterName) ? redisSentinel : undefined;
  const set = [
    redisUrl && names.redisUrl,
    redisClusterUrls?.length && names.redisClusterUrls,
    sentinel && names.sentinelUrls,
    dynamoDbTable && names.dynamoDbTable,
    denoKv && names.denoKv,
    redisRest && restName,
    store !== undefined && names.store,
  ].filter((name): name is string => typeof name === 'string');
  if (set.length > 1) {
    const own = names.store ? `, ${names.store} for a store of your own` : '';
    throw invalidConfiguration(
      `${set.join(' and ')} are both set: choose one shared store (${names.redisUrl} for one server, ` +
        `${names.redisClusterUrls} for a Redis Cluster, ${names.sentinelUrls} with ${names.sentinelMaster} for Sentinel, ` +
        `${names.dynamoDbTable} for a DynamoDB table, ${names.denoKv} for Deno KV, ${restName} for Redis over HTTP${own}).`,
    );
  }
  if (sentinel && (!sentinel.urls?.length || !sentinel.masterName)) {
    throw invalidConfiguration(
      `${sentinel.urls?.length ? names.sentinelMaster : names.sentinelUrls} is unset: ${names.sentinelUrls} ` +
        `(the sentinels) and ${names.sentinelMaster} (the name of the master group they monitor) are set together or not at all.`,
    );
  }
  const setting = set[0]!;
  if (redisUrl) return { kind: 'redis', target: { mode: 'standalone', url: redisUrl }, setting };
  if (redisClusterUrls?.length) return { kind: 'redis', target: { mode: 'cluster', urls: redisClusterUrls }, setting };
  if (sentinel) return { kind: 'redis', target: { mode: 'sentinel', urls: sentinel.urls!, masterName: sentinel.masterName! }, setting };
  if (dynamoDbTable) return { kind: 'dynamodb', table: dynamoDbTable, setting };
  if (denoKv) return { kind: 'deno-kv', path: denoKv, setting };
  if (redisRest) return { kind: 'redis-rest', target: redisRest, setting };
  return undefined;
}

const CLUSTER_EXAMPLE = 'redis://10.0.0.1:6379,redis://10.0.0.2:6379,redis://10.0.0.3:6379';
const SENTINEL_EXAMPLE = 'redis://10.0.0.1:26379,redis://10.0.0.2:26379,redis://10.0.0.3:26379';

/** The Redis URL rule (REDIS_URL, `rateLimit.redisUrl`): what is wrong with `text`, undefined when nothing is. */
function redisUrlProblem(text: string): string | undefined {
  if (!URL.canParse(text)) return 'must be a URL such as redis://127.0.0.1:6379';
  if (!/^rediss?:$/.test(new URL(text).protocol)) return 'must start with redis:// or rediss://';
  return undefined;
}

const isNodeUrl = (text: string) =>
  URL.canParse(text) && /^rediss?:$/.test(new URL(text).protocol) && new URL(text).hostname !== '' && /^\/?$/.test(new URL(text).pathname);

/**
 * The node-list rule (REDIS_CLUSTER_URLS and REDIS_SENTINEL_URLS, `rateLimit.redisClusterUrls` and
 * `rateLimit.redisSentinel.urls`): redis:// or rediss:// URLs naming nodes (no database: a Cluster has
 * only 0, a sentinel none), all with one scheme.
 */
function redisUrlListProblem(items: readonly string[], example: string): string | undefined {
  const bad = items.find((item) => !isNodeUrl(item));
  if (bad !== undefined) {
    return `"${bad}" is not a redis:// or rediss:// URL of a node with no database path: write a comma-separated list such as ${example}`;
  }
  if (new Set(items.map((item) => new URL(item).protocol)).size > 1) {
    return 'mixes redis:// and rediss://: every node is reached the same way, so use one scheme';
  }
  if (items.length === 0) return `must list at least one URL, such as ${example}`;
  return undefined;
}

/** A table name as DynamoDB accepts it: 3 to 255 of letters, digits, `_`, `-` and `.`. */
const TABLE_NAME = /^[A-Za-z0-9_.-]{3,255}$/;

/** The table-name rule (RATE_LIMIT_DYNAMODB_TABLE, `rateLimit.dynamoDbTable`): what is wrong, undefined when nothing is. */
export const tableNameProblem = (name: unknown): string | undefined =>
  typeof name === 'string' && TABLE_NAME.test(name) ? undefined : 'must be a DynamoDB table name: 3 to 255 letters, digits, _, - or .';

/** Each value the choice sets, checked by its rule: a StartupError naming every one refused, as `names` call them. */
function checkStoreValues(choice: StoreChoice, names: StoreNames): void {
  const list = (items: unknown, example: string) =>
    Array.isArray(items) && items.every((item) => typeof item === 'string')
      ? redisUrlListProblem(items, example)
      : `must be a list of URLs, such as ${example}`;
  const { redisUrl, redisClusterUrls, redisSentinel, dynamoDbTable, redisRest } = choice;
  const rest = (schema: typeof RestUrl | typeof RestToken, value: unknown) => {
    const parsed = v.safeParse(schema, value);
    return parsed.success ? undefined : parsed.issues[0].message;
  };
  const checks: [name: string, value: unknown, problem: () => string | undefined, shown?: string][] = [
    [names.redisUrl, redisUrl, () => (typeof redisUrl === 'string' ? redisUrlProblem(redisUrl) : redisUrlProblem(''))],
    [names.redisClusterUrls, redisClusterUrls, () => list(redisClusterUrls, CLUSTER_EXAMPLE)],
    [names.sentinelUrls, redisSentinel?.urls, () => list(redisSentinel?.urls, SENTINEL_EXAMPLE)],
    [names.dynamoDbTable, dynamoDbTable, () => tableNameProblem(dynamoDbTable)],
    [redisRest?.names?.url ?? 'rateLimit.redisRest.url', redisRest?.url, () => rest(RestUrl, redisRest?.url)],
    // The token is named, never shown.
    [redisRest?.names?.token ?? 'rateLimit.redisRest.token', redisRest?.token, () => rest(RestToken, redisRest?.token), '(the token)'],
  ];
  const lines = checks.flatMap(([name, value, problem, shown]) => {
    // Unset, or an empty list (which names no store), is not refused here.
    if (value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) return [];
    const found = problem();
    return found ? [settingLine(name, shown ?? value, found)] : [];
  });
  if (lines.length > 0) throw invalidConfiguration(...lines);
}

/** REDIS_URL as the environment gives it, by the Redis URL rule. */
export const RedisUrl = v.pipe(
  v.string(),
  v.rawCheck(({ dataset, addIssue }) => {
    const problem = dataset.typed ? redisUrlProblem(dataset.value) : undefined;
    if (problem) addIssue({ message: problem });
  }),
);

/** Comma-separated node URLs as the environment gives them, by the node-list rule. */
export const RedisUrlList = (example: string) =>
  v.pipe(
    v.string(),
    commaList(),
    v.rawCheck(({ dataset, addIssue }) => {
      const problem = dataset.typed ? redisUrlListProblem(dataset.value, example) : undefined;
      if (problem) addIssue({ message: problem });
    }),
  );

/** The REST URL of a Redis reached over HTTP: https (or http for a local server), the token kept out of it. */
export const RestUrl = v.pipe(
  v.string(),
  v.url('must be the REST URL of the database, such as https://eu1-example-12345.upstash.io'),
  v.check(isHttpUrl, 'must start with https:// (or http:// for a local server)'),
  v.check(
    (text) => URL.canParse(text) && !new URL(text).username && !new URL(text).password,
    'must not carry user information: the token goes in its own variable',
  ),
);

export const RestToken = v.pipe(v.string(), v.regex(/^[\x21-\x7e]+$/, 'must be the REST token: printable characters, no space'));

/**
 * Redis over HTTP from the first of `pairs` (a URL setting's name and its token's) with either half set
 * in `values`: both halves, or a StartupError naming the missing one.
 */
export function restTargetOf(
  values: { readonly [name: string]: unknown },
  pairs: readonly (readonly [url: string, token: string])[],
): RedisRestTarget | undefined {
  for (const [url, token] of pairs) {
    const [given, key] = [values[url], values[token]].map((value) => (typeof value === 'string' ? value : undefined));
    if (!given && !key) continue;
    if (!given || !key) {
      throw invalidConfiguration(
        `${given ? token : url} is unset: ${url} and ${token} (Redis over HTTP, the rate-limit store) are set together or not at all.`,
      );
    }
    return { url: given, token: key, names: { url, token } };
  }
  return undefined;
}
