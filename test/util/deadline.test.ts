import { describe, expect, it } from 'vitest';
import { within } from '../../src/util/deadline.ts';

const settlesAfter = <T>(ms: number, value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

describe('within', () => {
  it('gives the answer that comes in time, and its rejection', async () => {
    expect(await within(200, settlesAfter(5, 'answer'))).toBe('answer');
    await expect(within(200, Promise.reject(new Error('refused')))).rejects.toThrow('refused');
  });

  it('rejects once the time has passed, with the default error or the one `late` makes', async () => {
    await expect(within(10, settlesAfter(500, 'too late'))).rejects.toThrow('no answer within 10 ms');
    let calls = 0;
    const late = () => {
      calls++;
      return new RangeError('the store did not answer');
    };
    await expect(within(10, settlesAfter(500, 'too late'), late)).rejects.toBeInstanceOf(RangeError);
    expect(calls).toBe(1);
  });

  it('calls `late` only when the answer is late', async () => {
    let calls = 0;
    await within(200, settlesAfter(5, 'answer'), () => (calls++, new Error('late')));
    await settlesAfter(250, undefined);
    expect(calls).toBe(0);
  });

  it('lets an answer that is ready when the deadline fires count (one more turn of the event loop)', async () => {
    let answer!: (value: string) => void;
    const bounded = within(10, new Promise<string>((resolve) => (answer = resolve)));
    setTimeout(() => answer('ready in the socket'), 10);
    // A busy process: when it looks again, the deadline's timer and the answer's are both due, the deadline's first.
    const busyUntil = Date.now() + 50;
    while (Date.now() < busyUntil);
    expect(await bounded).toBe('ready in the socket');
  });
});
