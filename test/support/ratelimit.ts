/** Shared by the rate-limit tests: the five headers parsed and checked against each other, and waiting helpers. */
import { parseList } from 'structured-headers';
import { expect } from 'vitest';
import { sleep } from './net.ts';

export interface Limits {
  policy: { name: string; q: number; w: number };
  rateLimit: { name: string; r: number; t: number };
  limit: number;
  remaining: number;
  reset: number;
}

/**
 * Parses RateLimit-Policy and RateLimit as structured-field Lists (RFC 9651) and the X- headers as
 * integers, and checks that they name `policyName` and that the five agree with each other: X-RateLimit-Limit is q, Remaining is r,
 * and Reset is about now + t.
 */
export function limits(response: Response, policyName = 'default'): Limits {
  const raw = (name: string) => {
    const value = response.headers.get(name);
    expect(value, `${name} header`).not.toBeNull();
    return value!;
  };
  const member = (name: string, keys: string[]) => {
    const list = parseList(raw(name));
    expect(list, `${name} has one member`).toHaveLength(1);
    const [item, params] = list[0]!;
    expect(typeof item, `${name} member is a String`).toBe('string');
    const values: Record<string, number> = {};
    for (const key of keys) {
      const value = params.get(key);
      expect(Number.isInteger(value), `${name} ${key}=${String(value)} is an Integer`).toBe(true);
      values[key] = value as number;
    }
    return { name: item as string, ...values };
  };
  const integer = (name: string) => {
    const text = raw(name);
    expect(text, name).toMatch(/^\d+$/);
    return Number(text);
  };

  const policy = member('RateLimit-Policy', ['q', 'w']) as Limits['policy'];
  const rateLimit = member('RateLimit', ['r', 't']) as Limits['rateLimit'];
  const result: Limits = {
    policy,
    rateLimit,
    limit: integer('X-RateLimit-Limit'),
    remaining: integer('X-RateLimit-Remaining'),
    reset: integer('X-RateLimit-Reset'),
  };
  expect(policy.name).toBe(policyName);
  expect(rateLimit.name, 'RateLimit names the policy RateLimit-Policy gives').toBe(policy.name);
  expect(policy.q).toBeGreaterThanOrEqual(1);
  expect(policy.w).toBeGreaterThanOrEqual(1);
  expect(result.limit, 'X-RateLimit-Limit equals q').toBe(policy.q);
  expect(result.remaining, 'X-RateLimit-Remaining equals r').toBe(rateLimit.r);
  expect(rateLimit.r).toBeGreaterThanOrEqual(0);
  expect(rateLimit.r).toBeLessThanOrEqual(policy.q);
  expect(rateLimit.t).toBeGreaterThanOrEqual(0);
  expect(rateLimit.t).toBeLessThanOrEqual(policy.w);
  // Reset is an epoch second, t a number of seconds from the answer: both name the same moment.
  const fromNow = result.reset - Date.now() / 1000;
  expect(Math.abs(fromNow - rateLimit.t), `X-RateLimit-Reset - now (${fromNow.toFixed(2)}) vs t=${rateLimit.t}`).toBeLessThanOrEqual(2);
  return result;
}

/**
 * Windows are aligned to the epoch: a burst that straddles a window edge is counted in two windows.
 * Waits, when needed, so that at least `marginMs` is left before the current window ends.
 */
export async function awayFromWindowEdge(windowSeconds: number, marginMs = 5_000): Promise<void> {
  const windowMs = windowSeconds * 1000;
  const left = windowMs - (Date.now() % windowMs);
  if (left < marginMs) await sleep(left + 50);
}

/** Polls until `check` resolves true or the deadline passes; returns whether it did. */
export async function eventually(check: () => Promise<boolean>, deadlineMs = 10_000, everyMs = 100): Promise<boolean> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await sleep(everyMs);
  }
}

