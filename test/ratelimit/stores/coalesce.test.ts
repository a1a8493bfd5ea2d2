import { describe, expect, it } from 'vitest';
import { coalesced } from '../../../src/ratelimit/stores/coalesce.ts';

/** An item per key that adds what it is given, answering after `delayMs`, and the writes it took. */
function table(delayMs = 5) {
  const counts = new Map<string, number>();
  const writes: { key: string; n: number }[] = [];
  let fail: Error | undefined;
  const add = async (key: string, windowStart: number, _windowMs: number, n: number) => {
    writes.push({ key, n });
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    if (fail) throw fail;
    const id = `${windowStart}:${key}`;
    counts.set(id, (counts.get(id) ?? 0) + n);
    return counts.get(id)!;
  };
  return { add, writes, failWith: (error: Error | undefined) => (fail = error) };
}

describe('coalesced increments', () => {
  it('sends a burst of one key as few writes, each request getting its own count of the range', async () => {
    const { add, writes } = table();
    const increment = coalesced(add);
    const first = Array.from({ length: 300 }, () => increment('default:a', 0, 60_000));
    // Those that arrive while the first write is out go together as the next.
    await new Promise((resolve) => setTimeout(resolve, 1));
    const second = Array.from({ length: 200 }, () => increment('default:a', 0, 60_000));
    const counts = await Promise.all([...first, ...second]);
    expect(counts.sort((a, b) => a - b)).toEqual(Array.from({ length: 500 }, (_, i) => i + 1));
    expect(writes).toEqual([
      { key: 'default:a', n: 300 },
      { key: 'default:a', n: 200 },
    ]);
  });

  it('keeps keys and windows apart, each with its own write in flight', async () => {
    const { add, writes } = table();
    const increment = coalesced(add);
    const counts = await Promise.all([
      increment('default:a', 0, 60_000),
      increment('default:b', 0, 60_000),
      increment('default:a', 60_000, 60_000),
      increment('default:a', 0, 60_000),
    ]);
    expect(counts).toEqual([1, 1, 1, 2]);
    expect(writes).toHaveLength(3);
  });

  it('fails the increments queued behind a failed write at once, and starts afresh after', async () => {
    const { add, writes, failWith } = table(20);
    const increment = coalesced(add);
    failWith(new Error('connection reset'));
    const first = increment('default:a', 0, 60_000);
    await new Promise((resolve) => setTimeout(resolve, 1));
    const behind = increment('default:a', 0, 60_000);
    await expect(first).rejects.toThrow('connection reset');
    const failedAt = performance.now();
    await expect(behind).rejects.toThrow('connection reset');
    // The one behind was not sent on its own: it would only have waited out the same failure.
    expect(performance.now() - failedAt).toBeLessThan(10);
    expect(writes).toHaveLength(1);
    failWith(undefined);
    expect(await increment('default:a', 0, 60_000)).toBe(1);
  });
});
