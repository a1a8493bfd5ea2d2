/**
 * Bursts on several service processes sharing one store, and what the tests of each shared store
 * check of them: how many were admitted (per client), each admitted request's own remaining count,
 * health, and an outage logged once.
 */
import { get } from 'node:http';
import { expect } from 'vitest';

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