/** The per-network policies the policy tests configure, beside a `default` quota of 5 per hour. */
export const NETWORK_POLICIES = [
  { name: 'agents', networks: ['160.79.104.0/21', '2001:db8:a::/48'], quota: 3, windowSeconds: 3600 },
  { name: 'office', networks: ['192.0.2.0/24'], quota: 2, windowSeconds: 3600, key: 'network' as const },
];
export const POLICY_ENV = {
  RATE_LIMIT_QUOTA: '5',
  RATE_LIMIT_WINDOW_SECONDS: '3600',
  RATE_LIMIT_POLICIES: JSON.stringify(NETWORK_POLICIES),
};

/**
 * Walks NETWORK_POLICIES through `ask(address)`, a counted request from that client address on a
 * fresh service: each client counts under its policy alone, its answers name that policy, its 429
 * names it as the violated one; `key: "network"` shares one count; IPv4-mapped and NAT64
 * addresses match IPv4 networks; everyone else stays under `default`.
 */
export async function checkNetworkPolicies(ask: (address: string) => Promise<Response>, outsider = '198.51.100.1'): Promise<void> {
  const seen = async (address: string) => {
    const response = await ask(address);
    const parsed = limits(response, response.headers.get('ratelimit-policy')!.split(';')[0]!.replaceAll('"', ''));
    const body = response.status === 429 ? await response.json() : (await response.arrayBuffer(), undefined);
    return {
      status: response.status,
      policy: parsed.policy,
      name: parsed.rateLimit.name,
      remaining: parsed.remaining,
      violated: body?.['violated-policies'],
    };
  };
  const agents = [];
  for (let i = 0; i < 4; i++) agents.push(await seen('160.79.104.9'));
  expect(agents.map((answer) => [answer.status, answer.remaining])).toEqual([
    [200, 2],
    [200, 1],
    [200, 0],
    [429, 0],
  ]);
  for (const answer of agents) expect([answer.policy, answer.name]).toEqual([{ name: 'agents', q: 3, w: 3600 }, 'agents']);
  expect(agents[3]!.violated).toEqual(['agents']);
  // The same client written as NAT64 and IPv4-mapped addresses; another address of the range counts on its own.
  expect(await seen('64:ff9b::a04f:6809')).toMatchObject({ status: 429, name: 'agents' });
  expect(await seen('::ffff:160.79.104.9')).toMatchObject({ status: 429, name: 'agents' });
  expect(await seen('160.79.111.254')).toMatchObject({ status: 200, name: 'agents', remaining: 2 });
  expect(await seen('2001:db8:a:1::5')).toMatchObject({ status: 200, name: 'agents', remaining: 2 });

  // A network-keyed policy: every address of it shares one count.
  expect(await seen('192.0.2.1')).toMatchObject({ status: 200, name: 'office', remaining: 1, policy: { name: 'office', q: 2, w: 3600 } });
  expect(await seen('64:ff9b::c000:207')).toMatchObject({ status: 200, name: 'office', remaining: 0 });
  expect(await seen('192.0.2.200')).toMatchObject({ status: 429, name: 'office', violated: ['office'] });

  // Everyone else: the default policy, untouched by the others' counts.
  expect(await seen(outsider)).toMatchObject({ status: 200, name: 'default' });
}

/**
 * The steady traffic a store's failover is watched under: GET /api/v1 from every instance in turn,
 * each request from a new client address (behind TRUST_PROXY_HOPS=1), until stopped.
 */
export function steadyLoad(instances: readonly { url: string }[], clientOf: (n: number) => string) {
  let loading = true;
  const statuses: number[] = [];
  const failures: string[] = [];
  let n = 0;
  const load = Promise.all(
    instances.map(async (instance) => {
      while (loading) {
        const answer = await fetch(`${instance.url}/api/v1`, { headers: { 'x-forwarded-for': clientOf(n++) } }).catch(
          (error: Error) => error,
        );
        if (answer instanceof Error) failures.push(answer.message);
        else statuses.push(answer.status);
        await sleep(5);
      }
    }),
  );
  return {
    /** Stops a moment later, and checks that every request was answered, none with a 5xx, and enough of them to tell. */
    async stop(): Promise<void> {
      await sleep(300);
      loading = false;
      await load;
      expect(failures, 'every request was answered, none met a connection error').toEqual([]);
      expect(statuses.filter((status) => status >= 500)).toEqual([]);
      expect(statuses.length).toBeGreaterThan(50);
    },
  };
}
