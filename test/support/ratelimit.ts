/** Shared by the rate-limit tests: the five headers parsed and checked against each other, and waiting helpers. */
import { parseList } from 'structured-headers';
import { expect } from 'vitest';

export interface Limits {
  policy: { name: string; q: number; w: number };
  rateLimit: { name: string; r: number; t: number };
  limit: number;
  remaining: number;
  reset: number;
}

/**
 * Parses RateLimit-Policy and RateLimit as structured-field Lists (RFC 9651) and the X- headers as
 * integers, and checks that the five agree with each other: X-RateLimit-Limit is q, Remaining is r,
 * and Reset is about now + t.
 */
export function limits(response: Response): Limits {
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
  expect(policy.name).toBe('default');
  expect(rateLimit.name).toBe('default');
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

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
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
