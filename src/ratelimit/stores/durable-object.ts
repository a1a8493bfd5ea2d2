/**
 * @module Counters held in Cloudflare Durable Objects: one object per client key, so every isolate
 * and every location counts against the same number. An object runs one event at a time and its
 * storage calls are gated, so the read-increment-write below is atomic, like the Redis script.
 */
import type { DurableObjectNamespace } from '@cloudflare/workers-types/latest/index.ts';
import { DurableObject } from 'cloudflare:workers';
import { boundedCall, type CounterStore, type StoreOptions } from '../store.ts';

interface Window {
  start: number;
  count: number;
}

/** The Durable Object class; export it from the Worker's main module under this name. */
export class RateLimitCounter extends DurableObject {
  async increment(windowStart: number, windowMs: number): Promise<number> {
    const stored = await this.ctx.storage.get<Window>('window');
    const count = stored?.start === windowStart ? stored.count + 1 : 1;
    await this.ctx.storage.put('window', { start: windowStart, count });
    // Like PEXPIRE in Redis: the count is dropped a little after its window ends.
    if (count === 1) await this.ctx.storage.setAlarm(windowStart + windowMs + 1000);
    return count;
  }

  async current(windowStart: number): Promise<number> {
    const stored = await this.ctx.storage.get<Window>('window');
    return stored?.start === windowStart ? stored.count : 0;
  }

  override async alarm(): Promise<void> {
    await this.ctx.storage.deleteAll();
  }
}

export function createDurableObjectStore(
  namespace: DurableObjectNamespace<RateLimitCounter>,
  { commandTimeoutMs = 1000 }: StoreOptions = {},
): CounterStore {
  const counter = (key: string) => namespace.get(namespace.idFromName(key));
  return {
    kind: 'durable-object',
    increment: (key, windowStart, windowMs) =>
      boundedCall('the Durable Object', commandTimeoutMs, () => counter(key).increment(windowStart, windowMs)),
    current: (key, windowStart) => boundedCall('the Durable Object', commandTimeoutMs, () => counter(key).current(windowStart)),
    async close() {},
  };
}
