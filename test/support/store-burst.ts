/**
 * Bursts on several service processes sharing one store, and what the tests of each shared store
 * check of them: how many were admitted (per client), each admitted request's own remaining count,
 * health, and an outage logged once.
 */
import { get } from 'node:http';
import { expect } from 'vitest';
import { awayFromWindowEdge } from './ratelimit.ts';

export interface Served {
  url: string;
}

export interface BurstResult {
  /** How many answers had each status. */
  statuses: Record<number, number>;
  /** The remaining count of each admitted request, highest first. */
  remainingAdmitted: number[];
  /** How many were admitted per client address. */
  admittedBy: Record<string, number>;
}

/**
 * One GET on a connection of its own, closed after it: a burst never reuses an idle connection the
 * server is closing (its keep-alive timeout), which would fail the request before it is sent.
 */
function getOnce(url: string, headers: Record<string, string>): Promise<{ status: number; remaining: number }> {
  return new Promise((resolve, reject) => {
    get(url, { headers, agent: false }, (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode!, remaining: Number(response.headers['x-ratelimit-remaining']) }));
    }).on('error', reject);
  });
}

/**
 * `count` concurrent GET /api/v1 requests, spread round-robin over the services and the client
 * addresses (X-Forwarded-For, behind TRUST_PROXY_HOPS=1). Every request must be answered.
 */
export async function burstOn(services: readonly Served[], count: number, addresses: readonly string[]): Promise<BurstResult> {
  const answers = await Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const address = addresses[i % addresses.length]!;
      const service = services[Math.floor(i / addresses.length) % services.length]!;
      return { address, ...(await getOnce(`${service.url}/api/v1`, { 'x-forwarded-for': address })) };
    }),
  );
  const statuses: Record<number, number> = {};
  const admittedBy: Record<string, number> = {};
  for (const { address, status } of answers) {
    statuses[status] = (statuses[status] ?? 0) + 1;
    if (status === 200) admittedBy[address] = (admittedBy[address] ?? 0) + 1;
  }
  const remainingAdmitted = answers
    .filter((answer) => answer.status === 200)
    .map((answer) => answer.remaining)
    .sort((a, b) => b - a);
  return { statuses, remainingAdmitted, admittedBy };
}

export async function healthOf(service: Served): Promise<{ status: string; rateLimitStore: string; reason?: string }> {
  const response = await fetch(`${service.url}/api/v1/health`);
  return response.json();
}

/** A service's log over an outage: the loss and the regain once each, in that order. */
export function expectOutageOnce(log: string): void {
  const lost = log.match(/"event":"rate_limit_store_lost"/g) ?? [];
  const regained = log.match(/"event":"rate_limit_store_regained"/g) ?? [];
  expect(lost, 'rate_limit_store_lost logged once').toHaveLength(1);
  expect(regained, 'rate_limit_store_regained logged once').toHaveLength(1);
  expect(log.indexOf('rate_limit_store_lost')).toBeLessThan(log.indexOf('rate_limit_store_regained'));
}

/**
 * A loopback port held by another server while `run` runs: a service started on it that refuses
 * its configuration before listening says so, while one that listens first meets the busy port.
 */
export async function withBusyPort<T>(run: (port: number) => Promise<T>): Promise<T> {
  const { createServer } = await import('node:net');
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    return await run((server.address() as { port: number }).port);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

export interface ExactRounds {
  /** Names the store in the figures printed. */
  label: string;
  /** What each service's health must say after the rounds, beside `status: 'ok'`. */
  health: Record<string, unknown>;
  rounds?: number;
  /** The services' RATE_LIMIT_WINDOW_SECONDS: a round starts well inside one window. */
  windowSeconds?: number;
  /** Keeps the addresses of one suite apart from another's on the same store (their third octet). */
  net?: number;
  /** More checks after each round, given the single address that round used. */
  afterRound?: (round: number, address: string) => Promise<void>;
}

/**
 * The exact-burst rounds every shared store passes (quota 100 on the services): in each round,
 * 1,000 concurrent requests from one address admit exactly 100, each with its own remaining count,
 * and 1,000 from five addresses admit 100 each; afterwards health is ok and nothing was lost.
 */
export async function expectExactRounds(
  services: readonly (Served & { output(): string })[],
  { label, health, rounds = 2, windowSeconds = 3600, net = 0, afterRound }: ExactRounds,
): Promise<void> {
  const admitted: number[][] = [];
  for (let round = 0; round < rounds; round++) {
    await awayFromWindowEdge(windowSeconds, 15_000);
    const address = `198.51.${100 + net}.${10 + round}`;
    const one = await burstOn(services, 1000, [address]);
    expect(one.statuses, `round ${round}, one address`).toEqual({ 200: 100, 429: 900 });
    expect(one.remainingAdmitted).toEqual(Array.from({ length: 100 }, (_, i) => 99 - i));
    const five = await burstOn(
      services,
      1000,
      Array.from({ length: 5 }, (_, i) => `203.0.${113 + net}.${round * 10 + i + 1}`),
    );
    expect(five.statuses, `round ${round}, five addresses`).toEqual({ 200: 500, 429: 500 });
    expect(Object.values(five.admittedBy)).toEqual([100, 100, 100, 100, 100]);
    admitted.push([one.statuses[200]!, five.statuses[200]!]);
    await afterRound?.(round, address);
  }
  console.log(`${label} admitted (one address of quota 100, five addresses of 100 each) per round: ${JSON.stringify(admitted)}`);
  for (const service of services) {
    expect(await healthOf(service)).toMatchObject({ status: 'ok', ...health });
    expect(service.output()).not.toContain('rate_limit_store_lost');
  }
}
