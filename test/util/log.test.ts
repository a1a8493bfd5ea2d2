/** The log lines: store lost/regained once each, and the JSON lines themselves. */
import { afterAll, describe, expect, it } from 'vitest';
import { jsonLinesLogger } from '../../src/util/log.ts';
import type { CounterStore } from '../../src/ratelimit/store.ts';
import { closeHandlers, collector, makeHandler, send } from '../support/handler.ts';
import { eventually } from '../support/ratelimit.ts';

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
      // A probe write, once a second while the store is down, finds it back.
      await burst();
      expect(await eventually(async () => events('rate_limit_store_regained').length > 0, 3_000, 50)).toBe(true);
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
    const log = jsonLinesLogger(
      (line) => out.push(line),
      (line) => err.push(line),
    );
    log({ level: 'info', event: 'a', n: 1 });
    log({ level: 'warn', event: 'b' });
    log({ level: 'error', event: 'c' });
    expect(out.map((line) => JSON.parse(line).event)).toEqual(['a']);
    expect(err.map((line) => JSON.parse(line).event)).toEqual(['b', 'c']);
    expect(Object.keys(JSON.parse(out[0]!))[0]).toBe('time');
  });
});
