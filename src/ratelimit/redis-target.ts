/** @module Which shared Redis the rate-limit counters live in: one server, a Cluster or a Sentinel-watched master. */
import * as v from 'valibot';

export type RedisMode = 'standalone' | 'cluster' | 'sentinel';

export type RedisTarget =
  | { mode: 'standalone'; url: string }
  | { mode: 'cluster'; urls: string[] }
  | { mode: 'sentinel'; urls: string[]; masterName: string };

/** How an embedding app names the shared store (`HandlerOptions.rateLimit`): at most one of the three. */
export interface RedisChoice {
  /** One Redis server: `redis://` or `rediss://`. */
  redisUrl?: string;
  /** Redis Cluster: seed node URLs; the client discovers the other nodes. */
  redisClusterUrls?: string[];
  /** Redis with Sentinel: sentinel URLs and the name of the master group they monitor. */
  redisSentinel?: { urls: string[]; masterName: string };
}

/** The target the options name, undefined for none (counters in memory); two at once is an error. */
export function redisTargetOf({ redisUrl, redisClusterUrls, redisSentinel }: RedisChoice): RedisTarget | undefined {
  const targets: RedisTarget[] = [];
  if (redisUrl) targets.push({ mode: 'standalone', url: redisUrl });
  if (redisClusterUrls?.length) targets.push({ mode: 'cluster', urls: redisClusterUrls });
  if (redisSentinel) targets.push({ mode: 'sentinel', urls: redisSentinel.urls, masterName: redisSentinel.masterName });
  if (targets.length > 1) {
    throw new TypeError('rateLimit: give one of redisUrl, redisClusterUrls and redisSentinel, not several');
  }
  return targets[0];
}

const isRedisUrl = (text: string) => URL.canParse(text) && /^rediss?:$/.test(new URL(text).protocol) && new URL(text).hostname !== '';

export const RedisUrl = v.pipe(
  v.string(),
  v.url('must be a URL such as redis://127.0.0.1:6379'),
  v.check((text) => URL.canParse(text) && /^rediss?:$/.test(new URL(text).protocol), 'must start with redis:// or rediss://'),
);

/** Comma-separated redis:// or rediss:// URLs naming nodes (no database: a Cluster has only 0, a sentinel none). */
export const RedisUrlList = (example: string) =>
  v.pipe(
    v.string(),
    v.transform((text) => text.split(',').map((item) => item.trim()).filter(Boolean)),
    v.rawCheck(({ dataset, addIssue }) => {
      if (!dataset.typed) return;
      const bad = dataset.value.find((item) => !isRedisUrl(item) || !/^\/?$/.test(new URL(item).pathname));
      if (bad !== undefined) {
        addIssue({ message: `"${bad}" is not a redis:// or rediss:// URL of a node with no database path: write a comma-separated list such as ${example}` });
      } else if (new Set(dataset.value.map((item) => new URL(item).protocol)).size > 1) {
        addIssue({ message: 'mixes redis:// and rediss://: every node is reached the same way, so use one scheme' });
      }
    }),
    v.minLength(1, `must list at least one URL, such as ${example}`),
  );
