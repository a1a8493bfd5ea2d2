/** The log lines: access log, store lost/regained once each, the 500's request id, reload. */
import { afterAll, describe, expect, it } from 'vitest';
import type { LogEntry } from '../src/log.ts';
import { jsonLinesLogger } from '../src/log.ts';
import type { CounterStore } from '../src/ratelimit/store.ts';
import { BASE, closeHandlers, makeHandler, send } from './support/handler.ts';

function collector() {
  const lines: LogEntry[] = [];
  return { lines, logger: (entry: LogEntry) => void lines.push(entry), events: (event: string) => lines.filter((line) => line.event === event) };
}

/** A store that can be taken down and brought back. */
function switchableStore() {
  let up = true;
  const counts = new Map<string, number>();
  const store: CounterStore = {
    kind: 'redis',
    increment: async (key) => {
      if (!up) throw new Error('connection refused');
      counts.set(key, (counts.get(key) ?? 0) + 1);
      return counts.get(key)!;
    },
    current: async (key) => {
      if (!up) throw new Error('connection refused');
      return counts.get(key) ?? 0;
    },
    close: async () => {},
  };
  return { store, set: (value: boolean) => (up = value) };
}

describe('logging', () => {
  afterAll(closeHandlers);

  it('writes one access line per request through the given logger when asked', async () => {
    const { logger, events } = collector();
    const handler = await makeHandler({ logger, accessLog: true });
    const before = Date.now();
    await send(handler, '/api/v1/product', { address: '2001:db8:7:1::9' });
    await send(handler, '/nope', { method: 'HEAD', address: '192.0.2.7' });
    const lines = events('request');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ level: 'info', method: 'GET', path: '/api/v1/product', status: 200, client: '2001:db8:7::/56' });
    expect(lines[1]).toMatchObject({ method: 'HEAD', path: '/nope', status: 404, client: '192.0.2.7' });
    for (const line of lines) {
      expect(line.requestId).toMatch(/^[0-9a-f-]{36}$/);
      expect(Date.parse(line.time as string)).toBeGreaterThanOrEqual(before - 1000);
      expect(line.durationMs).toBeGreaterThanOrEqual(0);
    }
    expect(lines[0]!.requestId).not.toBe(lines[1]!.requestId);
  });

  it('writes no access line without accessLog', async () => {
    const { logger, lines } = collector();
    const handler = await makeHandler({ logger });
    await send(handler, '/api/v1');
    expect(lines).toEqual([]);
  });

  it('logs a 500 with the request id its problem carries in instance, and in the access line', async () => {
    const { logger, events } = collector();
    const handler = await makeHandler({ logger, accessLog: true });
    // A body that fails while it is read: the request cannot be answered.
    const body = new ReadableStream({ pull: (controller) => controller.error(new Error('client stream broke')) });
    const init = { method: 'POST', body, duplex: 'half', headers: { 'content-type': 'application/json' } } as RequestInit;
    const response = await handler(new Request(`${BASE}/mcp`, init), { clientAddress: '192.0.2.8' });
    expect(response.status).toBe(500);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const problem = await response.json();
    expect(JSON.stringify(problem)).not.toContain('client stream broke');
    const [failure] = events('request_failed');
    expect(failure).toMatchObject({ level: 'error', method: 'POST', path: '/mcp', error: { message: 'client stream broke' } });
    expect(problem.instance).toBe(`urn:uuid:${failure!.requestId}`);
    expect(events('request')[0]).toMatchObject({ status: 500, requestId: failure!.requestId });
  });

  it('logs losing and regaining the store once each, with the failure policy, however many requests see it', async () => {
    for (const fail of ['open', 'closed'] as const) {
      const { logger, events } = collector();
      const { store, set } = switchableStore();
      const handler = await makeHandler({ logger, rateLimit: { quota: 1_000_000, fail, store } });
      const burst = () => Promise.all(Array.from({ length: 50 }, (_, i) => send(handler, i % 2 ? '/api/v1' : '/api/v1/health')));
      await burst();
      set(false);
      await burst();
      await burst();
      set(true);
      await burst();
      await burst();
      expect(events('rate_limit_store_lost')).toEqual([
        expect.objectContaining({ level: 'warn', failPolicy: fail, store: 'redis', reason: expect.stringContaining('connection refused') }),
      ]);
      expect(events('rate_limit_store_regained')).toEqual([expect.objectContaining({ level: 'info', failPolicy: fail })]);
    }
  });

  it('writes JSON lines with the time first, errors and warnings apart from the rest', () => {
    const out: string[] = [];
    const err: string[] = [];
    const log = jsonLinesLogger((line) => out.push(line), (line) => err.push(line));
    log({ level: 'info', event: 'a', n: 1 });
    log({ level: 'warn', event: 'b' });
    log({ level: 'error', event: 'c' });
    expect(out.map((line) => JSON.parse(line).event)).toEqual(['a']);
    expect(err.map((line) => JSON.parse(line).event)).toEqual(['b', 'c']);
    expect(Object.keys(JSON.parse(out[0]!))[0]).toBe('time');
  });
});
