import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../../../src/ratelimit/stores/memory.ts';

const WINDOW = 60_000;
const start = 1_800_000_000_000 - (1_800_000_000_000 % WINDOW);

describe('MemoryStore', () => {
  it('counts each key on its own', () => {
    const store = new MemoryStore();
    expect(store.kind).toBe('memory');
    expect([1, 2, 3].map(() => store.increment('a', start))).toEqual([1, 2, 3]);
    expect(store.increment('b', start)).toBe(1);
    expect(store.increment('a', start)).toBe(4);
    expect(store.current('a', start)).toBe(4);
    expect(store.current('b', start)).toBe(1);
    expect(store.size).toBe(2);
  });

  it('drops the previous window when a new one starts, so memory stays bounded', () => {
    const store = new MemoryStore();
    for (let client = 0; client < 1000; client++) store.increment(`client-${client}`, start);
    store.increment('client-0', start);
    expect(store.size).toBe(1000);
    expect(store.current('client-0', start)).toBe(2);

    const next = start + WINDOW;
    expect(store.increment('client-0', next)).toBe(1);
    expect(store.size).toBe(1);
    expect(store.current('client-1', next)).toBe(0);
    // The previous window is gone, not kept alongside.
    expect(store.current('client-0', start)).toBe(0);

    // A window much later (an idle service) starts from nothing as well.
    const later = next + 100 * WINDOW;
    expect(store.increment('client-0', later)).toBe(1);
    expect(store.increment('client-1', later)).toBe(1);
    expect(store.size).toBe(2);
  });

  it('current() does not count', () => {
    const store = new MemoryStore();
    expect(store.current('a', start)).toBe(0);
    expect(store.current('a', start)).toBe(0);
    expect(store.size).toBe(0);
    expect(store.increment('a', start)).toBe(1);
    expect(store.current('a', start)).toBe(1);
    expect(store.current('a', start)).toBe(1);
    expect(store.increment('a', start)).toBe(2);
    // Asking about a window that has not started does not start it.
    expect(store.current('a', start + WINDOW)).toBe(0);
    expect(store.increment('a', start)).toBe(3);
    expect(store.size).toBe(1);
  });

  it('closes', async () => {
    await expect(new MemoryStore().close()).resolves.toBeUndefined();
  });
});
