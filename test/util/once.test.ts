/** The one memoiser: made once, the value itself once a promise fulfils, a rejection not kept. */
import { describe, expect, it } from 'vitest';
import { once } from '../../src/util/once.ts';

describe('once', () => {
  it('makes a value on the first call only', () => {
    let made = 0;
    const value = once(() => ({ made: ++made }));
    expect(made).toBe(0);
    expect(value()).toBe(value());
    expect(made).toBe(1);
  });

  it('hands out the pending promise, then the value itself', async () => {
    let made = 0;
    const value = once(async () => ++made);
    const first = value();
    expect(value()).toBe(first);
    expect(await first).toBe(1);
    expect(value()).toBe(1);
    expect(made).toBe(1);
  });

  it('does not keep a rejection: the next call tries again', async () => {
    let calls = 0;
    const value = once(async () => {
      if (++calls === 1) throw new Error('not yet');
      return 'ready';
    });
    await expect(value()).rejects.toThrow('not yet');
    expect(await value()).toBe('ready');
    expect(calls).toBe(2);
  });
});
